// Package parsers reads static-analysis reports into recap's findings
// ([reports.Finding]) and what was learned of each input ([reports.Input]).
//
// It owns the report formats recap reads: SARIF 2.1.0 from any tool
// (PMD, Checkstyle and SpotBugs conventions understood), SpotBugs and
// FindBugs XML, Checkstyle XML, PMD XML and GitLab Code Quality JSON;
// telling them apart by content ([Detect]); finding reports in a
// directory; undoing gzip; the 8-bit encodings older XML reports declare;
// placing the paths tools write in the repository (absolute, Windows, file:
// URIs, SpotBugs' package-relative source paths); each finding's importance
// (quality and impact, from the tool's own words), id and fingerprint; and
// reading each input once: a file met twice, the same content under two
// names (once.go) and one tool's run written in two formats side by side
// (runs.go, [SameRuns]) are read once, the input left out naming the one
// kept. Every parser streams: its memory does not grow with the number of
// findings (SpotBugs XML, whose bug patterns' texts follow the bugs, keeps
// the bugs' fields until the end of the document, past a bound in a
// temporary file). A large report is read on several goroutines, its
// findings still handed on in the order of the input, one at a time: a
// file of 256 KiB or more is read (and its gzip inflated) ahead of its
// parser, SARIF results are converted beside the decoding, and the other
// readers' findings are handed on beside the parsing; cancelling the
// reading's context, an error or a panic of the callback end them all
// before the reading returns. Bad input is an error that names the input
// and the place ([ParseError]), on the input's [reports.Input.Error], never
// a panic; the other inputs are still read.
//
// It does not filter, sort, group, count or render findings (package
// summarize does), read git or diffs (package diff), or know about the CLI
// and the MCP server, which call it.
//
// # Entry points
//
//   - [ReadAll] reads files, standard input ("-"), gzip files and
//     directories (searched for reports) and calls a function for each
//     finding, its id set: what the CLI uses.
//   - [ReadFile] reads one report with a tag of the caller's, so that ids
//     stay stable whatever else is read: what the MCP server's cache uses.
//   - [ParseAll] reads one report from a reader into memory: for tests and
//     small inputs.
//   - [Detect] tells a report's format from its first bytes; [Sniff] does
//     it for a file as a directory search does.
//   - [New] returns the [Parser] of a [Format], for a caller that knows it
//     and wants the findings before ids are given.
//
// # The format table
//
// Each format is one row of a table (parser.go): its name (as
// --input-format takes it), its human name, how the head of its content
// looks (a JSON object or array carrying the format's marks, or an XML root
// element), the file endings a directory search looks at, and its parser.
// Detection, the directory search, [ParseFormat], [ErrUnknownFormat] and
// the lists the CLI help and the MCP server show ([FormatNames],
// [FormatTitles]) all derive from it, so a new format is its parser's file
// and one row. GitLab Code Quality's, a JSON array of issues with
// "check_name" members:
//
//	{name: FormatCodeClimate, title: "Code Quality", about: "GitLab Code Quality JSON", head: jsonArray(codeClimateMarked),
//		exts: []string{".json"}, aka: []string{"codequality", "code-quality"}, new: newCodeClimate},
//
// A head of the right JSON kind without any format's marks is taken for the
// table's first format of that kind when the input is named (a JSON object
// is SARIF, and gets SARIF's error), but never by a directory search, which
// would otherwise take package.json for a report.
//
// # Example
//
//	inputs, err := parsers.ReadAll([]string{"build/reports"}, parsers.ReadOptions{Root: repo},
//		func(f reports.Finding) error {
//			fmt.Printf("%s:%d: %s [%s]\n", f.Path, f.Line, f.Message, f.Rule)
//			return nil
//		})
//	if err != nil {
//		return err // only an error of the callback stops the reading
//	}
//	for _, in := range inputs {
//		if in.Error != "" {
//			fmt.Fprintln(os.Stderr, in.Error) // "build/reports/pmd.sarif: $.runs[0]: line 3, column 9: …"
//		}
//	}
package parsers
