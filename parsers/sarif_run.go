package parsers

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/reports"
)

// sarifRun reads one run (§3.14). Its results are converted as they stream
// by, except the few that need something the run has not given yet (the tool
// object, when "results" comes first, which JSON allows; the artifacts, for a
// location that only names an artifact index): those wait for the run's end.
type sarifRun struct {
	s         *sarifStream
	idx       int
	path      string
	tool      *sarifTool
	kind      toolKind
	toolName  string
	version   string
	ruleByID  map[string]*sarifRule
	bases     map[string]sarifArtifactLocation
	artifacts []sarifArtifact
	sawArts   bool
	pending   []pendingResult
	placed    map[string]placedPath // locate's cache, by uri (and base)
	// categories of results whose rule has no descriptor, by rule id
	categories map[string][2]string
	baseLoop   string // the uriBaseId where a loop was found, warned at the run's end
	badIndex   int    // locations naming an artifact out of range
	firstBad   int    // the first such index
	// checkstyleDocs are the pages of Checkstyle's checks, by rule id
	checkstyleDocs map[string]string
	// invs are the invocations read; overrides the levels they give rules
	// (nil: none), set before the results are converted.
	invs          []sarifInvocation
	overrides     map[*sarifRule]string
	lateOverrides bool // overrides read after results were converted
	converted     int  // results converted so far
	// mismatched counts the results whose ruleIndex names another rule
	// than their ruleId; firstMismatch describes the first.
	mismatched    int
	firstMismatch string
	reviews       int // results of kind review or open
	// charFiles are repository files' texts, to place regions given by characters
	charFiles map[string]charText
}

type pendingResult struct {
	res sarifResult
	idx int
}

func (s *sarifStream) run(i int) error {
	r := &sarifRun{s: s, idx: i, path: "$.runs[" + strconv.Itoa(i) + "]"}
	if err := s.delim(r.path, '{'); err != nil {
		return err
	}
	var invocations []sarifInvocation
	for {
		k, ok, err := s.key(r.path, runMembers)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		p := r.path + "." + k
		switch k {
		case "tool":
			t, err := s.tool(p)
			if err != nil {
				return err
			}
			r.setTool(t)
		case "originalUriBaseIds":
			if err := s.decode(&r.bases); err != nil {
				return s.fail(p, err)
			}
		case "artifacts":
			if err := s.decode(&r.artifacts); err != nil {
				return s.fail(p, err)
			}
			r.sawArts = true
		case "invocations":
			if err := s.invocations(&invocations); err != nil {
				return s.fail(p, err)
			}
			r.invs = invocations
			if r.converted > 0 && hasLevelOverrides(invocations) {
				r.lateOverrides = true // the results read before them keep their levels
			}
		case "results":
			if err := r.results(p); err != nil {
				return err
			}
		default:
			if err := s.skip(p); err != nil {
				return err
			}
		}
	}
	if r.tool == nil {
		r.setTool(&sarifTool{})
	}
	r.setOverrides()
	for _, pr := range r.pending {
		if err := r.convert(&pr.res, pr.idx); err != nil {
			return s.fail(r.path+".results["+strconv.Itoa(pr.idx)+"]", err)
		}
	}
	r.invocations(invocations)
	r.warnings()
	r.warnPlaces()
	return nil
}

// warnings says on the input what the run's results did that recap had to
// decide: a ruleIndex naming another rule than the ruleId, level overrides
// that came after the results, results to review that are no findings.
func (r *sarifRun) warnings() {
	in := r.s.in
	if r.mismatched > 0 {
		in.Warn(fmt.Sprintf("%s of %s name a rule (ruleId) other than the one their ruleIndex points at (first: %s): SARIF says ruleId names the rule, which recap takes",
			english.Plural(r.mismatched, "result", "results"), r.toolName, r.firstMismatch))
	}
	if r.lateOverrides {
		in.Warn(fmt.Sprintf("%s's invocations give rules other levels (ruleConfigurationOverrides) after the results: the results keep their rules' default levels", r.toolName))
	}
	if n := r.reviews; n > 0 {
		in.Warn(fmt.Sprintf("%s of %s ask a person to decide (kind review or open): they are not findings (inputs[].kinds counts them)", english.Plural(n, "result", "results"), r.toolName))
	}
}

// hasLevelOverrides reports whether the invocations give a rule a level.
func hasLevelOverrides(invs []sarifInvocation) bool {
	for _, inv := range invs {
		for _, o := range inv.RuleConfigurationOverrides {
			if o.Configuration.Level != "" {
				return true
			}
		}
	}
	return false
}

// setOverrides reads the levels the invocations read so far give rules
// (§3.20.5), which come before a rule's default level (§3.27.10); once,
// before the results are converted.
func (r *sarifRun) setOverrides() {
	if r.overrides != nil || !hasLevelOverrides(r.invs) || r.tool == nil {
		return
	}
	r.overrides = map[*sarifRule]string{}
	for _, inv := range r.invs {
		for _, o := range inv.RuleConfigurationOverrides {
			if o.Configuration.Level == "" {
				continue
			}
			ref := o.Descriptor
			if rule := r.ruleByRef(ref.ID, ref.Index, &ref); rule != nil {
				r.overrides[rule] = o.Configuration.Level
			}
		}
	}
}

// warnPlaces warns of what made locations unplaceable in the run: a loop
// of uriBaseIds, artifact indexes out of range.
func (r *sarifRun) warnPlaces() {
	if r.baseLoop != "" {
		r.s.in.Warn(fmt.Sprintf("the uriBaseIds of %s form a loop or a chain longer than %d (at %s): the paths under them are kept as given", r.path, maxBaseChain, r.baseLoop))
	}
	if r.badIndex > 0 {
		r.s.in.Warn(fmt.Sprintf("%s: %s an artifact out of range (first: %d; the run has %s): their findings have no file",
			r.path, english.Plural(r.badIndex, "location names", "locations name"), r.firstBad, english.Plural(len(r.artifacts), "artifact", "artifacts")))
	}
}

