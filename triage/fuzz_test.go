package triage

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
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
	files, _ := filepath.Glob(filepath.Join("testdata", "*.yml"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	rs := resolvedSchema(f)
	f.Fuzz(func(t *testing.T, data []byte) {
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
