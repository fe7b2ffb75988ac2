package triage

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/reports"
)

const javaFile = `package a;

class Shop {
    void pay(Order o) {
        String name = null;
        if (o.total() > 100) {
            discount(o);
        }
    }

    void refund(Order o) {
        log(o);
    }
}
`

var day = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)

// decided is the entry made of the NullAssignment finding on line 5 of
// javaFile.
func decided(t *testing.T) Entry {
	t.Helper()
	f := &reports.Finding{Tool: "PMD", Rule: "NullAssignment", Path: "src/Shop.java", Line: 5, Message: "Assigning an Object to null is a code smell."}
	e := EntryFor(f, fstest.MapFS{"src/Shop.java": {Data: []byte(javaFile)}})
	if e.Location == "" || e.Line != "String name = null;" {
		t.Fatalf("EntryFor = %+v", e)
	}
	e.State, e.Reason = FalsePositive, "reset on purpose"
	return e
}

func TestDecideFollowsTheCode(t *testing.T) {
	msg := "Assigning an Object to null is a code smell."
	tests := []struct {
		name    string
		files   map[string]string // the source now (nil: no source)
		finding reports.Finding   // where the finding is now
		want    How               // 0: no decision
	}{
		{"unchanged", map[string]string{"src/Shop.java": javaFile},
			reports.Finding{Path: "src/Shop.java", Line: 5, Message: msg}, ByLocation},
		{"three lines inserted above", map[string]string{"src/Shop.java": "// a\n// b\n// c\n" + javaFile},
			reports.Finding{Path: "src/Shop.java", Line: 8, Message: msg}, ByLocation},
		{"re-indented", map[string]string{"src/Shop.java": strings.ReplaceAll(javaFile, "    ", "\t")},
			reports.Finding{Path: "src/Shop.java", Line: 5, Message: msg}, ByLocation},
		{"moved below the next method", map[string]string{"src/Shop.java": strings.Replace(javaFile, "    void pay", "    void first() {}\n\n    void pay", 1)},
			reports.Finding{Path: "src/Shop.java", Line: 7, Message: msg}, ByLocation},
		{"a number in the message changed", map[string]string{"src/Shop.java": javaFile},
			reports.Finding{Path: "src/Shop.java", Line: 5, Message: "Assigning an Object to null is a code smell (1 of 12)."}, 0},
		{"another message on the line", map[string]string{"src/Shop.java": javaFile},
			reports.Finding{Path: "src/Shop.java", Line: 5, Message: "Assigning null"}, 0},
		{"the line below edited", map[string]string{"src/Shop.java": strings.Replace(javaFile, "> 100", "> 200", 1)},
			reports.Finding{Path: "src/Shop.java", Line: 5, Message: msg}, ByLineText},
		{"the line below edited, the message changed too", map[string]string{"src/Shop.java": strings.Replace(javaFile, "> 100", "> 200", 1)},
			reports.Finding{Path: "src/Shop.java", Line: 5, Message: "Assigning null"}, 0},
		{"the line below edited, the line twice in the file", map[string]string{"src/Shop.java": strings.Replace(strings.Replace(javaFile, "> 100", "> 200", 1), "log(o);", "String name = null;", 1)},
			reports.Finding{Path: "src/Shop.java", Line: 5, Message: msg}, 0},
		{"the line itself changed", map[string]string{"src/Shop.java": strings.Replace(javaFile, "name = null", "name = \"\"", 1)},
			reports.Finding{Path: "src/Shop.java", Line: 5, Message: msg}, 0},
		{"another line of the rule", map[string]string{"src/Shop.java": javaFile},
			reports.Finding{Path: "src/Shop.java", Line: 12, Message: msg}, 0},
		{"renamed, the old path gone", map[string]string{"src/Store.java": "// moved\n" + javaFile},
			reports.Finding{Path: "src/Store.java", Line: 6, Message: msg}, ByLocation},
		{"copied, the old path still there", map[string]string{"src/Shop.java": "class Empty {}\n", "src/Store.java": javaFile},
			reports.Finding{Path: "src/Store.java", Line: 5, Message: msg}, 0},
		{"no source: by path and message", nil,
			reports.Finding{Path: "src/Shop.java", Line: 5, Message: msg}, ByMessage},
		{"no source, another message", nil,
			reports.Finding{Path: "src/Shop.java", Line: 5, Message: "other"}, 0},
	}
	e := decided(t)
	file := &File{Entries: []Entry{e}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var src fstest.MapFS
			if tt.files != nil {
				src = fstest.MapFS{}
				for p, c := range tt.files {
					src[p] = &fstest.MapFile{Data: []byte(c)}
				}
			}
			var m *Matcher
			if src == nil {
				m = NewMatcher(file, nil, day)
			} else {
				m = NewMatcher(file, src, day)
			}
			f := tt.finding
			f.Tool, f.Rule = "PMD", "NullAssignment"
			d := m.Decide(&f)
			switch {
			case tt.want == 0 && d != nil:
				t.Errorf("Decide = %v (%+v), want none", d.How, d.Entry)
			case tt.want != 0 && d == nil:
				t.Errorf("Decide = nil, want a decision %v", tt.want)
			case d != nil && d.How != tt.want:
				t.Errorf("Decide matched %v, want %v", d.How, tt.want)
			}
			if stale := len(m.Stale()); (stale == 0) != (tt.want != 0) {
				t.Errorf("%d stale entries", stale)
			}
		})
	}
}

