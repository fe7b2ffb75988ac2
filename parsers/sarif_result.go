package parsers

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/recap-dev/recap/reports"
)

// The result decoder: a result (§3.27) read token by token into sarifResult,
// in one pass over the stream, without reflection. A value of the wrong kind
// (a string where a number belongs) is skipped and noted as the input's
// first type error; the result keeps what fits, and reading goes on.
//
// Member names are matched as encoding/json, go-sarif and the SARIF
// Multitool (Newtonsoft.Json) match them: exactly, else in any case
// (strings.EqualFold), so "RuleId" is ruleId. The exact match is the fast
// path; a name is folded only when it is none of the names SARIF defines.
// The keys of maps (partialFingerprints, messageStrings, property bags) are
// data, matched exactly. sarif_oracle_test.go checks this decoder against
// go-json-experiment's Unmarshal into the same structs.

// The members each object's reader knows, for names in another case.
var (
	resultMembers = []string{"ruleId", "ruleIndex", "rule", "kind", "level", "message", "locations", "partialFingerprints", "suppressions",
		"relatedLocations", "codeFlows", "fixes", "taxa", "analysisTarget", "properties"}
	suppressionMembers  = []string{"kind", "status", "justification", "properties"}
	logicalMembers      = []string{"name", "fullyQualifiedName", "kind"}
	ruleMembers         = []string{"id", "name", "helpUri", "shortDescription", "fullDescription", "help", "defaultConfiguration", "messageStrings", "properties", "relationships"}
	relationshipMembers = []string{"target"}
	codeFlowMembers     = []string{"message", "threadFlows"}
	threadFlowMembers   = []string{"locations"}
	flowStepMembers     = []string{"location"}
	fixMembers          = []string{"description", "artifactChanges"}
	changeMembers       = []string{"artifactLocation", "replacements"}
	replacementMembers  = []string{"deletedRegion", "insertedContent"}
	contentMembers      = []string{"text", "binary"}
	configMembers       = []string{"level"}
	textMembers         = []string{"text"}
	ruleRefMembers      = []string{"id", "index", "toolComponent"}
	componentRefMembers = []string{"name", "index"}
	messageMembers      = []string{"text", "markdown", "id", "arguments"}
	locationMembers     = []string{"physicalLocation", "message", "logicalLocations"}
	physicalMembers     = []string{"artifactLocation", "region", "contextRegion"}
	artifactMembers     = []string{"uri", "uriBaseId", "index"}
	regionMembers       = []string{"startLine", "startColumn", "endLine", "endColumn", "snippet", "charOffset", "charLength", "byteOffset"}
	snippetMembers      = []string{"text", "markdown"}
)

// foldName returns the member that name is in another case, or name itself
// when it is none.
func foldName(name string, members []string) string {
	for _, m := range members {
		if strings.EqualFold(name, m) {
			return m
		}
	}
	return name
}

// result reads one result object.
func (s *sarifStream) result(res *sarifResult) error {
	return s.object(resultMembers, func(name string) error {
		switch name {
		case "ruleId":
			return s.istrAt(&res.RuleID, lastRuleID)
		case "ruleIndex":
			return s.optInt(&res.RuleIndex)
		case "rule":
			if res.Rule == nil && s.dec.PeekKind() != 'n' {
				res.Rule = &sarifRuleRef{}
			}
			return s.ruleRef(res.Rule)
		case "kind":
			return s.istr(&res.Kind)
		case "level":
			return s.istrAt(&res.Level, lastLevel)
		case "message":
			return s.message(&res.Message)
		case "locations":
			return s.resultLocations(res)
		case "partialFingerprints":
			return s.partialFingerprints(res)
		case "suppressions":
			return s.suppressions(res)
		case "analysisTarget":
			if res.AnalysisTarget == nil && s.dec.PeekKind() != 'n' {
				res.AnalysisTarget = &sarifArtifactLocation{}
			}
			return s.artifactLocation(res.AnalysisTarget)
		case "properties":
			return s.resultProperties(res)
		case "relatedLocations":
			return s.relatedLocations(res)
		case "codeFlows":
			return s.codeFlows(res)
		case "fixes":
			return s.fixes(res)
		case "taxa":
			return s.array(func() error {
				var ref sarifRuleRef
				err := s.ruleRef(&ref)
				res.CWE = addCWE(res.CWE, taxonCWE(&ref))
				return err
			})
		}
		return s.dec.SkipValue()
	})
}

// resultLocations reads a result's locations: the first spillAfter kept
// in it, the others spilled (or, when only the first is its place, not
// kept).
func (s *sarifStream) resultLocations(res *sarifResult) error {
	return s.array(func() error {
		var l sarifLocation
		first := res.Locations == nil
		if first {
			s.inl = &res.inline // the first location's objects read into the result's own
		}
		err := s.location(&l)
		s.inl = nil
		switch {
		case len(res.Locations) < spillAfter:
			if first {
				res.Locations = res.inline.locs[:0]
			}
			res.Locations = append(res.Locations, l)
		case s.oneLocation: // only the first is the result's place
		default:
			if res.more == nil {
				res.more = &locSpill{}
				s.spills = append(s.spills, res.more)
			}
			res.more.add(&l)
		}
		return err
	})
}

// partialFingerprints reads a result's partial fingerprints, a long one
// cut: a string to its bound, another value to null.
func (s *sarifStream) partialFingerprints(res *sarifResult) error {
	return s.object(nil, func(k string) error {
		v, err := s.dec.ReadValue()
		if err != nil {
			return err
		}
		if res.PartialFingerprints == nil {
			res.PartialFingerprints = map[string]jsontext.Value{}
		}
		if len(v) > maxSARIFName {
			if v[0] == '"' {
				v, _ = jsontext.AppendQuote(nil, s.unquote(v, maxSARIFName))
			} else {
				v = jsontext.Value("null")
			}
		}
		res.PartialFingerprints[k] = bytes.Clone(v)
		return nil
	})
}

// suppressions reads a result's suppressions: the first
// reports.MaxSuppressions of them, and whether they suppress it
// ([reports.Suppressed]).
func (s *sarifStream) suppressions(res *sarifResult) error {
	err := s.array(func() error {
		var sup reports.Suppression
		err := s.object(suppressionMembers, func(k string) error {
			switch k {
			case "kind":
				return s.istr(&sup.Kind)
			case "status":
				return s.istr(&sup.Status)
			case "justification":
				return s.str(&sup.Justification)
			case "properties":
				return s.suppressionProperties(&sup)
			}
			return s.dec.SkipValue()
		})
		res.Suppressions = keepSuppression(res.Suppressions, sup)
		return err
	})
	res.Suppressed = reports.Suppressed(res.Suppressions)
	return err
}

