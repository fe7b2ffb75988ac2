package summarize

import (
	"math"
	"sort"
	"strconv"

	"github.com/recap-dev/recap/reports"
)

// TopN is the length of the top lists (categories, rules, files): enough to
// see where the findings are, small enough for any context window.
const TopN = 10

// A Collector counts a stream of findings for the summary. Its memory is the
// counts: one entry per distinct file, category, rule and tool (at most
// [MaxDistinct] of each), never the findings. The zero value is not usable; call [NewCollector].
type Collector struct {
	total int
	sev   SeverityCounts
	tools *tally[string]
	cats  *tally[string]
	rules *tally[ruleKey]
	files *tally[string]
	// security counts the findings about security, cwe their CWE ids.
	security int
	cwe      *tally[int]
	pager    *pager
	// bySev keeps a page per severity (KeepTop).
	bySev map[reports.Severity]*pager
}

type ruleKey struct{ tool, rule string }

// NewCollector returns an empty collector.
func NewCollector() *Collector {
	return &Collector{
		tools: newTally(MaxDistinct, hashString),
		cats:  newTally(MaxDistinct, hashString),
		rules: newTally(MaxDistinct, hashRule),
		files: newTally(MaxDistinct, hashString),
	}
}

// Add counts one finding.
func (c *Collector) Add(f reports.Finding) {
	c.total++
	switch f.Severity {
	case reports.SeverityError:
		c.sev.Error++
	case reports.SeverityWarning:
		c.sev.Warning++
	case reports.SeverityNote:
		c.sev.Note++
	}
	c.tools.add(f.Tool)
	c.cats.add(f.Category)
	c.rules.add(ruleKey{f.Tool, f.Rule})
	if f.Path != "" {
		c.files.add(f.Path)
	}
	if f.Security() {
		c.security++
		for _, id := range f.CWE {
			if c.cwe == nil {
				c.cwe = newTally(MaxDistinct, hashInt)
			}
			c.cwe.add(id)
		}
	}
	if c.pager != nil {
		c.pager.add(&f)
	}
	if c.bySev != nil {
		if p := c.bySev[f.Severity]; p != nil {
			p.add(&f)
		}
	}
}

// KeepTop makes the collector keep, for each severity, the first n findings
// of that severity in view order (n ≥ 0 each; GitHub shows 10 annotations of
// each level per step). The view's page holds them most severe first.
// Call it before the first Add; it replaces KeepPage.
func (c *Collector) KeepTop(errors, warnings, notes int) {
	c.pager = nil
	c.bySev = map[reports.Severity]*pager{
		reports.SeverityError:   {limit: errors, keep: errors},
		reports.SeverityWarning: {limit: warnings, keep: warnings},
		reports.SeverityNote:    {limit: notes, keep: notes},
	}
}

// KeepPage makes the collector keep the page of findings from offset (0-based)
// on, at most limit of them (clamped to 1…[MaxLimit]; 0 means [DefaultLimit]),
// in view order. Call it before the first Add.
func (c *Collector) KeepPage(offset, limit int) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	offset = min(max(offset, 0), math.MaxInt32) // offset+limit must not overflow

	c.pager = &pager{offset: offset, limit: limit, keep: offset + limit}
	c.bySev = nil
}

// Summary returns the counts and top lists so far.
func (c *Collector) Summary() Summary {
	files, exact := c.files.distinct()
	s := Summary{
		Total: c.total, Files: files, BySeverity: c.sev, ByTool: map[string]int{},
		TopCategories: top(c.cats.sure()), TopFiles: top(c.files.sure()), TopRules: []RuleCount{},
	}
	if !exact {
		s.Approximate = append(s.Approximate, "files", "topFiles")
	}
	for what, t := range map[string]*tally[string]{"topCategories": c.cats, "byTool": c.tools} {
		if _, exact := t.distinct(); !exact {
			s.Approximate = append(s.Approximate, what)
		}
	}
	if _, exact := c.rules.distinct(); !exact {
		s.Approximate = append(s.Approximate, "topRules")
	}
	if c.security > 0 {
		s.Security = &SecurityCounts{Findings: c.security, TopCWE: []Count{}}
		if c.cwe != nil {
			s.Security.TopCWE = topCWE(c.cwe.sure())
			if _, exact := c.cwe.distinct(); !exact {
				s.Approximate = append(s.Approximate, "topCwe")
			}
		}
	}
	sort.Strings(s.Approximate)
	for k, v := range c.tools.sure() {
		s.ByTool[k] = v
	}
	for k, n := range c.rules.sure() {
		s.TopRules = append(s.TopRules, RuleCount{Name: k.rule, Tool: k.tool, Count: n})
	}
	sort.Slice(s.TopRules, func(i, j int) bool {
		a, b := s.TopRules[i], s.TopRules[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		if a.Tool != b.Tool {
			return a.Tool < b.Tool
		}
		return a.Name < b.Name
	})
	if len(s.TopRules) > TopN {
		s.TopRules = s.TopRules[:TopN]
	}
	return s
}

// View returns the summary view with the status of the inputs read.
func (c *Collector) View(inputs []reports.Input) *View {
	v := &View{Summary: c.Summary(), Inputs: inputs}
	var page []reports.Finding
	offset, limit := 0, 0
	switch {
	case c.pager != nil:
		page, offset, limit = c.pager.page(), c.pager.offset, c.pager.limit
	case c.bySev != nil:
		for _, sev := range reports.Severities {
			p := c.bySev[sev]
			page = append(page, p.page()...)
			limit += p.limit
		}
	default:
		return v
	}
	v.Findings = make([]FindingView, len(page))
	for i, f := range page {
		v.Findings[i] = FindingView{Finding: f, RuleInfo: reports.RuleOf(inputs, &f)}
	}
	v.Page = NewPage(offset, limit, len(page), c.total)
	if c.pager == nil { // the first of each severity: no next page
		v.Page.NextOffset = nil
	}
	return v
}

// topCWE returns the TopN CWE ids with the most findings, as "CWE-89".
func topCWE(m map[int]int) []Count {
	out := make([]Count, 0, len(m))
	for id, n := range m {
		out = append(out, Count{Name: "CWE-" + strconv.Itoa(id), Count: n})
	}
	sortCounts(out)
	if len(out) > TopN {
		out = out[:TopN]
	}
	return out
}

// top returns the TopN largest counts, largest first, ties by name.
func top(m map[string]int) []Count {
	out := make([]Count, 0, len(m))
	for k, n := range m {
		out = append(out, Count{Name: k, Count: n})
	}
	sortCounts(out)
	if len(out) > TopN {
		out = out[:TopN]
	}
	return out
}

// sortCounts sorts the largest counts first, ties by name.
func sortCounts(out []Count) {
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Name < out[j].Name
	})
}