func TestDecideOtherRules(t *testing.T) {
	e := decided(t)
	m := NewMatcher(&File{Entries: []Entry{e}}, fstest.MapFS{"src/Shop.java": {Data: []byte(javaFile)}}, day)
	for _, f := range []reports.Finding{
		{Tool: "PMD", Rule: "OtherRule", Path: "src/Shop.java", Line: 5},
		{Tool: "Checkstyle", Rule: "NullAssignment", Path: "src/Shop.java", Line: 5},
		{Tool: "PMD", Rule: "NullAssignment", Path: "src/Other.java", Line: 5},
	} {
		if d := m.Decide(&f); d != nil {
			t.Errorf("%s:%s at %s: decided by %+v", f.Tool, f.Rule, f.Path, d.Entry)
		}
	}
	if len(m.files) != 0 {
		t.Errorf("read %d files for findings no entry names", len(m.files))
	}
}

func TestExpired(t *testing.T) {
	tests := []struct {
		until string
		want  bool
	}{{"", false}, {"2026-11-29", false}, {"2026-11-28", true}, {"2025-01-01", true}}
	for _, tt := range tests {
		e := decided(t)
		e.Until = tt.until
		m := NewMatcher(&File{Entries: []Entry{e}}, fstest.MapFS{"src/Shop.java": {Data: []byte(javaFile)}}, day)
		f := reports.Finding{Tool: "PMD", Rule: "NullAssignment", Path: "src/Shop.java", Line: 5, Message: e.Message}
		d := m.Decide(&f)
		if d == nil || d.Expired != tt.want || d.Suppresses() == tt.want {
			t.Errorf("until %q: %+v, want expired %v", tt.until, d, tt.want)
		}
		if got := len(m.Expired()); got != map[bool]int{true: 1}[tt.want] {
			t.Errorf("until %q: %d expired", tt.until, got)
		}
		if st := m.Statuses(); len(st) != 1 || st[0].Matched != 1 || st[0].Expired != tt.want {
			t.Errorf("until %q: statuses %+v", tt.until, st)
		}
	}
}