// keepSuppression appends sup to kept, up to reports.MaxSuppressions. A
// suppression that is not accepted, past those, takes the last place when
// all kept are accepted: what is kept suppresses the result as all do.
func keepSuppression(kept []reports.Suppression, sup reports.Suppression) []reports.Suppression {
	switch {
	case len(kept) < reports.MaxSuppressions:
		kept = append(kept, sup)
	case !sup.Suppresses() && reports.Suppressed(kept):
		kept[len(kept)-1] = sup
	}
	return kept
}

// suppressionProperties reads what a suppression's property bag says of
// a triage decision (recap's SARIF writes its state, by, date, until and
// link there): the strings of those keys; other keys and values are
// skipped.
func (s *sarifStream) suppressionProperties(sup *reports.Suppression) error {
	var p reports.SuppressionProperties
	err := s.object(nil, func(k string) error {
		dst := p.Field(k)
		if dst == nil || s.dec.PeekKind() != '"' {
			return s.dec.SkipValue()
		}
		return s.strN(dst, reports.MaxPropertyText)
	})
	if !p.IsZero() {
		sup.Properties = &p
	}
	return err
}

// resultProperties reads a result's property bag, where recap's SARIF
// writes the tool's priority and rank, a finding's quality and impact,
// the tool's level, and a fix in words.
func (s *sarifStream) resultProperties(res *sarifResult) error {
	return s.object(nil, func(k string) error {
		switch k {
		case "priority", "rank", "fixable", "fixDescription", "quality", "impact", "cwe", "toolLevel":
		default:
			return s.dec.SkipValue()
		}
		v, err := s.dec.ReadValue()
		if err != nil {
			return err
		}
		s.resultProperty(res, k, v)
		return nil
	})
}

// resultProperty sets what the property k of value v says of res.
func (s *sarifStream) resultProperty(res *sarifResult, k string, v jsontext.Value) {
	switch k {
	case "priority":
		res.Priority = intProperty(v)
	case "rank":
		res.Rank = intProperty(v)
	case "quality":
		res.Quality, _ = reports.ParseQuality(stringProperty(v))
	case "impact":
		res.Impact, _ = reports.ParseImpact(stringProperty(v))
	case "toolLevel": // recap's SARIF: the tool's level beside the impact's
		switch l := stringProperty(v); l {
		case "error", "warning", "note":
			res.ToolLevel = l
		}
	case "fixable":
		res.FixFlag = string(v) == "true"
	case "cwe": // njsscan's and mobsfscan's "CWE-89: Improper …"
		for _, id := range cweProperty(v) {
			res.CWE = addCWE(res.CWE, id)
		}
	default:
		res.FixWords = s.cut(stringProperty(v), maxSARIFText)
	}
}

// relatedLocations reads a result's related locations, the first
// reports.MaxRelated of them, counting them all.
func (s *sarifStream) relatedLocations(res *sarifResult) error {
	return s.array(func() error {
		if res.RelatedCount++; res.RelatedCount > reports.MaxRelated {
			return s.dec.SkipValue()
		}
		var l sarifLocation
		err := s.location(&l)
		res.Related = append(res.Related, l)
		return err
	})
}

// codeFlows reads the result's code flows (§3.36, §3.37, §3.38): each
// thread flow a flow, with its code flow's message, the first
// reports.MaxFlows of them and reports.MaxFlowSteps steps over all; it
// counts the thread flows and their steps.
func (s *sarifStream) codeFlows(res *sarifResult) error {
	code := -1
	return s.array(func() error {
		code++
		var msg sarifMessage
		first := len(res.Flows) // the code flow's first flow kept
		err := s.object(codeFlowMembers, func(name string) error {
			switch name {
			case "message":
				return s.message(&msg)
			case "threadFlows":
			default:
				return s.dec.SkipValue()
			}
			return s.array(func() error {
				res.AllFlows++
				keep := len(res.Flows) < reports.MaxFlows && res.FlowSteps < reports.MaxFlowSteps
				if keep {
					res.Flows = append(res.Flows, sarifFlow{code: code})
				}
				return s.object(threadFlowMembers, func(name string) error {
					if name != "locations" {
						return s.dec.SkipValue()
					}
					return s.array(func() error {
						if res.FlowSteps++; !keep || res.FlowSteps > reports.MaxFlowSteps {
							return s.dec.SkipValue()
						}
						var l sarifLocation
						err := s.object(flowStepMembers, func(name string) error {
							if name != "location" {
								return s.dec.SkipValue()
							}
							return s.location(&l)
						})
						fl := &res.Flows[len(res.Flows)-1]
						fl.steps = append(fl.steps, l)
						return err
					})
				})
			})
		})
		for i := first; i < len(res.Flows); i++ {
			res.Flows[i].message = msg
		}
		return err
	})
}

// fixes reads the first fix (§3.55): its description and its artifact
// changes' replacements (§3.56, §3.57), kept whole when they are within the
// bounds (usableFix), else left out.
func (s *sarifStream) fixes(res *sarifResult) error {
	first := true
	return s.array(func() error {
		if !first {
			return s.dec.SkipValue()
		}
		first = false
		if s.dec.PeekKind() != '{' {
			return s.object(nil, nil) // null, or a value of the wrong kind noted
		}
		fix := &sarifFix{}
		usable, n := true, 0
		err := s.object(fixMembers, func(name string) error {
			switch name {
			case "description":
				var m sarifMessage
				err := s.message(&m)
				fix.Description = m.Text
				if fix.Description == "" {
					fix.Description = m.Markdown
				}
				return err
			case "artifactChanges":
				return s.array(func() error {
					var al sarifArtifactLocation
					start := len(fix.Replacements)
					err := s.object(changeMembers, func(name string) error {
						switch name {
						case "artifactLocation":
							return s.artifactLocation(&al)
						case "replacements":
							return s.array(func() error {
								if n++; n > reports.MaxFixReplacements {
									usable = false
									return s.dec.SkipValue()
								}
								var rp sarifReplacement
								err := s.replacement(&rp, &usable)
								fix.Replacements = append(fix.Replacements, rp)
								return err
							})
						}
						return s.dec.SkipValue()
					})
					for i := start; i < len(fix.Replacements); i++ {
						fix.Replacements[i].Artifact = al
					}
					return err
				})
			}
			return s.dec.SkipValue()
		})
		res.FixProposed = n > 0 || fix.Description != ""
		switch {
		case usable && usableFix(fix):
			res.Fix = fix
		case fix.Description != "": // edits recap cannot keep: the fix in words
			res.Fix = &sarifFix{Description: fix.Description}
		}
		return err
	})
}

