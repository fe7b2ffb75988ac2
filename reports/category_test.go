package reports

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCategorize(t *testing.T) {
	tests := []struct {
		tool, word, want string
	}{
		{"PMD", "Best Practices", CategoryBestPractices},
		{"PMD", "bestpractices", CategoryBestPractices},
		{"PMD", "Basic Rules", CategoryErrorProne},
		{"PMD", "Import Statement Rules", CategoryCodeStyle},
		{"PMD", "Unused Code Rules", CategoryBestPractices},
		{"pmd", "Test Ruleset", CategoryOther},
		{"Checkstyle", "whitespace", CategoryCodeStyle},
		{"Checkstyle", "coding", CategoryErrorProne},
		{"Checkstyle", "design", CategoryDesign},
		{"Checkstyle", "checker", CategoryOther},
		{"SpotBugs", "BAD_PRACTICE", CategoryBestPractices},
		{"FindBugs", "STYLE", CategoryErrorProne},
		{"SpotBugs", "MT_CORRECTNESS", CategoryMultithreading},
		{"SpotBugs", "I18N", CategoryInternationalization},
		{"SpotBugs", "security", CategorySecurity},
		{"Semgrep OSS", "style", CategoryCodeStyle}, // any tool's style is code style, SpotBugs' is not
		{"Trivy", "vulnerability", CategorySecurity},
		{"Security Code Scan", "Security", CategorySecurity},
		{"CodeQL", "maintainability", CategoryDesign},
		{"ESLint", "Possible Errors", CategoryErrorProne},
		{"ESLint", "best-practices", CategoryBestPractices},
		{"ESLint", "Other", CategoryOther},
		{"X", "Internationalization", CategoryInternationalization},
		{"X", "frobnication", CategoryOther},
		{"X", "", CategoryOther},
		{"Checkstyle", "  ", CategoryOther},
	}
	for _, tc := range tests {
		if got := Categorize(tc.tool, tc.word); got != tc.want {
			t.Errorf("Categorize(%q, %q) = %q, want %q", tc.tool, tc.word, got, tc.want)
		}
	}
}

// TestCategoryTableDocumented: docs/formats.md shows CategoryTable row for
// row, and the scale.
func TestCategoryTableDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/formats.md")
	if err != nil {
		t.Skipf("no docs: %v", err)
	}
	section := string(doc)
	start := strings.Index(section, "\n## Categories")
	if start < 0 {
		t.Fatal("docs/formats.md has no Categories section")
	}
	section = section[start+1:]
	if end := strings.Index(section, "\n## "); end > 0 {
		section = section[:end]
	}
	voc := map[string]string{"PMD": VocabularyPMD, "Checkstyle": VocabularyCheckstyle, "SpotBugs": VocabularySpotBugs, "any": VocabularyAny}
	var rows []CategoryRow
	var scale []string
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		switch {
		case len(cells) == 3 && voc[cells[0]] != "":
			rows = append(rows, CategoryRow{Vocabulary: voc[cells[0]], Word: strings.Trim(cells[1], "`"), Category: cells[2]})
		case len(cells) == 2 && strings.HasPrefix(cells[0], "`"):
			scale = append(scale, strings.Trim(cells[0], "`"))
		}
	}
	if diff := cmp.Diff(CategoryTable, rows); diff != "" {
		t.Errorf("docs/formats.md's category table differs from CategoryTable (-code +docs):\n%s", diff)
	}
	if diff := cmp.Diff(Categories, scale); diff != "" {
		t.Errorf("docs/formats.md's scale differs from Categories (-code +docs):\n%s", diff)
	}
	for _, r := range CategoryTable {
		if got := Categorize(r.Vocabulary, r.Word); r.Vocabulary != VocabularyAny && got != r.Category {
			t.Errorf("row %v: Categorize gives %q", r, got)
		}
	}
}