// TestFollowRenames: an entry decided on a commit follows its file when
// git renames it (committed and edited since), where the same location
// under another path alone would not tell (the path says where it went).
func TestFollowRenames(t *testing.T) {
	repo := gittest.New(t)
	commit := repo.Commit("shop", map[string]string{"src/Shop.java": javaFile, "src/Other.java": "class Other {}\n"})
	repo.Git("mv", "src/Shop.java", "src/Store.java")
	repo.Commit("rename", map[string]string{"src/Store.java": "// the store\n" + javaFile})
	repo.Write(map[string]string{"src/Store.java": "// the store\n\n\n" + javaFile}) // not committed

	e := decided(t)
	e.Commit = commit
	r, err := diff.Open(repo.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	src := fstest.MapFS{"src/Store.java": {Data: []byte("// the store\n\n\n" + javaFile)}, "src/Other.java": {Data: []byte("class Other {}\n")}}
	m := NewMatcher(&File{Entries: []Entry{e}}, src, day)
	if err := m.FollowRenames(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	f := reports.Finding{Tool: "PMD", Rule: "NullAssignment", Path: "src/Store.java", Line: 8, Message: e.Message}
	d := m.Decide(&f)
	if d == nil || d.Path != "src/Store.java" || d.How != ByLocation {
		t.Fatalf("Decide = %+v, want the entry followed to src/Store.java", d)
	}
}

// TestFollowRenamesToOneCopy: a decided file moved (staged) while copies
// of its content are added is followed where git diff HEAD says it went
// (the first addition of its content in path order), the same on every
// run, and the decision covers that copy alone.
func TestFollowRenamesToOneCopy(t *testing.T) {
	repo := gittest.New(t)
	commit := repo.Commit("shop", map[string]string{"src/Shop.java": javaFile})
	repo.Git("mv", "src/Shop.java", "src/Store.java")
	copies := map[string]string{"z/Shop.java": javaFile, "b/Copy.java": javaFile, "src/Store.java": javaFile}
	repo.Write(copies)
	repo.Git("add", "z", "b")
	src := fstest.MapFS{}
	for p, c := range copies {
		src[p] = &fstest.MapFile{Data: []byte(c)}
	}
	e := decided(t)
	e.Commit = commit
	for round := range 12 {
		r, err := diff.Open(repo.Dir)
		if err != nil {
			t.Fatal(err)
		}
		m := NewMatcher(&File{Entries: []Entry{e}}, src, day)
		if err := m.FollowRenames(context.Background(), r); err != nil {
			t.Fatal(err)
		}
		r.Close()
		var at []string
		for _, p := range []string{"b/Copy.java", "src/Store.java", "z/Shop.java"} {
			f := reports.Finding{Tool: "PMD", Rule: "NullAssignment", Path: p, Line: 5, Message: e.Message}
			if d := m.Decide(&f); d != nil {
				at = append(at, p)
			}
		}
		if len(at) != 1 || at[0] != "b/Copy.java" {
			t.Fatalf("round %d: decided at %q, want at b/Copy.java alone (where git diff HEAD renames it)", round, at)
		}
	}
}

// TestSourceRefused: a source that is not a regular file, or is larger
// than MaxSourceSize, is not read; its findings match by message.
func TestSourceRefused(t *testing.T) {
	e := decided(t)
	for name, file := range map[string]*fstest.MapFile{
		"a FIFO":      {Mode: fs.ModeNamedPipe, Data: []byte(javaFile)},
		"too large":   {Data: []byte(javaFile + strings.Repeat("\n", MaxSourceSize))},
		"a directory": {Mode: fs.ModeDir},
	} {
		m := NewMatcher(&File{Entries: []Entry{e}}, fstest.MapFS{"src/Shop.java": file}, day)
		f := reports.Finding{Tool: "PMD", Rule: "NullAssignment", Path: "src/Shop.java", Line: 5, Message: e.Message}
		if d := m.Decide(&f); d == nil || d.How != ByMessage {
			t.Errorf("%s: %+v, want a match by message", name, d)
		}
	}
}

// TestMessageNumbers: at the entry's location, a message that changed in
// its numbers alone still matches; one that changed otherwise, or a
// second finding of the rule on the line, does not.
func TestMessageNumbers(t *testing.T) {
	e := decided(t)
	e.Message = "Line is longer than 100 characters (found 123)."
	m := NewMatcher(&File{Entries: []Entry{e}}, fstest.MapFS{"src/Shop.java": {Data: []byte(javaFile)}}, day)
	for _, tt := range []struct {
		msg  string
		want How
	}{
		{"Line is longer than 100 characters (found 123).", ByLocation},
		{"Line  is longer than 100 characters (found 119).", ByLocationOnly},
		{"Line is longer than 120 characters (found 1234).", ByLocationOnly},
		{"Line is longer than 100 characters (found many).", 0},
		{"'100' is a magic number.", 0},
	} {
		f := reports.Finding{Tool: "PMD", Rule: "NullAssignment", Path: "src/Shop.java", Line: 5, Message: tt.msg}
		var got How
		if d := m.Decide(&f); d != nil {
			got = d.How
		}
		if got != tt.want {
			t.Errorf("%q: %v, want %v", tt.msg, got, tt.want)
		}
	}
}

// TestMessageNumbersNeighbourChanged: a decided line whose neighbour
// changed (its location with it) still matches by its text when the
// message changed in numbers the line does not hold (PMD's
// UnusedAssignment names the line the variable is overwritten on, which
// a line added below moves); a number written on the line tells another
// finding, which the entry does not cover (check calls it changed).
func TestMessageNumbersNeighbourChanged(t *testing.T) {
	const src = "class A {\n    void f() {\n        int count = 0;\n        count = size(100);\n    }\n}\n"
	fs := fstest.MapFS{"src/A.java": {Data: []byte(src)}}
	for _, tt := range []struct {
		name, was, now string
		want           How
	}{
		{"a line number in the message", "The initializer for variable 'count' is never used (overwritten on line 4)",
			"The initializer for variable 'count' is never used (overwritten on line 5)", ByLineText},
		{"the same message", "The initializer for variable 'count' is never used (overwritten on line 4)",
			"The initializer for variable 'count' is never used (overwritten on line 4)", ByLineText},
		{"a number on the line", "'1' is a magic number.", "'0' is a magic number.", 0},
		{"another message", "The initializer for variable 'count' is never used (overwritten on line 4)",
			"The variable 'count' is never used", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &reports.Finding{Tool: "PMD", Rule: "UnusedAssignment", Path: "src/A.java", Line: 3, Message: tt.was}
			e := EntryFor(f, fs)
			e.State, e.Reason = FalsePositive, "a default"
			// A comment added below the decided line: its location changes.
			now := strings.Replace(src, "        int count = 0;\n", "        int count = 0;\n        // the size\n", 1)
			m := NewMatcher(&File{Entries: []Entry{e}}, fstest.MapFS{"src/A.java": {Data: []byte(now)}}, day)
			g := reports.Finding{Tool: f.Tool, Rule: f.Rule, Path: f.Path, Line: 3, Message: tt.now}
			wantHow(t, m.Decide(&g), tt.want)
		})
	}
}

// TestMessageNumbersRepeatedLine: as TestMessageNumbersNeighbourChanged,
// with the decided line's text written in another method since: git's
// history tells which line was decided, and a message that changed in
// numbers not on the line (the line the variable is overwritten on) does
// not lose the decision; the copy is not covered.
func TestMessageNumbersRepeatedLine(t *testing.T) {
	const src = "class A {\n    int f() {\n        int count = 0;\n        count = size();\n        return count;\n    }\n}\n"
	msg := func(n int) string {
		return fmt.Sprintf("The initializer for variable 'count' is never used (overwritten on line %d)", n)
	}
	repo := gittest.New(t)
	commit := repo.Commit("decided", map[string]string{"src/A.java": src})
	f := &reports.Finding{Tool: "PMD", Rule: "UnusedAssignment", Path: "src/A.java", Line: 3, Message: msg(4)}
	e := EntryFor(f, os.DirFS(repo.Dir))
	e.State, e.Reason, e.Commit = FalsePositive, "a default", commit
	// A comment below the decided line, and a method with a line of its
	// text above it.
	now := strings.Replace(src, "        int count = 0;\n        count", "        int count = 0;\n        // the size\n        count", 1)
	now = strings.Replace(now, "class A {\n", "class A {\n    int g() {\n        int count = 0;\n        return count;\n    }\n", 1)
	repo.Commit("edited", map[string]string{"src/A.java": now})
	m := NewMatcher(&File{Entries: []Entry{e}}, os.DirFS(repo.Dir), day)
	if err := m.Follow(context.Background(), repo.Dir); err != nil {
		t.Fatal(err)
	}
	copied := reports.Finding{Tool: f.Tool, Rule: f.Rule, Path: f.Path, Line: 3, Message: msg(4)}
	wantHow(t, m.Decide(&copied), 0)
	decided := reports.Finding{Tool: f.Tool, Rule: f.Rule, Path: f.Path, Line: 7, Message: msg(9)}
	wantHow(t, m.Decide(&decided), ByHistory)
}

// A finding that no entry names (by its path and rule, nor an entry whose
// file is gone by its rule) costs lookups and no allocation, whatever the
// order of the paths.
func TestDecideUnnamedAllocatesNothing(t *testing.T) {
	e := decided(t)
	gone := e
	gone.Path, gone.Rule = "src/Gone.java", "UnusedLocalVariable"
	src := fstest.MapFS{"src/Shop.java": {Data: []byte(javaFile)}}
	tests := []struct {
		name     string
		findings []reports.Finding
	}{
		{"another rule at the entry's path", []reports.Finding{
			{Tool: "PMD", Rule: "ShortVariable", Path: "src/Shop.java", Line: 5},
			{Tool: "PMD", Rule: "ShortVariable", Path: "src/Shop.java", Line: 6}}},
		{"other paths, alternating", []reports.Finding{
			{Tool: "PMD", Rule: "NullAssignment", Path: "src/A.java", Line: 5},
			{Tool: "PMD", Rule: "NullAssignment", Path: "src/B.java", Line: 5},
			{Tool: "PMD", Rule: "NullAssignment", Path: "src/A.java", Line: 7}}},
		{"named path between unnamed ones", []reports.Finding{
			{Tool: "PMD", Rule: "NullAssignment", Path: "src/A.java", Line: 5},
			{Tool: "Checkstyle", Rule: "MagicNumber", Path: "src/Shop.java", Line: 6},
			{Tool: "PMD", Rule: "NullAssignment", Path: "src/B.java", Line: 5}}},
		{"another tool's rule of the same name", []reports.Finding{
			{Tool: "Checkstyle", Rule: "NullAssignment", Path: "src/Shop.java", Line: 5}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMatcher(&File{Entries: []Entry{e, gone}}, src, day)
			allocs := testing.AllocsPerRun(100, func() {
				for i := range tt.findings {
					if d := m.Decide(&tt.findings[i]); d != nil {
						t.Fatalf("%+v decided %+v", tt.findings[i], d)
					}
				}
			})
			if allocs != 0 {
				t.Errorf("%v allocations a run of %d findings, want 0", allocs, len(tt.findings))
			}
		})
	}
}

// TestDecideClassRenamed: a tool that names the class in its message
// (SpotBugs) names the new class once the file is renamed or moved to
// another package; the entry still covers the finding, by the old names
// in its message taken for the new ones, whole words only.
func TestDecideClassRenamed(t *testing.T) {
	const (
		from = "src/main/java/com/example/shop/OrderRepository.java"
		msg  = "com.example.shop.OrderRepository.itemsOf(String) passes a nonconstant String to an execute method"
	)
	f := &reports.Finding{Tool: "SpotBugs", Rule: "SQL_NONCONSTANT_STRING_PASSED_TO_EXECUTE", Path: from, Line: 5, Message: msg}
	e := EntryFor(f, fstest.MapFS{from: {Data: []byte(javaFile)}})
	e.State, e.Reason = AcceptedRisk, "ids are checked upstream"
	tests := []struct {
		name, path, message string
		want                How
	}{
		{"class renamed with its file", "src/main/java/com/example/shop/OrderDao.java",
			"com.example.shop.OrderDao.itemsOf(String) passes a nonconstant String to an execute method", ByLocation},
		{"moved to another package", "src/main/java/com/example/store/OrderRepository.java",
			"com.example.store.OrderRepository.itemsOf(String) passes a nonconstant String to an execute method", ByLocation},
		{"both", "src/main/java/com/example/store/OrderDao.java",
			"com.example.store.OrderDao.itemsOf(String) passes a nonconstant String to an execute method", ByLocation},
		{"moved to a package below", "src/main/java/com/example/shop/db/OrderRepository.java",
			"com.example.shop.db.OrderRepository.itemsOf(String) passes a nonconstant String to an execute method", ByLocation},
		{"moved below and renamed", "src/main/java/com/example/shop/db/OrderDao.java",
			"com.example.shop.db.OrderDao.itemsOf(String) passes a nonconstant String to an execute method", ByLocation},
		{"moved to a package above", "src/main/java/com/example/OrderRepository.java",
			"com.example.OrderRepository.itemsOf(String) passes a nonconstant String to an execute method", ByLocation},
		{"renamed, the message unchanged", "src/main/java/com/example/shop/OrderDao.java", msg, ByLocation},
		{"renamed, another method named", "src/main/java/com/example/shop/OrderDao.java",
			"com.example.shop.OrderDao.cancel(long) passes a nonconstant String to an execute method", 0},
		{"renamed, the old name part of a longer word", "src/main/java/com/example/shop/OrderDao.java",
			"com.example.shop.OrderRepositoryImpl.itemsOf(String) passes a nonconstant String to an execute method", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMatcher(&File{Entries: []Entry{e}}, fstest.MapFS{tt.path: {Data: []byte(javaFile)}}, day)
			g := reports.Finding{Tool: f.Tool, Rule: f.Rule, Path: tt.path, Line: 5, Message: tt.message}
			wantHow(t, m.Decide(&g), tt.want)
		})
	}
	if got := renamedMessage("a.b.Shop x", "Shop.java", "src/Store.java"); got != "a.b.Store x" {
		t.Errorf("renamedMessage from the top directory = %q", got)
	}
}

