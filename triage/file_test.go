package triage

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"go.yaml.in/yaml/v3"

	"github.com/recap-dev/recap/config"
)

const sampleFile = `# Decisions on findings: see docs/triage.md.
version: 1
entries:
  # Ana checked it: the value is set in init().
  - tool: PMD
    rule: NullAssignment # PMD 7
    path: src/main/java/com/example/Greeter.java
    location: 0123456789abcdef:1
    line: name = null;
    message: Assigning an Object to null is a code smell.
    state: false-positive
    reason: the field is reset on purpose
    by: Ana <ana@example.com>
    date: 2026-11-01
  - tool: Checkstyle
    rule: MagicNumber
    path: src/main/java/com/example/App.java
    state: wont-fix
    reason: |
      the port is the protocol's
      and is named in the README
    until: 2027-01-01
    link: https://github.com/example/app/issues/7
    commit: 0123abc
# The end.
`

func TestParse(t *testing.T) {
	tests := map[string]struct {
		in   string
		want []Entry
	}{
		"empty":         {"", nil},
		"comments only": {"# none yet\n", nil},
		"no entries":    {"version: 1\nentries: []\n", nil},
		"null entries":  {"version: 1\nentries:\n", nil},
		"sample": {sampleFile, []Entry{
			{Tool: "PMD", Rule: "NullAssignment", Path: "src/main/java/com/example/Greeter.java", Location: "0123456789abcdef:1", Line: "name = null;",
				Message: "Assigning an Object to null is a code smell.", State: FalsePositive, Reason: "the field is reset on purpose", By: "Ana <ana@example.com>", Date: "2026-11-01"},
			{Tool: "Checkstyle", Rule: "MagicNumber", Path: "src/main/java/com/example/App.java", State: WontFix,
				Reason: "the port is the protocol's\nand is named in the README\n", Until: "2027-01-01", Link: "https://github.com/example/app/issues/7", Commit: "0123abc"},
		}},
		"quoted date, no path": {"entries:\n  - {tool: T, rule: R, state: confirmed, reason: real, date: \"2026-01-02\"}\n",
			[]Entry{{Tool: "T", Rule: "R", State: Confirmed, Reason: "real", Date: "2026-01-02"}}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			f, err := Parse("triage.yml", []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, f.Entries); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
		})
	}
}

