package config

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/recap-dev/recap/reports"
)

func TestGlobMatch(t *testing.T) {
	tests := []struct {
		pat, s string
		want   bool
	}{
		{"FinalParameters", "FinalParameters", true},
		{"finalparameters", "FinalParameters", true},
		{"FinalParameters", "FinalParameter", false},
		{"*", "", true},
		{"*", "anything.at/all", true},
		{"EI_*", "EI_EXPOSE_REP", true},
		{"EI_*", "EI_", true},
		{"EI_*", "MS_EXPOSE_REP", false},
		{"*_EXPOSE_*", "EI_EXPOSE_REP2", true},
		{"EI_EXPOSE_REP?", "EI_EXPOSE_REP2", true},
		{"EI_EXPOSE_REP?", "EI_EXPOSE_REP", false},
		{"?", "é", true},
		{"?", "", false},
		{"a*b*c", "aXbYc", true},
		{"a*b*c", "aXbY", false},
		{"a*a*a*a*b", strings.Repeat("a", 200), false},
		{"java/sql-injection", "java/SQL-injection", true},
		{"[abc]", "[abc]", true},
		{"[abc]", "a", false},
		{"Straße", "STRASSE", false},
		{"k", "\u212a", true}, // the Kelvin sign folds to k, as strings.EqualFold says
		{"*k", "x\u212a", true},
	}
	globMatch := func(pat, s string) bool {
		w, err := reports.CompileWildcard(pat)
		if err != nil {
			t.Fatal(err)
		}
		return w.Match(s)
	}
	for _, tc := range tests {
		if got := globMatch(tc.pat, tc.s); got != tc.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", tc.pat, tc.s, got, tc.want)
		}
	}
}

func TestRulePatternMatch(t *testing.T) {
	const finalParams = "com.puppycrawl.tools.checkstyle.checks.FinalParametersCheck"
	tests := []struct {
		pattern              string
		tool, rule, ruleName string
		want                 bool
	}{
		{"Checkstyle:FinalParameters", "Checkstyle", finalParams, "FinalParameters", true},
		{"Checkstyle:FinalParameters", "Checkstyle", finalParams, "", true},
		{"checkstyle:finalparameters", "Checkstyle", finalParams, "", true},
		{"Checkstyle:FinalParameters", "Checkstyle", finalParams + "#params", "", true},
		{"Checkstyle:FinalParameters", "Checkstyle", "FinalParameters", "", true}, // SARIF of Checkstyle 10 writes the short id
		{"Checkstyle:" + finalParams, "Checkstyle", finalParams, "", true},
		{"Checkstyle:*.FinalParametersCheck", "Checkstyle", finalParams, "", true},
		{"Checkstyle:FinalParameters", "PMD", "FinalParameters", "", false},
		{"Checkstyle:Final*", "Checkstyle", "com.puppycrawl.tools.checkstyle.checks.coding.FinalLocalVariableCheck", "", true},
		{"Checkstyle:Javadoc*", "Checkstyle", "com.puppycrawl.tools.checkstyle.checks.javadoc.JavadocVariableCheck", "JavadocVariable", true},
		{"Checkstyle:Javadoc*", "Checkstyle", "com.puppycrawl.tools.checkstyle.checks.javadoc.MissingJavadocMethodCheck", "", false},
		{"PMD:MethodArgumentCouldBeFinal", "PMD", "MethodArgumentCouldBeFinal", "", true},
		{"pmd:*", "PMD", "SystemPrintln", "", true},
		{"*:CommentRequired", "PMD", "CommentRequired", "", true},
		{"*:CommentRequired", "Checkstyle", "CommentRequired", "", true},
		{"SpotBugs:DM_CONVERT_CASE", "SpotBugs", "DM_CONVERT_CASE", "Consider using Locale parameterized version of invoked method", true},
		{"SpotBugs:DM_CONVERT_CASE", "FindBugs", "DM_CONVERT_CASE", "", true},
		{"FindBugs:DM_CONVERT_CASE", "SpotBugs", "DM_CONVERT_CASE", "", true},
		{"*Bugs:DM_*", "FindBugs", "DM_CONVERT_CASE", "", true},
		{"SpotBugs:EI_*", "SpotBugs", "EI_EXPOSE_REP2", "", true},
		{"SpotBugs:EI_*", "SpotBugs", "MS_EXPOSE_REP", "", false},
		{"SpotBugs:*ignore exception*", "SpotBugs", "DE_MIGHT_IGNORE", "Method might ignore exception", true},
		{"Sonar:java:S1234", "Sonar", "java:S1234", "", true},
		{"CodeQL:java/sql-injection", "CodeQL", "java/sql-injection", "Query built from user-controlled sources", true},
		{"Code Quality:*", "Code Quality", "complexity", "", true},
		{"*:*", "anything", "", "", true},
	}
	for _, tc := range tests {
		p, err := ParseRulePattern(tc.pattern)
		if err != nil {
			t.Fatalf("ParseRulePattern(%q): %v", tc.pattern, err)
		}
		if p.String() != tc.pattern {
			t.Errorf("String() = %q, want %q", p.String(), tc.pattern)
		}
		if got := p.Match(tc.tool, tc.rule, tc.ruleName); got != tc.want {
			t.Errorf("%s.Match(%q, %q, %q) = %v, want %v", tc.pattern, tc.tool, tc.rule, tc.ruleName, got, tc.want)
		}
	}
}