// TestMagicNumbers: two findings of one rule on one line whose messages
// differ only by a number written on the line ("'100' is a magic number."
// beside "'119' is a magic number.") are two findings: a decision on one
// does not cover the other; a number that is not on the line (a count)
// still may change.
func TestMagicNumbers(t *testing.T) {
	const src = "class A {\n    int f(int x) { return x > 100 ? 119 : x; }\n}\n"
	fs := fstest.MapFS{"src/A.java": {Data: []byte(src)}}
	f := &reports.Finding{Tool: "Checkstyle", Rule: "MagicNumber", Path: "src/A.java", Line: 2, Message: "'119' is a magic number."}
	e := EntryFor(f, fs)
	e.State, e.Reason = WontFix, "a threshold"
	m := NewMatcher(&File{Entries: []Entry{e}}, fs, day)
	for _, tt := range []struct {
		msg  string
		want How
	}{
		{"'119' is a magic number.", ByLocation},
		{"'100' is a magic number.", 0},
		{"'118' is a magic number.", ByLocationOnly}, // not on the line: the literal changed, the line did not (a neighbour's count)
	} {
		g := reports.Finding{Tool: f.Tool, Rule: f.Rule, Path: f.Path, Line: 2, Message: tt.msg}
		wantHow(t, m.Decide(&g), tt.want)
	}
	for _, c := range []struct {
		line, n string
		want    bool
	}{{"x > 100", "100", true}, {"x > 1000", "100", false}, {"v2100 = 1", "100", false}, {"100", "100", true}, {"", "1", false}} {
		if got := hasNumber([]byte(c.line), c.n); got != c.want {
			t.Errorf("hasNumber(%q, %q) = %v", c.line, c.n, got)
		}
	}
}