// replacement reads a replacement; a binary insertedContent makes the fix
// unusable, and so does an insertedContent with no text (a tool that meant
// a change it did not write: absent, insertedContent deletes the region).
func (s *sarifStream) replacement(rp *sarifReplacement, usable *bool) error {
	return s.object(replacementMembers, func(name string) error {
		switch name {
		case "deletedRegion":
			return s.region(&rp.Region)
		case "insertedContent":
			if s.dec.PeekKind() != '{' {
				return s.object(nil, nil) // null, or a value of the wrong kind noted
			}
			hasText := false
			err := s.object(contentMembers, func(name string) error {
				switch name {
				case "text":
					hasText = s.dec.PeekKind() == '"'
					return s.str(&rp.Text)
				case "binary":
					var b string
					err := s.str(&b)
					if b != "" {
						*usable = false
					}
					return err
				}
				return s.dec.SkipValue()
			})
			rp.NoText = !hasText
			return err
		}
		return s.dec.SkipValue()
	})
}

// usableFix reports whether a fix's edits are ones recap can keep: it has
// replacements, at most reports.MaxFixReplacements, each of a region given
// by lines or by characters (not by bytes alone) in an artifact, inserting
// a text of at most reports.MaxFixText bytes.
func usableFix(f *sarifFix) bool {
	if len(f.Replacements) == 0 || len(f.Replacements) > reports.MaxFixReplacements {
		return false
	}
	for _, r := range f.Replacements {
		byChars := r.Region.CharOffset != nil && *r.Region.CharOffset >= 0 && (r.Region.CharLength == nil || *r.Region.CharLength >= 0)
		if r.Region.StartLine <= 0 && !byChars || r.NoText || len(r.Text) > reports.MaxFixText || r.Artifact.URI == "" && r.Artifact.Index == nil {
			return false
		}
	}
	return true
}

// rule reads a reportingDescriptor (§3.49), keeping what recap reads of it;
// its descriptions and help (most of the bytes) are skipped, not decoded.
func (s *sarifStream) rule() (*sarifRule, error) {
	r := &sarifRule{}
	err := s.object(ruleMembers, func(name string) error {
		switch name {
		case "id":
			return s.istr(&r.ID)
		case "name":
			return s.istr(&r.Name)
		case "helpUri":
			return s.istr(&r.HelpURI)
		case "shortDescription":
			if sh := s.ruleFirst[r.ID]; r.ID != "" && sh != nil {
				return s.sameShort(sh) // compared with the id's, not kept
			}
			return s.ruleText(r, name)
		case "fullDescription", "help":
			if r.ID != "" && s.ruleFirst[r.ID] != nil {
				return s.dec.SkipValue() // the id's first descriptor has its texts
			}
			return s.ruleText(r, name)
		case "relationships":
			return s.array(func() error {
				return s.object(relationshipMembers, func(name string) error {
					if name != "target" {
						return s.dec.SkipValue()
					}
					var ref sarifRuleRef
					err := s.ruleRef(&ref)
					if id := taxonCWE(&ref); id > 0 {
						r.prop().cwe = addCWE(r.props.cwe, id)
					}
					return err
				})
			})
		case "defaultConfiguration":
			return s.object(configMembers, func(k string) error {
				if k == "level" {
					return s.istr(&r.level)
				}
				return s.dec.SkipValue()
			})
		case "messageStrings":
			return s.object(nil, func(id string) error {
				var text string
				err := s.object(textMembers, func(k string) error {
					if k == "text" {
						return s.str(&text)
					}
					return s.dec.SkipValue()
				})
				if r.messageStrings == nil {
					r.messageStrings = map[string]string{}
				}
				r.messageStrings[id] = text
				return err
			})
		case "properties":
			return s.ruleProperties(r)
		}
		return s.dec.SkipValue()
	})
	s.firstOfID(r)
	return r, err
}

// ruleProperties reads a descriptor's property bag: their types vary by
// tool, so the properties recap reads are read raw and parsed once here.
// recap's SARIF says by securitySeverityFrom "impact" that its
// security-severity stands for its findings' impact, no tool's number:
// that one is read as none, and the findings keep their own impact.
func (s *sarifStream) ruleProperties(r *sarifRule) error {
	if r.ruleset == "" && r.category == "" && r.priority == 0 && r.tags == nil && r.props == nil && !r.noRule {
		if s.wholeBags && s.dec.PeekKind() == '{' {
			return s.cachedRuleProperties(r, nil)
		}
		buf := s.dec.UnreadBuffer()
		if start, n := smallObject(buf, maxCachedProps); n > 0 {
			// Read whole only when it is valid JSON, so that a syntax
			// error inside is reported as member by member reading
			// reports it: a bag read before is.
			bag := buf[start : start+n]
			if b := s.propBags[string(bag)]; b != nil || jsontext.Value(bag).IsValid(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true)) {
				return s.cachedRuleProperties(r, b)
			}
		}
	}
	return s.rulePropertiesRead(r)
}

// maxCachedProps bounds the property bags read whole and remembered
// (cachedRuleProperties), in bytes as written; maxPropBags bounds how
// many are remembered.
const (
	maxCachedProps = 1 << 10
	maxPropBags    = 1 << 12
)

// propBag is what a descriptor's property bag gives it (see ruleProperty).
type propBag struct {
	ruleset, category string
	priority          int
	tags              []string
	props             *ruleProps
	noRule            bool
}