// invocations reads a run's invocations one at a time, and of their
// notifications only what can become a warning: the first distinct ones
// (the input keeps MaxWarnings warnings), so that 300,000 notifications
// cost what 21 do.
func (s *sarifStream) invocations(dst *[]sarifInvocation) error {
	i := 0
	return s.array(func() error {
		var inv sarifInvocation
		err := s.object(invocationMembers, func(name string) error {
			switch name {
			case "ruleConfigurationOverrides":
				return s.decodeAt(&inv.RuleConfigurationOverrides, name)
			case "executionSuccessful":
				return s.decodeAt(&inv.ExecutionSuccessful, name)
			case "exitCode":
				return s.decodeAt(&inv.ExitCode, name)
			case "exitCodeDescription":
				return s.decodeAt(&inv.ExitCodeDescription, name)
			case "exitSignalName":
				return s.decodeAt(&inv.ExitSignalName, name)
			case "toolExecutionNotifications":
				return s.notifications(&inv.ToolExecutionNotifications, &inv.Failed, name)
			case "toolConfigurationNotifications":
				return s.notifications(&inv.ToolConfigurationNotifications, nil, name)
			}
			return s.dec.SkipValue()
		})
		if err != nil {
			return atPath(err, "["+strconv.Itoa(i)+"]")
		}
		*dst = append(*dst, inv)
		i++
		return nil
	})
}

// notifications reads an array of notifications, keeping the first
// maxNotes distinct ones that make a warning (see notification).
func (s *sarifStream) notifications(dst *[]sarifNotification, failed *[]sarifFailed, name string) error {
	const maxNotes = reports.MaxWarnings + 1
	j := 0
	return s.array(func() error {
		var n sarifNotification
		if err := s.decode(&n); err != nil {
			return atPath(err, "."+name+"["+strconv.Itoa(j)+"]")
		}
		j++
		if failed != nil && len(*failed) < reports.MaxNotAnalysed && notification("", "", n) != "" && len(n.Locations) > 0 {
			if pl := n.Locations[0].PhysicalLocation; pl != nil && pl.ArtifactLocation != nil {
				*failed = append(*failed, sarifFailed{at: *pl.ArtifactLocation, reason: firstLine(n.Message.Text)})
			}
		}
		n.Locations = nil
		n.rule, n.AssociatedRule = n.ruleID(), nil
		if len(*dst) >= maxNotes || notification("", "", n) == "" {
			return nil
		}
		for _, o := range *dst {
			if notification("", "", o) == notification("", "", n) {
				return nil
			}
		}
		*dst = append(*dst, n)
		return nil
	})
}

// decodeAt decodes a member's value, a value of the wrong kind named by
// its member.
func (s *sarifStream) decodeAt(v any, name string) error {
	return atPath(s.decode(v), "."+name)
}

// atPath puts prefix before the place a value error names ("level: want a
// string" becomes "[3].toolExecutionNotifications[0].level: …").
func atPath(err error, prefix string) error {
	var ve *valueError
	if !errors.As(err, &ve) {
		return err
	}
	msg := ve.err.Error()
	switch {
	case strings.HasPrefix(msg, "value: "):
		msg = prefix + msg[len("value"):]
	case strings.HasPrefix(msg, "["):
		msg = prefix + msg
	default:
		msg = prefix + "." + msg
	}
	return &valueError{off: ve.off, err: errors.New(strings.TrimPrefix(msg, "."))}
}

// maxRuleIDs bounds the rule ids of a tool component whose descriptors are
// kept: PMD 7 writes 57,000 descriptors of 224 ids for Spring, and no tool
// has tens of thousands of rules; a log of a million rules must not hold
// them all.
const maxRuleIDs = 1 << 16

// sameRule reports whether two descriptors of one id say the same of it,
// so that one is kept for both.
func sameRule(a, b *sarifRule) bool {
	return a.ID == b.ID && a.Name == b.Name && a.HelpURI == b.HelpURI && a.level == b.level && a.ruleset == b.ruleset &&
		a.category == b.category && a.priority == b.priority && a.shared == b.shared && b.texts == nil && !b.textsCut &&
		b.messageStrings == nil && a.messageStrings == nil && slices.Equal(a.tags, b.tags) && sameProps(a.props, b.props)
}

func sameProps(a, b *ruleProps) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.securitySeverity == b.securitySeverity && a.precision == b.precision && a.toolCategory == b.toolCategory && slices.Equal(a.cwe, b.cwe) &&
		a.cvss == b.cvss && a.severity == b.severity
}

// tool reads the tool object token by token, and its rules one at a time.
func (s *sarifStream) tool(path string) (*sarifTool, error) {
	t := &sarifTool{}
	if err := s.delim(path, '{'); err != nil {
		return nil, err
	}
	for {
		k, ok, err := s.key(path, toolMembers)
		if err != nil {
			return nil, err
		}
		if !ok {
			return t, nil
		}
		p := path + "." + k
		switch k {
		case "driver":
			if err := s.component(p, &t.Driver); err != nil {
				return nil, err
			}
		case "extensions":
			if err := s.delim(p, '['); err != nil {
				return nil, err
			}
			for i := 0; s.more(); i++ {
				var c sarifComponent
				if err := s.component(p+"["+strconv.Itoa(i)+"]", &c); err != nil {
					return nil, err
				}
				t.Extensions = append(t.Extensions, c)
			}
			if _, err := s.dec.ReadToken(); err != nil {
				return nil, s.fail(p, err)
			}
		default:
			if err := s.skip(p); err != nil {
				return nil, err
			}
		}
	}
}