// TestDecideClassLineRenamed: a finding on the line that names the class
// ("class Shop {", PMD's CommentRequired "Class comments are required")
// follows the class renamed with its file: its line names the new name.
func TestDecideClassLineRenamed(t *testing.T) {
	const msg = "Class comments are required"
	f := &reports.Finding{Tool: "PMD", Rule: "CommentRequired", Path: "src/Shop.java", Line: 3, Message: msg}
	e := EntryFor(f, fstest.MapFS{"src/Shop.java": {Data: []byte(javaFile)}})
	if e.Line != "class Shop {" {
		t.Fatalf("EntryFor = %+v", e)
	}
	e.State, e.Reason = WontFix, "a private class"
	renamed := strings.Replace(javaFile, "class Shop {", "class Store {", 1)
	for _, tt := range []struct {
		name, path, src, message string
		want                     How
	}{
		{"renamed with its file", "src/Store.java", renamed, msg, ByLineText},
		{"renamed, another message", "src/Store.java", renamed, "Public method comments are required", 0},
		{"the file renamed, the class another", "src/Store.java", strings.Replace(javaFile, "class Shop {", "class Basket {", 1), msg, 0},
		{"not moved, the class renamed", "src/Shop.java", renamed, msg, 0},
		{"the line twice", "src/Store.java", renamed + "class Store {\n}\n", msg, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMatcher(&File{Entries: []Entry{e}}, fstest.MapFS{tt.path: {Data: []byte(tt.src)}}, day)
			m.path[0] = tt.path // where git says the file went
			m.index()
			g := reports.Finding{Tool: f.Tool, Rule: f.Rule, Path: tt.path, Line: 3, Message: tt.message}
			wantHow(t, m.Decide(&g), tt.want)
		})
	}
}

