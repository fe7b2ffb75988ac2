package reports

import (
	"net/url"
	"reflect"
	"sort"
	"strings"
	"unsafe"

	"github.com/recap-dev/recap/internal/text"
)

// Rule is what a report says of one rule, in the tool's own words: held
// once per rule on the input ([Rules]), not per finding.
type Rule struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
	// Short and Full are the rule's short and full descriptions (SARIF
	// shortDescription, fullDescription; SpotBugs' ShortDescription and
	// Details), plain text with line breaks; HTML is turned into text.
	Short string `json:"shortDescription,omitempty"`
	Full  string `json:"fullDescription,omitempty"`
	// Help is the rule's help as text (SARIF help.text, else its
	// help.markdown), when it says more than Full; HelpMarkdown the help's
	// Markdown (help.markdown) when the report gives one.
	Help         string `json:"help,omitempty"`
	HelpMarkdown string `json:"helpMarkdown,omitempty"`
	HelpURI      string `json:"helpUri,omitempty"`
	// Tags are the rule's tags (SARIF properties.tags).
	Tags []string `json:"tags,omitempty"`
	// SecuritySeverity is SARIF's properties.security-severity (0 none),
	// Precision properties.precision (very-high, high, medium, low).
	SecuritySeverity float64 `json:"securitySeverity,omitempty"`
	Precision        string  `json:"precision,omitempty"`
	// CWE lists the rule's CWE ids, ascending.
	CWE []int `json:"cwe,omitempty"`
}

// Bounds of an input's rule table (docs/formats.md, "Limits").
const (
	// MaxRules bounds the rules kept of one input: ESLint, Semgrep and
	// CodeQL runs declare hundreds to a few thousand.
	MaxRules = 10000
	// MaxRuleText bounds each text of a rule (descriptions, help), in bytes;
	// a longer one is cut with "…".
	MaxRuleText = 8 << 10
	// MaxRuleBytes bounds the texts of all the rules of one input; past it,
	// further rules are kept without their texts.
	MaxRuleBytes = 4 << 20
)

// Rules is an input's rule table: the [Rule] of each (tool, rule id) the
// report describes, within the bounds above. The zero value is empty and
// ready; a nil *Rules is an empty table.
type Rules struct {
	m     map[ruleKey]*Rule
	bytes int
	// Left counts the rules left out past MaxRules that had something to
	// say that their findings do not (a text, tags): a rule without loses
	// nothing. Cut counts the texts cut to MaxRuleText or left out
	// past MaxRuleBytes.
	Left, Cut int
	// uris are the tools' home pages as the report gives them (SARIF
	// tool.driver.informationUri), by tool, at most maxToolURIs.
	uris map[string]string
}

// maxToolURIs bounds the tools' home pages a table keeps: a log names a
// tool per run, and a hostile one may have a million runs.
const maxToolURIs = 100

// SetToolURI keeps uri as tool's home page (SARIF informationUri), unless
// the table has one for tool already, or uri is no absolute URI.
func (rs *Rules) SetToolURI(tool, uri string) {
	if rs == nil || !IsURI(uri) || len(uri) > 2048 || len(rs.uris) >= maxToolURIs {
		return
	}
	if _, ok := rs.uris[tool]; ok {
		return
	}
	if rs.uris == nil {
		rs.uris = map[string]string{}
	}
	rs.uris[tool] = uri
}

// ToolURI returns tool's home page as the report gave it, or "".
func (rs *Rules) ToolURI(tool string) string {
	if rs == nil {
		return ""
	}
	return rs.uris[tool]
}

// ToolURIOf returns the home page the inputs give tool, or "".
func ToolURIOf(inputs []Input, tool string) string {
	for i := range inputs {
		if u := inputs[i].Rules.ToolURI(tool); u != "" {
			return u
		}
	}
	return ""
}

type ruleKey struct{ tool, id string }

