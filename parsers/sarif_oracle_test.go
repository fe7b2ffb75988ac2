package parsers

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/reports"
)

// The oracle of the SARIF token decoder (sarif_result.go): go-json-experiment's
// Unmarshal decodes each result and rule into the same structs, by their
// json tags, with the options that say what the token decoder does:
//
//   - names matched exactly, else as strings.EqualFold (encoding/json's
//     rule): MatchCaseInsensitiveNames and MatchCaseSensitiveDelimiter;
//   - invalid UTF-8 replaced, not refused;
//   - a value of the wrong kind skipped and reported, the rest read
//     (ReportErrorsWithLegacySemantics);
//   - an integer written as an integral float ("3.0", "1e2") taken, a wrong
//     kind leaving an optional integer absent (the unmarshalers below).
//
// Objects with duplicate names (in any case) are outside the comparison:
// the oracle refuses them, and the decoder keeps the last.
var oracleOptions = jsonv2.JoinOptions(
	jsonv2.MatchCaseInsensitiveNames(true),
	jsonv1.MatchCaseSensitiveDelimiter(true),
	jsontext.AllowInvalidUTF8(true),
	jsontext.AllowDuplicateNames(false),
	jsonv1.ReportErrorsWithLegacySemantics(true),
	jsonv2.WithUnmarshalers(jsonv2.JoinUnmarshalers(
		jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, n *int) error {
			v, ok, err := oracleInt(dec)
			if ok {
				*n = v
			}
			return err
		}),
		jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, p **int) error {
			v, ok, err := oracleInt(dec)
			if ok {
				*p = &v
			}
			return err
		}),
	)),
)

var errOracleKind = errors.New("not an integer")

// oracleInt reads an integer as SARIF's integers are read: null is absent;
// a number with no fraction is taken; anything else is skipped, an error.
func oracleInt(dec *jsontext.Decoder) (int, bool, error) {
	v, err := dec.ReadValue()
	if err != nil {
		return 0, false, err
	}
	switch v.Kind() {
	case 'n':
		return 0, false, nil
	case '0':
		if n, err := strconv.Atoi(string(v)); err == nil {
			return n, true, nil
		}
		if f, err := strconv.ParseFloat(string(v), 64); err == nil && f == math.Trunc(f) && math.Abs(f) <= math.MaxInt32 {
			return int(f), true, nil
		}
	}
	return 0, false, errOracleKind
}

// oracleResult is a result as the oracle decodes it: what the decoder
// keeps of the suppressions, related locations, code flows, fixes and taxa
// is taken from the whole of them, with the decoder's bounds.
type oracleResult struct {
	sarifResult
	Suppressions     []*oracleSuppression      `json:"suppressions"`
	Properties       map[string]jsontext.Value `json:"properties"`
	RelatedLocations []sarifLocation           `json:"relatedLocations"`
	CodeFlows        []struct {
		Message     sarifMessage `json:"message"`
		ThreadFlows []struct {
			Locations []struct {
				Location *sarifLocation `json:"location"`
			} `json:"locations"`
		} `json:"threadFlows"`
	} `json:"codeFlows"`
	Fixes []struct {
		Description     sarifMessage `json:"description"`
		ArtifactChanges []struct {
			ArtifactLocation *sarifArtifactLocation `json:"artifactLocation"`
			Replacements     []struct {
				DeletedRegion   *sarifRegion `json:"deletedRegion"`
				InsertedContent *struct {
					Text   *string `json:"text"`
					Binary string  `json:"binary"`
				} `json:"insertedContent"`
			} `json:"replacements"`
		} `json:"artifactChanges"`
	} `json:"fixes"`
	Taxa []sarifRuleRef `json:"taxa"`
}

// oracleSuppression is a suppression as the oracle decodes it: its
// property bag whole.
type oracleSuppression struct {
	Kind          string                    `json:"kind"`
	Status        string                    `json:"status"`
	Justification string                    `json:"justification"`
	Properties    map[string]jsontext.Value `json:"properties"`
}

