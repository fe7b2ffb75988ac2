package parsers

import (
	"bytes"
	"regexp"
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
	switch strings.ToLower(driver) {
	case "pmd":
		return toolPMD
	case "checkstyle":
		return toolCheckstyle
	case "spotbugs", "findbugs":
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

func (k toolKind) category(rule *sarifRule, ruleID string) string {
	switch k {
	case toolPMD:
		if rule != nil {
			if c := pmdCategory(rule.ruleset, rule.HelpURI); c != "" {
				return c
			}
		}
	case toolCheckstyle:
		return checkstyleCategory(ruleID)
	case toolSpotBugs:
		if rule != nil {
			if tags := rule.tags; len(tags) > 0 {
				return strings.ToUpper(tags[0])
			}
		}
	}
	if rule != nil {
		if c := rule.category; c != "" {
			return c
		}
		for _, t := range rule.tags {
			if t != "" && !strings.ContainsAny(t, "/:") {
				return t
			}
		}
	}
	return reports.Uncategorized
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

// pmdCategory returns the rule's category: the ruleset name when it is one
// of the eight (PMD 6 and 7 write it so), else the category in the rule's
// documentation URL, else the ruleset as written (PMD 4 and 5 rulesets such as
// "Basic Rules"); "" when there is neither.
func pmdCategory(ruleset, helpURI string) string {
	key := strings.ToLower(strings.ReplaceAll(ruleset, " ", ""))
	if c, ok := pmdCategories[key]; ok {
		return c
	}
	if m := pmdHelpCategory.FindStringSubmatch(helpURI); m != nil {
		if c, ok := pmdCategories[m[1]]; ok {
			return c
		}
	}
	return ruleset
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

// checkstyleCategory is the package of the check, the way Checkstyle groups
// its checks: com.puppycrawl.tools.checkstyle.checks.whitespace.X → "whitespace".
// Checks directly in the checks package are "misc", as Checkstyle's own
// documentation files them; the Checker itself (a file it could not parse)
// is "checker"; other producers of Checkstyle XML (ESLint) give no category.
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
	return reports.Uncategorized
}

// checkstyleRuleName is the check's short name: ...sizes.LineLengthCheck → "LineLength".
func checkstyleRuleName(source string) string {
	source, _, _ = strings.Cut(source, "#")
	if i := strings.LastIndexByte(source, '.'); i >= 0 {
		source = source[i+1:]
	}
	return strings.TrimSuffix(source, "Check")
}
