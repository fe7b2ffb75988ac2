// Package reports holds recap's normalized model of static-analysis results:
// [Finding], its ordered [Severity], the per-input status [Input], stable ids
// and fingerprints, and the filters applied to a stream of findings.
//
// It imports nothing from recap. Parsers (package parsers) produce findings,
// views (package summarize) consume them.
//
//	f := reports.Finding{Tool: "PMD", Rule: "UnusedLocalVariable", Path: "src/A.java", Line: 3,
//		Severity: reports.SeverityWarning, Message: "Avoid unused local variables such as 'x'."}
//	f.Fingerprint = reports.Fingerprint(f, nil)
package reports