// TestStatusChanged: an entry whose location has a finding of its rule
// with another message (a method renamed in the message) matches nothing
// and says which finding is there, to decide again; once another entry
// covers that finding, it is only stale.
func TestStatusChanged(t *testing.T) {
	e := decided(t)
	src := fstest.MapFS{"src/Shop.java": {Data: []byte(javaFile)}}
	f := reports.Finding{ID: reports.ID("ab12", 7), Tool: "PMD", Rule: "NullAssignment", Path: "src/Shop.java", Line: 5, Message: "Assigning an Object to null in pay() is a code smell."}
	m := NewMatcher(&File{Entries: []Entry{e}}, src, day)
	if d := m.Decide(&f); d != nil {
		t.Fatalf("Decide = %+v, want none: the message is another", d)
	}
	st := m.Statuses()
	if c := st[0].Changed; st[0].Matched != 0 || c == nil || c.ID != f.ID || c.Line != 5 || c.Path != f.Path || c.Message != f.Message {
		t.Fatalf("status %+v, changed %+v; want the finding at its place", st[0], c)
	}
	again := EntryFor(&f, src)
	again.State, again.Reason = FalsePositive, "decided again"
	m = NewMatcher(&File{Entries: []Entry{e, again}}, src, day)
	if d := m.Decide(&f); d == nil || d.Entry.Reason != "decided again" {
		t.Fatalf("Decide = %+v, want the new entry", d)
	}
	if st := m.Statuses(); st[0].Matched != 0 || st[0].Changed != nil || st[1].Matched != 1 {
		t.Errorf("statuses %+v: want the old entry stale, not changed", st)
	}
	// Another message on another line of the rule says nothing.
	m = NewMatcher(&File{Entries: []Entry{e}}, src, day)
	g := f
	g.Line = 12
	m.Decide(&g)
	if st := m.Statuses(); st[0].Changed != nil {
		t.Errorf("a finding elsewhere made the entry changed: %+v", st[0].Changed)
	}
}

