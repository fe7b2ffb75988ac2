package parsers

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/recap-dev/recap/reports"
)

// toolKind is the tool knowledge recap applies inside SARIF: PMD, Checkstyle
// and SpotBugs write SARIF with their own conventions for categories and
// priorities.
type toolKind uint8

const (
	toolGeneric toolKind = iota
	toolPMD
	toolCheckstyle
	toolSpotBugs
)

func sarifToolKind(driver string) toolKind {
	t, _ := reports.LookupTool(driver)
	switch t.Vocabulary {
	case reports.VocabularyPMD:
		return toolPMD
	case reports.VocabularyCheckstyle:
		return toolCheckstyle
	case reports.VocabularySpotBugs:
		return toolSpotBugs
	}
	return toolGeneric
}

// severity applies the severity mapping (docs/formats.md): the SARIF level chain (the caller has already
// fallen back from the result's level to the rule's default); older PMD SARIF
// has no level at all, and PMD's priority decides; otherwise "warning" (§3.27.10).
func (k toolKind) severity(level string, rule *sarifRule) (reports.Severity, int) {
	prio := 0
	if k == toolPMD && rule != nil {
		prio = rule.priority
	}
	switch level {
	case "error":
		return reports.SeverityError, prio
	case "warning":
		return reports.SeverityWarning, prio
	case "note", "none":
		return reports.SeverityNote, prio
	}
	if prio > 0 {
		return pmdSeverity(prio), prio
	}
	return reports.SeverityWarning, prio
}

// category returns the rule's category on recap's scale and the tool's own
// word for it: recap's own toolCategory property (its SARIF read back),
// else PMD's ruleset (or its help URI's category), Checkstyle's check
// package, SpotBugs' first tag, or another tool's category property or
// first tag that is not a path or URI.
func (k toolKind) category(tool string, rule *sarifRule, ruleID string) (category, word string) {
	if rule != nil && rule.props != nil && rule.props.recapCategory {
		if w := rule.props.toolCategory; w != "" {
			return reports.Categorize(tool, w), w
		}
		return reports.Categorize(tool, rule.category), "" // recap's category property is on its scale
	}
	switch k {
	case toolPMD:
		if rule != nil {
			return pmdCategory(rule.ruleset, rule.HelpURI)
		}
	case toolCheckstyle:
		word := checkstyleCategory(ruleID)
		return reports.Categorize(tool, word), word
	case toolSpotBugs:
		if rule != nil && len(rule.tags) > 0 {
			word := strings.ToUpper(rule.tags[0])
			return reports.Categorize(tool, word), word
		}
	}
	if rule != nil {
		word := rule.category
		for _, t := range rule.tags {
			if word == "" && t != "" && !strings.ContainsAny(t, "/:") {
				word = t
			}
		}
		return reports.Categorize(tool, word), word
	}
	return reports.CategoryOther, ""
}

func (k toolKind) ruleName(rule *sarifRule, ruleID string) string {
	if rule != nil && rule.Name != "" {
		return rule.Name
	}
	if k == toolCheckstyle {
		return checkstyleRuleName(ruleID)
	}
	return ""
}

func stringProperty(raw []byte) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	if body := raw[1 : len(raw)-1]; bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return string(body)
	}
	// Invalid UTF-8 and lone surrogates come back replaced by U+FFFD, as
	// the decoder gives them.
	u, _ := jsontext.AppendUnquote(nil, raw)
	return string(u)
}

// intProperty reads a number, or a string holding one (tools differ).
func intProperty(raw []byte) int {
	text := strings.TrimSpace(string(raw))
	if len(raw) > 0 && raw[0] == '"' {
		text = strings.TrimSpace(stringProperty(raw))
	}
	n, err := strconv.ParseFloat(text, 64)
	if err != nil || n < 0 || n >= 1e6 {
		return 0
	}
	return int(n)
}