// cachedRuleProperties reads the property bag of a descriptor that has
// none of its properties yet, small, valid and whole in the decoder's
// buffer (b: the bag remembered by its bytes there, if any): a
// bag written the same way as one read before gives what that one gave,
// unparsed (PMD 7 writes its rule's bag again in each of tens of
// thousands of descriptors). A bag read gives the same as when read
// member by member; one that is noted (a string cut, a severity not
// understood, a value of the wrong kind) is not remembered, so that each
// is noted.
func (s *sarifStream) cachedRuleProperties(r *sarifRule, b *propBag) error {
	v, err := s.dec.ReadValue()
	if err != nil {
		return err
	}
	if b == nil {
		b = s.propBags[string(v)]
	}
	if b != nil {
		r.ruleset, r.category, r.priority, r.noRule = b.ruleset, b.category, b.priority, b.noRule
		r.tags, r.props = slices.Clone(b.tags), b.props.clone()
		return nil
	}
	// Read member by member, as ruleProperties would, from v.
	s.subR.Reset(v)
	if s.sub == nil {
		s.sub = jsontext.NewDecoder(&s.subR, jsonOptions)
	} else {
		s.sub.Reset(&s.subR, jsonOptions)
	}
	dec, cuts, bad, typeErrs := s.dec, s.cuts, s.badSeverities, s.typeErrs
	s.dec = s.sub
	err = s.rulePropertiesRead(r)
	s.dec = dec
	if err != nil || s.cuts != cuts || s.badSeverities != bad || s.typeErrs != typeErrs || len(s.propBags) >= maxPropBags {
		return err
	}
	if s.propBags == nil {
		s.propBags = map[string]*propBag{}
	}
	s.propBags[string(v)] = &propBag{ruleset: r.ruleset, category: r.category, priority: r.priority,
		tags: slices.Clone(r.tags), props: r.props.clone(), noRule: r.noRule}
	return nil
}

// clone returns a copy of p whose slices are its own (nil for nil): a
// descriptor adds CWE ids to its own from its relationships.
func (p *ruleProps) clone() *ruleProps {
	if p == nil {
		return nil
	}
	c := *p
	c.categories, c.cwe = slices.Clone(p.categories), slices.Clone(p.cwe)
	return &c
}

// smallObject returns where the object that buf holds whole at its start,
// past white space, a colon or a comma, begins, and its length, when it
// has at most max bytes; a length of 0 otherwise (not an object, longer,
// or not whole in buf). Strings are stepped over, escapes and all; the
// object is not checked otherwise.
func smallObject(buf []byte, max int) (start, n int) {
	i := 0
	for i < len(buf) && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n' || buf[i] == ':' || buf[i] == ',') {
		i++
	}
	if i == len(buf) || buf[i] != '{' {
		return 0, 0
	}
	start = i
	depth := 0
	for ; i < len(buf) && i-start < max; i++ {
		// White space of indentation, up to eight spaces at a time.
		for i+8 <= len(buf) {
			x := binary.LittleEndian.Uint64(buf[i:]) ^ spaces8
			if x != 0 {
				i += bits.TrailingZeros64(x) / 8
				break
			}
			i += 8
		}
		if i >= len(buf) {
			break
		}
		switch buf[i] {
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return start, i + 1 - start
			}
		case '"':
			for i++; i < len(buf) && buf[i] != '"'; i++ {
				if buf[i] == '\\' {
					i++
				}
			}
		}
	}
	return 0, 0
}

// spaces8 is eight spaces read as a little-endian word.
const spaces8 = 0x2020202020202020

// rulePropertiesRead reads a descriptor's property bag member by member.
func (s *sarifStream) rulePropertiesRead(r *sarifRule) error {
	fromImpact := false
	err := s.object(nil, func(k string) error {
		switch k {
		case "ruleset", "category", "priority", "tags", "security-severity", "precision", "toolCategory", "recapNoRule", "categories", "quality", "impact",
			"cwe", "cvssv3_baseScore", "severity", "cvssv3_baseSeverity", "cvssv2_severity", "securitySeverityFrom":
		default:
			return s.dec.SkipValue()
		}
		v, err := s.dec.ReadValue()
		if err != nil {
			return err
		}
		if k == "securitySeverityFrom" {
			fromImpact = stringProperty(v) == "impact"
			return nil
		}
		s.ruleProperty(r, k, v)
		return nil
	})
	if fromImpact && r.props != nil {
		r.props.securitySeverity = 0
	}
	return err
}

// ruleProperty keeps one of a descriptor's properties, v raw.
func (s *sarifStream) ruleProperty(r *sarifRule, k string, v jsontext.Value) {
	switch k {
	case "ruleset":
		r.ruleset = s.internProperty(v)
	case "category":
		r.category = s.internProperty(v)
	case "priority":
		r.priority = intProperty(v)
	case "tags":
		for _, t := range tagsProperty(v) {
			if len(r.tags) < maxRuleTags {
				r.tags = append(r.tags, s.intern(s.cut(t, maxSARIFName)))
			}
			if id := tagCWE(t); id > 0 {
				r.prop().cwe = addCWE(r.props.cwe, id)
			}
		}
	case "security-severity":
		sev, known := severityProperty(v)
		if !known {
			s.noteSeverityWord(stringProperty(v), v)
		}
		if sev > 0 || r.props != nil {
			r.prop().securitySeverity = sev
		}
	case "cwe": // Snyk's ["CWE-79"]
		for _, id := range cweProperty(v) {
			r.prop().cwe = addCWE(r.props.cwe, id)
		}
	case "cvssv3_baseScore":
		if sev, _ := severityProperty(v); sev > 0 {
			r.prop().cvss = sev
		}
	case "severity", "cvssv3_baseSeverity", "cvssv2_severity":
		if i, ok := reports.SeverityWordImpact(stringProperty(v)); ok {
			r.prop().severity = max(r.props.severity, i)
		}
	case "recapNoRule":
		r.noRule = string(v) == "true"
	case "precision":
		if p := stringProperty(v); p != "" || r.props != nil {
			r.prop().precision = s.intern(s.cut(p, maxSARIFName))
		}
	case "toolCategory": // recap's SARIF: the tool's word, "" when it gave none
		r.prop().toolCategory = s.intern(s.cut(stringProperty(v), maxSARIFName))
		r.props.recapCategory = true
	case "categories":
		for _, c := range tagsProperty(v) {
			if p := r.prop(); len(p.categories) < maxRuleTags {
				p.categories = append(p.categories, s.intern(s.cut(c, maxSARIFName)))
			}
		}
	case "quality":
		if q, err := reports.ParseQuality(stringProperty(v)); err == nil {
			r.prop().quality = q
		}
	case "impact":
		if i, err := reports.ParseImpact(stringProperty(v)); err == nil {
			r.prop().impact = i
		}
	}
}

