// Package summarize turns a stream of findings into recap's views: the
// summary first (total, files, counts by severity and tool, top categories,
// rules and files, the status of every input), in the JSON shape of docs/formats.md.
//
// Findings are added one at a time with [Collector.Add]; memory holds the
// counts, never the findings:
//
//	c := summarize.NewCollector()
//	inputs, err := parsers.ReadAll(args, opts, func(f reports.Finding) error { c.Add(f); return nil })
//	v := c.View(inputs)
//
// Rendering lives in the sub-package render.
package summarize