// component reads a toolComponent (§3.19): its name, version and rules.
func (s *sarifStream) component(path string, c *sarifComponent) error {
	if err := s.delim(path, '{'); err != nil {
		return err
	}
	s.ruleFirst = nil
	defer func() { s.ruleFirst = nil }()
	for {
		k, ok, err := s.key(path, componentMembers)
		if err != nil || !ok {
			return err
		}
		p := path + "." + k
		switch k {
		case "name", "version", "semanticVersion", "informationUri":
			raw, err := s.dec.ReadValue()
			if err != nil {
				return s.fail(p, err)
			}
			v := stringProperty(raw)
			switch k {
			case "name":
				c.Name = v
			case "version":
				c.Version = v
			case "informationUri":
				c.InformationURI = s.cut(v, maxSARIFName)
			default:
				c.SemanticVersion = v
			}
		case "rules":
			tok, err := s.dec.ReadToken()
			if err != nil {
				return s.fail(p, err)
			}
			if tok.Kind() == 'n' {
				continue
			}
			if tok.Kind() != '[' {
				return s.fail(p, fmt.Errorf("want an array of rules, got %s", kindName(tok.Kind())))
			}
			canon := map[string]*sarifRule{}
			dropped := 0
			for i := 0; s.more(); i++ {
				rule, err := s.rule()
				if err != nil {
					return s.fail(p+"["+strconv.Itoa(i)+"]", err)
				}
				switch first := canon[rule.ID]; {
				case rule.ID != "" && s.ruleFirst[rule.ID] == nil: // past maxRuleIDs
					dropped++
					if s.stubRule == nil {
						s.stubRule = &sarifRule{}
					}
					rule = s.stubRule
				case first == nil:
					if rule.ID != "" {
						canon[rule.ID] = rule
					}
				case sameRule(first, rule):
					rule = first // PMD 7 repeats a rule's descriptor for each message
				}
				c.Rules = append(c.Rules, rule)
			}
			if _, err := s.dec.ReadToken(); err != nil {
				return s.fail(p, err)
			}
			if dropped > 0 {
				s.in.Warn(fmt.Sprintf("%s of rules past the first %d rule ids of %s not kept: their results keep their ruleId, with SARIF's defaults (level warning, no rule name or help)",
					english.Plural(dropped, "descriptor", "descriptors"), maxRuleIDs, p))
			}
		default:
			if err := s.skip(p); err != nil {
				return err
			}
		}
	}
}

func (r *sarifRun) setTool(t *sarifTool) {
	r.tool = t
	r.toolName = t.Driver.Name
	if r.toolName == "" {
		r.toolName = "unknown"
	}
	r.version = t.Driver.Version
	if r.version == "" {
		r.version = t.Driver.SemanticVersion
	}
	r.kind = sarifToolKind(r.toolName)
	r.ruleByID = make(map[string]*sarifRule)
	// Whether each help URI is a link, once a URI: PMD 7 writes tens of
	// thousands of descriptors of a few hundred rules, and parsing a URL
	// costs more than looking it up.
	links := map[string]bool{}
	for _, c := range append([]sarifComponent{t.Driver}, t.Extensions...) {
		for _, rule := range c.Rules {
			link, known := links[rule.HelpURI]
			if !known {
				link = reports.IsURI(rule.HelpURI)
				links[rule.HelpURI] = link
			}
			if !link {
				rule.HelpURI = "" // text that is no link ("Please see details in message")
			}
			if _, dup := r.ruleByID[rule.ID]; !dup {
				r.ruleByID[rule.ID] = rule
			}
			r.describe(rule)
		}
	}
	r.s.heldRuleText = 0 // the rule table has them now, or left them out
	r.s.listTool(r.toolName, r.version)
	r.s.in.Rules.SetToolURI(r.toolName, t.Driver.InformationURI)
}

// maxListedTools bounds the tools an input's Tool names ("PMD, Checkstyle,
// and 99998 more tools"): a log of 100,000 runs of distinct tools must not
// build a name of them all, once per run.
const maxListedTools = 10

// listTool adds a run's tool to the input's, once per name: the first
// maxListedTools by name, then a count of the others (distinct while
// maxInterned names are remembered). An input of several tools has no
// version of its own.
func (s *sarifStream) listTool(name, version string) {
	if s.tools == nil {
		s.tools = map[string]bool{}
	}
	if s.tools[name] {
		return
	}
	if len(s.tools) < maxInterned {
		s.tools[name] = true
	}
	in := s.in
	switch {
	case in.Tool == "":
		in.Tool, in.ToolVersion = name, version
	case len(s.toolNames) < maxListedTools:
		in.Tool += ", " + name
		in.ToolVersion = "" // the first tool's: no version is the input's
	default:
		s.moreTools++
		in.Tool = strings.Join(s.toolNames, ", ") + fmt.Sprintf(", and %d more tools", s.moreTools)
		return
	}
	s.toolNames = append(s.toolNames, name)
}

// describe works out what a descriptor gives each of its results: its
// category, and its rule's entry in the input's rule table, made once per
// id from its first descriptor (which holds the texts, then let go).
func (r *sarifRun) describe(rule *sarifRule) {
	if rule.shared == nil { // a descriptor without an id
		rule.shared = &ruleShared{}
	}
	sh := rule.shared // the first descriptor of the id describes it
	if sh.described {
		return
	}
	sh.described = true
	sh.cat, sh.word = r.kind.category(r.toolName, rule, rule.ID)
	sh.info = r.s.in.Rules.Add(r.toolName, ruleInfo(rule, sh.shortVaries))
	if rule.textsCut {
		r.s.in.Rules.Cut++
	}
	rule.texts = nil
}

// ruleInfo is what the rule table keeps of a rule's first descriptor.
func ruleInfo(d *sarifRule, shortVaries bool) reports.Rule {
	r := reports.Rule{ID: d.ID, Name: d.Name, HelpURI: d.HelpURI, Tags: d.tags}
	if p := d.props; p != nil {
		r.Precision, r.SecuritySeverity, r.CWE = p.precision, cmp.Or(p.securitySeverity, p.cvss), p.cwe
	}
	t := d.texts
	if t == nil {
		return r
	}
	if !shortVaries {
		r.Short = ruleText(multiformatText(t.short))
	}
	r.Full = ruleText(multiformatText(t.full))
	if h := t.help; h != nil {
		help := h.Text
		if help == "" {
			help = h.Markdown
		}
		if help = ruleText(help); help != r.Full && help != r.Short {
			r.Help = help
		}
		if md := ruleText(h.Markdown); md != "" && (r.Help != "" || md != r.Full && md != r.Short) {
			r.HelpMarkdown = md
		}
	}
	return r
}