// firstOfID gives a descriptor what the descriptors of its id share in
// the component, which the first of them makes: its texts are the id's (a
// later descriptor's are dropped, or skipped unread when its id comes
// first). A short description that differs between them is a message, not
// the rule's (PMD 7 writes one descriptor per rule and message).
func (s *sarifStream) firstOfID(r *sarifRule) {
	if r.ID == "" {
		return
	}
	sh := s.ruleFirst[r.ID]
	if sh == nil {
		if len(s.ruleFirst) >= maxRuleIDs {
			return // not kept (see component)
		}
		if s.ruleFirst == nil {
			s.ruleFirst = map[string]*ruleShared{}
		}
		r.shared = &ruleShared{short: shortText(r.texts)}
		s.ruleFirst[r.ID] = r.shared
		return
	}
	r.shared = sh
	if shortText(r.texts) != sh.short {
		sh.shortVaries = true
	}
	r.texts = nil
}

// shortText is the text of a descriptor's short description, "" when none.
func shortText(t *ruleTexts) string {
	if t == nil || t.short == nil {
		return ""
	}
	return t.short.Text
}

// ruleText reads a descriptor's shortDescription, fullDescription or help
// (name); its texts are made for any value but null, as Unmarshal makes them.
func (s *sarifStream) ruleText(r *sarifRule, name string) error {
	held := s.heldRuleText
	if s.in != nil {
		held += s.in.Rules.TextBytes()
	}
	if held >= maxHeldRuleText {
		// The rule table would not keep them: left unread, and counted.
		r.textsCut = r.textsCut || s.dec.PeekKind() != 'n'
		return s.dec.SkipValue()
	}
	var dst *sarifMultiformat
	if s.dec.PeekKind() != 'n' && r.texts == nil {
		r.texts = &ruleTexts{}
	}
	err := s.multiformat(&dst)
	if dst != nil {
		s.heldRuleText += len(dst.Text) + len(dst.Markdown)
		switch name {
		case "shortDescription":
			r.texts.short = dst
		case "fullDescription":
			r.texts.full = dst
		default:
			r.texts.help = dst
		}
	}
	return err
}

// sameShort reads a later descriptor's shortDescription and notes when its
// text is not the id's; a text written without escapes is compared without
// being copied.
func (s *sarifStream) sameShort(sh *ruleShared) error {
	text, seen := "", false
	err := s.object(snippetMembers, func(k string) error {
		if k != "text" || s.dec.PeekKind() != '"' {
			return s.dec.SkipValue()
		}
		seen = true
		v, err := s.dec.ReadValue()
		if err != nil {
			return err
		}
		if raw := v[1 : len(v)-1]; bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) && len(raw) <= maxRuleText {
			if string(raw) != sh.short {
				sh.shortVaries = true
			}
			return nil
		}
		text = s.unquote(v, maxRuleText)
		if text != sh.short {
			sh.shortVaries = true
		}
		return nil
	})
	if !seen && sh.short != "" {
		sh.shortVaries = true
	}
	return err
}

// prop returns r's props, made when it has none.
func (r *sarifRule) prop() *ruleProps {
	if r.props == nil {
		r.props = &ruleProps{}
	}
	return r.props
}

// multiformat reads a rule's multiformatMessageString (§3.12) into a new
// value, its strings cut to what the rule table keeps; null leaves dst nil.
func (s *sarifStream) multiformat(dst **sarifMultiformat) error {
	if *dst == nil && s.dec.PeekKind() != 'n' {
		*dst = &sarifMultiformat{}
	}
	m := *dst
	return s.object(snippetMembers, func(k string) error {
		switch k {
		case "text":
			return s.strN(&m.Text, maxRuleText)
		case "markdown":
			return s.strN(&m.Markdown, maxRuleText)
		}
		return s.dec.SkipValue()
	})
}

// maxRuleText is the bound of a rule's texts as read: with its "…", within
// the rule table's bound.
const maxRuleText = reports.MaxRuleText - len(ellipsis)

// maxHeldRuleText bounds the bytes of rule texts read and held at once: a
// tool's descriptors keep theirs until the tool is read whole, and the rule
// table keeps at most reports.MaxRuleBytes of them (twice that is read, as
// texts a table leaves out, equal or varying short descriptions, are
// dropped only then). Past it, descriptors' texts are skipped unread.
const maxHeldRuleText = 2 * reports.MaxRuleBytes

// ruleRef reads a rule reference into r, which is nil when the value is null.
func (s *sarifStream) ruleRef(r *sarifRuleRef) error {
	return s.object(ruleRefMembers, func(name string) error {
		switch name {
		case "id":
			return s.str(&r.ID)
		case "index":
			return s.optInt(&r.Index)
		case "toolComponent":
			if r.ToolComponent == nil && s.dec.PeekKind() != 'n' {
				r.ToolComponent = &sarifComponentRef{}
			}
			return s.object(componentRefMembers, func(k string) error {
				switch k {
				case "name":
					return s.str(&r.ToolComponent.Name)
				case "index":
					return s.optInt(&r.ToolComponent.Index)
				}
				return s.dec.SkipValue()
			})
		}
		return s.dec.SkipValue()
	})
}

func (s *sarifStream) message(m *sarifMessage) error {
	return s.object(messageMembers, func(name string) error {
		switch name {
		case "text":
			return s.str(&m.Text)
		case "markdown":
			return s.str(&m.Markdown)
		case "id":
			return s.str(&m.ID)
		case "arguments":
			return s.array(func() error {
				var a string
				err := s.str(&a)
				m.Arguments = append(m.Arguments, a)
				return err
			})
		}
		return s.dec.SkipValue()
	})
}