// matchConfig is the configuration the matching tests share.
const matchConfig = `
exclude:
  paths: [src/generated/**, "*Test.java"]
  rules: [Checkstyle:JavadocVariable, "SpotBugs:EI_*"]
overrides:
  - rules: ["Checkstyle:*"]
    impact: low
    quality: maintainability
  - rules: [Checkstyle:EqualsHashCode]
    impact: high
    quality: reliability
  - rules: [PMD:SystemPrintln]
    severity: note
    category: Best Practices
same:
  - [Checkstyle:FinalParameters, PMD:MethodArgumentCouldBeFinal]
  - [Checkstyle:NeedBraces, PMD:ControlStatementBraces]
  - [PMD:ControlStatementBraces, SpotBugs:XYZ]
`

func mustParse(t testing.TB, in string) *Config {
	t.Helper()
	c, err := Parse("test.yml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func finding(tool, rule, path string) *reports.Finding {
	return &reports.Finding{Tool: tool, Rule: rule, Path: path, Line: 3, Severity: reports.SeverityError,
		Impact: reports.ImpactMedium, Quality: reports.QualitySecurity, Category: reports.CategoryCodeStyle, ToolCategory: "coding"}
}

func TestExcluded(t *testing.T) {
	c := mustParse(t, matchConfig)
	tests := []struct {
		f    *reports.Finding
		want bool
	}{
		{finding("Checkstyle", "com.puppycrawl.tools.checkstyle.checks.javadoc.JavadocVariableCheck", "src/main/A.java"), true},
		{finding("Checkstyle", "com.puppycrawl.tools.checkstyle.checks.javadoc.JavadocMethodCheck", "src/main/A.java"), false},
		{finding("SpotBugs", "EI_EXPOSE_REP", "src/main/A.java"), true},
		{finding("PMD", "EI_EXPOSE_REP", "src/main/A.java"), false},
		{finding("PMD", "SystemPrintln", "src/generated/deep/B.java"), true},
		{finding("PMD", "SystemPrintln", "src/generatedX/B.java"), false},
		{finding("PMD", "SystemPrintln", "src/test/java/ATest.java"), true},
		{finding("PMD", "SystemPrintln", "ATest.java"), true},
		{finding("PMD", "SystemPrintln", "src/main/ATest.javax"), false},
		{finding("PMD", "SystemPrintln", ""), false},
	}
	for range 2 { // the second time from the caches
		for _, tc := range tests {
			if got := c.Excluded(tc.f); got != tc.want {
				t.Errorf("Excluded(%s %s %s) = %v, want %v", tc.f.Tool, tc.f.Rule, tc.f.Path, got, tc.want)
			}
		}
	}
}

func TestApply(t *testing.T) {
	c := mustParse(t, matchConfig)
	tests := map[string]struct {
		f    *reports.Finding
		want *reports.Finding
	}{
		"the general override": {
			finding("Checkstyle", "com.puppycrawl.tools.checkstyle.checks.FinalParametersCheck", "A.java"),
			&reports.Finding{Impact: reports.ImpactLow, Quality: reports.QualityMaintainability},
		},
		"a later override wins, field by field": {
			finding("Checkstyle", "com.puppycrawl.tools.checkstyle.checks.coding.EqualsHashCodeCheck", "A.java"),
			&reports.Finding{Impact: reports.ImpactHigh, Quality: reports.QualityReliability},
		},
		"severity and category": {
			finding("PMD", "SystemPrintln", "A.java"),
			&reports.Finding{Severity: reports.SeverityNote, Category: reports.CategoryBestPractices},
		},
		"no override": {
			finding("PMD", "UnusedLocalVariable", "A.java"),
			&reports.Finding{},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			want := *tc.f
			if tc.want.Impact != 0 {
				want.Impact = tc.want.Impact
			}
			if tc.want.Quality != 0 {
				want.Quality = tc.want.Quality
			}
			if tc.want.Severity != 0 {
				want.Severity = tc.want.Severity
			}
			if tc.want.Category != "" {
				want.Category = tc.want.Category
			}
			got := *tc.f
			c.Apply(&got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Apply mismatch (-want +got):\n%s", diff)
			}
			if got.ToolCategory != "coding" {
				t.Errorf("ToolCategory = %q, want the tool's word kept", got.ToolCategory)
			}
		})
	}
}

