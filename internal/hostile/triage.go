package hostile

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/triage"
)

// triageCases are the cases of the triage file: decisions on findings in
// more source text than memory holds.
func triageCases() []Case {
	return []Case{
		{
			// The matcher reads each decided finding's file to follow it;
			// it held every file it read until the run's end.
			Name: "triage: decisions in many large source files", Size: 320 * MiB, Full: 2 * GB, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				const each = triage.MaxSourceSize - 1
				n := int(max(size/each, 1))
				var xml strings.Builder
				xml.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<checkstyle version="8.36">` + "\n")
				decisions := &triage.File{}
				fsys := os.DirFS(dir)
				for i := range n {
					name := fmt.Sprintf("src/Gen%03d.java", i)
					p := filepath.Join(dir, name)
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						return nil, nil, "", err
					}
					// A line, then 16 MiB of a file left sparse.
					if err := os.WriteFile(p, fmt.Appendf(nil, "class Gen%03d {}\n", i), 0o644); err != nil {
						return nil, nil, "", err
					}
					if err := os.Truncate(p, each); err != nil {
						return nil, nil, "", err
					}
					fmt.Fprintf(&xml, `<file name="%s"><error line="1" severity="warning" message="Generated class." source="com.puppycrawl.tools.checkstyle.checks.design.FinalClassCheck"/></file>`+"\n", name)
					f := reports.Finding{Tool: "Checkstyle", Rule: "com.puppycrawl.tools.checkstyle.checks.design.FinalClassCheck", Path: name, Line: 1, Message: "Generated class."}
					e := triage.EntryFor(&f, fsys)
					e.State, e.Reason = triage.FalsePositive, "generated code"
					decisions.Put(e)
				}
				xml.WriteString("</checkstyle>\n")
				if err := os.WriteFile(filepath.Join(dir, "checkstyle.xml"), []byte(xml.String()), 0o644); err != nil {
					return nil, nil, "", err
				}
				if err := os.MkdirAll(filepath.Join(dir, ".recap"), 0o755); err != nil {
					return nil, nil, "", err
				}
				if err := triage.WriteFile(filepath.Join(dir, triage.DefaultPath), decisions); err != nil {
					return nil, nil, "", err
				}
				return []string{"summary", "--format", "json", "checkstyle.xml"}, nil,
					fmt.Sprintf("%d decisions, each on a finding of a source file of 16 MiB (%s in all)", n, Size(int64(n)*each)), nil
			},
			Check: func(r *Result) error {
				var s struct {
					Summary struct {
						Total   int
						Triaged *struct{ Total int }
					}
				}
				if err := json.Unmarshal(r.Stdout, &s); err != nil || r.Code != 0 {
					return fmt.Errorf("exit %d (%s)", r.Code, firstLine(r.Stderr))
				}
				if t := s.Summary.Triaged; t == nil || t.Total == 0 || s.Summary.Total != 0 {
					return fmt.Errorf("%d findings left, triaged %+v: want every one triaged", s.Summary.Total, t)
				}
				return nil
			},
		},
	}
}