func (s *sarifStream) location(l *sarifLocation) error {
	return s.object(locationMembers, func(name string) error {
		if name == "logicalLocations" {
			return s.array(func() error {
				var ll reports.LogicalLocation
				err := s.object(logicalMembers, func(k string) error {
					switch k {
					case "name":
						return s.istr(&ll.Name)
					case "fullyQualifiedName":
						return s.istr(&ll.FullyQualifiedName)
					case "kind":
						return s.istr(&ll.Kind)
					}
					return s.dec.SkipValue()
				})
				if len(l.Logical) < reports.MaxLogical {
					l.Logical = append(l.Logical, ll)
				}
				return err
			})
		}
		if name == "message" {
			if l.Message == nil && s.dec.PeekKind() != 'n' {
				l.Message = &sarifMessage{}
			}
			if l.Message == nil {
				return s.object(nil, nil)
			}
			return s.message(l.Message)
		}
		if name != "physicalLocation" {
			return s.dec.SkipValue()
		}
		if l.PhysicalLocation == nil && s.dec.PeekKind() != 'n' {
			l.PhysicalLocation = s.newPhysical()
		}
		pl := l.PhysicalLocation
		return s.object(physicalMembers, func(k string) error {
			switch k {
			case "artifactLocation":
				if pl.ArtifactLocation == nil && s.dec.PeekKind() != 'n' {
					pl.ArtifactLocation = s.newArtifact()
				}
				return s.artifactLocation(pl.ArtifactLocation)
			case "region":
				if pl.Region == nil && s.dec.PeekKind() != 'n' {
					pl.Region = s.newRegion()
				}
				return s.region(pl.Region)
			case "contextRegion":
				if pl.ContextRegion == nil && s.dec.PeekKind() != 'n' {
					pl.ContextRegion = s.newRegion()
				}
				return s.region(pl.ContextRegion)
			}
			return s.dec.SkipValue()
		})
	})
}

// newPhysical, newArtifact and newRegion return a location's objects:
// the first of each in the result's inline storage while its first
// location is read, else from the slabs.
func (s *sarifStream) newPhysical() *sarifPhysicalLocation {
	if in := s.inl; in != nil && !in.usedPhys {
		in.usedPhys = true
		return &in.phys
	}
	return s.physical.new()
}

func (s *sarifStream) newArtifact() *sarifArtifactLocation {
	if in := s.inl; in != nil && !in.usedArt {
		in.usedArt = true
		return &in.art
	}
	return s.artifacts.new()
}

func (s *sarifStream) newRegion() *sarifRegion {
	if in := s.inl; in != nil && !in.usedReg {
		in.usedReg = true
		return &in.reg
	}
	return s.regions.new()
}

func (s *sarifStream) artifactLocation(a *sarifArtifactLocation) error {
	return s.object(artifactMembers, func(name string) error {
		switch name {
		case "uri":
			return s.istrAt(&a.URI, lastURI)
		case "uriBaseId":
			return s.istr(&a.URIBaseID)
		case "index":
			return s.optInt(&a.Index)
		}
		return s.dec.SkipValue()
	})
}

func (s *sarifStream) region(r *sarifRegion) error {
	return s.object(regionMembers, func(name string) error {
		switch name {
		case "startLine":
			return s.int(&r.StartLine)
		case "startColumn":
			return s.int(&r.StartColumn)
		case "endLine":
			return s.int(&r.EndLine)
		case "endColumn":
			return s.int(&r.EndColumn)
		case "charOffset":
			return s.optInt(&r.CharOffset)
		case "charLength":
			return s.optInt(&r.CharLength)
		case "byteOffset":
			return s.optInt(&r.ByteOffset)
		case "snippet":
			if r.Snippet == nil && s.dec.PeekKind() != 'n' {
				r.Snippet = &sarifMultiformat{}
			}
			return s.object(snippetMembers, func(k string) error {
				switch k {
				case "text":
					return s.str(&r.Snippet.Text)
				case "markdown":
					return s.str(&r.Snippet.Markdown)
				}
				return s.dec.SkipValue()
			})
		}
		return s.dec.SkipValue()
	})
}

// object reads an object, calling field for each member name with the
// decoder at the member's value; null is an absent object. members are the
// names field knows: a name that is none of SARIF's but one of them in
// another case is given as that member. With nil members (a map's keys)
// names are given as they are.
func (s *sarifStream) object(members []string, field func(name string) error) error {
	switch s.dec.PeekKind() {
	case '{':
	case 'n':
		_, err := s.dec.ReadToken()
		return err
	default:
		return s.mismatch("an object")
	}
	if _, err := s.dec.ReadToken(); err != nil {
		return err
	}
	for s.dec.PeekKind() != '}' {
		name, known, err := s.name()
		if err != nil {
			return err
		}
		if !known && members != nil {
			name = foldName(name, members)
		}
		if err := field(name); err != nil {
			return err
		}
	}
	_, err := s.dec.ReadToken()
	return err
}

// array reads an array, calling elem with the decoder at each element;
// null is an absent array.
func (s *sarifStream) array(elem func() error) error {
	switch s.dec.PeekKind() {
	case '[':
	case 'n':
		_, err := s.dec.ReadToken()
		return err
	default:
		return s.mismatch("an array")
	}
	if _, err := s.dec.ReadToken(); err != nil {
		return err
	}
	for s.dec.PeekKind() != ']' {
		if err := elem(); err != nil {
			return err
		}
	}
	_, err := s.dec.ReadToken()
	return err
}

// Bounds of the strings the SARIF reader keeps, in bytes as written (the
// token's raw bytes, measured before it is decoded): a longer one is cut,
// with …, and counted in the input's warning.
const (
	// maxSARIFText bounds a message's text, markdown, id and arguments, a
	// rule's message strings, a snippet: a finding shows 1,000 characters
	// of its message and a few lines of code.
	maxSARIFText = 16 << 10
	// maxSARIFName bounds what is interned: rule ids, names, levels, kinds,
	// help URIs, artifact URIs and their base ids (a path has at most 4 KiB
	// on Linux), rule properties and fingerprints.
	maxSARIFName = 4 << 10
)

// str reads a string, cut to maxSARIFText; null leaves dst as it is.
func (s *sarifStream) str(dst *string) error { return s.strN(dst, maxSARIFText) }

// strN reads a string, cut to n bytes as written; null leaves dst as it is.
func (s *sarifStream) strN(dst *string, n int) error {
	// The value read at once, its kind told by its first byte: a look
	// ahead at each string costs more than the string.
	v, err := s.dec.ReadValue()
	if err != nil {
		return err
	}
	switch v[0] {
	case '"':
		raw := v[1 : len(v)-1]
		if len(raw) <= n && bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
			*dst = string(raw)
			return nil
		}
		*dst = s.unquote(v, n)
		return nil
	case 'n':
		return nil
	}
	s.mismatchRead(v, "a string")
	return nil
}

