package triage

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/recap-dev/recap/config"
)

// FuzzParse: Parse never panics; it returns a file or an error, never
// both; every error is a *config.Error naming the file; a file it accepts
// is valid under triage.schema.json, and writes and reads back the same.
func FuzzParse(f *testing.F) {
	for _, tc := range badFiles {
		f.Add([]byte(tc.in))
	}
	f.Add([]byte(sampleFile))
	f.Add([]byte(strings.ReplaceAll(sampleFile, "\n", "\r\n")))
	f.Add([]byte("# comments alone\n\n# two\n"))
	f.Add(canonical(f))
	files, _ := filepath.Glob(filepath.Join("testdata", "*.yml"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	rs := resolvedSchema(f)
	// Files of more than 64 bytes read in halves, as large ones are.
	defer func(n int) { halvesFrom = n }(halvesFrom)
	halvesFrom = 64
	f.Fuzz(func(t *testing.T, data []byte) {
		// What the fast reader takes, the YAML parser reads the same.
		if fast, ok := parseFast("t.yml", string(data)); ok {
			full, err := parseFull("t.yml", data)
			if err != nil {
				t.Fatalf("the fast reader took what the YAML parser refuses (%v):\n%s", err, data)
			}
			if !reflect.DeepEqual(fast.Entries, full.Entries) {
				t.Fatalf("the fast reader read\n%+v\nthe YAML parser\n%+v\nof\n%s", fast.Entries, full.Entries, data)
			}
			a, errA := fast.Marshal()
			b, errB := full.Marshal()
			if errA != nil || errB != nil || !bytes.Equal(a, b) {
				t.Fatalf("written again: %v %v\n%s\n---\n%s", errA, errB, a, b)
			}
		}
		file, err := Parse("t.yml", data)
		if (file == nil) == (err == nil) {
			t.Fatalf("Parse = %v, %v: want one of them", file, err)
		}
		if err != nil {
			list := []error{err}
			if j, ok := err.(interface{ Unwrap() []error }); ok {
				list = j.Unwrap()
			}
			for _, e := range list {
				var ce *config.Error
				if !errors.As(e, &ce) || ce.File != "t.yml" {
					t.Fatalf("%v: not a *config.Error naming the file", e)
				}
			}
			return
		}
		if v, ok := asJSON(string(data)); ok {
			if err := rs.Validate(v); err != nil {
				t.Fatalf("Parse accepts what the schema refuses (%v):\n%s", err, data)
			}
		}
		out, err := file.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		again, err := Parse("t.yml", out)
		if err != nil {
			t.Fatalf("recap cannot read what it wrote: %v\n%s", err, out)
		}
		if len(again.Entries) != len(file.Entries) {
			t.Fatalf("%d entries written, %d read back", len(file.Entries), len(again.Entries))
		}
		twice, _ := again.Marshal()
		if string(twice) != string(out) {
			t.Fatalf("a rewrite changed the file:\n%s\n---\n%s", out, twice)
		}
	})
}

// FuzzLocations: the location the matcher works out of a line, alone or
// after the lines below it, is the one Locations gives for every line at
// once, whatever the bytes (white space of every width, lines longer than
// the pieces a window is hashed in, bytes that are not UTF-8).
func FuzzLocations(f *testing.F) {
	f.Add([]byte("a\nb\nc\na\nb\nc\n"), uint16(0))
	f.Add([]byte("x\u00a0=\u20031;\ny\n x =1;\ny\n\xff\xfe\n\xff\xfe\n"), uint16(4090))
	f.Add([]byte("\n\n  \nx\n\n\ny\n \t \nz"), uint16(4095))
	f.Fuzz(func(t *testing.T, src []byte, pad uint16) {
		if pad > 0 { // a long first line: the pieces' ends fall in src
			src = append(bytes.Repeat([]byte{'p'}, int(pad%9000)), src...)
		}
		want := Locations(src)
		sf := newSourceFile(src)
		if sf.n() != len(want) {
			t.Fatalf("%d lines, Locations gives %d", sf.n(), len(want))
		}
		for i := len(want) - 1; i >= 0; i-- {
			if got := sf.location(i); got != want[i] {
				t.Fatalf("line %d: %s, want %s", i+1, got, want[i])
			}
			if one := newSourceFile(src); one.location(i) != want[i] {
				t.Fatalf("line %d alone: %s, want %s", i+1, one.location(i), want[i])
			}
		}
	})
}

// canonical is a triage file as recap writes it, with values of every
// shape its writer quotes or not.
func canonical(t testing.TB) []byte {
	t.Helper()
	f := &File{}
	messages := []string{
		"Avoid unused imports such as 'java.util.List'",
		"'customTypesCount' must be private: add accessors",
		`Use "equals" to compare strings`,
		"yes",
		"12 fields, more than 10",
		"Ligne trop longue (trouvé 81) — dépasse 80 caractères",
		"Trailing colon:",
		"[brackets] {braces}, commas",
		"- a dash first",
	}
	for i, msg := range messages {
		e := Entry{Tool: "PMD", Rule: fmt.Sprintf("Rule%d", i), Path: fmt.Sprintf("src/main/java/p%d/A.java", i),
			Location: fmt.Sprintf("%016x:%d", uint64(i)*0x9e3779b97f4a7c15, i+1), Line: fmt.Sprintf("int v%d = f(\"x\", 'y');", i),
			Message: msg, State: States[i%len(States)], Reason: "reason: " + msg, By: "Dev <dev@example.com>", Date: "2026-11-28"}
		if i%2 == 0 {
			e.Until, e.Link, e.Commit = "2027-01-31", "https://example.com/issues/1", fmt.Sprintf("%07x", 0xabc1234+i)
		}
		f.Entries = append(f.Entries, e)
	}
	out, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestParseFastTakesWhatRecapWrites: a file as recap writes it is read by
// the fast reader (else every run would pay for the YAML parser), to the
// entries the YAML parser reads; a comment, a line break in a value or a
// value YAML reads as a number is left to the YAML parser.
func TestParseFastTakesWhatRecapWrites(t *testing.T) {
	data := canonical(t)
	fast, ok := parseFast("t.yml", string(data))
	if !ok {
		t.Fatalf("the fast reader left to the YAML parser a file as recap writes it:\n%s", data)
	}
	full, err := parseFull("t.yml", data)
	if err != nil || !reflect.DeepEqual(fast.Entries, full.Entries) {
		t.Fatalf("fast %+v\nfull %+v (%v)", fast.Entries, full.Entries, err)
	}
	for name, change := range map[string]func(string) string{
		"a comment": func(s string) string { return "# decisions\n" + s },
		"a number":  func(s string) string { return strings.Replace(s, "reason: bench", "reason: 12", 1) },
		"a block value": func(s string) string {
			return strings.Replace(s, "    reason: bench\n", "    reason: |\n      bench\n", 1)
		},
		"an escape":           func(s string) string { return strings.Replace(s, "reason: bench", `reason: "be\u0041nch"`, 1) },
		"a key written wrong": func(s string) string { return strings.Replace(s, "reason: bench", "raeson: bench", 1) },
	} {
		one := &File{Entries: []Entry{{Tool: "PMD", Rule: "R", Path: "A.java", State: FalsePositive, Reason: "bench"}}}
		out, err := one.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := parseFast("t.yml", string(out)); !ok {
			t.Fatalf("%s: the plain file left to the YAML parser:\n%s", name, out)
		}
		if changed := change(string(out)); changed == string(out) {
			t.Errorf("%s: the change did not apply to\n%s", name, out)
		} else if _, ok := parseFast("t.yml", changed); ok {
			t.Errorf("%s: the fast reader took\n%s", name, changed)
		}
	}
}