func TestSameRule(t *testing.T) {
	c := mustParse(t, matchConfig)
	cs := func(check string) *reports.Finding {
		return finding("Checkstyle", "com.puppycrawl.tools.checkstyle.checks."+check+"Check", "A.java")
	}
	tests := []struct {
		a, b *reports.Finding
		want bool
	}{
		{cs("FinalParameters"), finding("PMD", "MethodArgumentCouldBeFinal", "B.java"), true},
		{finding("PMD", "MethodArgumentCouldBeFinal", "B.java"), cs("FinalParameters"), true},
		{cs("blocks.NeedBraces"), finding("PMD", "ControlStatementBraces", "A.java"), true},
		{finding("PMD", "ControlStatementBraces", "A.java"), finding("SpotBugs", "XYZ", "A.java"), true},
		// Groups do not chain: NeedBraces ~ ControlStatementBraces ~ XYZ, not NeedBraces ~ XYZ.
		{cs("blocks.NeedBraces"), finding("SpotBugs", "XYZ", "A.java"), false},
		{cs("FinalParameters"), finding("PMD", "ControlStatementBraces", "A.java"), false},
		{cs("FinalParameters"), cs("FinalParameters"), true},
		{finding("PMD", "X", "A.java"), finding("PMD", "X", "A.java"), false},
	}
	for _, tc := range tests {
		if got := c.SameRule(tc.a, tc.b); got != tc.want {
			t.Errorf("SameRule(%s:%s, %s:%s) = %v, want %v", tc.a.Tool, tc.a.Rule, tc.b.Tool, tc.b.Rule, got, tc.want)
		}
	}
}