// TestStatusPathMoved: an entry whose file is gone, matched in another
// file (moved, the move not committed: git does not say), gives that file
// as its path now.
func TestStatusPathMoved(t *testing.T) {
	e := decided(t)
	src := fstest.MapFS{"src/Store.java": {Data: []byte("// moved\n" + javaFile)}}
	m := NewMatcher(&File{Entries: []Entry{e}}, src, day)
	f := reports.Finding{Tool: "PMD", Rule: "NullAssignment", Path: "src/Store.java", Line: 6, Message: e.Message}
	if d := m.Decide(&f); d == nil {
		t.Fatal("the entry does not follow the file")
	}
	if st := m.Statuses(); st[0].Path != "src/Store.java" || st[0].Entry.Path != "src/Shop.java" {
		t.Errorf("status path %q (entry %q), want src/Store.java", st[0].Path, st[0].Entry.Path)
	}
}

// wantHow checks a decision's way of matching (0: no decision).
func wantHow(t *testing.T, d *Decision, want How) {
	t.Helper()
	switch {
	case want == 0 && d != nil:
		t.Errorf("Decide = %v, want none", d.How)
	case want != 0 && (d == nil || d.How != want):
		t.Errorf("Decide = %+v, want %v", d, want)
	}
}

// TestLatin1Source: a source file not in UTF-8 (ISO-8859-1: "caf\xe9")
// gives an entry whose line the triage file can write (each byte not read
// as UTF-8 as the Latin-1 character, "café"), which matches its finding
// again, also after lines are added above it; written and read back, the
// file holds the decision.
func TestLatin1Source(t *testing.T) {
	before := "class L {\n    void f() {\n        String s = \"caf\xe9\";\n    }\n}\n"
	after := "class L {\n    // a line above\n    void f() {\n        String s = \"caf\xe9\";\n    }\n}\n"
	f := reports.Finding{Tool: "Lint", Rule: "R2", Path: "src/L.java", Line: 3, Message: "a Latin-1 line"}
	e := EntryFor(&f, fstest.MapFS{"src/L.java": &fstest.MapFile{Data: []byte(before)}})
	if e.Line != `String s = "café";` || e.Location == "" {
		t.Fatalf("entry %+v", e)
	}
	e.State, e.Reason = FalsePositive, "r"
	file := &File{Version: 1}
	file.Put(e)
	b, err := file.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("t.yml", b)
	if err != nil || len(back.Entries) != 1 {
		t.Fatalf("%v, %+v", err, back)
	}
	moved := f
	moved.Line = 4
	m := NewMatcher(back, fstest.MapFS{"src/L.java": &fstest.MapFile{Data: []byte(after)}}, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	if d := m.Decide(&moved); d == nil || d.Entry.Reason != "r" {
		t.Errorf("the finding moved below a line added is not decided: %+v", d)
	}
	if got := asText([]byte("a\xe9b\xff\xc3\xa9")); string(got) != "aébÿé" {
		t.Errorf("asText: %q", got)
	}
}

// TestMatchedByMessageOnly: an entry is matched by its path, rule and
// message alone only where no line can tell: a finding without a line, or
// a file that cannot be read. A finding on a line of a file read is
// another's unless its line tells (an entry decided on a finding without
// a line, or written without one, would cover every finding of its rule
// and message in the file, those to come too), and so is one past the
// end of the file (a report older than the code, a file whose line breaks
// the tool counts and recap does not: old Mac's CR alone); the same read
// ahead, by the file's digest.
func TestMatchedByMessageOnly(t *testing.T) {
	msg := "Assigning an Object to null is a code smell."
	located := decided(t)
	bare := located
	bare.Location, bare.Line = "", ""
	java, cr := javaFile, strings.ReplaceAll(javaFile, "\n", "\r")
	tests := []struct {
		name   string
		entry  Entry
		source *string // nil: none
		line   int
		want   How
	}{
		{"bare, a finding without a line", bare, &java, 0, ByMessage},
		{"bare, no source", bare, nil, 5, ByMessage},
		{"bare, a finding on a line", bare, &java, 5, 0},
		{"bare, a finding on another line", bare, &java, 12, 0},
		{"bare, past the end", bare, &java, 99, 0},
		{"located, past the end", located, &java, 99, 0},
		{"located, a finding without a line", located, &java, 0, ByMessage},
		{"located, no source", located, nil, 5, ByMessage},
		{"located, CR line breaks", located, &cr, 5, 0},
		{"bare, CR line breaks", bare, &cr, 5, 0},
	}
	for _, tt := range tests {
		for _, byDigest := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/digest=%v", tt.name, byDigest), func(t *testing.T) {
				digestRead = byDigest
				defer func() { digestRead = true }()
				var src fs.FS
				if tt.source != nil {
					src = fstest.MapFS{"src/Shop.java": {Data: []byte(*tt.source)}}
				}
				m := NewMatcher(&File{Entries: []Entry{tt.entry}}, src, day)
				f := reports.Finding{Tool: "PMD", Rule: "NullAssignment", Path: "src/Shop.java", Line: tt.line, Message: msg}
				d := m.Decide(&f)
				switch {
				case tt.want == 0 && d != nil:
					t.Errorf("Decide = %v, want none", d.How)
				case tt.want != 0 && (d == nil || d.How != tt.want):
					t.Errorf("Decide = %+v, want %v", d, tt.want)
				}
			})
		}
	}
}

