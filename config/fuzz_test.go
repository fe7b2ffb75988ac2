package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/recap-dev/recap/reports"
)

// FuzzParse: Parse never panics; it returns a configuration or an error,
// never both; every error is an *Error naming the file; a configuration it
// accepts holds only valid values, matches without panicking, and is valid
// under recap.schema.json too.
func FuzzParse(f *testing.F) {
	for _, tc := range badFiles {
		f.Add([]byte(tc.in))
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.yml"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(matchConfig))
	f.Add([]byte("same:\n  - &a [A:B, C:D]\n  - *a\noverrides:\n  - {rules: *a, impact: low}\n"))
	f.Add([]byte("exclude: {paths: [\"**/*.java\", 'src/[ab]/**'], rules: [\"PMD:*\"]}\n"))
	f.Add([]byte("version: 1.0\nexclude:\n  paths:\n  rules:\n"))
	rs := resolvedSchema(&testing.T{})
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("f.yml", data)
		if (c == nil) == (err == nil) {
			t.Fatalf("Parse = %v, %v: want one of them", c, err)
		}
		if err != nil {
			checkErrors(t, err)
			return
		}
		checkConfig(t, c)
		if v, ok := asJSON(string(data)); ok {
			if err := rs.Validate(v); err != nil {
				t.Fatalf("Parse accepts what the schema refuses (%v):\n%s", err, data)
			}
		}
	})
}

func checkErrors(t *testing.T, err error) {
	var list []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		list = j.Unwrap()
	} else {
		list = []error{err}
	}
	if len(list) > MaxErrors {
		t.Fatalf("%d errors, more than %d", len(list), MaxErrors)
	}
	for _, e := range list {
		var ce *Error
		if !errors.As(e, &ce) || ce.File != "f.yml" || ce.Line < 0 || ce.Column < 0 || ce.Err == nil {
			t.Fatalf("error %#v is not an *Error naming the file", e)
		}
		if !strings.HasPrefix(e.Error(), "f.yml:") {
			t.Fatalf("message %q does not begin with the file", e)
		}
	}
}

func checkConfig(t *testing.T, c *Config) {
	if c.Version != Version {
		t.Fatalf("version %d", c.Version)
	}
	n := len(c.Exclude.Rules)
	for _, p := range c.Exclude.Rules {
		checkPattern(t, p)
	}
	for _, o := range c.Overrides {
		if len(o.Rules) == 0 || o.Impact == 0 && o.Quality == 0 && o.Severity == 0 && o.Category == "" {
			t.Fatalf("override %+v without rules or changes", o)
		}
		if o.Impact != 0 && !o.Impact.Valid() || o.Quality != 0 && !o.Quality.Valid() || o.Severity != 0 && !o.Severity.Valid() {
			t.Fatalf("override %+v with a value off recap's scales", o)
		}
		if o.Category != "" && reports.Categorize("", o.Category) != o.Category {
			t.Fatalf("override category %q off the scale", o.Category)
		}
		for _, p := range o.Rules {
			checkPattern(t, p)
		}
		n += len(o.Rules)
	}
	for _, g := range c.Same {
		if len(g) < 2 {
			t.Fatalf("group %v of fewer than 2", g)
		}
		for _, p := range g {
			checkPattern(t, p)
		}
		n += len(g)
	}
	if n > MaxRulePatterns || len(c.Exclude.Paths) > MaxPathGlobs {
		t.Fatalf("%d rule patterns, %d path globs: past the bounds", n, len(c.Exclude.Paths))
	}
	for _, g := range c.Exclude.Paths {
		if _, err := reports.CompileGlobs([]string{g.Glob}); err != nil || g.Line < 1 {
			t.Fatalf("path glob %+v: %v", g, err)
		}
	}
	for _, f := range []*reports.Finding{
		{Tool: "Checkstyle", Rule: "com.puppycrawl.tools.checkstyle.checks.FinalParametersCheck", Path: "src/A.java"},
		{Tool: "PMD", Rule: "MethodArgumentCouldBeFinal", RuleName: "x", Path: "gen/B.java"},
		{Tool: "FindBugs", Rule: "EI_EXPOSE_REP", Path: ""},
	} {
		c.Excluded(f)
		c.Apply(f)
		c.SameRule(f, f)
	}
	c.Unmatched()
}

func checkPattern(t *testing.T, p RulePattern) {
	if q, err := ParseRulePattern(p.String()); err != nil || q.Tool != p.Tool || q.Rule != p.Rule {
		t.Fatalf("pattern %q does not read back: %v", p, err)
	}
	if p.Line < 1 || p.Column < 1 || p.Key == "" {
		t.Fatalf("pattern %q without its place: %+v", p, p.Pos)
	}
}