// multiformatText is a message string's text, else its Markdown.
func multiformatText(m *sarifMultiformat) string {
	if m == nil {
		return ""
	}
	if m.Text != "" {
		return m.Text
	}
	return m.Markdown
}

func (r *sarifRun) results(path string) error {
	s := r.s
	tok, err := s.dec.ReadToken()
	if err != nil {
		return s.fail(path, err)
	}
	if tok.Kind() == 'n' {
		return nil
	}
	if tok.Kind() != '[' {
		return s.fail(path, fmt.Errorf("want an array of results, got %s", kindName(tok.Kind())))
	}
	s.oneLocation = r.tool != nil && r.kind != toolPMD
	defer func() { s.oneLocation = false }()
	if r.tool != nil {
		r.setOverrides() // before the converter reads them
	}
	pipe := newConvPipe(r)
	defer pipe.stop()
	for j := 0; s.more(); j++ {
		res := pipe.slot()
		// A value of the wrong kind is noted (see typeError) and skipped,
		// and its result left out whole.
		bad := s.typeErrs
		if err := s.result(res); err != nil {
			pipe.drop()
			if at, cerr := pipe.finish(); cerr != nil {
				return s.fail(path+"["+strconv.Itoa(at)+"]", cerr)
			}
			return s.fail(path+"["+strconv.Itoa(j)+"]", err)
		}
		if s.typeErrs > bad {
			s.skipped++
			pipe.drop()
			continue
		}
		if r.tool == nil || (!r.sawArts && needsArtifacts(res)) {
			res.detach() // kept past its slot
			r.pending = append(r.pending, pendingResult{res: *res, idx: j})
			pipe.drop()
			continue
		}
		if !pipe.push(j) {
			break
		}
	}
	if at, err := pipe.finish(); err != nil {
		return s.fail(path+"["+strconv.Itoa(at)+"]", err)
	}
	if _, err := s.dec.ReadToken(); err != nil {
		return s.fail(path, err)
	}
	return nil
}

func needsArtifacts(res *sarifResult) bool {
	for _, l := range res.Locations {
		if byIndex(&l) {
			return true
		}
	}
	return res.more != nil && res.more.byIndex
}

// byIndex reports whether l names its artifact by index alone.
func byIndex(l *sarifLocation) bool {
	pl := l.PhysicalLocation
	return pl != nil && pl.ArtifactLocation != nil && pl.ArtifactLocation.URI == "" && pl.ArtifactLocation.Index != nil
}

// resultKind is a result's kind (§3.27.9) as recap keeps it: "" for fail
// (the default: a finding), else the kind, in SARIF's spelling when it is
// one of SARIF's.
func resultKind(kind string) string {
	if kind == "" {
		return ""
	}
	for _, k := range []string{"fail", "pass", "review", "open", "informational", "notApplicable"} {
		if strings.EqualFold(kind, k) {
			kind = k
		}
	}
	if kind == "fail" {
		return ""
	}
	return kind
}

// convert turns one result into findings and emits them. A result that is
// suppressed (suppressions, each with its status absent or accepted,
// §3.27.23) or whose kind is not fail (§3.27.9) is no finding: its input
// counts it, and it is emitted marked ([reports.Finding.Uncounted]) for
// recap's SARIF.
func (r *sarifRun) convert(res *sarifResult, j int) error {
	r.converted++
	kind := resultKind(res.Kind)
	rule := r.rule(res)
	f := reports.Finding{Tool: r.toolName, ToolVersion: r.version, Rule: resultRule(res, rule)}
	f.Severity, f.Priority = r.kind.severity(r.level(res, kind, rule), rule)
	if res.Priority > 0 {
		f.Priority = res.Priority // recap's SARIF: the tool's own
	}
	if res.Rank > 0 && res.Rank <= math.MaxUint8 {
		f.Rank = uint8(res.Rank)
	}
	r.explain(&f, res, rule)
	partial := fingerprints(res.PartialFingerprints)
	if res.Fix == nil && res.FixWords != "" { // recap's SARIF of a fix in words
		res.Fix = &sarifFix{Description: res.FixWords}
	}
	res.FixProposed = res.FixProposed || res.FixFlag || res.FixWords != ""
	split := len(res.Locations) > 1 && r.kind == toolPMD
	f.Detail = r.detail(res, split, kind)
	if d := f.Detail; d != nil {
		f.FlowSteps, f.Related = clamp32(res.FlowSteps), clamp32(res.RelatedCount)
		if len(d.Flows) == 0 {
			f.FlowSteps = 0 // no step kept: no flow to show
		}
	}
	f.Fixable = res.FixProposed // kept in Detail, whole or in words

	counted := kind == "" && !res.Suppressed
	r.countUncounted(res, kind)
	locs := res.Locations
	if !split {
		// Only PMD (6.31–6.42) put one finding per location into one result;
		// for other tools the first location is the result's place (§3.27.12),
		// and the others are the detail's further locations.
		locs = locs[:min(len(locs), 1)]
	}
	if len(locs) == 0 {
		locs = []sarifLocation{{}}
	}
	one := func(l sarifLocation) error {
		g := f
		r.place(&g, l)
		r.placeDetail(&g, res, l)
		if err := r.s.held.emit(r.s.emit, g, partial); err != nil {
			return errEmit{err}
		}
		if counted {
			r.s.in.Findings++
		}
		return nil
	}
	for _, l := range locs {
		if err := one(l); err != nil {
			return err
		}
	}
	if sp := res.more; sp != nil {
		defer sp.close()
		if r.kind == toolPMD {
			return sp.each(one)
		}
	}
	return nil
}

// resultRule is a result's rule id: its own, else its rule reference's,
// else its rule's; none for recap's SARIF of a finding of no rule.
func resultRule(res *sarifResult, rule *sarifRule) string {
	id := res.RuleID
	if id == "" && res.Rule != nil {
		id = res.Rule.ID
	}
	if id == "" && rule != nil {
		id = rule.ID
	}
	if rule != nil && rule.noRule {
		id = "" // recap's SARIF of a finding of no rule
	}
	return id
}