func TestUnmatched(t *testing.T) {
	c := mustParse(t, matchConfig)
	for _, f := range []*reports.Finding{
		finding("Checkstyle", "com.puppycrawl.tools.checkstyle.checks.FinalParametersCheck", "src/generated/A.java"),
		finding("PMD", "ControlStatementBraces", "B.java"),
	} {
		c.Excluded(f)
		c.Apply(f)
	}
	rules, paths := c.Unmatched()
	var got []string
	for _, r := range rules {
		got = append(got, fmt.Sprintf("%d:%d %s %s", r.Line, r.Column, r.Key, r))
	}
	for _, p := range paths {
		got = append(got, fmt.Sprintf("%d:%d %s %s", p.Line, p.Column, p.Key, p.Glob))
	}
	want := []string{
		"4:11 exclude.rules[0] Checkstyle:JavadocVariable",
		"4:39 exclude.rules[1] SpotBugs:EI_*",
		"9:13 overrides[1].rules[0] Checkstyle:EqualsHashCode",
		"12:13 overrides[2].rules[0] PMD:SystemPrintln",
		"16:34 same[0][1] PMD:MethodArgumentCouldBeFinal",
		"17:6 same[1][0] Checkstyle:NeedBraces",
		"18:34 same[2][1] SpotBugs:XYZ",
		"3:29 exclude.paths[1] *Test.java",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Unmatched mismatch (-want +got):\n%s", diff)
	}
}

func TestNilConfig(t *testing.T) {
	var c *Config
	f := finding("PMD", "X", "A.java")
	before := *f
	if c.Excluded(f) || c.SameRule(f, f) {
		t.Error("a nil Config excluded or grouped a finding")
	}
	c.Apply(f)
	if diff := cmp.Diff(before, *f); diff != "" {
		t.Errorf("a nil Config changed the finding:\n%s", diff)
	}
	if r, p := c.Unmatched(); r != nil || p != nil {
		t.Errorf("Unmatched = %v, %v", r, p)
	}
	var empty Config
	if empty.Excluded(f) || empty.SameRule(f, f) {
		t.Error("an empty Config excluded or grouped a finding")
	}
}

// TestConcurrentMatching runs every method from many goroutines at once
// (the MCP server shares one configuration between calls); go test -race
// checks it.
func TestConcurrentMatching(t *testing.T) {
	c := mustParse(t, matchConfig)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				f := finding("Checkstyle", fmt.Sprintf("Rule%d", (i+g)%300), fmt.Sprintf("src/%d/A.java", i%500))
				if c.Excluded(f) {
					t.Errorf("%s excluded", f.Rule)
				}
				c.Apply(f)
				if f.Impact != reports.ImpactLow {
					t.Errorf("%s: impact %v, want low", f.Rule, f.Impact)
				}
				c.SameRule(f, f)
				if i%500 == 0 {
					c.Unmatched()
				}
			}
		})
	}
	wg.Wait()
}

// TestPastTheCache: answers stay right for more distinct rules and paths
// than the caches keep.
func TestPastTheCache(t *testing.T) {
	c := mustParse(t, "exclude:\n  paths: [\"*/7/*\"]\n  rules: [\"PMD:R*9\"]\n")
	for i := range maxSnapshot + maxCached + 1000 {
		f := finding("PMD", fmt.Sprintf("R%d", i), fmt.Sprintf("d/%d/A.java", i%10))
		want := strings.HasSuffix(f.Rule, "9") || i%10 == 7
		if got := c.Excluded(f); got != want {
			t.Fatalf("Excluded(%s, %s) = %v, want %v", f.Rule, f.Path, got, want)
		}
	}
	m := c.matcher()
	if n := m.size; n != maxSnapshot {
		t.Errorf("%d rules in the snapshot, want its bound %d", n, maxSnapshot)
	}
	if len(m.overflow) != maxCached || len(m.paths) != 10 {
		t.Errorf("%d rules, %d paths in the maps, want %d and 10", len(m.overflow), len(m.paths), maxCached)
	}
	// After the bound, still right.
	f := finding("PMD", "R99999999", "x.java")
	if !c.Excluded(f) {
		t.Error("R99999999 not excluded past the bound")
	}
}