// mismatchRead notes v, a value of the wrong kind the decoder has just
// read (mismatch, once it is read).
func (s *sarifStream) mismatchRead(v jsontext.Value, want string) {
	s.noteType(s.dec.InputOffset()-int64(len(v)), want, kindName(v.Kind()))
}

// unquote decodes a string token whose raw bytes may pass n: it is cut
// there, on a whole escape and character, with …, and counted. Invalid
// UTF-8 is replaced, as ReadToken does.
func (s *sarifStream) unquote(v []byte, n int) string {
	raw := v[1 : len(v)-1]
	if len(raw) <= n {
		u, _ := jsontext.AppendUnquote(nil, v)
		return string(u)
	}
	if !cutByLimiter(raw) {
		s.cuts++
	}
	i := 0
	for i < len(raw) {
		step := 1
		if raw[i] == '\\' && i+1 < len(raw) {
			step = 2
			if raw[i+1] == 'u' {
				step = 6
				// A surrogate pair stays whole.
				if i+12 <= len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' && (raw[i+2]|0x20) == 'd' && strings.IndexByte("89ab", raw[i+3]|0x20) >= 0 {
					step = 12
				}
			}
		}
		if i+step > n {
			break
		}
		i += step
	}
	i = runeSplit(raw, i)
	q := make([]byte, 0, i+2)
	q = append(append(append(q, '"'), raw[:i]...), '"')
	u, _ := jsontext.AppendUnquote(nil, q)
	return string(u) + ellipsis
}

// cutByLimiter reports whether a string's raw bytes are one jsonLimiter cut
// (already counted there): maxJSONString bytes, a few more to end an
// escape or a character, and ….
func cutByLimiter(raw []byte) bool {
	return len(raw) >= maxJSONString+len(ellipsis) && len(raw) <= maxJSONString+24+len(ellipsis) && bytes.HasSuffix(raw, []byte(ellipsis))
}

// cut cuts a decoded string to n bytes, on a character, with …, counting
// it (a property value, read raw) unless jsonLimiter cut it already (a
// string that long, which decodes to at least a sixth of it, ending in …).
func (s *sarifStream) cut(v string, n int) string {
	if len(v) <= n {
		return v
	}
	if !(len(v) >= maxJSONString/6 && strings.HasSuffix(v, ellipsis)) {
		s.cuts++
	}
	return v[:runeStart([]byte(v[:n+1]), n)] + ellipsis
}

// istr reads a string that repeats across results (a rule id, a level, a
// file's URI) as one shared copy, allocating only the first time; it is
// cut to maxSARIFName.
func (s *sarifStream) istr(dst *string) error { return s.istrAt(dst, lastNone) }

// Where istrAt remembers the last string it read: a result's rule id and
// level, an artifact's URI (a tool writes a file's results one after the
// other), each apart from the others.
const (
	lastRuleID = iota
	lastLevel
	lastURI
	lastNone // nothing remembered
)

// istrAt is istr, the string first compared with the last one read at
// the same place (last, one of the constants above): the same text is
// taken without hashing it. Only a string written without escapes, valid
// and within maxSARIFName is remembered, as it reads as its own bytes: a
// string equal to it reads so too.
func (s *sarifStream) istrAt(dst *string, last int) error {
	v, err := s.dec.ReadValue()
	if err != nil {
		return err
	}
	switch v[0] {
	case '"':
	case 'n':
		return nil
	default:
		s.mismatchRead(v, "a string")
		return nil
	}
	raw := v[1 : len(v)-1]
	if last < lastNone && len(raw) > 0 && s.last[last] == string(raw) {
		*dst = s.last[last]
		return nil
	}
	if plain := bytes.IndexByte(raw, '\\') < 0; plain {
		// What intern holds is valid text: a string found there needs no
		// check (and the lookup does not allocate).
		w, ok := s.strs[string(raw)]
		if !ok && len(raw) <= maxSARIFName && utf8.Valid(raw) {
			w, ok = s.intern(string(raw)), true
		}
		if ok {
			*dst = w
			if last < lastNone {
				s.last[last] = w
			}
			return nil
		}
	}
	*dst = s.intern(s.unquote(v, maxSARIFName))
	return nil
}

// name reads an object's member name. The names SARIF defines come back as
// constants, without allocating, and known; others (message ids,
// fingerprint keys, properties of a tool's own, names in another case) as
// new strings.
func (s *sarifStream) name() (name string, known bool, err error) {
	v, err := s.dec.ReadValue()
	if err != nil {
		return "", false, err
	}
	raw := v[1 : len(v)-1]
	if name, known = knownName(raw); known {
		return name, true, nil // written as SARIF writes it: no escape, ASCII
	}
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw), false, nil
	}
	// Escapes decoded; invalid UTF-8 replaced, as the decoder gives it.
	u, _ := jsontext.AppendUnquote(nil, v)
	name, known = sarifName(u)
	return validUTF8(name), known, nil
}

// sarifNames are the names sarifName knows: those recap reads or skips
// most often, and all names SARIF defines.
var sarifNames = [...]string{
	"ruleId", "ruleIndex", "rule", "kind", "level", "message", "locations", "partialFingerprints",
	"suppressions", "status", "id", "name", "helpUri", "defaultConfiguration", "messageStrings",
	"text", "properties", "ruleset", "category", "priority", "tags", "index", "toolComponent",
	"markdown", "arguments", "physicalLocation", "artifactLocation", "region", "contextRegion", "uri",
	"uriBaseId", "startLine", "startColumn", "endLine", "endColumn", "snippet", "shortDescription",
	"fullDescription", "help", "guid", "fingerprints", "baselineState", "codeFlows",
	"relatedLocations", "logicalLocations", "fixes", "rank", "occurrenceCount", "provenance",
	"analysisTarget", "correlationGuid", "hostedViewerUri", "taxa", "stacks", "graphs", "attachments",
	"workItemUris", "charOffset", "charLength", "byteOffset", "byteLength", "sourceLanguage",
	"enabled", "relationships", "deprecatedIds", "deprecatedGuids", "deprecatedNames",
	"justification", "location", "fullyQualifiedName", "decoratedName", "parentIndex", "problem",
	"severity", "threadFlows", "threadFlowLocation", "nestingLevel", "executionOrder", "kinds",
	"artifactChanges", "replacements", "deletedRegion", "insertedContent", "binary", "target",
	"description",
}

