package reports

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The categories of recap's one cross-tool scale (docs/formats.md,
// "Categories"): PMD's eight rule categories, Internationalization for the
// tools that have it (SpotBugs' I18N), and [CategoryOther] for a word of a
// tool that the scale does not know, or no word at all. Every finding has one
// of them; the tool's own word is kept as [Finding.ToolCategory].
const (
	CategoryBestPractices        = "Best Practices"
	CategoryCodeStyle            = "Code Style"
	CategoryDesign               = "Design"
	CategoryDocumentation        = "Documentation"
	CategoryErrorProne           = "Error Prone"
	CategoryMultithreading       = "Multithreading"
	CategoryPerformance          = "Performance"
	CategorySecurity             = "Security"
	CategoryInternationalization = "Internationalization"
	CategoryOther                = "Other"
)

// Categories lists the scale, in the order the documentation gives it.
var Categories = []string{
	CategoryBestPractices, CategoryCodeStyle, CategoryDesign, CategoryDocumentation, CategoryErrorProne,
	CategoryMultithreading, CategoryPerformance, CategorySecurity, CategoryInternationalization, CategoryOther,
}

// Vocabularies name whose words a category table row maps: a tool with words
// of its own, or [VocabularyAny] for words any tool may use.
const (
	VocabularyPMD        = "PMD"
	VocabularyCheckstyle = "Checkstyle"
	VocabularySpotBugs   = "SpotBugs"
	VocabularyAny        = "any"
)

// CategoryRow maps one word of a tool onto the scale.
type CategoryRow struct {
	Vocabulary string // the tool whose word it is, or VocabularyAny
	Word       string // as the tool writes it (compared case-insensitively, spaces, - and _ ignored)
	Category   string
}

// CategoryTable is the mapping of the tools' words onto the scale, the same
// table docs/formats.md shows ("Categories"). A tool's own rows are looked at
// first, then the rows of any tool; the scale's own names map to themselves
// for every tool. A word found nowhere is [CategoryOther].
var CategoryTable = []CategoryRow{
	// PMD 6 and 7 rulesets are the scale's names. PMD 4 and 5 rulesets,
	// written "Basic Rules" or "basic" (the " Rules" suffix is ignored).
	{VocabularyPMD, "Basic", CategoryErrorProne},
	{VocabularyPMD, "Braces", CategoryCodeStyle},
	{VocabularyPMD, "Clone Implementation", CategoryErrorProne},
	{VocabularyPMD, "Code Size", CategoryDesign},
	{VocabularyPMD, "Comments", CategoryDocumentation},
	{VocabularyPMD, "Controversial", CategoryCodeStyle},
	{VocabularyPMD, "Coupling", CategoryDesign},
	{VocabularyPMD, "Empty Code", CategoryErrorProne},
	{VocabularyPMD, "Finalizer", CategoryErrorProne},
	{VocabularyPMD, "Import Statement", CategoryCodeStyle},
	{VocabularyPMD, "J2EE", CategoryBestPractices},
	{VocabularyPMD, "JavaBeans", CategoryErrorProne},
	{VocabularyPMD, "JUnit", CategoryBestPractices},
	{VocabularyPMD, "Jakarta Commons Logging", CategoryBestPractices},
	{VocabularyPMD, "Java Logging", CategoryBestPractices},
	{VocabularyPMD, "Migration", CategoryBestPractices},
	{VocabularyPMD, "Naming", CategoryCodeStyle},
	{VocabularyPMD, "Optimization", CategoryPerformance},
	{VocabularyPMD, "Security Code Guidelines", CategorySecurity},
	{VocabularyPMD, "Strict Exceptions", CategoryDesign},
	{VocabularyPMD, "String and StringBuffer", CategoryPerformance},
	{VocabularyPMD, "Type Resolution", CategoryBestPractices},
	{VocabularyPMD, "Unnecessary", CategoryCodeStyle},
	{VocabularyPMD, "Unused Code", CategoryBestPractices},

	// Checkstyle: the check's package (com.puppycrawl.tools.checkstyle.checks.X);
	// misc is the checks package itself, checker Checkstyle's own errors.
	{VocabularyCheckstyle, "annotation", CategoryBestPractices},
	{VocabularyCheckstyle, "blocks", CategoryCodeStyle},
	{VocabularyCheckstyle, "coding", CategoryErrorProne},
	{VocabularyCheckstyle, "design", CategoryDesign},
	{VocabularyCheckstyle, "duplicates", CategoryDesign},
	{VocabularyCheckstyle, "header", CategoryDocumentation},
	{VocabularyCheckstyle, "imports", CategoryCodeStyle},
	{VocabularyCheckstyle, "indentation", CategoryCodeStyle},
	{VocabularyCheckstyle, "javadoc", CategoryDocumentation},
	{VocabularyCheckstyle, "metrics", CategoryDesign},
	{VocabularyCheckstyle, "misc", CategoryCodeStyle},
	{VocabularyCheckstyle, "modifier", CategoryCodeStyle},
	{VocabularyCheckstyle, "naming", CategoryCodeStyle},
	{VocabularyCheckstyle, "regexp", CategoryCodeStyle},
	{VocabularyCheckstyle, "sizes", CategoryDesign},
	{VocabularyCheckstyle, "whitespace", CategoryCodeStyle},
	{VocabularyCheckstyle, "checker", CategoryOther},

	// SpotBugs and FindBugs bug categories (find-sec-bugs files its bugs
	// under SECURITY). STYLE is "dodgy code": code that invites errors.
	{VocabularySpotBugs, "BAD_PRACTICE", CategoryBestPractices},
	{VocabularySpotBugs, "CORRECTNESS", CategoryErrorProne},
	{VocabularySpotBugs, "MT_CORRECTNESS", CategoryMultithreading},
	{VocabularySpotBugs, "PERFORMANCE", CategoryPerformance},
	{VocabularySpotBugs, "SECURITY", CategorySecurity},
	{VocabularySpotBugs, "STYLE", CategoryErrorProne},
	{VocabularySpotBugs, "MALICIOUS_CODE", CategoryDesign},
	{VocabularySpotBugs, "I18N", CategoryInternationalization},
	{VocabularySpotBugs, "EXPERIMENTAL", CategoryErrorProne},
	{VocabularySpotBugs, "NOISE", CategoryOther},

	// Words other tools write in SARIF (a rule's category property or first
	// tag): CodeQL, ESLint, Semgrep, Trivy, Security Code Scan.
	{VocabularyAny, "style", CategoryCodeStyle},
	{VocabularyAny, "stylistic issues", CategoryCodeStyle},
	{VocabularyAny, "formatting", CategoryCodeStyle},
	{VocabularyAny, "naming", CategoryCodeStyle},
	{VocabularyAny, "maintainability", CategoryDesign},
	{VocabularyAny, "complexity", CategoryDesign},
	{VocabularyAny, "correctness", CategoryErrorProne},
	{VocabularyAny, "reliability", CategoryErrorProne},
	{VocabularyAny, "possible errors", CategoryErrorProne},
	{VocabularyAny, "bug", CategoryErrorProne},
	{VocabularyAny, "concurrency", CategoryMultithreading},
	{VocabularyAny, "vulnerability", CategorySecurity},
	{VocabularyAny, "i18n", CategoryInternationalization},

	// Code Climate's categories (GitLab Code Quality reports); Complexity,
	// Performance, Security and Style are rows above or the scale's names.
	{VocabularyAny, "bug risk", CategoryErrorProne},
	{VocabularyAny, "clarity", CategoryDocumentation},
	{VocabularyAny, "compatibility", CategoryBestPractices},
	{VocabularyAny, "duplication", CategoryDesign},
}

// categoryIndex is CategoryTable by vocabulary and folded word.
var categoryIndex = func() map[[2]string]string {
	m := map[[2]string]string{}
	for _, c := range Categories {
		m[[2]string{VocabularyAny, foldWord(c)}] = c
	}
	for _, r := range CategoryTable {
		m[[2]string{r.Vocabulary, foldWord(r.Word)}] = r.Category
	}
	return m
}()

// Categorize maps a tool's word for a category onto the scale: the rows of
// the tool's vocabulary (PMD, Checkstyle, SpotBugs and FindBugs by the
// tool's name, in any case), then those of any tool; [CategoryOther] for a
// word found nowhere and for no word.
func Categorize(tool, word string) string {
	w := foldWord(word)
	if w == "" {
		return CategoryOther
	}
	if v := vocabulary(tool); v != "" {
		if c, ok := categoryIndex[[2]string{v, w}]; ok {
			return c
		}
		if v == VocabularyPMD { // PMD 4 and 5: "Basic Rules"
			if c, ok := categoryIndex[[2]string{v, strings.TrimSuffix(w, "rules")}]; ok {
				return c
			}
		}
	}
	if c, ok := categoryIndex[[2]string{VocabularyAny, w}]; ok {
		return c
	}
	return CategoryOther
}

func vocabulary(tool string) string {
	t, _ := LookupTool(tool)
	return t.Vocabulary
}

// foldWord lower-cases a word and drops spaces, '-' and '_', so that
// "Best Practices", "bestpractices" and "best-practices" are one word.
func foldWord(s string) string { return string(appendFoldWord(nil, s)) }

// appendFoldWord appends foldWord(s) to dst.
func appendFoldWord(dst []byte, s string) []byte {
	for _, r := range strings.TrimSpace(s) {
		switch r {
		case ' ', '-', '_', '\t':
		default:
			dst = utf8.AppendRune(dst, unicode.ToLower(r))
		}
	}
	if bytes.HasSuffix(dst, []byte("practice")) { // "best practice" and "best practices"
		dst = append(dst, 's')
	}
	return dst
}