// level is a result's level with its default (§3.27.10): a kind other than
// fail has none; a failure without one takes its rule's configured level
// (an invocation's override, else the rule's default), else warning.
func (r *sarifRun) level(res *sarifResult, kind string, rule *sarifRule) string {
	level := res.Level
	if kind != "" {
		level = "none"
	} else if res.ToolLevel != "" {
		level = res.ToolLevel // recap's SARIF: the tool's level beside the impact's
	} else if level == "" && rule != nil {
		if lv, ok := r.overrides[rule]; ok {
			level = lv
		} else if rule.level != "" {
			level = rule.level
		}
	}
	return level
}

// explain fills in what f's rule and the result say of it beyond its
// place: the rule's name, category, help, CWE ids, importance and the
// message.
func (r *sarifRun) explain(f *reports.Finding, res *sarifResult, rule *sarifRule) {
	f.RuleName = r.kind.ruleName(rule, f.Rule)
	if rule != nil {
		f.Category, f.ToolCategory = rule.shared.cat, rule.shared.word
		f.HelpURI = rule.HelpURI
		if p := rule.props; p != nil {
			f.SecuritySeverity, f.CWE = cmp.Or(p.securitySeverity, p.cvss), p.cwe
		}
	} else {
		f.Category, f.ToolCategory = r.categoryOf(f.Rule)
	}
	for _, id := range res.CWE {
		if !slices.Contains(f.CWE, id) {
			f.CWE = addCWE(append([]int(nil), f.CWE...), id)
		}
	}
	f.Quality, f.Impact = r.assess(rule, f, len(res.CWE) > 0 || f.Rank > 0)
	if res.Quality.Valid() && res.Impact.Valid() { // recap's SARIF: as written
		f.Quality, f.Impact = res.Quality, res.Impact
	}
	f.Message = orMessage(r.message(res.Message, rule), f.Rule)
	if r.kind == toolCheckstyle && f.HelpURI == "" {
		f.HelpURI = r.checkstyleURI(f.Rule, f.RuleName)
	}
}

// countUncounted counts a result that is no finding in its input: a
// suppressed one, or one of another kind than fail.
func (r *sarifRun) countUncounted(res *sarifResult, kind string) {
	switch {
	case res.Suppressed:
		r.s.in.Suppressed++
	case kind != "":
		if r.s.in.Kinds == nil {
			r.s.in.Kinds = map[string]int{}
		}
		r.s.in.Kinds[kind]++
		if kind == "review" || kind == "open" {
			r.reviews++
		}
	}
}

// importance is a finding's place on the importance scale.
type importance struct {
	quality reports.Quality
	impact  reports.Impact
}

// assess places f on the importance scale from what its rule says
// (reports.Assess), once per rule and severity; own says that the
// result has CWE ids of its own, which its rule's cache cannot hold.
// recap's own SARIF read back gives both as it wrote them.
func (r *sarifRun) assess(rule *sarifRule, f *reports.Finding, own bool) (reports.Quality, reports.Impact) {
	var cached *importance
	if rule != nil && rule.shared != nil && !own && f.Severity.Valid() {
		cached = &rule.shared.assessed[f.Severity]
		if cached.quality.Valid() {
			return cached.quality, cached.impact
		}
	}
	s := reports.Signals{Tool: f.Tool, Rule: f.Rule, Category: f.Category, ToolCategory: f.ToolCategory,
		SecuritySeverity: f.SecuritySeverity, CWE: f.CWE, Level: f.Severity, Rank: int(f.Rank)}
	if rule != nil && rule.props != nil {
		s.ToolSeverity = rule.props.severity
	}
	if r.kind == toolPMD {
		s.Priority = f.Priority
	}
	var q reports.Quality
	var i reports.Impact
	if rule != nil {
		s.Tags = rule.tags
		if p := rule.props; p != nil {
			if len(p.categories) > 0 {
				s.Tags = append(slices.Clip(s.Tags), p.categories...)
			}
			q, i = p.quality, p.impact
		}
	}
	aq, ai := reports.Assess(&s)
	if !q.Valid() {
		q = aq
	}
	if !i.Valid() {
		i = ai
	}
	if cached != nil {
		*cached = importance{q, i}
	}
	return q, i
}

// placeDetail gives a finding what the tool said of its place beside its
// file, or instead of one: the logical locations of its location, and for
// a finding without a file the artifact it scanned.
func (r *sarifRun) placeDetail(f *reports.Finding, res *sarifResult, l sarifLocation) {
	var target string
	if at := res.AnalysisTarget; at != nil && f.Path == "" {
		target = r.quietLocate(at)
	}
	if len(l.Logical) == 0 && target == "" {
		return
	}
	d := &reports.Detail{}
	if f.Detail != nil {
		*d = *f.Detail // its own: a PMD result's findings share theirs
	}
	d.Logical, d.Target = l.Logical, target
	f.Detail = d
}

// checkstyleURI is the page of the check a Checkstyle rule names, once
// per rule, which describes the rule in the input's rule table too.
func (r *sarifRun) checkstyleURI(rule, name string) string {
	if uri, ok := r.checkstyleDocs[rule]; ok {
		return uri
	}
	uri := describeCheckstyle(r.toolName, rule, name, r.s.in.Rules)
	if r.checkstyleDocs == nil || len(r.checkstyleDocs) >= maxInterned {
		r.checkstyleDocs = map[string]string{}
	}
	r.checkstyleDocs[rule] = uri
	return uri
}

// clamp32 is n as an int32, at most math.MaxInt32.
func clamp32(n int) int32 { return int32(min(n, math.MaxInt32)) }

// categoryOf is the category of a result whose rule has no descriptor
// (Checkstyle's older SARIF), once per rule id.
func (r *sarifRun) categoryOf(id string) (category, word string) {
	if c, ok := r.categories[id]; ok {
		return c[0], c[1]
	}
	category, word = r.kind.category(r.toolName, nil, id)
	if r.categories == nil || len(r.categories) >= maxInterned {
		r.categories = map[string][2]string{}
	}
	r.categories[id] = [2]string{category, word}
	return category, word
}

