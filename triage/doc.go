// Package triage keeps what people decided of findings: a file in the
// repository (.recap/triage.yml by default), one entry per decision, each
// naming its finding by tool, rule, path and a location fingerprint that
// follows the code as it moves (docs/triage.md), and a Matcher that tells,
// for each finding of a run, the decision that covers it, and which
// entries matched nothing (stale) or have expired.
//
// The package imports reports, config (its error type), diff (renames)
// and internal/text only.
package triage