// sarifNameSlots places sarifNames by nameHash, open addressing: a slot
// holds a name's index plus one, 0 where it is empty. 512 slots for fewer
// than 100 names keep probes short and always end on an empty slot.
var sarifNameSlots = func() (slots [512]uint8) {
	for i, n := range sarifNames {
		h := nameHash([]byte(n))
		for slots[h] != 0 {
			h = (h + 1) % uint(len(slots))
		}
		slots[h] = uint8(i + 1)
	}
	return slots
}()

// nameHash is a name's first slot in sarifNameSlots, from its length and
// its first two and last two bytes; the multiplier gives each of
// sarifNames a slot of its own, so a known name is found at the first
// compare (another name added may have to probe further, and is still
// found). name has two bytes or more.
func nameHash(name []byte) uint {
	n := len(name)
	key := uint64(n)<<32 | uint64(name[0])<<24 | uint64(name[1])<<16 | uint64(name[n-2])<<8 | uint64(name[n-1])
	return uint(key * 0x90c05631d5e3337d >> 55)
}

// sarifName returns raw as a string: a constant for the names of
// sarifNames (known), found without allocating, else a new string.
func sarifName(raw []byte) (string, bool) {
	if name, ok := knownName(raw); ok {
		return name, true
	}
	return string(raw), false
}

// knownName returns the constant of sarifNames that raw is, if any.
func knownName(raw []byte) (string, bool) {
	if len(raw) < 2 {
		return "", false
	}
	for h := nameHash(raw); sarifNameSlots[h] != 0; h = (h + 1) % uint(len(sarifNameSlots)) {
		if name := sarifNames[sarifNameSlots[h]-1]; name == string(raw) {
			return name, true
		}
	}
	return "", false
}

// int reads an integer; null leaves dst as it is.
func (s *sarifStream) int(dst *int) error {
	n, ok, err := s.readInt()
	if ok {
		*dst = n
	}
	return err
}

// optInt reads an integer into a new int; null leaves dst nil.
func (s *sarifStream) optInt(dst **int) error {
	n, ok, err := s.readInt()
	if ok {
		p := s.ints.new()
		*p = n
		*dst = p
	}
	return err
}

// readInt reads an integer: ok is false for null and for a value that is
// not one (noted as a type error and skipped). A number written as a
// float with no fraction ("3.0", "1e2") is taken.
func (s *sarifStream) readInt() (n int, ok bool, err error) {
	v, err := s.dec.ReadValue()
	if err != nil {
		return 0, false, err
	}
	switch v.Kind() {
	case '0':
		if n, ok := smallInt(v); ok {
			return n, true, nil
		}
		off := s.dec.InputOffset() - int64(len(v))
		text := string(v)
		n, err = strconv.Atoi(text)
		if err != nil {
			f, ferr := strconv.ParseFloat(text, 64)
			if ferr != nil || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
				s.noteType(off, "an integer", "the number "+text)
				return 0, false, nil
			}
			n = int(f)
		}
		return n, true, nil
	case 'n':
		return 0, false, nil
	}
	s.mismatchRead(v, "a number")
	return 0, false, nil
}

// smallInt parses an optionally negative run of at most 18 digits.
func smallInt(v []byte) (int, bool) {
	neg := len(v) > 0 && v[0] == '-'
	if neg {
		v = v[1:]
	}
	if len(v) == 0 || len(v) > 18 {
		return 0, false
	}
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// mismatch notes a value of the wrong kind and skips it.
func (s *sarifStream) mismatch(want string) error {
	off := s.valueOffset()
	got := kindName(s.dec.PeekKind())
	if err := s.dec.SkipValue(); err != nil {
		return err
	}
	s.noteType(off, want, got)
	return nil
}

// noteType counts a value of the wrong kind, and keeps the first few of
// them, with their places, for the input's error (see typeError).
func (s *sarifStream) noteType(off int64, want, got string) {
	s.typeErrs++
	if len(s.typePlaces) >= maxTypePlaces {
		return
	}
	line, col, off := s.position(off)
	s.typePlaces = append(s.typePlaces, &ParseError{Input: s.opts.Name, Path: pointerToPath(string(s.dec.StackPointer())), Line: line, Column: col, Offset: off,
		Err: fmt.Errorf("want %s, got %s", want, got)})
}

// maxTypePlaces is how many values of the wrong kind an input's error names.
const maxTypePlaces = 3

// typeError is the input's error for the values of the wrong kind it had:
// the first one's place, how many there were and how many results were
// left out for them (a result with a field of the wrong kind is left out
// whole, rather than kept with that field missing: a line that reads as 0
// would slip past --changed-only), and the next places; nil when none.
func (s *sarifStream) typeError() error {
	if s.typeErrs == 0 {
		return nil
	}
	first := *s.typePlaces[0]
	msg := first.Err.Error()
	if s.typeErrs > 1 {
		msg += fmt.Sprintf("; %d values of the wrong kind in all", s.typeErrs)
	}
	item := s.item
	if item == "" {
		item = "result"
	}
	switch {
	case s.skipped == 1:
		msg += "; 1 " + item + " left out"
	case s.skipped > 1:
		msg += fmt.Sprintf("; %d %ss left out", s.skipped, item)
	}
	if len(s.typePlaces) > 1 {
		var more []string
		for _, p := range s.typePlaces[1:] {
			more = append(more, strings.TrimPrefix(p.Error(), p.Input+": "))
		}
		msg += " (also " + strings.Join(more, "; ") + ")"
	}
	first.Err = errors.New(msg)
	return &first
}

// valueOffset is the offset of the next value: past the white space, colon
// or comma the decoder has not consumed yet.
func (s *sarifStream) valueOffset() int64 {
	off := s.dec.InputOffset()
	for _, c := range s.dec.UnreadBuffer() {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != ':' && c != ',' {
			break
		}
		off++
	}
	return off
}

// pointerToPath writes a JSON pointer as the paths of recap's messages:
// "/runs/0/results/3/ruleIndex" → "$.runs[0].results[3].ruleIndex".
func pointerToPath(ptr string) string {
	p := pointerPath(ptr)
	if strings.HasPrefix(p, "[") {
		return "$" + p
	}
	return "$." + p
}