// reduce keeps of the whole result what the token decoder keeps.
func (o *oracleResult) reduce() sarifResult {
	res := o.sarifResult
	for _, sup := range o.Suppressions {
		var x reports.Suppression
		if sup != nil {
			x = reports.Suppression{Kind: sup.Kind, Status: sup.Status, Justification: sup.Justification}
			var p reports.SuppressionProperties
			for k, v := range sup.Properties {
				var s string
				if dst := p.Field(k); dst != nil && v.Kind() == '"' && jsonv2.Unmarshal(v, &s, oracleOptions) == nil {
					*dst = s
				}
			}
			if !p.IsZero() {
				x.Properties = &p
			}
		}
		switch {
		case len(res.Suppressions) < reports.MaxSuppressions:
			res.Suppressions = append(res.Suppressions, x)
		case !x.Suppresses() && reports.Suppressed(res.Suppressions):
			res.Suppressions[len(res.Suppressions)-1] = x
		}
	}
	res.Suppressed = reports.Suppressed(res.Suppressions)
	if v, ok := o.Properties["priority"]; ok {
		res.Priority = intProperty(v)
	}
	if v, ok := o.Properties["rank"]; ok {
		res.Rank = intProperty(v)
	}
	if v, ok := o.Properties["cwe"]; ok {
		for _, id := range cweProperty(v) {
			res.CWE = addCWE(res.CWE, id)
		}
	}
	if v, ok := o.Properties["fixable"]; ok {
		res.FixFlag = string(v) == "true"
	}
	if v, ok := o.Properties["fixDescription"]; ok {
		res.FixWords = stringProperty(v)
	}
	if v, ok := o.Properties["quality"]; ok {
		res.Quality, _ = reports.ParseQuality(stringProperty(v))
	}
	if v, ok := o.Properties["impact"]; ok {
		res.Impact, _ = reports.ParseImpact(stringProperty(v))
	}
	if v, ok := o.Properties["toolLevel"]; ok {
		if l := stringProperty(v); l == "error" || l == "warning" || l == "note" {
			res.ToolLevel = l
		}
	}
	cutLogical := func(l *sarifLocation) {
		l.Logical = l.Logical[:min(len(l.Logical), reports.MaxLogical)]
	}
	for i := range res.Locations {
		cutLogical(&res.Locations[i])
	}
	for i := range o.RelatedLocations {
		cutLogical(&o.RelatedLocations[i])
	}
	res.RelatedCount = len(o.RelatedLocations)
	res.Related = o.RelatedLocations[:min(len(o.RelatedLocations), reports.MaxRelated)]
	for ci, cf := range o.CodeFlows {
		for _, tf := range cf.ThreadFlows {
			res.AllFlows++
			keep := len(res.Flows) < reports.MaxFlows && res.FlowSteps < reports.MaxFlowSteps
			if keep {
				res.Flows = append(res.Flows, sarifFlow{code: ci, message: cf.Message})
			}
			for _, st := range tf.Locations {
				if res.FlowSteps++; !keep || res.FlowSteps > reports.MaxFlowSteps {
					continue
				}
				var l sarifLocation
				if st.Location != nil {
					l = *st.Location
					cutLogical(&l)
				}
				fl := &res.Flows[len(res.Flows)-1]
				fl.steps = append(fl.steps, l)
			}
		}
	}
	if len(o.Fixes) > 0 {
		fx := o.Fixes[0]
		fix := &sarifFix{Description: fx.Description.Text}
		if fix.Description == "" {
			fix.Description = fx.Description.Markdown
		}
		usable, n := true, 0
		for _, ch := range fx.ArtifactChanges {
			var al sarifArtifactLocation
			if ch.ArtifactLocation != nil {
				al = *ch.ArtifactLocation
			}
			for _, rp := range ch.Replacements {
				if n++; n > reports.MaxFixReplacements {
					usable = false
					break
				}
				r := sarifReplacement{Artifact: al}
				if rp.DeletedRegion != nil {
					r.Region = *rp.DeletedRegion
				}
				if ic := rp.InsertedContent; ic != nil {
					if ic.Text != nil {
						r.Text = *ic.Text
					}
					r.NoText = ic.Text == nil
					if ic.Binary != "" {
						usable = false
					}
				}
				fix.Replacements = append(fix.Replacements, r)
			}
		}
		res.FixProposed = n > 0 || fix.Description != ""
		switch {
		case usable && usableFix(fix):
			res.Fix = fix
		case fix.Description != "":
			res.Fix = &sarifFix{Description: fix.Description}
		}
	}
	for i := range o.Taxa {
		res.CWE = addCWE(res.CWE, taxonCWE(&o.Taxa[i]))
	}
	return res
}

// oracleRule is a reportingDescriptor as the oracle decodes it; what recap
// keeps of it is then taken as the decoder takes it.
type oracleRule struct {
	sarifRule
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
	MessageStrings map[string]struct {
		Text string `json:"text"`
	} `json:"messageStrings"`
	Properties       map[string]jsontext.Value `json:"properties"`
	ShortDescription *sarifMultiformat         `json:"shortDescription"`
	FullDescription  *sarifMultiformat         `json:"fullDescription"`
	Help             *sarifMultiformat         `json:"help"`
	Relationships    []struct {
		Target *sarifRuleRef `json:"target"`
	} `json:"relationships"`
}

// decoded is one value read by the token decoder or the oracle.
type decoded struct {
	Result  *sarifResult
	Rule    *sarifRule
	TypeErr bool // a value of the wrong kind was skipped
}

func tokenStream(data []byte) *sarifStream {
	lc := newLineCounter(bytes.NewReader(data))
	return &sarifStream{opts: Options{Name: "oracle"}, dec: jsontext.NewDecoder(lc, jsonOptions), lc: lc}
}

// tokenResult reads data as one result with the token decoder.
func tokenResult(data []byte) (decoded, error) {
	s := tokenStream(data)
	res := &sarifResult{}
	if err := s.result(res); err != nil {
		return decoded{}, err
	}
	return decoded{Result: res, TypeErr: s.typeErrs > 0}, nil
}

// tokenRule reads data as one rule with the token decoder.
func tokenRule(data []byte) (decoded, error) {
	s := tokenStream(data)
	r, err := s.rule()
	if err != nil {
		return decoded{}, err
	}
	return decoded{Rule: r, TypeErr: s.typeErrs > 0}, nil
}

// oracleDecodeResult reads data as one result with Unmarshal. A non-nil
// error is one that is not a value of the wrong kind.
func oracleDecodeResult(data []byte) (decoded, error) {
	var o oracleResult
	err := jsonv2.Unmarshal(data, &o, oracleOptions)
	typeErr, err := oracleError(err)
	if err != nil {
		return decoded{}, err
	}
	res := o.reduce()
	return decoded{Result: &res, TypeErr: typeErr}, nil
}