// tagsProperty reads an array of strings; anything else gives no tags.
func tagsProperty(raw []byte) []string {
	rest := bytes.TrimLeft(raw, " \t\r\n")
	if len(rest) == 0 || rest[0] != '[' {
		return nil
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	if len(rest) > 0 && rest[0] == ']' {
		return nil
	}
	var tags []string
	for {
		if len(rest) == 0 || rest[0] != '"' {
			return nil
		}
		end := 1
		for end < len(rest) && rest[end] != '"' {
			if rest[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(rest) {
			return nil
		}
		tags = append(tags, stringProperty(rest[:end+1]))
		rest = bytes.TrimLeft(rest[end+1:], " \t\r\n")
		switch {
		case len(rest) > 0 && rest[0] == ',':
			rest = bytes.TrimLeft(rest[1:], " \t\r\n")
		case len(rest) > 0 && rest[0] == ']':
			if len(bytes.TrimLeft(rest[1:], " \t\r\n")) > 0 {
				return nil
			}
			return tags
		default:
			return nil
		}
	}
}

// pmdCategories are PMD's eight rule categories (since PMD 6), keyed by the
// name in their documentation URLs (pmd_rules_java_bestpractices.html).
var pmdCategories = map[string]string{
	"bestpractices":  "Best Practices",
	"codestyle":      "Code Style",
	"design":         "Design",
	"documentation":  "Documentation",
	"errorprone":     "Error Prone",
	"multithreading": "Multithreading",
	"performance":    "Performance",
	"security":       "Security",
}

var pmdHelpCategory = regexp.MustCompile(`pmd_rules_[a-z0-9]+_([a-z]+)\.html`)

// pmdCategory returns the rule's category and PMD's word for it, the
// ruleset: one of the eight (PMD 6 and 7 write them so), else the category
// of the rule's documentation URL when it has one (a ruleset of a
// project's own), else the ruleset mapped by the category table (PMD 4 and 5
// rulesets such as "Basic Rules").
func pmdCategory(ruleset, helpURI string) (category, word string) {
	key := strings.ToLower(strings.ReplaceAll(ruleset, " ", ""))
	if c, ok := pmdCategories[key]; ok {
		return c, ruleset
	}
	if m := pmdHelpCategory.FindStringSubmatch(helpURI); m != nil {
		if c, ok := pmdCategories[m[1]]; ok {
			return c, ruleset
		}
	}
	return reports.Categorize("PMD", ruleset), ruleset
}

// pmdSeverity maps PMD's priority (1 high … 5 low): 1–2 → error, 3 → warning,
// 4–5 → note. A priority outside 1–5 is a warning.
func pmdSeverity(priority int) reports.Severity {
	switch {
	case priority == 1 || priority == 2:
		return reports.SeverityError
	case priority == 4 || priority == 5:
		return reports.SeverityNote
	}
	return reports.SeverityWarning
}

// checkstyleCategory is Checkstyle's word for a check's category, its
// package, the way Checkstyle groups its checks:
// com.puppycrawl.tools.checkstyle.checks.whitespace.X → "whitespace".
// Checks directly in the checks package are "misc", as Checkstyle's own
// documentation files them; the Checker itself (a file it could not parse)
// is "checker"; other producers of Checkstyle XML (ESLint) give no word.
func checkstyleCategory(source string) string {
	source, _, _ = strings.Cut(source, "#") // a module id suffix
	const checks = "com.puppycrawl.tools.checkstyle.checks."
	if rest, ok := strings.CutPrefix(source, checks); ok {
		if pkg, _, ok := strings.Cut(rest, "."); ok {
			return pkg
		}
		return "misc"
	}
	if strings.HasPrefix(source, "com.puppycrawl.tools.checkstyle.") {
		return "checker"
	}
	return ""
}

// checkstyleRuleName is the check's short name: ...sizes.LineLengthCheck → "LineLength".
func checkstyleRuleName(source string) string {
	source, _, _ = strings.Cut(source, "#")
	if i := strings.LastIndexByte(source, '.'); i >= 0 {
		source = source[i+1:]
	}
	return strings.TrimSuffix(source, "Check")
}

// Bounds of what a rule or a result says of security.
const (
	// maxCWE bounds the CWE ids kept of a rule or a result.
	maxCWE = 16
	// maxRuleTags bounds the tags kept of a rule (GitHub's code scanning
	// takes 20).
	maxRuleTags = 20
)

// addCWE adds id (0: none) to the ascending list ids, at most maxCWE.
func addCWE(ids []int, id int) []int {
	if id <= 0 {
		return ids
	}
	i, found := slices.BinarySearch(ids, id)
	if found || len(ids) >= maxCWE {
		return ids
	}
	return slices.Insert(ids, i, id)
}

// tagCWE reads a CWE id from a tag as tools write them:
// "external/cwe/cwe-89" (CodeQL), "CWE-89", "CWE-89: Improper …" (Semgrep);
// 0 when it names none.
func tagCWE(tag string) int {
	l := strings.ToLower(tag)
	i := strings.LastIndex(l, "cwe")
	if i < 0 || i > 0 && isWordByte(l[i-1]) {
		return 0
	}
	rest := l[i+3:]
	if len(rest) > 0 && (rest[0] == '-' || rest[0] == '_' || rest[0] == '/' || rest[0] == ':' || rest[0] == ' ') {
		rest = rest[1:]
	}
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 || n > 6 || n < len(rest) && isWordByte(rest[n]) {
		return 0
	}
	id, _ := strconv.Atoi(rest[:n])
	return id
}

// cweProperty reads the CWE ids of a cwe property: a string or an array of
// strings, each as a tag names it ("CWE-79", "CWE-798: Use of Hard-coded
// Credentials", "cwe-89").
func cweProperty(raw []byte) []int {
	words := tagsProperty(raw)
	if len(words) == 0 {
		words = []string{stringProperty(raw)}
	}
	var ids []int
	for _, w := range words {
		w, _, _ = strings.Cut(w, ":")
		if id := tagCWE(w); id > 0 && len(ids) < maxCWE {
			ids = append(ids, id)
		}
	}
	return ids
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// taxonCWE is the CWE id a reference to a taxon names (§3.52): one whose
// tool component is named CWE ("22", "CWE-22"); 0 otherwise.
func taxonCWE(ref *sarifRuleRef) int {
	if ref.ToolComponent == nil || !strings.EqualFold(ref.ToolComponent.Name, "CWE") {
		return 0
	}
	id := strings.TrimSpace(ref.ID)
	if len(id) > 4 && strings.EqualFold(id[:4], "cwe-") {
		id = id[4:]
	}
	n, err := strconv.Atoi(id)
	if err != nil || n <= 0 || n >= 1e6 {
		return 0
	}
	return n
}

// severityProperty reads security-severity, a number in a string ("8.8")
// or a number, from 0.1 to 10.0 as GitHub's code scanning reads it, or a
// severity word (see severityWords); 0 otherwise. word is false for a value
// that is neither (a warning names it).
func severityProperty(raw []byte) (sev float64, known bool) {
	text := strings.TrimSpace(string(raw))
	if len(raw) > 0 && raw[0] == '"' {
		text = strings.TrimSpace(stringProperty(raw))
	}
	if text == "" || text == "null" {
		return 0, true
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		w, ok := severityWords[strings.ToLower(text)]
		return w, ok
	}
	if !(f > 0 && f <= 10) {
		return 0, true
	}
	return f, true
}

// severityWords are the words tools write as a security severity instead
// of a number (Semgrep's "MEDIUM"), read as the lowest number of the band
// GitHub's code scanning gives the word (critical 9.0 and over, high 7.0 to
// 8.9, medium 4.0 to 6.9, low 0.1 to 3.9): the finding stays in its band,
// and no graver than its tool said. "moderate" is GitHub advisories' word
// for medium, "important" Red Hat's for high; the words of no severity give
// none.
var severityWords = map[string]float64{
	"critical": 9.0, "high": 7.0, "important": 7.0, "medium": 4.0, "moderate": 4.0, "low": 0.1,
	"none": 0, "info": 0, "informational": 0, "negligible": 0, "unknown": 0,
}
