// Package pipeline is recap's one query pipeline, shared by every door: the
// command line (summary, findings), the pull-request review and the MCP
// server. A [Query] names the reports, the filters, the changed lines,
// the baseline, the repository's configuration and triage file, and what
// to keep of the findings; [Run] reads the reports and returns the view:
//
//	reports → configuration → filters → changed lines → baseline → triage → grouping → new only → counts and kept findings
//
// The configuration (.recap.yml) excludes and overrides first; the filters
// and the changed lines run before a finding gets its id and fingerprint
// (parsers hash only what is kept); the baseline marks each remaining
// finding new or unchanged by fingerprint and counts the fixed ones; the
// triage file's decisions (package triage) mark each finding and leave the
// suppressed ones out of pages, counts and gates, counted apart, a decision
// covering its whole problem; the grouper (package grouping) finds the
// problems, the findings that report one problem at one place; new-only
// keeps the new; a
// [summarize.Collector] counts what is left and keeps what [Keep] asks: a
// page, the first findings of each severity, or every finding handed to a
// sink (streamed, never held). Where a step needs what only the end of a
// read tells, a later pass goes over the findings again: when one is sure
// to come (every problem handed to a sink once, deep pages) it replays a
// spool of the findings the first pass read (spool.go); a page crowded by
// duplicates, or a recount of the new findings without those of old
// problems, reads the reports again. The problems a decision covers are
// settled once the groups are resolved (the covered findings taken out of
// the counts, the groups and the page), and triaged by a second run from
// the start only where that cannot be exact (triage.go).
//
// Reports come from a [Source]: [Files] reads report files, gzip files,
// directories and standard input through package parsers; a caller that
// keeps parsed reports (the MCP server) gives its own.
//
//	res, err := pipeline.Run(ctx, &pipeline.Query{
//		Reports: pipeline.Files{Paths: args, Options: parsers.ReadOptions{Root: root}},
//		Filter:  reports.Filter{MinSeverity: reports.SeverityWarning},
//		Changes: &pipeline.Changes{Root: root, Base: "origin/main"},
//		Keep:    pipeline.Keep{Page: &pipeline.Page{Limit: 50}},
//	})
//	// res.View: the summary, the inputs and the page
//
// The package imports parsers, reports, grouping, config, diff, summarize and
// triage; it prints nothing and knows no flag or tool argument.
package pipeline
