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
	level SeverityCounts // by level on the hosts
	tools *tally[string]
	cats  *tally[string]
	rules *tally[ruleKey]
	files *tally[string]
	// importance counts the findings by quality and impact (0: not placed).
	importance [4][6]int
	// security counts the findings about security, by impact; cwe their CWE ids.
	security         int
	securityByImpact [6]int
	cwe              *tally[int]
	order            reports.Order
	skip             func(*reports.Finding) bool
	skipped          int
	pager            *pager
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
	switch f.Level() {
	case reports.SeverityError:
		c.level.Error++
	case reports.SeverityWarning:
		c.level.Warning++
	case reports.SeverityNote:
		c.level.Note++
	}
	if int(f.Quality) < len(c.importance) && int(f.Impact) < len(c.importance[0]) {
		c.importance[f.Quality][f.Impact]++
	}
	c.tools.add(f.Tool)
	c.cats.add(f.Category)
	c.rules.add(ruleKey{f.Tool, reports.ShortRule(f.Tool, f.Rule)}) // Checkstyle's checks by their names, as users write them
	if f.Path != "" {
		c.files.add(f.Path)
	}
	if f.Security() {
		c.security++
		if int(f.Impact) < len(c.securityByImpact) {
			c.securityByImpact[f.Impact]++
		}
		for _, id := range f.CWE {
			if c.cwe == nil {
				c.cwe = newTally(MaxDistinct, hashInt)
			}
			c.cwe.add(id)
		}
	}
	if c.pager != nil {
		c.pager.add(&f)
		c.pager.addFirst(&f)
	}
	if c.bySev != nil {
		if p := c.bySev[f.Level()]; p != nil { // the level the hosts show
			p.add(&f)
		}
	}
}

// Remove takes back one finding Add counted: every count of the summary
// is then what a collector that never saw it counts, while Exact holds
// (the caller asks it first). The pages are not changed: a page that may
// hold f leaves it out through Skip.
func (c *Collector) Remove(f reports.Finding) {
	c.total--
	switch f.Severity {
	case reports.SeverityError:
		c.sev.Error--
	case reports.SeverityWarning:
		c.sev.Warning--
	case reports.SeverityNote:
		c.sev.Note--
	}
	switch f.Level() {
	case reports.SeverityError:
		c.level.Error--
	case reports.SeverityWarning:
		c.level.Warning--
	case reports.SeverityNote:
		c.level.Note--
	}
	if int(f.Quality) < len(c.importance) && int(f.Impact) < len(c.importance[0]) {
		c.importance[f.Quality][f.Impact]--
	}
	c.tools.remove(f.Tool)
	c.cats.remove(f.Category)
	c.rules.remove(ruleKey{f.Tool, reports.ShortRule(f.Tool, f.Rule)})
	if f.Path != "" {
		c.files.remove(f.Path)
	}
	if f.Security() {
		c.security--
		if int(f.Impact) < len(c.securityByImpact) {
			c.securityByImpact[f.Impact]--
		}
		for _, id := range f.CWE {
			c.cwe.remove(id)
		}
	}
}

// KeepsAny reports whether a finding the collector keeps for its view
// (the page, the first of each severity, the rules' firsts of the head)
// is one match accepts.
func (c *Collector) KeepsAny(match func(*reports.Finding) bool) bool {
	var ps []*pager
	if c.pager != nil {
		ps = append(ps, c.pager)
	}
	for _, p := range c.bySev {
		ps = append(ps, p)
	}
	for _, p := range ps {
		for i := range p.h.fs {
			if match(&p.h.fs[i]) {
				return true
			}
		}
		if p.firsts != nil {
			for i := range p.firsts.fs {
				if match(&p.firsts.fs[i]) {
					return true
				}
			}
		}
	}
	return false
}

// Exact reports whether Remove is exact: every tally of names has stayed
// below [MaxDistinct] (past it, a name's count is partly unsure and a
// dropped name cannot be taken back).
func (c *Collector) Exact() bool {
	return c.tools.hll == nil && c.cats.hll == nil && c.rules.hll == nil && c.files.hll == nil && (c.cwe == nil || c.cwe.hll == nil)
}

