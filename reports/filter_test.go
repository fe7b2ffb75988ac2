package reports

import (
	"slices"
	"testing"
)

func TestFilter(t *testing.T) {
	f := Finding{Tool: "PMD", Rule: "com.x.checks.LineLengthCheck", RuleName: "LineLength", Category: "Code Style",
		Severity: SeverityWarning, Path: "core/src/main/java/a/B.java", Message: "Line is longer than 100 characters"}
	tests := map[string]struct {
		filter Filter
		want   bool
	}{
		"zero value":               {Filter{}, true},
		"category, any case":       {Filter{Categories: []string{"design", "code style"}}, true},
		"other category":           {Filter{Categories: []string{"Design"}}, false},
		"min severity met":         {Filter{MinSeverity: SeverityWarning}, true},
		"min severity not met":     {Filter{MinSeverity: SeverityError}, false},
		"tool":                     {Filter{Tools: []string{"pmd"}}, true},
		"other tool":               {Filter{Tools: []string{"Checkstyle"}}, false},
		"rule by id":               {Filter{Rules: []string{"com.x.checks.LineLengthCheck"}}, true},
		"rule by name":             {Filter{Rules: []string{"linelength"}}, true},
		"other rule":               {Filter{Rules: []string{"MagicNumber"}}, false},
		"grep":                     {Filter{Grep: "LONGER than"}, true},
		"grep miss":                {Filter{Grep: "shorter"}, false},
		"glob **":                  {Filter{Paths: []string{"core/**/*.java"}}, true},
		"glob ** at start":         {Filter{Paths: []string{"**/a/B.java"}}, true},
		"glob base name anywhere":  {Filter{Paths: []string{"B.java"}}, true},
		"glob * stays in segment":  {Filter{Paths: []string{"core/*.java"}}, false},
		"glob other dir":           {Filter{Paths: []string{"web/**"}}, false},
		"glob class":               {Filter{Paths: []string{"**/[AB].java"}}, true},
		"combined, all match":      {Filter{Tools: []string{"PMD"}, MinSeverity: SeverityNote, Paths: []string{"**/*.java"}}, true},
		"combined, one step fails": {Filter{Tools: []string{"PMD"}, MinSeverity: SeverityError}, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if err := tc.filter.Compile(); err != nil {
				t.Fatal(err)
			}
			if got := tc.filter.Match(f); got != tc.want {
				t.Errorf("Match = %v, want %v", got, tc.want)
			}
		})
	}
	bad := Filter{Paths: []string{"src/[a"}}
	if err := bad.Compile(); err == nil {
		t.Error("Compile accepted a bad glob")
	}
}

func TestLess(t *testing.T) {
	a := Finding{Severity: SeverityError, Category: "Z"}
	b := Finding{Severity: SeverityWarning, Category: "A"}
	c := Finding{Severity: SeverityWarning, Category: "A", Rule: "R", Path: "a", Line: 2}
	d := Finding{Severity: SeverityWarning, Category: "A", Rule: "R", Path: "a", Line: 10}
	order := []*Finding{&a, &b, &c, &d}
	for i := 0; i+1 < len(order); i++ {
		if !Less(order[i], order[i+1]) || Less(order[i+1], order[i]) {
			t.Errorf("order broken between %d and %d", i, i+1)
		}
	}
}