// badFiles are files Parse refuses, with its message; schema says whether
// triage.schema.json refuses them too.
var badFiles = map[string]struct {
	in     string
	want   string
	schema bool
}{
	"unknown top key": {"version: 1\nentris: []\n",
		`triage.yml:2:1: unknown key "entris"; did you mean entries? (want version or entries)`, true},
	"version 2": {"version: 2\n", `triage.yml:1:10: version: want the number 1, got a number 2`, true},
	"state misspelt": {"entries:\n  - tool: PMD\n    rule: X\n    state: falsepositve\n    reason: r\n",
		`triage.yml:4:12: entries[0].state: unknown state "falsepositve"; did you mean false-positive? (want false-positive, wont-fix, accepted-risk, used-in-tests or confirmed)`, true},
	"key misspelt": {"entries:\n  - tool: PMD\n    rule: X\n    stat: wont-fix\n    reason: r\n",
		`triage.yml:4:5: entries[0]: unknown key "stat"; did you mean state? (want tool, rule, path, location, line, message, state, reason, by, date, until, link or commit)`, true},
	"no reason": {"entries:\n  - tool: PMD\n    rule: X\n    state: wont-fix\n",
		`triage.yml:2:5: entries[0]: no reason (an entry needs tool, rule, state and reason)`, true},
	"empty reason": {"entries:\n  - tool: PMD\n    rule: X\n    state: wont-fix\n    reason: \" \"\n",
		`triage.yml:5:13: entries[0].reason: an empty reason (say why: the next reader needs it)`, true},
	"a bidirectional override in the reason": {"entries:\n  - tool: PMD\n    rule: X\n    state: wont-fix\n    reason: \"ok \u202e txet\"\n",
		`triage.yml:5:13: entries[0].reason: a bidirectional control (U+202E) at byte 3, which shows the text in another order than it holds: write the reason without it`, false},
	"a NUL in the reason": {"entries:\n  - tool: PMD\n    rule: X\n    state: wont-fix\n    reason: \"ok\\0\"\n",
		`triage.yml:5:13: entries[0].reason: a control character (U+0000) at byte 2: write the reason as text`, false},
	"a NUL in the rule": {"entries:\n  - tool: PMD\n    rule: \"X\\0\"\n    state: wont-fix\n    reason: r\n",
		`triage.yml:3:11: entries[0].rule: a control character (U+0000) at byte 1: write the name as text`, true},
	"a space after the tool": {"entries:\n  - tool: \"PMD \"\n    rule: X\n    state: wont-fix\n    reason: r\n",
		`triage.yml:2:11: entries[0].tool: "PMD ": spaces around the name (want "PMD")`, true},
	"bad day": {"entries:\n  - {tool: PMD, rule: X, state: wont-fix, reason: r, until: 2026-13-01}\n",
		`triage.yml:2:61: entries[0].until: "2026-13-01" is written YYYY-MM-DD but is no day of the calendar`, true},
	"day that does not exist": {"entries:\n  - {tool: PMD, rule: X, state: wont-fix, reason: r, date: 2026-02-30}\n",
		`triage.yml:2:60: entries[0].date: "2026-02-30" is written YYYY-MM-DD but is no day of the calendar`, false},
	"bad location": {"entries:\n  - {tool: PMD, rule: X, state: wont-fix, reason: r, location: abc}\n",
		`triage.yml:2:64: entries[0].location: "abc" is not a location fingerprint (16 hex digits, a colon, the occurrence: 0123456789abcdef:1)`, true},
	"absolute path": {"entries:\n  - {tool: PMD, rule: X, state: wont-fix, reason: r, path: /etc/passwd}\n",
		`triage.yml:2:60: entries[0].path: "/etc/passwd" is not a repository-relative path with / (as recap findings shows it)`, true},
	"path not clean": {"entries:\n  - {tool: PMD, rule: X, state: wont-fix, reason: r, path: ./src//A.java/}\n",
		`triage.yml:2:60: entries[0].path: "./src//A.java/" is not written as recap findings shows its path: "src/A.java"`, false},
	"link not a URL": {"entries:\n  - {tool: PMD, rule: X, state: wont-fix, reason: r, link: issue 7}\n",
		`triage.yml:2:60: entries[0].link: "issue 7" is not an http or https URL`, true},
	"commit not hex": {"entries:\n  - {tool: PMD, rule: X, state: wont-fix, reason: r, commit: main}\n",
		`triage.yml:2:62: entries[0].commit: "main" is not a commit id (7 to 64 hex digits, lower case)`, true},
	"reason a number": {"entries:\n  - {tool: PMD, rule: X, state: wont-fix, reason: 42}\n",
		`triage.yml:2:51: entries[0].reason: want a string, got a number (quote it: "42")`, true},
	"entries a mapping": {"entries: {tool: PMD}\n", `triage.yml:1:10: entries: want a list of entries, got a mapping`, true},
	"one decision twice": {"entries:\n  - {tool: PMD, rule: X, state: wont-fix, reason: r}\n  - {tool: PMD, rule: X, state: false-positive, reason: s}\n",
		`triage.yml:3:5: entries[1]: decides the same finding as the entry on line 2: keep one`, false},
	"a tab":               {"entries:\n\t- tool: PMD\n", `triage.yml:2:1: a tab in the indentation (YAML indents with spaces)`, false},
	"two documents":       {"version: 1\n---\nversion: 1\n", `triage.yml:2:1: a second YAML document: a triage file is one`, false},
	"not UTF-8":           {"entries:\n  - tool: \xff\n", `triage.yml:2:11: not UTF-8 text`, false},
	"a tag":               {"entries: !custom []\n", `triage.yml:1:10: entries: a tag (!custom): the triage file has none`, false},
	"an alias to nowhere": {"entries: *a\n", `triage.yml:1:10: YAML reads a value that begins with * as an alias: quote it, "*a"`, false},
	"a merge key":         {"entries:\n  - <<: {tool: PMD}\n    rule: X\n", `triage.yml:2:5: entries[0]: a merge key (<<): write the values themselves`, false},
	"a merge conflict": {"version: 1\nentries:\n  - tool: PMD\n    rule: X\n<<<<<<< HEAD\n    state: wont-fix\n=======\n    state: confirmed\n>>>>>>> other\n    reason: r\n",
		`triage.yml:5: an unresolved merge conflict (git's <<<<<<< line): run recap triage merge --resolve, which merges both sides' decisions (keep one of an entry each side decided otherwise, left between the markers), then git add the file`, false},
}