// oracleDecodeRule reads data as one rule with Unmarshal, then keeps of it
// what the decoder keeps, with the decoder's readers of property values.
func oracleDecodeRule(data []byte) (decoded, error) {
	var o oracleRule
	err := jsonv2.Unmarshal(data, &o, oracleOptions)
	typeErr, err := oracleError(err)
	if err != nil {
		return decoded{}, err
	}
	r := o.sarifRule
	r.level = o.DefaultConfiguration.Level
	if o.ShortDescription != nil || o.FullDescription != nil || o.Help != nil {
		r.texts = &ruleTexts{short: o.ShortDescription, full: o.FullDescription, help: o.Help}
	}
	for id, m := range o.MessageStrings {
		if r.messageStrings == nil {
			r.messageStrings = map[string]string{}
		}
		r.messageStrings[id] = m.Text
	}
	for _, rel := range o.Relationships {
		if rel.Target != nil {
			if id := taxonCWE(rel.Target); id > 0 {
				r.prop().cwe = addCWE(r.props.cwe, id)
			}
		}
	}
	for k, v := range o.Properties {
		switch k {
		case "ruleset":
			r.ruleset = stringProperty(v)
		case "category":
			r.category = stringProperty(v)
		case "priority":
			r.priority = intProperty(v)
		case "tags":
			for _, t := range tagsProperty(v) {
				if len(r.tags) < maxRuleTags {
					r.tags = append(r.tags, t)
				}
				if id := tagCWE(t); id > 0 {
					r.prop().cwe = addCWE(r.props.cwe, id)
				}
			}
		case "recapNoRule":
			r.noRule = string(v) == "true"
		case "security-severity":
			if v, ok := o.Properties["securitySeverityFrom"]; ok && stringProperty(v) == "impact" {
				break // recap's SARIF: the impact's band, no tool's number
			}
			if sev, _ := severityProperty(v); sev > 0 {
				r.prop().securitySeverity = sev
			}
		case "cwe":
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
		case "precision":
			if p := stringProperty(v); p != "" {
				r.prop().precision = p
			}
		case "toolCategory":
			r.prop().toolCategory = stringProperty(v)
			r.props.recapCategory = true
		case "categories":
			for _, c := range tagsProperty(v) {
				if p := r.prop(); len(p.categories) < maxRuleTags {
					p.categories = append(p.categories, c)
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
	return decoded{Rule: &r, TypeErr: typeErr}, nil
}

// errDuplicate is Unmarshal's refusal of a duplicate name.
var errDuplicate = errors.New("duplicate names")

// oracleError sorts Unmarshal's error on valid JSON: a value of the wrong
// kind (the decoded value is still to compare), or a duplicate name, the
// only syntax error valid JSON gets (reported, with legacy semantics, as
// encoding/json's SyntaxError).
func oracleError(err error) (typeErr bool, other error) {
	var se *jsonv1.SyntaxError
	switch {
	case err == nil:
		return false, nil
	case errors.As(err, &se) || errors.Is(err, jsontext.ErrDuplicateName):
		return false, fmt.Errorf("%w: %v", errDuplicate, err)
	}
	return true, nil
}

// compareDecoders reads data as a result or a rule with both decoders. ok
// is false when data is outside the comparison (not one JSON value, or an
// object with duplicate names).
func compareDecoders(t *testing.T, data []byte, token, oracle func([]byte) (decoded, error)) (ok bool) {
	t.Helper()
	got, tokErr := token(data)
	if !jsontext.Value(data).IsValid(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true)) {
		return false
	}
	want, oraErr := oracle(data)
	if errors.Is(oraErr, errDuplicate) {
		return false
	}
	if oraErr != nil {
		t.Fatalf("the oracle fails on %q: %v", data, oraErr)
	}
	if tokErr != nil {
		t.Fatalf("the token decoder fails on %q, which Unmarshal reads: %v", data, tokErr)
	}
	// An empty array or object is as absent: the decoder leaves it nil.
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(sarifRule{}, ruleProps{}, ruleTexts{}, sarifFlow{}), cmpopts.IgnoreFields(sarifRule{}, "shared"), cmpopts.IgnoreFields(sarifResult{}, "more", "inline"), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("%q: the token decoder (+) and Unmarshal (-) differ:\n%s", data, diff)
	}
	return true
}

// The hand cases: escapes, values of the wrong kind, -1 indexes, missing,
// unknown and null members, nested property bags, Unicode, and names in
// other cases (Unicode folding included: K is the Kelvin sign, ſ a long s).
var oracleResults = []string{
	`{"ruleId":"A\u0042\n\"q\"\\","message":{"text":"tab\there \ud83d\ude00 \u00e9 \/","id":"d\u00e9f"}}`,
	`{"ruleId":5,"ruleIndex":"3","kind":true,"message":"text","locations":[{"physicalLocation":{"region":{"startLine":"12","endLine":{}}}}]}`,
	`{"ruleIndex":-1,"rule":{"id":"R","index":-1,"toolComponent":{"name":"x","index":-1}},"locations":[{"physicalLocation":{"artifactLocation":{"index":-1}}}]}`,
	`{}`,
	`{"message":{},"locations":[],"partialFingerprints":{},"suppressions":[]}`,
	`{"guid":"x","extra":{"a":[1,{"b":null}]},"ruleId":"R","fixes":[{}],"codeFlows":[],"rank":-1.5}`,
	`{"ruleId":"R","properties":{"tags":["a"],"nested":{"properties":{"ruleId":"X"}}},"message":{"text":"m","properties":{"text":"no"}}}`,
	`{"ruleId":"règle-日本","message":{"text":"naïve \u2028 \u0000 \ud800 end"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/ü.java"}}}]}`,
	"{\"ruleId\":\"bad \xff\xfe utf-8\",\"message\":{\"text\":\"\xc3\"}}",
	`{"RuleId":"R1","RULEINDEX":2,"Message":{"Text":"m","ID":"x","Arguments":["a"]},"Locations":[{"PhysicalLocation":{"ArtifactLocation":{"URI":"a.java","UriBaseId":"SRC"},"Region":{"StartLine":3,"snippet":{"TEXT":"x"}}}}],"PartialFingerprints":{"Hash/v1":"x","hash/v1":"y"},"Suppressions":[{"Status":"accepted"}]}`,
	`{"meſſage":{"text":"long s"},"\u212aind":"fail","rule_id":"not ruleId","rule-index":3}`,
	`{"ruleId":null,"rule":null,"locations":null,"message":null,"partialFingerprints":null,"suppressions":null,"level":null}`,
	`{"locations":[null,{"physicalLocation":null},{"physicalLocation":{"region":null,"artifactLocation":null,"contextRegion":{"snippet":null}}}]}`,
	`{"ruleIndex":1e0,"locations":[{"physicalLocation":{"region":{"startLine":12.0,"startColumn":1.5,"endLine":99999999999,"endColumn":-0}}}]}`,
	`{"suppressions":[{},{"status":"underReview"},{"status":null},"x",{"status":3}]}`,
	`{"message":{"arguments":["a",1,null,"b",["c"]]},"partialFingerprints":{"a":1,"b":"x","c":{"d":[true]}}}`,
	`{"rule":"R","locations":"x"}`,
	`{"rule":{"toolComponent":"x"},"locations":[{"physicalLocation":{"artifactLocation":"a.java","region":[1]}}]}`,
	`{"relatedLocations":[{"id":1,"physicalLocation":{"artifactLocation":{"uri":"a.c"},"region":{"startLine":4}},"message":{"text":"here"}},null,{"message":null},{"message":"x"}]}`,
	`{"codeFlows":[{"message":{"text":"flow"},"threadFlows":[{"locations":[{"location":{"message":{"text":"s1"},"physicalLocation":{"region":{"startLine":1}}},"nestingLevel":0},` +
		`{"kinds":["x"]},null,{"location":null}]},{"locations":[{"location":{}}]}]},{"threadFlows":[{"locations":[{}]}]}]}`,
	`{"codeFlows":[null,{"threadFlows":[{"locations":[{}]}]}]}`,
	`{"codeFlows":[{"threadFlows":"x"}],"relatedLocations":{"a":1}}`,
	`{"fixes":[{"description":{"text":"d"},"artifactChanges":[{"artifactLocation":{"uri":"a.py","index":-1},"replacements":[{"deletedRegion":{"startLine":5,"startColumn":3,"endColumn":12},"insertedContent":{"text":"x"}},{"deletedRegion":{"startLine":6}}]},{"artifactLocation":{"index":0},"replacements":[{"deletedRegion":{"startLine":1,"endLine":2},"insertedContent":{"text":""}}]}]},{"description":{"text":"second"}}]}`,
	`{"fixes":[{"artifactChanges":[{"replacements":[{"deletedRegion":{"startLine":5},"insertedContent":{"text":"no artifact"}}]}]}]}`,
	`{"fixes":[{"artifactChanges":[{"artifactLocation":{"uri":"a"},"replacements":[{"deletedRegion":{"charOffset":5,"charLength":2}}]}]}]}`,
	`{"fixes":[{"artifactChanges":[{"artifactLocation":{"uri":"a"},"replacements":[{"deletedRegion":{"startLine":5},"insertedContent":{"binary":"AA=="}}]}]}]}`,
	`{"fixes":[null],"taxa":[{"id":"89","toolComponent":{"name":"CWE"}},{"id":"CWE-79","toolComponent":{"name":"cwe","index":0}},{"id":"79","toolComponent":{"name":"CWE"}},{"id":"x","toolComponent":{"name":"CWE"}},{"id":"12","toolComponent":{"name":"OWASP"}},{"id":"7"}]}`,
	`{"properties":{"cwe":"CWE-798: Use of Hard-coded Credentials","owasp":"A3"},"taxa":[{"id":"89","toolComponent":{"name":"CWE"}}]}`,
	`{"properties":{"cwe":["CWE-22",null]}}`,
	`{"fixes":"x","taxa":[1,null,{"toolComponent":null}],"locations":[{"message":{"text":"m","arguments":["a"]},"physicalLocation":{"artifactLocation":{"uri":"a"}}}]}`,
	`{"Fixes":[{"ArtifactChanges":[{"ArtifactLocation":{"URI":"a"},"Replacements":[{"DeletedRegion":{"StartLine":2},"InsertedContent":{"Text":"t"}}]}]}],"CodeFlows":[{"ThreadFlows":[{"Locations":[{"Location":{"Message":{"Text":"m"}}}]}]}],"RelatedLocations":[{"Message":{"Text":"r"}}],"Taxa":[{"Id":"1","ToolComponent":{"Name":"CWE"}}]}`,
}

var oracleRules = []string{
	`{"id":"R1","name":"Name","helpUri":"https://x","defaultConfiguration":{"level":"error","rank":3},"messageStrings":{"default":{"text":"Found {0}"},"alt":{"markdown":"m"}},"properties":{"ruleset":"Best Practices","priority":3,"tags":["a","b"],"other":{"x":1}},"shortDescription":{"text":"s"}}`,
	`{"ID":"R","Name":"n","HelpUri":"u","DefaultConfiguration":{"Level":"note"},"MessageStrings":{"Default":{"Text":"t"}},"Properties":{"Priority":"2","priority":"4","Tags":["x"],"category":"c"}}`,
	`{"id":1,"name":["x"],"defaultConfiguration":"error","messageStrings":{"a":"text","b":{"text":2},"c":null},"properties":{"priority":"high","tags":"a","ruleset":5}}`,
	`{"id":"r\u00e9gle","messageStrings":{"d\u00e9f":{"text":"\ud83d\ude00"}},"properties":{"priority":2.5,"tags":["a",1],"ruleset":"\u0041"}}`,
	`{"id":"R","properties":{"tags":[],"priority":-1,"properties":{"ruleset":"nested"}},"help":{"text":"h","markdown":"m"}}`,
	`{}`,
	`{"id":null,"defaultConfiguration":null,"messageStrings":null,"properties":null}`,
	`{"ıd":"dotless i is not i","\u212a":1,"helpuri":"lower case"}`,
	`{"id":"R","shortDescription":{"text":"s","markdown":"**s**"},"fullDescription":{"text":"f"},"help":{"text":"h","markdown":"m"},"properties":{"security-severity":"8.8","precision":"high","toolCategory":"BAD_PRACTICE","categories":["Security","x"],"quality":"reliability","impact":"high","tags":["security","external/cwe/cwe-089","CWE-79: XSS","cwe","xcwe-1","cwe-1x"]}}`,
	`{"shortDescription":{"text":"before the id"},"id":"R","fullDescription":null,"help":"x","properties":{"security-severity":11,"precision":3}}`,
	`{"id":"R","relationships":[{"target":{"id":"22","toolComponent":{"name":"CWE"}},"kinds":["superset"]},{"target":{"id":"CWE-22","toolComponent":{"name":"CWE"}}},{"target":null},{"target":{"id":"5","toolComponent":{"name":"OWASP"}}},"x"]}`,
	`{"id":"R","properties":{"security-severity":"0","precision":"","toolCategory":"","tags":["CWE-1","CWE-2","CWE-3","CWE-4","CWE-5","CWE-6","CWE-7","CWE-8","CWE-9","CWE-10","CWE-11","CWE-12","CWE-13","CWE-14","CWE-15","CWE-16","CWE-17","CWE-18","CWE-19","CWE-20","CWE-21","CWE-22"]}}`,
	`{"ID":"R","ShortDescription":{"Text":"s"},"FullDescription":{"Markdown":"f"},"HELP":{"text":"h"},"Relationships":[{"Target":{"Id":"1","ToolComponent":{"Name":"CWE"}}}]}`,
	`{"id":"R","properties":{"cwe":["CWE-79","CWE-89: SQL",5,"x"],"cvssv3_baseScore":9.8,"cvssv3_baseSeverity":"CRITICAL","cvssv2_severity":"medium","severity":"UNKNOWN","tags":["security","HIGH"]}}`,
	`{"id":"R","properties":{"cwe":"cwe-78","cvssv3_baseScore":"x","severity":3,"cvssv2_severity":"LOW","security-severity":"5.0"}}`,
}

// TestSARIFDecoderOracle: on hand cases, every result and rule is read by
// the token decoder as Unmarshal reads it into the same structs.
func TestSARIFDecoderOracle(t *testing.T) {
	for i, c := range oracleResults {
		t.Run(fmt.Sprintf("result %d", i), func(t *testing.T) {
			if !compareDecoders(t, []byte(c), tokenResult, oracleDecodeResult) {
				t.Fatalf("outside the comparison: %s", c)
			}
		})
	}
	for i, c := range oracleRules {
		t.Run(fmt.Sprintf("rule %d", i), func(t *testing.T) {
			if !compareDecoders(t, []byte(c), tokenRule, oracleDecodeRule) {
				t.Fatalf("outside the comparison: %s", c)
			}
		})
	}
	for _, c := range []string{`{"ruleId":"a","RuleId":"b"}`, `{"message":{"text":"a","TEXT":"b"}}`, `{"partialFingerprints":{"a":"1","a":"2"}}`, `{"ruleId":"a"} x`, `{"ruleId":`} {
		if compareDecoders(t, []byte(c), tokenResult, oracleDecodeResult) {
			t.Errorf("%s is compared", c)
		}
	}
}

// TestSARIFNameCase: names are matched in any case everywhere in a log, as
// encoding/json matches them: "RuleId" names the rule, and the finding gets
// the rule's category; "rule_id" is not ruleId.
func TestSARIFNameCase(t *testing.T) {
	const log = `{"Version":"2.1.0","Runs":[{"Tool":{"Driver":{"Name":"PMD","Version":"7.0.0","Rules":[
		{"Id":"UnusedLocalVariable","NAME":"UnusedLocalVariable","Properties":{"ruleset":"Best Practices","priority":3}}]}},
		"OriginalUriBaseIds":{"SRC":{"Uri":"file:///repo/"}},
		"Results":[
		{"RuleId":"UnusedLocalVariable","Level":"warning","Message":{"Text":"Avoid unused x"},
		 "Locations":[{"PhysicalLocation":{"ArtifactLocation":{"Uri":"src/A.java","UriBaseId":"SRC"},"Region":{"StartLine":3}}}]},
		{"rule_id":"UnusedLocalVariable","message":{"text":"no rule"}}]}]}`
	got, in := ParseAll(strings.NewReader(log), "case.sarif", ReadOptions{Root: "/repo"})
	if in.Error != "" || in.Tool != "PMD" || in.ToolVersion != "7.0.0" || len(got) != 2 {
		t.Fatalf("%+v, %d findings", in, len(got))
	}
	want := reports.Finding{Tool: "PMD", ToolVersion: "7.0.0", Rule: "UnusedLocalVariable", // NAME is the id: no name
		Category: "Best Practices", ToolCategory: "Best Practices", Severity: reports.SeverityWarning,
		Quality: reports.QualityMaintainability, Impact: reports.ImpactMedium, Priority: 3, Message: "Avoid unused x",
		Path: "src/A.java", Line: 3, EndLine: 3}
	if diff := cmp.Diff(want, stripIDs(got)[0]); diff != "" {
		t.Errorf("RuleId (-want +got):\n%s", diff)
	}
	if got[1].Rule != "" {
		t.Errorf("rule_id gave the rule %q", got[1].Rule)
	}
}

// TestSARIFNamesFoldApart: no name SARIF defines (which the decoder takes
// exactly, without folding) is another member's name in another case, so
// the fast path gives what folding would.
func TestSARIFNamesFoldApart(t *testing.T) {
	known := sarifNames[:]
	if len(known) < 70 {
		t.Fatalf("found %d names in sarifNames", len(known))
	}
	for i, k := range known {
		if got, ok := sarifName([]byte(k)); !ok || got != k {
			t.Errorf("sarifName(%q) = %q, %v", k, got, ok)
		}
		if slices.Contains(known[:i], k) {
			t.Errorf("%s is twice in sarifNames", k)
		}
	}
	for _, other := range []string{"", "i", "ruleid", "ruleIdx", "Id", "descriptions", "tool"} {
		if got, ok := sarifName([]byte(other)); ok || got != other {
			t.Errorf("sarifName(%q) = %q, %v: want it unknown", other, got, ok)
		}
	}
	for _, members := range [][]string{resultMembers, suppressionMembers, ruleMembers, configMembers, textMembers, ruleRefMembers,
		componentRefMembers, messageMembers, locationMembers, physicalMembers, artifactMembers, regionMembers, snippetMembers} {
		for _, m := range members {
			if _, ok := sarifName([]byte(m)); !ok {
				t.Errorf("member %s is not among sarifName's names", m)
			}
			for _, k := range known {
				if k != m && strings.EqualFold(k, m) {
					t.Errorf("%s and %s differ only in case", k, m)
				}
			}
		}
	}
}

// sarifValues returns the raw results and rules of a SARIF log.
func sarifValues(t testing.TB, data []byte) (results, rules []jsontext.Value) {
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []jsontext.Value `json:"rules"`
				} `json:"driver"`
				Extensions []struct {
					Rules []jsontext.Value `json:"rules"`
				} `json:"extensions"`
			} `json:"tool"`
			Results []jsontext.Value `json:"results"`
		} `json:"runs"`
	}
	if err := jsonv2.Unmarshal(bytes.TrimPrefix(data, utf8BOM), &log, jsonOptions); err != nil {
		t.Fatal(err)
	}
	for _, run := range log.Runs {
		results = append(results, run.Results...)
		rules = append(rules, run.Tool.Driver.Rules...)
		for _, e := range run.Tool.Extensions {
			rules = append(rules, e.Rules...)
		}
	}
	return results, rules
}