// detail is what a result says beyond its place: its code flows, its
// related locations, its fix, its further locations (unless split: a
// PMD result whose locations are findings of their own), its suppressions
// and its kind; nil when none.
func (r *sarifRun) detail(res *sarifResult, split bool, kind string) *reports.Detail {
	further := 0
	if !split && len(res.Locations) > 1 {
		further = min(len(res.Locations)-1, reports.MaxLocations)
	}
	if len(res.Flows) == 0 && len(res.Related) == 0 && res.Fix == nil && further == 0 && len(res.Suppressions) == 0 && kind == "" {
		return nil
	}
	own := ""
	if len(res.Locations) > 0 && res.Locations[0].PhysicalLocation != nil && res.Locations[0].PhysicalLocation.ArtifactLocation != nil {
		_, own = r.artifactOf(res.Locations[0].PhysicalLocation.ArtifactLocation)
	}
	d := &reports.Detail{Kind: kind, Suppressions: res.Suppressions}
	for _, fl := range res.Flows {
		if len(fl.steps) == 0 {
			continue // a thread flow without steps, or none kept
		}
		text := fl.message.Text
		if text == "" {
			text = fl.message.Markdown
		}
		flow := reports.Flow{Code: fl.code, Message: messageText(text), Steps: make([]reports.Location, len(fl.steps))}
		for i, l := range fl.steps {
			flow.Steps[i] = r.detailLocation(l, own)
		}
		d.Flows = append(d.Flows, flow)
	}
	if len(d.Flows) > 0 {
		d.AllFlows = res.AllFlows
	}
	for _, l := range res.Related {
		d.Related = append(d.Related, r.detailLocation(l, own))
	}
	if further > 0 {
		for _, l := range res.Locations[1 : 1+further] {
			d.Locations = append(d.Locations, r.detailLocation(l, own))
		}
	}
	if fx := res.Fix; fx != nil {
		fix := &reports.Fix{Description: messageText(fx.Description)}
		for _, rp := range fx.Replacements {
			al := rp.Artifact
			rep := reports.Replacement{Path: r.quietLocate(&al),
				Line: rp.Region.StartLine, Column: max(rp.Region.StartColumn, 0),
				EndLine: max(rp.Region.EndLine, 0), EndColumn: max(rp.Region.EndColumn, 0), Text: rp.Text}
			if rep.Line <= 0 {
				rep.Line = 0
				r.placeChars(&rep, &al, *rp.Region.CharOffset, rp.Region.CharLength)
			}
			fix.Replacements = append(fix.Replacements, rep)
		}
		d.Fix = fix
	}
	return d
}

// detailLocation is a flow step, a related or a further location as the
// model has it. own is the uriBaseId of the result's place: a place under
// another base that names no source root (govulncheck's steps in the
// standard library, under %GOROOT%, or in the module cache) keeps its base
// and URI, and is never placed in the repository.
func (r *sarifRun) detailLocation(l sarifLocation, own string) reports.Location {
	var loc reports.Location
	if m := l.Message; m != nil {
		text := m.Text
		if text == "" {
			text = m.Markdown
		}
		loc.Message = messageText(text)
	}
	pl := l.PhysicalLocation
	if pl == nil {
		return loc
	}
	if al := pl.ArtifactLocation; al != nil {
		uri, base := r.artifactOf(al)
		if base != "" && !r.rootBase(base, own) {
			if p, ok := uriPath(uri); ok && p != "" && !strings.HasPrefix(p, "/") && !isWindowsAbs(p) {
				loc.Path, loc.Base = p, base
			} else if ok && p != "" {
				loc.Path = r.quietLocate(al) // an absolute URI: its base does not apply
			}
		} else {
			loc.Path = r.quietLocate(al)
		}
	}
	if loc.Path == "" {
		return loc // no place in a file: no region either
	}
	reg := pl.Region
	if reg == nil {
		reg = pl.ContextRegion
	}
	if reg != nil {
		loc.Line, loc.Column = max(reg.StartLine, 0), max(reg.StartColumn, 0)
		loc.EndLine, loc.EndColumn = max(reg.EndLine, 0), max(reg.EndColumn, 0)
		if loc.EndLine == 0 {
			loc.EndLine = loc.Line // as a finding's: a region of one line ends on it
		}
	}
	return loc
}

// artifactOf is an artifact location's URI and uriBaseId: its own, or
// those of the artifact its index names when it has no URI.
func (r *sarifRun) artifactOf(al *sarifArtifactLocation) (uri, base string) {
	uri, base = al.URI, al.URIBaseID
	if uri == "" && al.Index != nil {
		if i := *al.Index; i >= 0 && i < len(r.artifacts) {
			if a := r.artifacts[i].Location; a != nil {
				uri, base = a.URI, a.URIBaseID
			}
		}
	}
	return uri, base
}

// rootBase reports whether a place under the uriBaseId base of a result
// whose own place is under own may be in the repository: base is own, or
// the run declares it with a URI (originalUriBaseIds, resolved as any), or
// its name is a source root's (SRCROOT, %SRCROOT%, PROJECT_ROOT, …). A
// base declared without a URI (recap's SARIF declares so the bases of
// places outside the repository) names no directory of the repository.
func (r *sarifRun) rootBase(base, own string) bool {
	if base == own {
		return true
	}
	if _, known, usable := r.baseDir(base, 0); known && usable {
		return true
	}
	switch strings.ToLower(strings.Trim(base, "%$")) {
	case "srcroot", "src_root", "sourceroot", "source_root", "projectroot", "project_root", "reporoot", "repo_root",
		"repositoryroot", "repository_root", "root", "workspace", "wsroot", "checkout":
		return true
	}
	return false
}

// quietLocate is locate for the places of a finding's detail: a path that
// cannot be placed is not counted among the findings' paths.
func (r *sarifRun) quietLocate(al *sarifArtifactLocation) string {
	pl := r.s.placer
	n, first := pl.outside, pl.firstOutside
	p := r.locate(al)
	pl.outside, pl.firstOutside = n, first
	return p
}