func TestFilterSecurity(t *testing.T) {
	style := Finding{Tool: "Checkstyle", Category: CategoryCodeStyle, ToolCategory: "whitespace", Severity: SeverityWarning}
	sqli := Finding{Tool: "CodeQL", Category: CategoryOther, Severity: SeverityError, CWE: []int{89, 564}}
	scored := Finding{Tool: "Trivy", Category: CategoryOther, Severity: SeverityWarning, SecuritySeverity: 5.3}
	spot := Finding{Tool: "SpotBugs", Category: CategorySecurity, ToolCategory: "SECURITY", Severity: SeverityWarning}
	deadStore := Finding{Tool: "SpotBugs", Rule: "DLS_DEAD_LOCAL_STORE", Category: CategoryErrorProne, ToolCategory: "STYLE", Severity: SeverityNote, CWE: []int{563}}
	all := []Finding{style, sqli, scored, spot, deadStore}
	for i, tags := range [][]string{nil, {"security", "external/cwe/cwe-089"}, nil, nil, nil} {
		f := &all[i]
		f.Quality, f.Impact = Assess(&Signals{Tool: f.Tool, Rule: f.Rule, Category: f.Category, ToolCategory: f.ToolCategory,
			SecuritySeverity: f.SecuritySeverity, Tags: tags, CWE: f.CWE, Level: f.Severity})
	}
	tests := map[string]struct {
		filter Filter
		want   []int // indexes into all
	}{
		"the scale's name":                 {Filter{Categories: []string{"code style"}}, []int{0}},
		"the tool's word":                  {Filter{Categories: []string{"WHITESPACE"}}, []int{0}},
		"SpotBugs' word":                   {Filter{Categories: []string{"security"}}, []int{3}},
		"words as the table compares them": {Filter{Categories: []string{"code-style", "white_space"}}, []int{0}},
		"none of them":                     {Filter{Categories: []string{"codestyles", "multi-threading"}}, nil},
		"security":                         {Filter{Security: true}, []int{1, 2, 3}},
		"a CWE":                            {Filter{CWE: []int{564}}, []int{1}},
		"a CWE without security":           {Filter{CWE: []int{563}}, []int{4}},
		"security, not a CWE alone":        {Filter{Security: true, CWE: []int{563}}, nil},
		"an impact":                        {Filter{MinImpact: ImpactHigh}, []int{1}},
		"a quality":                        {Filter{Qualities: []Quality{QualityReliability, QualityMaintainability}}, []int{0, 4}},
		"another CWE":                      {Filter{CWE: []int{79}}, nil},
		"security and a tool":              {Filter{Security: true, Tools: []string{"trivy"}}, []int{2}},
		"security and CWE any":             {Filter{Security: true, CWE: []int{79, 89}}, []int{1}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var got []int
			for i, f := range all {
				if tc.filter.Match(f) {
					got = append(got, i)
				}
			}
			if !equalInts(got, tc.want) {
				t.Errorf("matched %v, want %v", got, tc.want)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestParseCWE(t *testing.T) {
	for in, want := range map[string]int{"89": 89, "CWE-89": 89, "cwe89": 89, " CWE-1004 ": 1004, "x": 0, "CWE-": 0, "-3": 0, "0": 0} {
		got, err := ParseCWE(in)
		if got != want || (err != nil) != (want == 0) {
			t.Errorf("ParseCWE(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}

// TestSortKeyAgrees: a finding's sort key orders as the finding does.
func TestSortKeyAgrees(t *testing.T) {
	var fs []Finding
	for _, sev := range Severities {
		for _, cat := range []string{"A", "B"} {
			for _, rule := range []string{"R", "S"} {
				for _, path := range []string{"a", "b"} {
					for _, line := range []int{1, 2} {
						for _, col := range []int{0, 3} {
							for _, id := range []FindingID{ID("x", 1), ID("x", 2)} {
								fs = append(fs, Finding{Severity: sev, Category: cat, Rule: rule, Path: path, Line: line, Column: col, ID: id, Message: id.String()})
							}
						}
					}
				}
			}
		}
	}
	for i := range fs {
		for j := range fs {
			ki, kj := KeyOf(&fs[i]), KeyOf(&fs[j])
			if ki.Less(&kj) != Less(&fs[i], &fs[j]) {
				t.Fatalf("key and finding order differ for %+v and %+v", fs[i], fs[j])
			}
		}
	}
}

// TestGlobNonASCII: a glob's characters outside ASCII match themselves,
// written literally, escaped, in a class, or as what ? and * stand for.
func TestGlobNonASCII(t *testing.T) {
	const p = "src/com/acme/ünï/Naïve.java"
	tests := map[string]bool{
		"src/com/acme/ünï/Naïve.java": true,
		"**/ünï/*.java":               true,
		"**/Na?ve.java":               true,
		"Naïve.java":                  true,
		`**/Na\ïve.java`:              true,
		"**/Na[ïi]ve.java":            true,
		"**/Na[^ï]ve.java":            false,
		"**/Naive.java":               false,
		"**/Na??ve.java":              false, // ï is one character, not two bytes
		"src/com/acme/ü*/日本.java":     false,
	}
	for glob, want := range tests {
		g, err := CompileGlobs([]string{glob})
		if err != nil {
			t.Fatalf("%s: %v", glob, err)
		}
		if got := g.Match(p); got != want {
			t.Errorf("%s matches %s: %v, want %v", glob, p, got, want)
		}
	}
	g, _ := CompileGlobs([]string{"src/*/日本.java"})
	if !g.Match("src/ü/日本.java") {
		t.Error("src/*/日本.java does not match src/ü/日本.java")
	}
}

// TestFilterPathsUnderRoot: a --path glob that begins with the root (an
// absolute path inside the repository) is read relative to it, as the
// findings name their files; others stay as given (a report made
// elsewhere keeps absolute paths outside the repository).
func TestFilterPathsUnderRoot(t *testing.T) {
	for _, tc := range []struct {
		root string
		in   []string
		want []string
	}{
		{"/work/proj", []string{"/work/proj/src/**"}, []string{"src/**"}},
		{"/work/proj/", []string{"/work/proj/src/A.java", "lib/**"}, []string{"src/A.java", "lib/**"}},
		{"/work/proj", []string{"/work/project/src/**", "/etc/**", "../x"}, []string{"/work/project/src/**", "/etc/**", "../x"}},
		{"/work/proj", []string{"/work/proj/"}, []string{"/work/proj/"}},
		{"", []string{"/work/proj/src/**"}, []string{"/work/proj/src/**"}},
		{"proj", []string{"proj/src/**"}, []string{"proj/src/**"}},
	} {
		f, err := ParseFilter(FilterWords{Paths: tc.in, Root: tc.root})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(f.Paths, tc.want) {
			t.Errorf("root %q, paths %q: %q, want %q", tc.root, tc.in, f.Paths, tc.want)
		}
		if tc.want[0] == "src/**" && !f.Match(Finding{Path: "src/A.java"}) {
			t.Errorf("root %q, paths %q: src/A.java not matched", tc.root, tc.in)
		}
	}
}