// FuzzGlob: a path glob compiles to recap's matcher or to a
// *reports.GlobError, never a panic; what it accepts, doublestar accepts;
// and on a finding's path (not empty, no empty directory, no / at an end)
// it matches as doublestar matches the same glob in doublestar's words
// (doublestarGlob), but where recap chose otherwise: a class never
// matches / (globs with [ are left to TestGlob), and a brace is expanded
// before ** is read (globs with both are left out).
func FuzzGlob(f *testing.F) {
	for _, s := range [][2]string{
		{"src/**/*.java", "src/a/B.java"},
		{"**/x/**", "a/x/b"},
		{"*.java", "a/b/C.java"},
		{"target/", "target/a"},
		{"a/**/b/**/c", "a/b/b/c"},
		{"a*b*c/**", "aXbYc/d"},
		{"{src,test}/**", "test/a"},
		{"a/{b,c/d}/e", "a/c/d/e"},
		{`\*/?`, "*/x"},
		{"[!x]/y", "a/y"},
		{"**/**/a", "b/a"},
		{"*/**", "a"},
		{"a**/b", "ab/b"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, glob, path string) {
		if why := sameAsDoublestar(glob, path); why != "" {
			t.Fatalf("glob %q, path %q: %s", glob, path, why)
		}
	})
}

// doublestarGlob is a recap glob in doublestar's words: one without /
// prefixed with **/, one ending in / given ** after it.
func doublestarGlob(g string) string {
	if !strings.Contains(g, "/") {
		g = "**/" + g
	}
	if strings.HasSuffix(g, "/") && !strings.HasSuffix(g, `\/`) {
		g += "**"
	}
	return g
}

// sameAsDoublestar says how recap and doublestar differ on a glob and a
// path, "" when they do not (see FuzzGlob).
func sameAsDoublestar(glob, path string) string {
	g, err := reports.CompileGlob(glob)
	ds := doublestarGlob(glob)
	if err != nil {
		var ge *reports.GlobError
		if !errors.As(err, &ge) || !strings.HasPrefix(err.Error(), "path glob ") {
			return "an error that is not a path glob's: " + err.Error()
		}
		return "" // recap refuses more (a long glob, many alternatives, a backwards range)
	}
	if !doublestar.ValidatePattern(ds) {
		return "recap reads a glob doublestar refuses"
	}
	if path == "" || strings.Contains(path, "//") || strings.HasPrefix(path, "/") || strings.HasSuffix(path, "/") || !utf8.ValidString(path) ||
		strings.Contains(glob, "[") || strings.Contains(glob, "{") && strings.Contains(glob, "**") {
		g.Match(path) // runs, whatever it answers
		return ""
	}
	want, _ := doublestar.Match(ds, path)
	if got := g.Match(path); got != want {
		return fmt.Sprintf("recap says %v, doublestar %v (as %q)", got, want, ds)
	}
	return ""
}

// FuzzWildcard: a rule wildcard matches as a plain recursive reading of
// its meaning says (* any run, ? one character, case folded), in time
// linear in the text.
func FuzzWildcard(f *testing.F) {
	for _, s := range [][2]string{
		{"SpotBugs", "spotbugs"},
		{"EI_*", "EI_EXPOSE_REP"},
		{"*_EXPOSE_*", "EI_EXPOSE_REP2"},
		{"a*a*a*b", "aaaaaaaaaaaa"},
		{"?é*", "xÉz"},
		{"k*", "\u212aelvin"},
		{"java/*", "java/sql-injection"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pat, s string) {
		if len(pat) > 40 || len(s) > 60 || !utf8.ValidString(pat) || !utf8.ValidString(s) {
			return // the reference is exponential
		}
		w, err := reports.CompileWildcard(pat)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := w.Match(s), refWildcard([]rune(pat), []rune(s)); got != want {
			t.Fatalf("%q matches %q: %v, want %v", pat, s, got, want)
		}
	})
}

// refWildcard is the meaning of a rule wildcard, read plainly.
func refWildcard(p, s []rune) bool {
	switch {
	case len(p) == 0:
		return len(s) == 0
	case p[0] == '*':
		return refWildcard(p[1:], s) || len(s) > 0 && refWildcard(p, s[1:])
	case len(s) == 0:
		return false
	case p[0] == '?' || strings.EqualFold(string(p[0]), string(s[0])):
		return refWildcard(p[1:], s[1:])
	}
	return false
}