// corpusSARIF returns the valid SARIF logs of the corpus.
func corpusSARIF(t testing.TB) map[string][]byte {
	dir, files := reportstest.Corpus(t)
	out := map[string][]byte{}
	for _, cf := range files {
		switch cf.Dir() {
		case "pmd-sarif", "checkstyle-sarif", "spotbugs-sarif", "sarif-other":
		default:
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, cf.Path))
		if err != nil {
			t.Fatal(err)
		}
		if _, in := ParseAll(bytes.NewReader(data), cf.Path, ReadOptions{}); in.Error == "" {
			out[cf.Path] = data
		}
	}
	return out
}

// TestSARIFDecoderOracleOnCorpus: on every valid SARIF log of the corpus,
// every result and rule is read by the token decoder as Unmarshal reads it.
func TestSARIFDecoderOracleOnCorpus(t *testing.T) {
	logs := corpusSARIF(t)
	if len(logs) < 20 {
		t.Fatalf("only %d SARIF logs", len(logs))
	}
	total := 0
	for name, data := range logs {
		t.Run(name, func(t *testing.T) {
			results, rules := sarifValues(t, data)
			for _, v := range results {
				if !compareDecoders(t, v, tokenResult, oracleDecodeResult) {
					t.Fatalf("outside the comparison: %s", v)
				}
			}
			for _, v := range rules {
				if !compareDecoders(t, v, tokenRule, oracleDecodeRule) {
					t.Fatalf("outside the comparison: %s", v)
				}
			}
			total += len(results) + len(rules)
		})
	}
	t.Logf("%d results and rules of %d logs compared", total, len(logs))
}