// TestManyEntriesByMessage: a finding that only a message can match (no
// line, or no source) among many entries of its file and rule is matched
// by an index of their messages: the same decisions as one by one, white
// space folded, an entry cut short ("…") by its prefix, the first entry
// in the file's order when two match, an entry decided in another file
// (renamed since) by its message with the old name taken for the new.
func TestManyEntriesByMessage(t *testing.T) {
	file := &File{}
	add := func(path, msg, reason string) {
		file.Entries = append(file.Entries, Entry{Tool: "T", Rule: "r", Path: path, Message: msg, State: FalsePositive, Reason: reason})
	}
	for i := range 3 * manyByMessage {
		add("src/A.java", fmt.Sprintf("value %d is  unused", i), fmt.Sprint("plain ", i))
	}
	add("src/A.java", "value 7 is unused", "second of 7")
	add("src/A.java", "a long message cut…", "cut")
	add("src/A.java", "a  long…", "shorter cut")
	add("src/A.java", "", "no message")
	for _, src := range []fs.FS{nil, fstest.MapFS{"src/A.java": {Data: []byte("x\n")}}} {
		m := NewMatcher(file, src, day)
		for _, tc := range []struct {
			msg, want string
		}{
			{"value 7 is unused", "plain 7"},
			{" value  7\tis unused ", "plain 7"},
			{"value 700 is unused", ""},
			{"a long message cut short here", "cut"},
			{"a long way", "shorter cut"},
			{"a lon", ""},
			{"nothing like it", ""},
		} {
			f := reports.Finding{Tool: "T", Rule: "r", Path: "src/A.java", Message: tc.msg}
			got := ""
			if d := m.Decide(&f); d != nil {
				got = d.Entry.Reason
			}
			if got != tc.want {
				t.Errorf("source %v: %q decided by %q, want %q", src != nil, tc.msg, got, tc.want)
			}
		}
	}
}
