package config

import (
	"strings"
	"unicode/utf8"

	"github.com/recap-dev/recap/reports"
)

// MaxPatternLength bounds a rule pattern and a path glob, in characters:
// a real one is a few dozen. It is [reports.MaxGlobLength], the bound of
// the matchers they are compiled into.
const MaxPatternLength = reports.MaxGlobLength

// A RulePattern names rules as users write them: Tool:Rule, the tool's
// name, a colon, and the rule's short name ([reports.ShortRule]:
// Checkstyle:FinalParameters, PMD:MethodArgumentCouldBeFinal,
// SpotBugs:DM_CONVERT_CASE). Both parts may hold globs: * is any run of
// characters (none included), ? one character, anything else itself
// (SpotBugs:EI_*, *:CommentRequired). Both compare case-insensitively;
// SpotBugs and FindBugs are one tool. The rule part also matches the
// rule's full id (com.puppycrawl.tools.checkstyle.checks.FinalParametersCheck)
// and its name ("Method might ignore exception").
//
// A RulePattern is a plain value; [ParseRulePattern] checks one.
type RulePattern struct {
	Tool string // the part before the first colon
	Rule string // the part after it
	Pos         // where the file says it; zero for a pattern made by ParseRulePattern
}

// Pos is where a value is written in a configuration file.
type Pos struct {
	// Key is the value's path in the file: "exclude.rules[2]".
	Key string
	// Line and Column are 1-based.
	Line, Column int
}

// ParseRulePattern reads a pattern written Tool:Rule. The tool is what
// comes before the first colon (a rule id may hold colons: Sonar:java:S1234);
// neither part may be empty, begin or end with a space, or hold a control
// character, and the pattern has at most [MaxPatternLength] characters.
func ParseRulePattern(s string) (RulePattern, error) {
	if n := utf8.RuneCountInString(s); n > MaxPatternLength {
		return RulePattern{}, errorf("a pattern of %d characters, more than %d", n, MaxPatternLength)
	}
	if i := strings.IndexFunc(s, isControl); i >= 0 {
		return RulePattern{}, errorf("%q holds a control character", s)
	}
	tool, rule, ok := strings.Cut(s, ":")
	switch {
	case !ok:
		return RulePattern{}, errorf("%q names no tool (write Tool:Rule, such as Checkstyle:%s, or \"*:%s\" for every tool)", s, s, s)
	case tool == "":
		return RulePattern{}, errorf("%q names no tool (write Tool:Rule, such as Checkstyle:FinalParameters)", s)
	case rule == "":
		return RulePattern{}, errorf("%q names no rule (write %s:* for every rule of %s)", s, tool, tool)
	case tool != strings.Trim(tool, " ") || rule != strings.Trim(rule, " "):
		return RulePattern{}, errorf("%q: a space around the colon or at an end (write %s:%s)", s, strings.Trim(tool, " "), strings.Trim(rule, " "))
	}
	return RulePattern{Tool: tool, Rule: rule}, nil
}

// String returns the pattern as written: Tool:Rule.
func (p RulePattern) String() string { return p.Tool + ":" + p.Rule }

// Match reports whether the pattern names the rule of a finding of tool:
// the tool part matches the tool, and the rule part the rule's short name
// ([reports.ShortRule]), its full id or its name. It compiles the pattern
// at each call; a Config compiles its patterns once.
func (p RulePattern) Match(tool, rule, ruleName string) bool {
	c, err := p.compile()
	return err == nil && c.match(tool, rule, ruleName)
}

// compiledPattern is a RulePattern made into two wildcards: matching one
// costs time linear in the rule's id and name, whatever the pattern.
type compiledPattern struct {
	tool, rule *reports.Wildcard
}

func (p RulePattern) compile() (compiledPattern, error) {
	tool, err := reports.CompileWildcard(p.Tool)
	if err != nil {
		return compiledPattern{}, err
	}
	rule, err := reports.CompileWildcard(p.Rule)
	if err != nil {
		return compiledPattern{}, err
	}
	return compiledPattern{tool, rule}, nil
}

func (c compiledPattern) match(tool, rule, ruleName string) bool {
	if !c.matchTool(tool) {
		return false
	}
	short := reports.ShortRule(tool, rule)
	return c.rule.Match(short) ||
		short != rule && c.rule.Match(rule) ||
		ruleName != "" && ruleName != short && c.rule.Match(ruleName)
}

// matchTool compares the tool part with a finding's tool; SpotBugs is
// FindBugs' successor, with the same bug patterns, and either name
// matches both.
func (c compiledPattern) matchTool(tool string) bool {
	if c.tool.Match(tool) {
		return true
	}
	switch {
	case strings.EqualFold(tool, "spotbugs"):
		return c.tool.Match("FindBugs")
	case strings.EqualFold(tool, "findbugs"):
		return c.tool.Match("SpotBugs")
	}
	return false
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }
