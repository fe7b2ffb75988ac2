package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/recap-dev/recap/reports"
)

func pat(tool, rule, key string, line, col int) RulePattern {
	return RulePattern{Tool: tool, Rule: rule, Pos: Pos{Key: key, Line: line, Column: col}}
}

func TestParse(t *testing.T) {
	tests := map[string]struct {
		in   string
		want *Config
	}{
		"empty file":    {"", &Config{Version: 1}},
		"comments only": {"# nothing yet\n", &Config{Version: 1}},
		"null document": {"~\n", &Config{Version: 1}},
		"version only":  {"version: 1\n", &Config{Version: 1}},
		"version 1.0":   {"version: 1.0\n", &Config{Version: 1}},
		"triage":        {"triage: ./decisions/triage.yml\n", &Config{Version: 1, Triage: "decisions/triage.yml", TriagePos: Pos{"triage", 1, 9}}},
		"empty keys":    {"exclude:\noverrides:\nsame:\n", &Config{Version: 1}},
		"empty lists":   {"exclude:\n  paths:\n  rules: []\noverrides: []\nsame: []\n", &Config{Version: 1}},
		"byte order mark": {"\ufeffexclude:\n  rules: [PMD:X]\n", &Config{Version: 1,
			Exclude: Exclude{Rules: []RulePattern{pat("PMD", "X", "exclude.rules[0]", 2, 11)}}}},
		"exclude": {`exclude:
  paths:
    - src/generated/**
    - "*Test.java"
  rules:
    - Checkstyle:FinalParameters
    - 'SpotBugs:EI_*'
    - "*:CommentRequired"
    - Sonar:java:S1234
`, &Config{Version: 1, Exclude: Exclude{
			Paths: []PathGlob{{"src/generated/**", Pos{"exclude.paths[0]", 3, 7}}, {"*Test.java", Pos{"exclude.paths[1]", 4, 7}}},
			Rules: []RulePattern{
				pat("Checkstyle", "FinalParameters", "exclude.rules[0]", 6, 7),
				pat("SpotBugs", "EI_*", "exclude.rules[1]", 7, 7),
				pat("*", "CommentRequired", "exclude.rules[2]", 8, 7),
				pat("Sonar", "java:S1234", "exclude.rules[3]", 9, 7),
			},
		}}},
		"flow style": {`{exclude: {paths: [a/**], rules: ["PMD:*"]}, same: [[A:x, B:y]]}`, &Config{Version: 1,
			Exclude: Exclude{Paths: []PathGlob{{"a/**", Pos{"exclude.paths[0]", 1, 20}}}, Rules: []RulePattern{pat("PMD", "*", "exclude.rules[0]", 1, 35)}},
			Same:    [][]RulePattern{{pat("A", "x", "same[0][0]", 1, 54), pat("B", "y", "same[0][1]", 1, 59)}},
		}},
		"overrides": {`overrides:
  - rules: [Checkstyle:FinalParameters, PMD:MethodArgumentCouldBeFinal]
    impact: info
    severity: note
  - rules:
      - SpotBugs:DM_CONVERT_CASE
    quality: reliability
    category: Internationalization
`, &Config{Version: 1, Overrides: []Override{
			{Rules: []RulePattern{pat("Checkstyle", "FinalParameters", "overrides[0].rules[0]", 2, 13), pat("PMD", "MethodArgumentCouldBeFinal", "overrides[0].rules[1]", 2, 41)},
				Impact: reports.ImpactInfo, Severity: reports.SeverityNote, Pos: Pos{"overrides[0]", 2, 5}},
			{Rules: []RulePattern{pat("SpotBugs", "DM_CONVERT_CASE", "overrides[1].rules[0]", 6, 9)},
				Quality: reports.QualityReliability, Category: reports.CategoryInternationalization, Pos: Pos{"overrides[1]", 5, 5}},
		}}},
		"anchors and aliases": {`same:
  - &braces [Checkstyle:NeedBraces, PMD:ControlStatementBraces]
overrides:
  - rules: *braces
    impact: low
`, &Config{Version: 1,
			Same: [][]RulePattern{{pat("Checkstyle", "NeedBraces", "same[0][0]", 2, 14), pat("PMD", "ControlStatementBraces", "same[0][1]", 2, 37)}},
			Overrides: []Override{{Rules: []RulePattern{pat("Checkstyle", "NeedBraces", "overrides[0].rules[0]", 2, 14), pat("PMD", "ControlStatementBraces", "overrides[0].rules[1]", 2, 37)},
				Impact: reports.ImpactLow, Pos: Pos{"overrides[0]", 4, 5}}},
		}},
		"block scalar": {"exclude:\n  paths:\n    - |-\n      src/gen/**\n", &Config{Version: 1,
			Exclude: Exclude{Paths: []PathGlob{{"src/gen/**", Pos{"exclude.paths[0]", 3, 7}}}}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := Parse("x.yml", []byte(tc.in))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			tc.want.Name = "x.yml"
			if diff := cmp.Diff(tc.want, got, cmpopts.IgnoreUnexported(Config{}), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Parse mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// badFiles are files Parse refuses, with the exact message. schema says
// whether recap.schema.json refuses the file too (TestSchemaAgrees); the
// others are mistakes a JSON Schema cannot see (YAML itself, a glob's
// syntax, a key given twice).
var badFiles = map[string]struct {
	in     string
	want   string
	schema bool
}{
	"unknown top key": {"exclude: {}\noverides: []\n",
		`.recap.yml:2:1: unknown key "overides"; did you mean overrides? (want version, exclude, overrides, same or triage)`, true},
	"triage out of the root": {"triage: ../decisions.yml\n",
		`.recap.yml:1:9: triage: "../decisions.yml" is not a file inside the repository (want a path relative to its root, with /, such as .recap/triage.yml)`, true},
	"triage absolute": {"triage: /etc/triage.yml\n",
		`.recap.yml:1:9: triage: "/etc/triage.yml" is not a file inside the repository (want a path relative to its root, with /, such as .recap/triage.yml)`, true},
	"triage in .git": {"triage: .git/hooks/post-checkout\n",
		`.recap.yml:1:9: triage: ".git/hooks/post-checkout" is inside the version control's own directory, which recap does not write (want a file of the work tree, such as .recap/triage.yml)`, true},
	"triage in .GIT below": {"triage: sub/.GIT/info/exclude\n",
		`.recap.yml:1:9: triage: "sub/.GIT/info/exclude" is inside the version control's own directory, which recap does not write (want a file of the work tree, such as .recap/triage.yml)`, true},
	"triage a directory": {"triage: quality/\n",
		`.recap.yml:1:9: triage: "quality/" names a directory (want a file's path, such as .recap/triage.yml)`, true},
	"triage a NUL": {"triage: \"a\\0b\"\n",
		`.recap.yml:1:9: triage: "a\x00b" has a control character (want a file's path, such as .recap/triage.yml)`, true},
	"triage a list": {"triage: [a.yml]\n",
		`.recap.yml:1:9: triage: want the triage file's path, relative to the repository root, got a list`, true},
	"unknown exclude key": {"exclude:\n  path: [a]\n",
		`.recap.yml:2:3: exclude: unknown key "path"; did you mean paths? (want paths or rules)`, true},
	"unknown override key": {"overrides:\n  - rules: [PMD:X]\n    impcat: high\n",
		`.recap.yml:3:5: overrides[0]: unknown key "impcat"; did you mean impact? (want rules, impact, quality, severity or category)`, true},
	"bad impact": {"overrides:\n  - rules: [PMD:X]\n    impact: low\n  - rules: [PMD:Y]\n    impact: hihg\n",
		`.recap.yml:5:13: overrides[1].impact: unknown impact "hihg"; did you mean high? (want blocker, high, medium, low or info)`, true},
	"impact in capitals": {"overrides:\n  - rules: [PMD:X]\n    impact: High\n",
		`.recap.yml:3:13: overrides[0].impact: unknown impact "High"; did you mean high? (want blocker, high, medium, low or info)`, true},
	"bad quality": {"overrides:\n  - rules: [PMD:X]\n    quality: securty\n",
		`.recap.yml:3:14: overrides[0].quality: unknown quality "securty"; did you mean security? (want security, reliability or maintainability)`, true},
	"bad severity": {"overrides:\n  - rules: [PMD:X]\n    severity: info\n",
		`.recap.yml:3:15: overrides[0].severity: unknown severity "info" (want error, warning or note)`, true},
	"bad category": {"overrides:\n  - rules: [PMD:X]\n    category: error prone\n",
		`.recap.yml:3:15: overrides[0].category: unknown category "error prone"; did you mean Error Prone? (want Best Practices, Code Style, Design, Documentation, Error Prone, Multithreading, Performance, Security, Internationalization or Other)`, true},
	"category far from all": {"overrides:\n  - rules: [PMD:X]\n    category: Bugs\n",
		`.recap.yml:3:15: overrides[0].category: unknown category "Bugs" (want Best Practices, Code Style, Design, Documentation, Error Prone, Multithreading, Performance, Security, Internationalization or Other)`, true},
	"impact not a string": {"overrides:\n  - rules: [PMD:X]\n    impact: [high]\n",
		`.recap.yml:3:13: overrides[0].impact: want an impact (blocker, high, medium, low or info), got a list`, true},
	"impact empty": {"overrides:\n  - rules: [PMD:X]\n    impact:\n",
		`.recap.yml:3:12: overrides[0].impact: want an impact (blocker, high, medium, low or info), got nothing`, true},
	"override without rules": {"overrides:\n  - impact: low\n",
		`.recap.yml:2:5: overrides[0]: no rules (want rules: [Tool:Rule, ...], the rules to change)`, true},
	"override changes nothing": {"overrides:\n  - rules: [PMD:X]\n",
		`.recap.yml:2:5: overrides[0]: nothing to change (want impact, quality, severity or category)`, true},
	"override rules empty": {"overrides:\n  - rules: []\n    impact: low\n",
		`.recap.yml:2:12: overrides[0].rules: an empty list (want one Tool:Rule pattern or more)`, true},
	"override rules a string": {"overrides:\n  - rules: PMD:X\n    impact: low\n",
		`.recap.yml:2:12: overrides[0].rules: want a list of Tool:Rule patterns, got a string`, true},
	"override not a mapping": {"overrides:\n  - PMD:X\n",
		`.recap.yml:2:5: overrides[0]: want an override: a mapping of rules, impact, quality, severity or category, got a string`, true},
	"overrides a mapping": {"overrides:\n  rules: [PMD:X]\n  impact: low\n",
		`.recap.yml:2:3: overrides: want a list of overrides (rules: and what to change), got a mapping`, true},
	"pattern without tool": {"exclude:\n  rules:\n    - FinalParameters\n",
		`.recap.yml:3:7: exclude.rules[0]: "FinalParameters" names no tool (write Tool:Rule, such as Checkstyle:FinalParameters, or "*:FinalParameters" for every tool)`, true},
	"pattern without rule": {"exclude:\n  rules: [\"Checkstyle:\"]\n",
		`.recap.yml:2:11: exclude.rules[0]: "Checkstyle:" names no rule (write Checkstyle:* for every rule of Checkstyle)`, true},
	"pattern with empty tool": {"exclude:\n  rules: [\":X\"]\n",
		`.recap.yml:2:11: exclude.rules[0]: ":X" names no tool (write Tool:Rule, such as Checkstyle:FinalParameters)`, true},
	"pattern with a space": {"exclude:\n  rules: [\"PMD : X\"]\n",
		`.recap.yml:2:11: exclude.rules[0]: "PMD : X": a space around the colon or at an end (write PMD:X)`, true},
	"pattern written as a mapping": {"exclude:\n  rules:\n    - Checkstyle: FinalParameters\n",
		`.recap.yml:3:7: exclude.rules[0]: want a Tool:Rule pattern, got a mapping (write Checkstyle:FinalParameters, without a space after the colon)`, true},
	"pattern with a control character": {"exclude:\n  rules: [\"PMD:X\\tY\"]\n",
		`.recap.yml:2:11: exclude.rules[0]: "PMD:X\tY" holds a control character`, true},
	"pattern too long": {"exclude:\n  rules: [PMD:" + strings.Repeat("x", 253) + "]\n",
		`.recap.yml:2:11: exclude.rules[0]: a pattern of 257 characters, more than 256`, true},
	"pattern a number": {"same:\n  - [PMD:X, 12]\n",
		`.recap.yml:2:13: same[0][1]: want a Tool:Rule pattern, got a number (quote it: "12")`, true},
	"same of one": {"same:\n  - [PMD:X]\n",
		`.recap.yml:2:5: same[0]: a group of 1 (want two Tool:Rule patterns or more)`, true},
	"same flat": {"same: [PMD:X, Checkstyle:Y]\n",
		`.recap.yml:1:8: same[0]: want a list of Tool:Rule patterns that mean the same, got a string
.recap.yml:1:15: same[1]: want a list of Tool:Rule patterns that mean the same, got a string`, true},
	"path empty": {"exclude:\n  paths: [\"\"]\n",
		`.recap.yml:2:11: exclude.paths[0]: an empty glob (want a path glob, such as src/generated/**)`, true},
	"path a number": {"exclude:\n  paths: [2024]\n",
		`.recap.yml:2:11: exclude.paths[0]: want a path glob, got a number (quote it: "2024")`, true},
	"paths a string": {"exclude:\n  paths: src/**\n",
		`.recap.yml:2:10: exclude.paths: want a list of path globs, got a string`, true},
	"bad glob": {"exclude:\n  paths: [\"src/[a\"]\n",
		`.recap.yml:2:11: exclude.paths[0]: path glob "src/[a": an unclosed [ (write \[ for the character)`, false},
	"version 2": {"version: 2\n",
		`.recap.yml:1:10: version: version 2 is not one this recap reads (want 1)`, true},
	"version a string": {"version: \"1\"\n",
		`.recap.yml:1:10: version: want the number 1, got a string`, true},
	"top a list": {"- exclude\n",
		`.recap.yml:1:1: want a mapping of version, exclude, overrides, same or triage, got a list`, true},
	"top a string": {"exclude paths\n",
		`.recap.yml:1:1: want a mapping of version, exclude, overrides, same or triage, got a string`, true},
	"exclude a list": {"exclude:\n  - src/**\n",
		`.recap.yml:2:3: exclude: want a mapping of paths or rules, got a list`, true},
	"several mistakes, in file order": {"overrides:\n  - rules: [X]\n    impact: hgh\nsame: [[A:B]]\n",
		`.recap.yml:2:13: overrides[0].rules[0]: "X" names no tool (write Tool:Rule, such as Checkstyle:X, or "*:X" for every tool)
.recap.yml:3:13: overrides[0].impact: unknown impact "hgh"; did you mean high? (want blocker, high, medium, low or info)
.recap.yml:4:8: same[0]: a group of 1 (want two Tool:Rule patterns or more)`, true},

	// What YAML itself says, and what a JSON Schema cannot see.
	"key twice": {"version: 1\nversion: 1\n",
		`.recap.yml:2:1: version: given twice (first on line 1)`, false},
	"star unquoted": {"exclude:\n  rules:\n    - *:CommentRequired\n",
		`.recap.yml:3:7: YAML reads a value that begins with * as an alias: quote it, "*:CommentRequired"`, false},
	"double star unquoted": {"exclude:\n  paths: [**/gen/**]\n",
		`.recap.yml:2:11: YAML reads a value that begins with * as an alias: quote it, "**/gen/**"`, false},
	"unknown anchor": {"exclude:\n  rules:\n    - *nope\n",
		`.recap.yml:3:7: YAML reads a value that begins with * as an alias: quote it, "*nope"`, false},
	"tab indentation": {"exclude:\n  rules: [PMD:X]\n\tpaths: [a]\n",
		`.recap.yml:3:1: a tab in the indentation (YAML indents with spaces)`, false},
	"tab after spaces": {"version: 1\nexclude:\n  \trules: [PMD:X]\n",
		`.recap.yml:3:3: a tab in the indentation (YAML indents with spaces)`, false},
	"unclosed list": {"exclude:\n  rules: [PMD:X\nsame: []\n",
		`.recap.yml:2: did not find expected ',' or ']'`, false},
	"unclosed list at the end": {"same: [[A:B, C:D]",
		`.recap.yml:1: did not find expected ',' or ']'`, false},
	"unclosed quote": {"version: 1\nexclude:\n  rules: ['PMD:X]\n",
		`.recap.yml:3: found unexpected end of stream`, false},
	"entry out of line": {"version: 1\nexclude:\n  rules:\n  - a\n - b\n",
		`.recap.yml:5: did not find expected key`, false},
	"list after a mapping": {"version: 1\n- x\n",
		`.recap.yml:2: did not find expected key`, false},
	"two colons": {"version: 1\nexclude: paths: [a]\n",
		`.recap.yml:2: mapping values are not allowed in this context`, false},
	"bad escape": {"version: 1\nexclude: {rules: [\"PMD:\\q\"]}\n",
		`.recap.yml:2: found unknown escape character`, false},
	"nested too deep": {strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
		`.recap.yml:1: exceeded max depth of 10000`, false},
	"two documents": {"version: 1\n---\nversion: 1\n",
		`.recap.yml:2:1: a second YAML document: a configuration is one`, false},
	"a tag": {"version: !v 1\n",
		`.recap.yml:1:10: version: a tag (!v): the configuration has none`, true},
	"a merge key": {"base: &b {paths: [a]}\nexclude:\n  <<: *b\n",
		`.recap.yml:1:1: unknown key "base"; did you mean same? (want version, exclude, overrides, same or triage)
.recap.yml:3:3: exclude: a merge key (<<): write the values themselves`, true},
	"not UTF-8": {"exclude:\n  rules: [PMD:\xff]\n",
		`.recap.yml:2:15: not UTF-8 text`, false},
}

func TestParseErrors(t *testing.T) {
	for name, tc := range badFiles {
		t.Run(name, func(t *testing.T) {
			c, err := Parse(".recap.yml", []byte(tc.in))
			if err == nil {
				t.Fatalf("Parse = %+v, want an error", c)
			}
			if c != nil {
				t.Errorf("Parse returned a configuration with its error")
			}
			if got := err.Error(); got != tc.want {
				t.Errorf("Parse error:\n got %s\nwant %s", got, tc.want)
			}
			var e *Error
			if !errors.As(err, &e) || e.File != ".recap.yml" {
				t.Errorf("error %#v is not an *Error naming the file", err)
			}
		})
	}
}

func TestParseBounds(t *testing.T) {
	t.Run("too large", func(t *testing.T) {
		_, err := Parse("big.yml", []byte("# "+strings.Repeat("x", MaxSize)))
		if want := "big.yml: more than 256 KiB: a configuration is smaller"; err == nil || err.Error() != want {
			t.Errorf("err = %v, want %s", err, want)
		}
	})
	t.Run("too many rule patterns", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("exclude:\n  rules:\n")
		for i := range MaxRulePatterns + 5 {
			b.WriteString("    - PMD:R" + strings.Repeat("x", i%7) + "\n")
		}
		_, err := Parse(".recap.yml", []byte(b.String()))
		want := `.recap.yml:1003:7: exclude.rules[1000]: more than 1000 Tool:Rule patterns in the file`
		if err == nil || err.Error() != want {
			t.Errorf("err = %v, want %s", err, want)
		}
	})
	t.Run("too many path globs", func(t *testing.T) {
		_, err := Parse(".recap.yml", []byte("exclude:\n  paths: ["+strings.Repeat("a/**, ", MaxPathGlobs)+"b]\n"))
		want := `.recap.yml:2:6011: exclude.paths[1000]: more than 1000 path globs in the file`
		if err == nil || err.Error() != want {
			t.Errorf("err = %v, want %s", err, want)
		}
	})
	t.Run("alias used many times", func(t *testing.T) {
		// Each use of *a is counted with its items: 10 items × 3,000 uses.
		in := "x: &a [" + strings.Repeat("PMD:X, ", 10) + "PMD:Y]\nsame: [" + strings.Repeat("*a, ", 3000) + "*a]\n"
		_, err := Parse(".recap.yml", []byte(in))
		if err == nil || !strings.Contains(err.Error(), "more than 20000 values (an alias counts each time it is used)") {
			t.Errorf("err = %v, want the values bound", err)
		}
	})
	t.Run("many mistakes", func(t *testing.T) {
		_, err := Parse(".recap.yml", []byte("exclude:\n  rules: ["+strings.Repeat("X, ", 100)+"Y]\n"))
		if n := strings.Count(err.Error(), "\n") + 1; n != MaxErrors {
			t.Errorf("%d messages, want %d", n, MaxErrors)
		}
	})
}

func TestFindAndLoad(t *testing.T) {
	write := func(t *testing.T, dir, name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("none", func(t *testing.T) {
		dir := t.TempDir()
		if name, err := Find(dir); name != "" || err != nil {
			t.Errorf("Find = %q, %v; want none", name, err)
		}
		if c, err := LoadDir(dir); c != nil || err != nil {
			t.Errorf("LoadDir = %v, %v; want nil, nil", c, err)
		}
	})
	for _, name := range Names {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, name, "exclude:\n  rules: [PMD:X]\n")
			got, err := Find(dir)
			if want := filepath.Join(dir, name); got != want || err != nil {
				t.Errorf("Find = %q, %v; want %q", got, err, want)
			}
			c, err := LoadDir(dir)
			if err != nil || c == nil || len(c.Exclude.Rules) != 1 || c.Name != filepath.Join(dir, name) {
				t.Errorf("LoadDir = %+v, %v", c, err)
			}
		})
	}
	t.Run("both", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, ".recap.yml", "")
		write(t, dir, ".recap.yaml", "")
		want := dir + ": both .recap.yml and .recap.yaml: keep one"
		if _, err := Find(dir); err == nil || err.Error() != want {
			t.Errorf("Find error = %v, want %s", err, want)
		}
		if _, err := LoadDir(dir); err == nil || err.Error() != want {
			t.Errorf("LoadDir error = %v, want %s", err, want)
		}
	})
	// What is not a regular file is refused on the file opened, without
	// waiting: a FIFO no one writes to never blocks.
	for _, c := range []struct {
		name, kind string
		make       func(path string) error
	}{
		{"a directory", "a directory", func(p string) error { return os.Mkdir(p, 0o755) }},
		{"a FIFO", "a FIFO", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
		{"a link to a device", "a character device", func(p string) error { return os.Symlink("/dev/null", p) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, ".recap.yml")
			if err := c.make(path); err != nil {
				t.Skip(err)
			}
			want := path + ": not a regular file (" + c.kind + "): a configuration is a file"
			within(t, func() {
				if _, err := Load(path); err == nil || err.Error() != want {
					t.Errorf("Load error = %v, want %s", err, want)
				}
				if c.kind == "a character device" {
					return // an absolute link leads out of the root: refused as such
				}
				if _, err := LoadDir(dir); err == nil || err.Error() != want {
					t.Errorf("LoadDir error = %v, want %s", err, want)
				}
				if _, err := Find(dir); err == nil || err.Error() != want {
					t.Errorf("Find error = %v, want %s", err, want)
				}
			})
		})
	}
	t.Run("a link out of the root", func(t *testing.T) {
		dir, outside := t.TempDir(), t.TempDir()
		write(t, outside, "secret.yml", "exclude: {rules: [PMD:X]}\n")
		if err := os.Symlink(filepath.Join(outside, "secret.yml"), filepath.Join(dir, ".recap.yml")); err != nil {
			t.Skip(err)
		}
		if c, err := LoadDir(dir); err == nil {
			t.Errorf("LoadDir read %+v through a link out of the root", c)
		}
	})
	t.Run("a link inside the root", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, "recap.yml", "exclude: {rules: [PMD:X]}\n")
		if err := os.Symlink("recap.yml", filepath.Join(dir, ".recap.yml")); err != nil {
			t.Skip(err)
		}
		if c, err := LoadDir(dir); err != nil || c == nil || len(c.Exclude.Rules) != 1 {
			t.Errorf("LoadDir = %+v, %v", c, err)
		}
	})
	t.Run("load a named file", func(t *testing.T) {
		c, err := Load(filepath.Join("testdata", "recap.yml"))
		if err != nil || c.Name != filepath.Join("testdata", "recap.yml") || len(c.Same) != 3 {
			t.Errorf("Load = %+v, %v", c, err)
		}
	})
	t.Run("load a missing file", func(t *testing.T) {
		if _, err := Load(filepath.Join(t.TempDir(), "nope.yml")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("Load error = %v, want not exist", err)
		}
	})
	t.Run("load a bad file", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, ".recap.yml", "overrides:\n  - rules: [PMD:X]\n    impact: hihg\n")
		want := filepath.Join(dir, ".recap.yml") + `:3:13: overrides[0].impact: unknown impact "hihg"; did you mean high? (want blocker, high, medium, low or info)`
		if _, err := LoadDir(dir); err == nil || err.Error() != want {
			t.Errorf("LoadDir error = %v, want %s", err, want)
		}
	})
	t.Run("load too large", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, ".recap.yml", strings.Repeat("#\n", MaxSize))
		want := filepath.Join(dir, ".recap.yml") + ": more than 256 KiB: a configuration is smaller"
		if _, err := LoadDir(dir); err == nil || err.Error() != want {
			t.Errorf("LoadDir error = %v, want %s", err, want)
		}
	})
}

// within runs f, failing the test when it has not returned in 10 s (a
// read that blocks on a FIFO).
func within(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("no answer within 10 s: blocked")
	}
}