// FuzzSARIFDecoderOracle: on any input that is one JSON value without
// duplicate names, the token decoder reads it as a result and as a rule as
// Unmarshal does.
func FuzzSARIFDecoderOracle(f *testing.F) {
	for _, c := range append(oracleResults, oracleRules...) {
		f.Add([]byte(c))
	}
	if _, ok := reportstest.Shared(f, "corpus"); ok {
		for _, data := range corpusSARIF(f) {
			results, rules := sarifValues(f, data)
			for i, v := range append(results, rules...) {
				if i < 3 && len(v) < 4096 {
					f.Add([]byte(v))
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		compareDecoders(t, data, tokenResult, oracleDecodeResult)
		compareDecoders(t, data, tokenRule, oracleDecodeRule)
		// Read again after itself: what the first reading remembered
		// (strings, property bags) gives the second what it reads.
		compareDecoders(t, data, tokenResultAfter(data), oracleDecodeResult)
		compareDecoders(t, data, tokenRuleAfter(data), oracleDecodeRule)
	})
}

// tokenRuleAfter reads a rule with the token decoder on a stream that has
// read the rules before first: their property bags are remembered (see
// cachedRuleProperties), their ids forgotten, so that the rule read last
// keeps its texts as a first descriptor does.
func tokenRuleAfter(before ...[]byte) func([]byte) (decoded, error) {
	return func(data []byte) (decoded, error) {
		all := append(append([][]byte{}, before...), data)
		s := tokenStream(append(append([]byte("["), bytes.Join(all, []byte(","))...), ']'))
		s.wholeBags = true
		if _, err := s.dec.ReadToken(); err != nil {
			return decoded{}, err
		}
		for range before {
			if _, err := s.rule(); err != nil {
				return decoded{}, err
			}
		}
		s.ruleFirst, s.typeErrs = nil, 0
		r, err := s.rule()
		if err != nil {
			return decoded{}, err
		}
		return decoded{Rule: r, TypeErr: s.typeErrs > 0}, nil
	}
}

// tokenResultAfter reads a result with the token decoder on a stream that
// has read the results before first (the strings they had, remembered).
func tokenResultAfter(before ...[]byte) func([]byte) (decoded, error) {
	return func(data []byte) (decoded, error) {
		all := append(append([][]byte{}, before...), data)
		s := tokenStream(append(append([]byte("["), bytes.Join(all, []byte(","))...), ']'))
		if _, err := s.dec.ReadToken(); err != nil {
			return decoded{}, err
		}
		for range before {
			if err := s.result(&sarifResult{}); err != nil {
				return decoded{}, err
			}
		}
		s.typeErrs = 0
		res := &sarifResult{}
		if err := s.result(res); err != nil {
			return decoded{}, err
		}
		return decoded{Result: res, TypeErr: s.typeErrs > 0}, nil
	}
}

// TestSARIFResultsAfterOthers: a result is read as Unmarshal reads it
// after any other (a rule id, a level or a URI written the same, or the
// same once its escapes are decoded, as the last one read).
func TestSARIFResultsAfterOthers(t *testing.T) {
	cases := append([]string{
		`{"ruleId":"ab","level":"warning","locations":[{"physicalLocation":{"artifactLocation":{"uri":"a\\b"}}}]}`,
		`{"ruleId":"a\u0062","level":"warn\u0069ng","locations":[{"physicalLocation":{"artifactLocation":{"uri":"a\\b"}}}]}`,
		`{"ruleId":"a\\b","level":"","locations":[{"physicalLocation":{"artifactLocation":{"uri":"a\u005cb"}}}]}`,
		`{"ruleId":"a\\\\b","level":"a\\\\b","locations":[{"physicalLocation":{"artifactLocation":{"uri":"a\\\\b"}}}]}`,
		"{\"ruleId\":\"a\xffb\",\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"a\xffb\"}}}]}",
	}, oracleResults...)
	for i, c := range cases {
		for j, before := range cases {
			if !compareDecoders(t, []byte(c), tokenResultAfter([]byte(before)), oracleDecodeResult) {
				t.Fatalf("%d after %d: outside the comparison", i, j)
			}
		}
	}
}

// TestSARIFRuleBagsRemembered: a descriptor whose property bag is written
// as one read before is read as Unmarshal reads it, whatever the one
// before it did with its own (relationships adding CWE ids to it), a bag
// written with other white space, a bag that is not an object.
func TestSARIFRuleBagsRemembered(t *testing.T) {
	for i, c := range oracleRules {
		t.Run(fmt.Sprintf("rule %d again", i), func(t *testing.T) {
			if !compareDecoders(t, []byte(c), tokenRuleAfter([]byte(c)), oracleDecodeRule) {
				t.Fatalf("outside the comparison: %s", c)
			}
		})
	}
	bag := `{"ruleset":"Security","priority":1,"tags":["security","CWE-79"],"precision":"high","categories":["Security"]}`
	for _, c := range []struct{ before, rule string }{
		{`{"id":"A","properties":` + bag + `,"relationships":[{"target":{"id":"89","toolComponent":{"name":"CWE"}}}]}`, `{"id":"B","properties":` + bag + `}`},
		{`{"id":"A","relationships":[{"target":{"id":"89","toolComponent":{"name":"CWE"}}}],"properties":` + bag + `}`, `{"id":"B","properties":` + bag + `}`},
		{`{"id":"A","properties":` + bag + `}`, `{"id":"B","relationships":[{"target":{"id":"89","toolComponent":{"name":"CWE"}}}],"properties":` + bag + `}`},
		{`{"id":"A","properties":{"security-severity":"bogus","tags":["t"]}}`, `{"id":"B","properties":{"security-severity":"bogus","tags":["t"]}}`},
		{`{"id":"A","properties":{"securitySeverityFrom":"impact","security-severity":"9.0","impact":"high"}}`, `{"id":"B","properties":{"securitySeverityFrom":"impact","security-severity":"9.0","impact":"high"}}`},
		{`{"id":"A","properties":` + bag + `}`, `{"id":"B","properties":` + strings.ReplaceAll(bag, `"high"`, ` "high" `) + `}`},
		{`{"id":"A","properties":null}`, `{"id":"B","properties":null}`},
		{`{"id":"A","properties":[1]}`, `{"id":"B","properties":[1]}`},
	} {
		if !compareDecoders(t, []byte(c.rule), tokenRuleAfter([]byte(c.before)), oracleDecodeRule) {
			t.Fatalf("outside the comparison: %s", c.rule)
		}
	}
	// The second descriptor takes the bag remembered, then adds to it.
	first := []byte(`{"id":"A","properties":` + bag + `}`)
	second := []byte(`{"id":"B","properties":` + bag + `,"relationships":[{"target":{"id":"89","toolComponent":{"name":"CWE"}}}]}`)
	if !compareDecoders(t, []byte(`{"id":"C","properties":`+bag+`}`), tokenRuleAfter(first, second), oracleDecodeRule) {
		t.Fatal("outside the comparison")
	}
}

// TestSARIFRuleBagsNoted: what reading a property bag notes (a string cut,
// a security-severity not understood) is noted for each descriptor that
// has it, the same bag written again or not.
func TestSARIFRuleBagsNoted(t *testing.T) {
	long := strings.Repeat("x", maxSARIFName+10)
	var rules, results []string
	for i := range 3 {
		rules = append(rules, fmt.Sprintf(`{"id":"R%d","properties":{"security-severity":"bogus","tags":[%q]}}`, i, long))
		results = append(results, fmt.Sprintf(`{"ruleId":"R%d","ruleIndex":%d,"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.c"},"region":{"startLine":1}}}]}`, i, i))
	}
	log := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T","rules":[` + strings.Join(rules, ",") + `]}},"results":[` + strings.Join(results, ",") + `]}]}`
	s := tokenStream([]byte("[" + strings.Join(rules, ",") + `,{"properties":[1]},{"properties":[1]}]`))
	s.wholeBags = true
	s.dec.ReadToken()
	for range len(rules) + 2 {
		if _, err := s.rule(); err != nil {
			t.Fatal(err)
		}
	}
	if s.badSeverities != 3 || s.cuts != 3 || s.typeErrs != 2 {
		t.Errorf("noted %d severities, %d cuts, %d values of the wrong kind; want 3, 3, 2", s.badSeverities, s.cuts, s.typeErrs)
	}
	fs, in := ParseAll(strings.NewReader(log), "t.sarif", ReadOptions{})
	if len(fs) != 3 || in.Error != "" {
		t.Fatalf("%d findings, %q", len(fs), in.Error)
	}
	w := strings.Join(in.Warnings, "; ")
	for _, want := range []string{"the security-severity of 3 rules", "3 strings longer than its bound cut"} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings %q lack %q", w, want)
		}
	}
}