// Slack makes the collector keep n findings past the page too, for a
// caller that will skip some of them (see Skip). Call it after KeepPage.
func (c *Collector) Slack(n int) {
	if c.pager != nil && n > 0 {
		c.pager.keep += n
	}
}

// Skip leaves the findings skip accepts out of the page (their problem is
// another finding's), skipped of them in all: the page counts the others.
// Call it after the last Add and before View.
func (c *Collector) Skip(skip func(*reports.Finding) bool, skipped int) {
	c.skip, c.skipped = skip, skipped
}

// PageShort reports whether the page kept may miss findings since too
// many of those it kept were skipped: a pass that skips them as they come
// gives the page. So does a rule's first finding kept for the head of
// the default order that is skipped where the rule's next may belong in the
// head (see pager.headMisses).
func (c *Collector) PageShort() bool {
	p := c.pager
	if p == nil || c.skip == nil {
		return false
	}
	if p.headMisses(c.skip) {
		return true
	}
	if c.total <= p.keep {
		return false
	}
	left := 0
	for i := range p.h.fs {
		if !c.skip(&p.h.fs[i]) {
			left++
		}
	}
	return left < p.offset+p.limit
}

// SortBy sets the order of the findings the collector keeps (the default
// is reports.OrderImportance). Call it before KeepPage or KeepTop.
func (c *Collector) SortBy(o reports.Order) { c.order = o }

// KeepTop makes the collector keep, for each severity, the first n findings
// of that severity in view order (n ≥ 0 each; GitHub shows 10 annotations of
// each level per step). The view's page holds them most severe first.
// Call it before the first Add; it replaces KeepPage.
func (c *Collector) KeepTop(errors, warnings, notes int) {
	c.pager = nil
	c.bySev = map[reports.Severity]*pager{
		reports.SeverityError:   {limit: errors, keep: errors, order: c.order},
		reports.SeverityWarning: {limit: warnings, keep: warnings, order: c.order},
		reports.SeverityNote:    {limit: notes, keep: notes, order: c.order},
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

	c.pager = &pager{offset: offset, limit: limit, keep: offset + limit, order: c.order}
	if c.order.HeadOrder() {
		c.pager.firsts = newFirstsHeap(reports.FirstPageSize, c.order)
	}
	c.bySev = nil
}

// Summary returns the counts and top lists so far.
func (c *Collector) Summary() Summary {
	files, exact := c.files.distinct()
	s := Summary{
		Total: c.total, Problems: c.total, Files: files, BySeverity: c.sev, ByLevel: c.level, ByTool: map[string]int{},
		TopCategories: top(c.cats.sure()), TopFiles: top(c.files.sure()), TopRules: []RuleCount{},
	}
	for _, q := range reports.Qualities {
		var byImpact ImpactCounts
		for _, i := range reports.Impacts {
			n := c.importance[q][i]
			*byImpact.at(i) = n
			*s.ByImpact.at(i) += n
		}
		if byImpact.Total() == 0 {
			continue
		}
		switch q {
		case reports.QualitySecurity:
			s.ByQuality.Security, s.ByQualityImpact.Security = byImpact.Total(), &byImpact
		case reports.QualityReliability:
			s.ByQuality.Reliability, s.ByQualityImpact.Reliability = byImpact.Total(), &byImpact
		case reports.QualityMaintainability:
			s.ByQuality.Maintainability, s.ByQualityImpact.Maintainability = byImpact.Total(), &byImpact
		}
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
		for _, i := range reports.Impacts {
			*s.Security.ByImpact.at(i) = c.securityByImpact[i]
		}
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
		page, offset, limit = c.pager.page(c.skip), c.pager.offset, c.pager.limit
	case c.bySev != nil:
		for _, sev := range reports.Severities {
			p := c.bySev[sev]
			page = append(page, p.page(c.skip)...)
			limit += p.limit
		}
	default:
		return v
	}
	v.Findings = make([]FindingView, len(page))
	for i, f := range page {
		v.Findings[i] = FindingView{Finding: f, HostLevel: f.Level(), RuleInfo: reports.RuleOf(inputs, &f)}
	}
	v.Page = NewPage(offset, limit, len(page), c.total-c.skipped)
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