func TestParseErrors(t *testing.T) {
	for name, tt := range badFiles {
		t.Run(name, func(t *testing.T) {
			f, err := Parse("triage.yml", []byte(tt.in))
			if err == nil {
				t.Fatalf("Parse = %+v, want an error", f.Entries)
			}
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Fatalf("%v: not a *config.Error", err)
			}
			if got := strings.Split(err.Error(), "\n")[0]; got != tt.want {
				t.Errorf("Parse error:\n got %s\nwant %s", err, tt.want)
			}
		})
	}
}

func TestBounds(t *testing.T) {
	big := make([]byte, MaxSize+1)
	if _, err := Parse("big.yml", big); err == nil || !strings.Contains(err.Error(), "more than 8 MiB") {
		t.Errorf("a file over MaxSize: %v", err)
	}
	var b strings.Builder
	b.WriteString("entries:\n")
	for range MaxEntries + 1 {
		b.WriteString("- a\n")
	}
	if _, err := Parse("many.yml", []byte(b.String())); err == nil || !strings.Contains(err.Error(), "50001 entries, more than 50000") {
		t.Errorf("too many entries: %v", err)
	}
	long := "entries:\n  - {tool: T, rule: R, state: wont-fix, reason: " + strings.Repeat("x", MaxText+1) + "}\n"
	if _, err := Parse("long.yml", []byte(long)); err == nil || !strings.Contains(err.Error(), "4097 characters, more than 4096") {
		t.Errorf("a value over MaxText: %v", err)
	}
	// An alias used many times counts each time.
	b.Reset()
	b.WriteString("x: &e {tool: T, rule: R, state: wont-fix, reason: r}\n")
	if _, err := Parse("alias.yml", []byte(b.String())); err == nil {
		t.Errorf("an unknown key was read")
	}
}

// resolvedSchema is triage.schema.json, resolved for validation.
func resolvedSchema(t testing.TB) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal(config.TriageSchema(), &s); err != nil {
		t.Fatalf("triage.schema.json: %v", err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("triage.schema.json: %v", err)
	}
	return rs
}

// asJSON reads YAML as the JSON value an editor's schema check sees.
func asJSON(in string) (any, bool) {
	var v any
	if err := yaml.Unmarshal([]byte(in), &v); err != nil {
		return nil, false
	}
	v = stringDates(v)
	b, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	var out any
	return out, json.Unmarshal(b, &out) == nil
}

// stringDates writes YAML's timestamps back as the day they were written
// (as the YAML language server sees them: strings).
func stringDates(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = stringDates(e)
		}
	case []any:
		for i, e := range x {
			x[i] = stringDates(e)
		}
	case interface{ Format(string) string }:
		return x.Format(DateLayout)
	}
	return v
}