// TestSmallObject: the object at the start of a buffer is measured when
// it is whole there and small; strings are stepped over, escapes and all.
func TestSmallObject(t *testing.T) {
	for _, c := range []struct {
		buf  string
		max  int
		want int
	}{
		{`{}`, 10, 2},
		{`: {"a": 1}, "b"`, 100, 8},
		{"\n        ,{\"a\":[1,{\"b\":2}]}x", 100, 17},
		{`{"a": "}"}`, 100, 10},
		{`{"a": "\"}"}`, 100, 12},
		{`{"a": "\\"}`, 100, 11},
		{`{"a":                                  1}`, 100, 41},
		{`{"a":                                  1}`, 20, 0},
		{`{"a": 1`, 100, 0},
		{`{"a": "}`, 100, 0},
		{`[1]`, 100, 0},
		{`"x"`, 100, 0},
		{``, 100, 0},
		{`   `, 100, 0},
	} {
		start, got := smallObject([]byte(c.buf), c.max)
		if got != c.want || got > 0 && c.buf[start] != '{' {
			t.Errorf("smallObject(%q, %d) = %d, %d, want a length of %d", c.buf, c.max, start, got, c.want)
		}
	}
}

// TestSARIFRuleBagsInvalid: a small property bag that is not valid JSON is
// reported where, and as, reading it member by member reports it (its
// place, the character), not as reading it whole would.
func TestSARIFRuleBagsInvalid(t *testing.T) {
	for _, c := range []struct{ bag, want string }{
		{`{"a":1,}`, `line 1, column 99: invalid character ',' at start of value`},
		{`{x:1}`, `line 1, column 94: invalid character 'x' at start of value`},
		{`{1:2}`, `line 1, column 94: object member name must be a string`},
	} {
		log := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD","rules":[{"id":"R1","properties":` + c.bag + `}]}},"results":[]}]}`
		_, in := ParseAll(strings.NewReader(log), "t.sarif", ReadOptions{})
		if want := "t.sarif: $.runs[0].tool.driver.rules[0]: " + c.want; in.Error != want {
			t.Errorf("%s:\n got %s\nwant %s", c.bag, in.Error, want)
		}
	}
}
