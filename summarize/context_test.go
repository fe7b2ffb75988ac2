package summarize

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/reports"
)

func TestAddContext(t *testing.T) {
	root := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("A.java", "one\ntwo\nthree\nfour\n")
	write("crlf.java", "one\r\ntwo\r\nthree\r\n")
	write("long.java", strings.Repeat("é", 250)+"\n")
	write("bin.class", "\xca\xfe\xba\xbe\x00\x00")
	src := &Dir{Root: root}
	tests := map[string]struct {
		f        reports.Finding
		want     []ContextLine
		wantNote string
	}{
		"middle":            {reports.Finding{Path: "A.java", Line: 2}, []ContextLine{{1, "one"}, {2, "two"}, {3, "three"}}, ""},
		"first line":        {reports.Finding{Path: "A.java", Line: 1}, []ContextLine{{1, "one"}, {2, "two"}}, ""},
		"last line":         {reports.Finding{Path: "A.java", Line: 4}, []ContextLine{{3, "three"}, {4, "four"}}, ""},
		"crlf":              {reports.Finding{Path: "crlf.java", Line: 2}, []ContextLine{{1, "one"}, {2, "two"}, {3, "three"}}, ""},
		"long line cut":     {reports.Finding{Path: "long.java", Line: 1}, []ContextLine{{1, strings.Repeat("é", 199) + "…"}}, ""},
		"missing file":      {reports.Finding{Path: "gone.java", Line: 3}, nil, "no context: no such file or directory"},
		"binary":            {reports.Finding{Path: "bin.class", Line: 1}, nil, "no context: binary file"},
		"outside the root":  {reports.Finding{Path: "../etc/passwd", Line: 1}, nil, "no context: ../etc/passwd is not inside the repository"},
		"absolute":          {reports.Finding{Path: "/etc/passwd", Line: 1}, nil, "no context: /etc/passwd is not inside the repository"},
		"no line":           {reports.Finding{Path: "A.java"}, nil, "the finding has no line"},
		"line past the end": {reports.Finding{Path: "A.java", Line: 9}, nil, "no context: A.java has 4 lines"},
		"snippet fallback": {reports.Finding{Path: "gone.java", Line: 7, Snippet: "x := 1\r\n"}, []ContextLine{{7, "x := 1"}},
			"from the report's snippet: source not readable (no such file or directory)"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			fv := FindingView{Finding: tc.f}
			AddContext(&fv, src)
			if diff := cmp.Diff(tc.want, fv.Context); diff != "" {
				t.Errorf("context mismatch (-want +got):\n%s", diff)
			}
			if fv.ContextNote != tc.wantNote {
				t.Errorf("note = %q, want %q", fv.ContextNote, tc.wantNote)
			}
		})
	}
}