// docExamples returns the YAML blocks of docs/triage.md that are triage
// files (those that hold "entries:").
func docExamples(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", "triage.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, block := range strings.Split(string(b), "```yaml\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		if strings.Contains(block, "entries:") {
			out = append(out, block)
		}
	}
	return out
}

// TestSchemaAgrees: every good file (the docs', testdata's, this test's)
// is valid under triage.schema.json and read by Parse; every bad one the
// schema can judge is refused by both.
func TestSchemaAgrees(t *testing.T) {
	rs := resolvedSchema(t)
	good := append(docExamples(t), sampleFile,
		// A URL's scheme in any case, as recap reads it.
		"version: 1\nentries:\n  - {tool: PMD, rule: X, state: wont-fix, reason: r, link: HTTPS://EXAMPLE.COM/x}\n")
	if len(good) < 2 {
		t.Fatalf("%d triage files in docs/triage.md, want 1 or more", len(good)-1)
	}
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.yml"))
	for _, name := range seeds {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		good = append(good, string(b))
	}
	for i, in := range good {
		if _, err := Parse("good.yml", []byte(in)); err != nil {
			t.Errorf("good file %d: %v\n%s", i, err, in)
		}
		v, ok := asJSON(in)
		if !ok {
			t.Errorf("good file %d: not YAML", i)
			continue
		}
		if err := rs.Validate(v); err != nil {
			t.Errorf("good file %d: the schema refuses it: %v\n%s", i, err, in)
		}
	}
	for name, tt := range badFiles {
		if !tt.schema {
			continue
		}
		v, ok := asJSON(tt.in)
		if !ok {
			t.Errorf("%s: not YAML", name)
			continue
		}
		if err := rs.Validate(v); err == nil {
			t.Errorf("%s: the schema accepts what Parse refuses:\n%s", name, tt.in)
		}
	}
}

func TestMarshal(t *testing.T) {
	f, err := Parse("triage.yml", []byte(sampleFile))
	if err != nil {
		t.Fatal(err)
	}
	once, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"# Decisions on findings", "# Ana checked it", "# PMD 7", "# The end."} {
		if !strings.Contains(string(once), c) {
			t.Errorf("comment %q lost:\n%s", c, once)
		}
	}
	// Sorted: App.java before Greeter.java; Ana's comment stays on her entry.
	if a, g := strings.Index(string(once), "App.java"), strings.Index(string(once), "# Ana"); a > g {
		t.Errorf("not sorted by path:\n%s", once)
	}
	if !strings.Contains(string(once), "# Ana checked it: the value is set in init().\n  - tool: PMD\n") {
		t.Errorf("the entry's comment moved:\n%s", once)
	}
	again, err := Parse("triage.yml", once)
	if err != nil {
		t.Fatal(err)
	}
	twice, _ := again.Marshal()
	if diff := cmp.Diff(string(once), string(twice)); diff != "" {
		t.Errorf("a rewrite changed the file (-once +twice):\n%s", diff)
	}
	// Putting a decision the file holds changes nothing, even with today's date.
	e := again.Entries[1]
	e.Date, e.By = "2030-01-01", "someone else"
	if again.Put(e) {
		t.Error("Put of a decision held reports a change")
	}
	same, _ := again.Marshal()
	if string(same) != string(once) {
		t.Errorf("Put of a decision held changed the file:\n%s", cmp.Diff(string(once), string(same)))
	}
	// A new decision is a diff of its own lines.
	again.Put(Entry{Tool: "PMD", Rule: "UnusedLocalVariable", Path: "src/main/java/com/example/App.java", State: UsedInTests, Reason: "a fixture"})
	more, _ := again.Marshal()
	added := lineDiff(string(once), string(more))
	if want := []string{"  - tool: PMD", "    rule: UnusedLocalVariable", "    path: src/main/java/com/example/App.java", "    state: used-in-tests", "    reason: a fixture"}; !cmp.Equal(added, want) {
		t.Errorf("a new decision added %q, want %q", added, want)
	}
}