// Add keeps r as the rule id r.ID of tool, unless the table has it
// already, and returns what the table holds for it (nil when the table is
// full). Texts are cut to MaxRuleText, and left out past MaxRuleBytes.
func (rs *Rules) Add(tool string, r Rule) *Rule {
	k := ruleKey{tool, r.ID}
	if have, ok := rs.m[k]; ok {
		return have
	}
	if len(rs.m) >= MaxRules {
		if r.says() {
			rs.Left++
		}
		return nil
	}
	for _, s := range []*string{&r.Short, &r.Full, &r.Help, &r.HelpMarkdown} {
		if len(*s) > MaxRuleText {
			*s = text.CutBytes(*s, MaxRuleText)
			rs.Cut++
		}
		if rs.bytes+len(*s) > MaxRuleBytes {
			*s = ""
			rs.Cut++
		}
		rs.bytes += len(*s)
	}
	if rs.m == nil {
		rs.m = map[ruleKey]*Rule{}
	}
	rs.m[k] = &r
	return &r
}

// says reports whether r says what its findings do not: texts, tags, a
// precision (a finding carries its rule's name, help link, CWE ids and
// security severity itself; Checkstyle's rules are their ids alone).
func (r *Rule) says() bool {
	return r.Short != "" || r.Full != "" || r.Help != "" || r.HelpMarkdown != "" || len(r.Tags) > 0 || r.Precision != ""
}

// Lookup returns the rule id of tool, or nil. A hierarchical id ("A/B",
// SARIF §3.27.5) falls back to its first part.
func (rs *Rules) Lookup(tool, id string) *Rule {
	if rs == nil || len(rs.m) == 0 {
		return nil
	}
	if r, ok := rs.m[ruleKey{tool, id}]; ok {
		return r
	}
	if i := strings.IndexByte(id, '/'); i > 0 {
		return rs.m[ruleKey{tool, id[:i]}]
	}
	return nil
}

// Len is the number of rules in the table.
func (rs *Rules) Len() int {
	if rs == nil {
		return 0
	}
	return len(rs.m)
}

// Bytes is about the memory the table holds: its rules, their texts and
// the map's entries.
func (rs *Rules) Bytes() int {
	if rs == nil {
		return 0
	}
	n := 0
	for k, r := range rs.m {
		n += int(unsafe.Sizeof(*r)) + 64 + len(k.tool) + len(r.ID) + len(r.Name) + len(r.Short) + len(r.Full) + len(r.Help) + len(r.HelpMarkdown) +
			len(r.HelpURI) + len(r.Precision) + 8*len(r.CWE)
		for _, t := range r.Tags {
			n += 16 + len(t)
		}
	}
	return n
}

// TextBytes is the bytes of the texts the table holds, which
// MaxRuleBytes bounds.
func (rs *Rules) TextBytes() int {
	if rs == nil {
		return 0
	}
	return rs.bytes
}

// RuleEntry is a rule of a table with its tool.
type RuleEntry struct {
	Tool string
	Rule Rule
}

// List returns the table's rules, by tool and id.
func (rs *Rules) List() []RuleEntry {
	if rs == nil {
		return nil
	}
	out := make([]RuleEntry, 0, len(rs.m))
	for k, r := range rs.m {
		out = append(out, RuleEntry{Tool: k.tool, Rule: *r})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Tool != out[j].Tool {
			return out[i].Tool < out[j].Tool
		}
		return out[i].Rule.ID < out[j].Rule.ID
	})
	return out
}

// Equal reports whether two tables hold the same rules and cuts; a nil
// table equals an empty one. go-cmp compares tables with it.
func (rs *Rules) Equal(o *Rules) bool {
	if rs.Len() != o.Len() || rs.cut() != o.cut() {
		return false
	}
	if rs.Len() == 0 {
		return true
	}
	for k, r := range rs.m {
		x, ok := o.m[k]
		if !ok || !reflect.DeepEqual(r, x) {
			return false
		}
	}
	return true
}

func (rs *Rules) cut() int {
	if rs == nil {
		return 0
	}
	return rs.Cut + rs.Left
}

// RuleOf returns what the inputs say of f's rule, or nil.
func RuleOf(inputs []Input, f *Finding) *Rule {
	for i := range inputs {
		if r := inputs[i].Rules.Lookup(f.Tool, f.Rule); r != nil {
			return r
		}
	}
	return nil
}

// IsURI reports whether s is an absolute URI with a host (or an opaque
// part), as SARIF's helpUri must be: reports carry text that is none in
// their help links ("Please see details in message"), which readers leave
// out.
func IsURI(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t\n\"<>\\^`{|}") {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && u.IsAbs() && (u.Host != "" || u.Opaque != "")
}