// rule returns the descriptor of a result's rule: the one its index
// names (ruleIndex, rule.index, in its tool component), unless its id
// names another, which SARIF says the result's rule is (§3.27.5: ruleId
// names the rule; §3.27.6: ruleIndex SHALL agree); then the descriptor of
// that id, and the result is counted for a warning.
func (r *sarifRun) rule(res *sarifResult) *sarifRule {
	idx := -1
	if res.RuleIndex != nil {
		idx = *res.RuleIndex
	}
	if res.Rule != nil && res.Rule.Index != nil {
		idx = *res.Rule.Index
	}
	id := res.RuleID
	if id == "" && res.Rule != nil {
		id = res.Rule.ID
	}
	return r.ruleByRef(id, &idx, res.Rule)
}

// ruleByRef finds a rule by its id and its index (nil or -1: none) in the
// tool component a reference names (ref, nil: the driver).
func (r *sarifRun) ruleByRef(id string, index *int, ref *sarifRuleRef) *sarifRule {
	idx, comp := -1, -1
	if index != nil {
		idx = *index
	}
	if ref != nil {
		if ref.Index != nil && index == nil {
			idx = *ref.Index
		}
		if tc := ref.ToolComponent; tc != nil {
			if tc.Index != nil {
				comp = *tc.Index
			} else if tc.Name != "" && tc.Name != r.tool.Driver.Name {
				for i, e := range r.tool.Extensions {
					if e.Name == tc.Name {
						comp = i
					}
				}
			}
		}
	}
	rules := r.tool.Driver.Rules
	if comp >= 0 && comp < len(r.tool.Extensions) {
		rules = r.tool.Extensions[comp].Rules
	}
	var byIndex *sarifRule
	if idx >= 0 && idx < len(rules) {
		byIndex = rules[idx]
		if id == "" || byIndex.ID == id || strings.HasPrefix(id, byIndex.ID+"/") {
			return byIndex
		}
	}
	if id == "" {
		return nil
	}
	byID, ok := r.ruleByID[id]
	if !ok {
		// A hierarchical id ("A/B") may name a rule declared as "A" (§3.27.5).
		if i := strings.IndexByte(id, '/'); i > 0 {
			byID = r.ruleByID[id[:i]]
		}
	}
	if byIndex != nil {
		if r.mismatched++; r.firstMismatch == "" {
			r.firstMismatch = fmt.Sprintf("%s, whose index %d is %s", cutName(id), idx, cutName(byIndex.ID))
		}
	}
	return byID
}

// cutName quotes a rule id for a warning, cut to 60 bytes.
func cutName(id string) string {
	if len(id) > 60 {
		id = id[:runeStart([]byte(id[:61]), 60)] + ellipsis
	}
	return strconv.Quote(id)
}

// message follows §3.11: the text, else the rule's message string for the id;
// {n} placeholders are filled with the arguments. A message string with
// arguments is preferred to a plain text, as it says more (SpotBugs writes both).
func (r *sarifRun) message(m sarifMessage, rule *sarifRule) string {
	text := m.Text
	if m.ID != "" && rule != nil {
		if ms, ok := rule.messageStrings[m.ID]; ok && ms != "" && (text == "" || len(m.Arguments) > 0) {
			text = ms
		}
	}
	if text == "" {
		text = m.Markdown
	}
	return messageText(formatArgs(text, m.Arguments))
}

func (r *sarifRun) place(f *reports.Finding, l sarifLocation) {
	pl := l.PhysicalLocation
	if pl == nil {
		return
	}
	if pl.ArtifactLocation != nil {
		f.Path = r.locate(pl.ArtifactLocation)
	}
	reg := pl.Region
	if reg == nil {
		reg = pl.ContextRegion
	}
	if reg == nil {
		return
	}
	f.Line, f.Column = max(reg.StartLine, 0), max(reg.StartColumn, 0)
	f.EndLine, f.EndColumn = max(reg.EndLine, 0), max(reg.EndColumn, 0)
	if f.EndLine == 0 {
		f.EndLine = f.Line
	}
	if reg.Snippet != nil {
		f.Snippet = reg.Snippet.Text
	}
	// The context region's snippet (§3.29.5) shows more lines than the
	// region's: it is the context when the source is not in the repository.
	if c := pl.ContextRegion; c != nil && c != reg && c.Snippet != nil && c.Snippet.Text != "" && c.StartLine > 0 && c.StartLine <= f.Line &&
		max(c.EndLine, c.StartLine) >= f.Line {
		f.Snippet = c.Snippet.Text
		if c.StartLine != f.Line {
			f.SnippetLine = clamp32(c.StartLine)
		}
	}
}

// locate resolves an artifact location (§3.4) to a repository path: the
// artifact named by index when the uri is absent, then uriBaseId through
// originalUriBaseIds (§3.14.14), which may chain.
func (r *sarifRun) locate(al *sarifArtifactLocation) string {
	uri, base := al.URI, al.URIBaseID
	if uri == "" && al.Index != nil {
		switch i := *al.Index; {
		case i >= 0 && i < len(r.artifacts):
			if a := r.artifacts[i].Location; a != nil {
				uri, base = a.URI, a.URIBaseID
			}
		default:
			if r.badIndex++; r.badIndex == 1 {
				r.firstBad = i // warned at the run's end
			}
		}
	}
	if uri == "" {
		return ""
	}
	// Results repeat their file's URI: a path is placed once and then served
	// from the cache (shared, not copied). A path that could not be placed
	// is counted again at each use, and placed again once the placer has
	// learned a new report root, which may place it.
	key := uri
	if base != "" {
		key = base + "\x00" + uri
	}
	pl := r.s.placer
	if e, ok := r.placed[key]; ok && (!e.outside || e.learned == len(pl.learned)) {
		if e.outside {
			pl.unplaced(e.path)
		}
		return e.path
	}
	before := pl.outside
	p := r.resolve(uri, base)
	if r.placed == nil || len(r.placed) >= maxPlaced {
		r.placed = map[string]placedPath{} // a report of more distinct files than this: start again
	}
	r.placed[key] = placedPath{path: p, outside: pl.outside != before, learned: len(pl.learned)}
	return p
}

// maxPlaced bounds the placed paths a run keeps: real reports name tens of
// thousands of files at most; a hostile one may name millions.
const maxPlaced = 1 << 16

// placedPath is a cached result of locate.
type placedPath struct {
	path    string
	outside bool // not placed in the repository (counted by the placer)
	learned int  // report roots the placer knew then
}

// resolve is locate without the cache.
func (r *sarifRun) resolve(uri, base string) string {
	p, ok := uriPath(uri)
	if !ok {
		return r.s.placer.unplaced(uri)
	}
	if base != "" && !strings.HasPrefix(p, "/") && !isWindowsAbs(p) {
		dir, known, usable := r.baseDir(base, 0)
		switch {
		case known && !usable:
			return r.s.placer.unplaced(p)
		case known:
			p = joinURI(dir, p)
		}
		// An unknown base (often %SRCROOT%) is taken as the repository root.
	}
	return r.s.placer.place(p)
}

func (r *sarifRun) baseDir(id string, depth int) (dir string, known, usable bool) {
	b, ok := r.bases[id]
	if !ok {
		return "", false, false
	}
	if depth > maxBaseChain { // a loop (A, B, A, …), or a chain too long to be real
		if r.baseLoop == "" {
			r.baseLoop = id // warned at the run's end (this may be the converter's goroutine)
		}
		return "", true, false
	}
	if b.URI == "" {
		return "", b.URIBaseID == "", false
	}
	p, ok := uriPath(b.URI)
	if !ok {
		return "", true, false
	}
	if b.URIBaseID != "" && !strings.HasPrefix(p, "/") && !isWindowsAbs(p) {
		parent, known, usable := r.baseDir(b.URIBaseID, depth+1)
		if known && !usable {
			return "", true, false
		}
		if known {
			p = joinURI(parent, p)
		}
	}
	return p, true, true
}

// maxBaseChain bounds the uriBaseIds followed from one (§3.14.14): a loop
// is refused, not followed 8 times.
const maxBaseChain = 8

func fingerprints(m map[string]jsontext.Value) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		var s string
		if json.Unmarshal(v, &s) == nil {
			out[k] = s
		} else {
			out[k] = string(v)
		}
	}
	return out
}

// invocations turns a failed execution, with the reason the tool gives
// (its exit code and its description, the signal, its first error or
// warning notification), and the tool's error and warning notifications
// (§3.20) into one-line warnings: never a stack trace.
func (r *sarifRun) invocations(invs []sarifInvocation) {
	in := r.s.in
	for _, inv := range invs {
		for _, f := range inv.Failed {
			in.NoteNotAnalysed(r.locate(&f.at), f.reason)
		}
		var notes []string
		for _, n := range inv.ToolExecutionNotifications {
			if w := notification(r.toolName, "", n); w != "" {
				notes = append(notes, w)
			}
		}
		configOnly := len(notes) == 0
		for _, n := range inv.ToolConfigurationNotifications {
			if w := notification(r.toolName, "configuration ", n); w != "" {
				notes = append(notes, w)
			}
		}
		configOnly = configOnly && len(notes) > 0
		if inv.ExecutionSuccessful != nil && !*inv.ExecutionSuccessful {
			in.Warn(r.failure(inv, notes, configOnly))
			if len(notes) > 0 {
				notes = notes[1:] // in the failure's warning
			}
		}
		for _, w := range notes {
			in.Warn(w)
		}
	}
}

// failure is the warning of a failed execution: what the tool says of
// why. A run the tool marks not successful for its configuration alone
// (configOnly: no exit code, no execution notification; PMD's for a rule
// it could not configure) is said so, not as a failed execution.
func (r *sarifRun) failure(inv sarifInvocation, notes []string, configOnly bool) string {
	var why []string
	if inv.ExitCode != nil {
		why = append(why, fmt.Sprintf("exit code %d", *inv.ExitCode))
	}
	if d := firstLine(inv.ExitCodeDescription); d != "" {
		why = append(why, d)
	}
	if sig := firstLine(inv.ExitSignalName); sig != "" {
		why = append(why, "signal "+sig)
	}
	msg := r.toolName + " reports that its execution failed"
	if configOnly && len(why) == 0 {
		msg = r.toolName + " marks its run not successful because of its configuration"
	}
	if len(why) > 0 {
		msg += " (" + strings.Join(why, ", ") + ")"
	}
	if len(notes) > 0 {
		msg += "; first notification: " + strings.TrimPrefix(notes[0], r.toolName+" ")
	}
	return msg
}

func notification(tool, kind string, n sarifNotification) string {
	level := n.Level
	if level == "" {
		level = "warning" // §3.58.6
	}
	if level != "error" && level != "warning" {
		return ""
	}
	text := firstLine(n.Message.Text)
	if text == "" {
		return ""
	}
	if id := n.rule; id != "" {
		return fmt.Sprintf("%s %s%s in rule %s: %s", tool, kind, level, id, text)
	}
	return fmt.Sprintf("%s %s%s: %s", tool, kind, level, text)
}

// formatArgs fills the {n} placeholders of a SARIF message string (§3.11.5)
// in one pass; "{{" and "}}" stand for literal braces. A placeholder without
// an argument stays as written.
func formatArgs(text string, args []string) string {
	if len(args) == 0 || !strings.ContainsAny(text, "{}") {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '{' && i+1 < len(text) && text[i+1] == '{', c == '}' && i+1 < len(text) && text[i+1] == '}':
			b.WriteByte(c)
			i++
		case c == '{':
			j := i + 1
			for j < len(text) && j-i <= 6 && text[j] >= '0' && text[j] <= '9' {
				j++
			}
			if j > i+1 && j < len(text) && text[j] == '}' {
				if n, err := strconv.Atoi(text[i+1 : j]); err == nil && n < len(args) {
					b.WriteString(args[n])
					i = j
					continue
				}
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