// lineDiff returns the lines of b that a lacks (for files that only grew).
func lineDiff(a, b string) []string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out []string
	i := 0
	for _, l := range bl {
		if i < len(al) && al[i] == l {
			i++
			continue
		}
		out = append(out, l)
	}
	return out
}

// TestConcurrentWriters: two writers deciding at once both keep their
// decisions, through Update and through WriteFile of a file read before.
func TestConcurrentWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".recap", "triage.yml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("# kept\nversion: 1\nentries: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const each = 40
	var wg sync.WaitGroup
	errs := make(chan error, 2*each)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				e := Entry{Tool: "PMD", Rule: fmt.Sprintf("R%d", w), Path: fmt.Sprintf("F%03d.java", i), State: FalsePositive, Reason: "r"}
				if w == 0 {
					errs <- Update(path, func(f *File) error { f.Put(e); return nil })
					continue
				}
				f, err := LoadFile(path) // read, then written while the other writes
				if err != nil {
					errs <- err
					continue
				}
				f.Put(e)
				errs <- WriteFile(path, f)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	f, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Entries) != 2*each {
		t.Errorf("%d entries, want %d: a writer's decisions were lost", len(f.Entries), 2*each)
	}
	b, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(b), "# kept\n") {
		t.Errorf("the file's comment was lost:\n%.200s", b)
	}
	if _, err := os.Stat(path + ".lock"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock file was left: %v", err)
	}
}

// TestWriteFileRemoves: an entry f removed stays removed, though the file
// on disk still has it.
func TestWriteFileRemoves(t *testing.T) {
	path := filepath.Join(t.TempDir(), "triage.yml")
	if err := os.WriteFile(path, []byte(sampleFile), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Remove(func(e *Entry) bool { return e.Tool == "PMD" })
	if err := WriteFile(path, f); err != nil {
		t.Fatal(err)
	}
	g, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Entries) != 1 || g.Entries[0].Tool != "Checkstyle" {
		t.Errorf("entries after removing PMD's: %+v", g.Entries)
	}
}

