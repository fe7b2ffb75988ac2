package parsers

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/reports"
)

// TestWindows1252: reports declared windows-1252 whose messages hold the
// bytes 0x93 0x94 0x80 (“ ” € in windows-1252, control characters in
// ISO-8859-1) read as those characters, through Parse (which sends a
// document declaring another encoding than UTF-8 to encoding/xml) and
// through encoding/xml directly; the same report written in UTF-8, which the
// fast scanner reads, gives the same findings. Detection reads the
// declaration too.
func TestWindows1252(t *testing.T) {
	const want = "Use \u201cequals\u201d to compare \u20ac amounts"
	cp1252 := "Use \x93equals\x94 to compare \x80 amounts"
	for _, tc := range []struct {
		name   string
		format Format
		doc    string // with %s for the message and %e for the encoding
		slow   func(data []byte) ([]reports.Finding, error)
	}{
		{"checkstyle", FormatCheckstyle,
			`<?xml version="1.0" encoding="%e"?>` + "\n" + `<checkstyle version="8.36"><file name="/repo/A.java"><error line="3" severity="warning" message="%s" source="com.puppycrawl.tools.checkstyle.checks.coding.EqualsAvoidNullCheck"/></file></checkstyle>`,
			func(data []byte) ([]reports.Finding, error) {
				r := bothCheckstyle(data)
				return r.slow, r.slowErr
			}},
		{"pmd", FormatPMD,
			`<?xml version="1.0" encoding="%e"?>` + "\n" + `<pmd version="6.55.0"><file name="/repo/A.java"><violation beginline="3" rule="CompareObjectsWithEquals" ruleset="Error Prone" priority="3">%s</violation></file></pmd>`,
			func(data []byte) ([]reports.Finding, error) {
				r := bothPMD(data)
				return r.slow, r.slowErr
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := func(enc, msg string) []byte {
				return []byte(strings.NewReplacer("%e", enc, "%s", msg).Replace(tc.doc))
			}
			for _, label := range []string{"windows-1252", "WINDOWS-1252", "cp1252"} {
				data := doc(label, cp1252)
				if f, ok := Detect(data); !ok || f != tc.format {
					t.Errorf("%s: Detect = %q, %v", label, f, ok)
				}
				got, in := ParseAll(bytes.NewReader(data), "report", ReadOptions{Root: "/repo"})
				if in.Error != "" || len(got) != 1 {
					t.Fatalf("%s: %d findings, error %q", label, len(got), in.Error)
				}
				if got[0].Message != want {
					t.Errorf("%s: message %q, want %q", label, got[0].Message, want)
				}
				slow, err := tc.slow(data)
				if err != nil || len(slow) != 1 || slow[0].Message != want {
					t.Errorf("%s: encoding/xml gives %+v, %v", label, slow, err)
				}
				utf8Doc := doc("UTF-8", want)
				if readXMLPath(utf8Doc) != "scanner" || readXMLPath(data) != "encoding/xml" {
					t.Fatalf("the documents do not take the paths this test is about")
				}
				fast, _ := ParseAll(bytes.NewReader(utf8Doc), "report", ReadOptions{Root: "/repo"})
				if diff := cmp.Diff(stripIDs(fast), stripIDs(got)); diff != "" {
					t.Errorf("%s: UTF-8 by the scanner (-) and windows-1252 by encoding/xml (+) differ:\n%s", label, diff)
				}
			}
			// ISO-8859-1 keeps its meaning: 0x80–0x9F are control characters
			// there, 0xE4 is ä in both.
			got, in := ParseAll(bytes.NewReader(doc("ISO-8859-1", "l\xe4nger \x93")), "report", ReadOptions{Root: "/repo"})
			if in.Error != "" || len(got) != 1 || got[0].Message != "länger \u0093" {
				t.Errorf("ISO-8859-1: %+v %q", got, in.Error)
			}
		})
	}
}

// readXMLPath tells which reader readXML chooses for a document.
func readXMLPath(data []byte) string {
	path := ""
	readXML(bytes.NewReader(data), nil,
		func(_ io.Reader, _ Emit) (reports.Input, error) { path = "scanner"; return reports.Input{}, nil },
		func(_ io.Reader, _ Emit) (reports.Input, error) { path = "encoding/xml"; return reports.Input{}, nil })
	return path
}