// TestUpdateRootConfined: a triage file reached through a link out of the
// root is neither read nor written.
func TestUpdateRootConfined(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, ".recap")); err != nil {
		t.Skip(err)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	err = UpdateRoot(r, ".recap/triage.yml", func(f *File) error {
		f.Put(Entry{Tool: "T", Rule: "R", State: WontFix, Reason: "r"})
		return nil
	})
	if err == nil {
		t.Error("UpdateRoot wrote through a link out of the root")
	}
	if entries, _ := os.ReadDir(outside); len(entries) > 0 {
		t.Errorf("files made outside the root: %v", entries)
	}
	// Inside the root, it writes.
	if err := UpdateRoot(r, "decisions/triage.yml", func(f *File) error {
		f.Put(Entry{Tool: "T", Rule: "R", State: WontFix, Reason: "r"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "decisions", "triage.yml")); err != nil {
		t.Error(err)
	}
}

// TestEntryFieldsAreTheKeys: the reader sets every key an entry may have,
// and no other.
func TestEntryFieldsAreTheKeys(t *testing.T) {
	if len(entryFields) != len(entryKeys) {
		t.Errorf("%d fields read, %d keys", len(entryFields), len(entryKeys))
	}
	for _, k := range entryKeys {
		if entryFields[k] == nil {
			t.Errorf("key %s is not read", k)
		}
	}
}

// TestWriteKeepsTheFilesWay: a file saved with CR LF line endings is
// written back with them (a decision is a diff of its own lines, not of
// every line), and a file of comments alone keeps them above the first
// decision written, through WriteFile and Update.
func TestWriteKeepsTheFilesWay(t *testing.T) {
	crlf := strings.ReplaceAll(sampleFile, "\n", "\r\n")
	added := Entry{Tool: "PMD", Rule: "UnusedLocalVariable", Path: "src/main/java/com/example/App.java", State: UsedInTests, Reason: "a fixture\nand more"}
	for _, tc := range []struct {
		name, file string
		keep       []string // what the file written holds
	}{
		{"crlf", crlf, []string{"# Ana checked it: the value is set in init().\r\n  - tool: PMD\r\n", "    reason: |-\r\n      a fixture\r\n      and more\r\n"}},
		{"lf", sampleFile, []string{"# Ana checked it: the value is set in init().\n  - tool: PMD\n"}},
		{"comments only", "# Owned by the platform team.\n\n# Ask before deciding.\n", []string{"# Owned by the platform team.\n\n# Ask before deciding.\n\nversion: 1\n"}},
		{"comments only, crlf", "# Owned by the platform team.\r\n", []string{"# Owned by the platform team.\r\n\r\nversion: 1\r\n"}},
	} {
		for _, door := range []string{"WriteFile", "Update"} {
			t.Run(tc.name+"/"+door, func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "triage.yml")
				if err := os.WriteFile(path, []byte(tc.file), 0o644); err != nil {
					t.Fatal(err)
				}
				var err error
				if door == "WriteFile" {
					var f *File
					if f, err = LoadFile(path); err == nil {
						f.Put(added)
						err = WriteFile(path, f)
					}
				} else {
					err = Update(path, func(f *File) error { f.Put(added); return nil })
				}
				if err != nil {
					t.Fatal(err)
				}
				b, _ := os.ReadFile(path)
				for _, k := range tc.keep {
					if !strings.Contains(string(b), k) {
						t.Errorf("the file written lacks %q:\n%q", k, b)
					}
				}
				if crlfs, lfs := strings.Count(string(b), "\r\n"), strings.Count(string(b), "\n"); strings.Contains(tc.file, "\r\n") != (crlfs > 0) || crlfs > 0 && crlfs != lfs {
					t.Errorf("%d of %d lines end with CR LF:\n%q", crlfs, lfs, b)
				}
				f, err := LoadFile(path)
				if err != nil || !slices.ContainsFunc(f.Entries, func(e Entry) bool { return e.Reason == added.Reason }) {
					t.Errorf("read back: %v, %+v", err, f)
				}
				if tc.file == crlf || tc.file == sampleFile {
					// A decision is a diff of its own lines.
					once, _ := Parse("t", []byte(tc.file))
					before, _ := once.Marshal()
					if d := lineDiff(string(before), string(b)); len(d) != 7 {
						t.Errorf("the decision changed %d lines, want its 7:\n%q", len(d), d)
					}
				}
			})
		}
	}
}

// TestMarshalWritesWhatRecapReads: Marshal refuses a file recap would
// then refuse to read (more entries or bytes than it reads, an entry it
// rejects), naming why, so that no door writes one.
func TestMarshalWritesWhatRecapReads(t *testing.T) {
	ok := Entry{Tool: "PMD", Rule: "R", Path: "a.java", State: FalsePositive, Reason: "r"}
	many := func(n int, reason string) *File {
		f := &File{}
		for i := range n {
			e := ok
			e.Path, e.Reason = fmt.Sprintf("src/f%d.java", i), reason
			f.Entries = append(f.Entries, e)
		}
		return f
	}
	for _, tc := range []struct {
		name string
		file *File
		says string
	}{
		{"too many entries", many(MaxEntries+1, "r"), "more than the 50000 recap reads: nothing written"},
		{"too many bytes", many(3000, strings.Repeat("x", MaxText)), "MiB recap reads: nothing written"},
		{"a rule on two lines", &File{Entries: []Entry{{Tool: "PMD", Rule: "a\nb", Path: "a.java", State: FalsePositive, Reason: "r"}}}, "rule: \"a\\nb\": want a name on one line"},
		{"a blank tool", &File{Entries: []Entry{{Tool: " ", Rule: "R", Path: "a.java", State: FalsePositive, Reason: "r"}}}, "tool: \" \": want a name on one line"},
		{"no reason", &File{Entries: []Entry{{Tool: "PMD", Rule: "R", State: FalsePositive}}}, "reason: empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.file.Marshal(); err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("Marshal: %v, want an error saying %q", err, tc.says)
			}
		})
	}
	// At the bounds: written, and read back.
	f := many(MaxEntries, "r")
	b, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if g, err := Parse("t.yml", b); err != nil || len(g.Entries) != MaxEntries {
		t.Errorf("read back: %v", err)
	}
}

// TestWriteTarget: the file written for a triage file: itself, or the
// file inside the root a link of it leads to (the link kept); never one in
// a version control's own directory, through a link of the file or of a
// directory on the way.
func TestWriteTarget(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{".git/hooks", "other", ".recap"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	outside := t.TempDir()
	for link, to := range map[string]string{
		".recap/linked.yml": "../other/t.yml",
		".recap/hook.yml":   "../.git/hooks/pre-commit",
		"hooks":             ".git/hooks",
		".recap/out.yml":    filepath.Join(outside, "t.yml"),
		".recap/cycle-a":    "cycle-b",
		".recap/cycle-b":    "cycle-a",
		"nohooks":           ".git/nohooks",
		".recap/abs.yml":    filepath.Join(root, "other", "t.yml"),
	} {
		if err := os.Symlink(to, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ rel, want, err string }{
		{".recap/triage.yml", ".recap/triage.yml", ""},
		{"new/dir/triage.yml", "new/dir/triage.yml", ""},
		{".recap/linked.yml", "other/t.yml", ""},
		{".recap/out.yml", "", "a symbolic link by absolute path"},
		{".recap/hook.yml", "", "in the version control's own directory (.git/hooks)"},
		{"hooks/pre-commit", "", "in the version control's own directory (.git/hooks)"},
		{".git/info/exclude", "", "in the version control's own directory"},
		{".recap/cycle-a", "", ""},                                                          // a cycle: ends, in the root
		{"nohooks/pre-commit", "", "in the version control's own directory (.git/nohooks)"}, // a link to a directory not made yet
		{".recap/abs.yml", "", "a symbolic link by absolute path"},
	} {
		got, err := WriteTarget(root, tc.rel)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %q, %v; want an error saying %q", tc.rel, got, err, tc.err)
			}
			continue
		}
		if err != nil || tc.want != "" && got != tc.want || !strings.HasPrefix(got, ".recap/") && tc.want == "" {
			t.Errorf("%s: %q, %v; want %q", tc.rel, got, err, tc.want)
		}
	}
}

// TestWriteTargetGiven: a triage file named by --triage is written where
// a link of it leads, but never in a version control's own directory.
func TestWriteTargetGiven(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{".git/hooks", "quality"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{"quality/hook.yml": "../.git/hooks/pre-commit", "quality/t.yml": "../t.yml", "quality/loop": "loop"} {
		if err := os.Symlink(to, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ path, want, err string }{
		{filepath.Join(dir, "quality", "t.yml"), filepath.Join(dir, "t.yml"), ""},
		{filepath.Join(dir, "quality", "hook.yml"), "", "in a version control's own directory"},
		{filepath.Join(dir, ".git", "hooks", "post-checkout"), "", "in a version control's own directory"},
		{filepath.Join(dir, "quality", "loop"), filepath.Join(dir, "quality", "loop"), ""},
	} {
		got, err := WriteTargetGiven(tc.path)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %q, %v; want an error saying %q", tc.path, got, err, tc.err)
			}
			continue
		}
		if real, rerr := filepath.EvalSymlinks(filepath.Dir(tc.want)); rerr == nil {
			tc.want = filepath.Join(real, filepath.Base(tc.want))
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.path, got, err, tc.want)
		}
	}
}
