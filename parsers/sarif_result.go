package parsers

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// The result decoder: a result (§3.27) read token by token into sarifResult,
// in one pass over the stream, without reflection. A value of the wrong kind
// (a string where a number belongs) is skipped and noted as the input's
// first type error; the result keeps what fits, and reading goes on.

// result reads one result object.
func (s *sarifStream) result(res *sarifResult) error {
	return s.object(func(name string) error {
		switch name {
		case "ruleId":
			return s.istr(&res.RuleID)
		case "ruleIndex":
			return s.optInt(&res.RuleIndex)
		case "rule":
			res.Rule = &sarifRuleRef{}
			return s.ruleRef(res.Rule)
		case "kind":
			return s.istr(&res.Kind)
		case "level":
			return s.istr(&res.Level)
		case "message":
			return s.message(&res.Message)
		case "locations":
			return s.array(func() error {
				var l sarifLocation
				err := s.location(&l)
				res.Locations = append(res.Locations, l)
				return err
			})
		case "partialFingerprints":
			return s.object(func(k string) error {
				v, err := s.dec.ReadValue()
				if err != nil {
					return err
				}
				if res.PartialFingerprints == nil {
					res.PartialFingerprints = map[string]jsontext.Value{}
				}
				if len(v) > maxSARIFName {
					// A long one is cut: a string to its bound, another value to null.
					if v[0] == '"' {
						v, _ = jsontext.AppendQuote(nil, s.unquote(v, maxSARIFName))
					} else {
						v = jsontext.Value("null")
					}
				}
				res.PartialFingerprints[k] = bytes.Clone(v)
				return nil
			})
		case "suppressions":
			return s.array(func() error {
				var status string
				err := s.object(func(k string) error {
					if k == "status" {
						return s.str(&status)
					}
					return s.dec.SkipValue()
				})
				res.SuppressionStatuses = append(res.SuppressionStatuses, status)
				return err
			})
		}
		return s.dec.SkipValue()
	})
}

// rule reads a reportingDescriptor (§3.49), keeping what recap reads of it;
// its descriptions and help (most of the bytes) are skipped, not decoded.
func (s *sarifStream) rule() (*sarifRule, error) {
	r := &sarifRule{}
	err := s.object(func(name string) error {
		switch name {
		case "id":
			return s.istr(&r.ID)
		case "name":
			return s.istr(&r.Name)
		case "helpUri":
			return s.istr(&r.HelpURI)
		case "defaultConfiguration":
			return s.object(func(k string) error {
				if k == "level" {
					return s.istr(&r.level)
				}
				return s.dec.SkipValue()
			})
		case "messageStrings":
			return s.object(func(id string) error {
				var text string
				err := s.object(func(k string) error {
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
			// Their types vary by tool: read raw, parsed once here.
			return s.object(func(k string) error {
				switch k {
				case "ruleset", "category", "priority", "tags":
				default:
					return s.dec.SkipValue()
				}
				v, err := s.dec.ReadValue()
				if err != nil {
					return err
				}
				switch k {
				case "ruleset":
					r.ruleset = s.intern(s.cut(stringProperty(v), maxSARIFName))
				case "category":
					r.category = s.intern(s.cut(stringProperty(v), maxSARIFName))
				case "priority":
					r.priority = intProperty(v)
				case "tags":
					for _, t := range tagsProperty(v) {
						r.tags = append(r.tags, s.intern(s.cut(t, maxSARIFName)))
					}
				}
				return nil
			})
		}
		return s.dec.SkipValue()
	})
	return r, err
}

func (s *sarifStream) ruleRef(r *sarifRuleRef) error {
	return s.object(func(name string) error {
		switch name {
		case "id":
			return s.str(&r.ID)
		case "index":
			return s.optInt(&r.Index)
		case "toolComponent":
			r.ToolComponent = &sarifComponentRef{}
			return s.object(func(k string) error {
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
	return s.object(func(name string) error {
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
	return s.object(func(name string) error {
		if name != "physicalLocation" {
			return s.dec.SkipValue()
		}
		pl := &sarifPhysicalLocation{}
		l.PhysicalLocation = pl
		return s.object(func(k string) error {
			switch k {
			case "artifactLocation":
				pl.ArtifactLocation = &sarifArtifactLocation{}
				return s.artifactLocation(pl.ArtifactLocation)
			case "region":
				pl.Region = &sarifRegion{}
				return s.region(pl.Region)
			case "contextRegion":
				pl.ContextRegion = &sarifRegion{}
				return s.region(pl.ContextRegion)
			}
			return s.dec.SkipValue()
		})
	})
}

func (s *sarifStream) artifactLocation(a *sarifArtifactLocation) error {
	return s.object(func(name string) error {
		switch name {
		case "uri":
			return s.istr(&a.URI)
		case "uriBaseId":
			return s.istr(&a.URIBaseID)
		case "index":
			return s.optInt(&a.Index)
		}
		return s.dec.SkipValue()
	})
}

func (s *sarifStream) region(r *sarifRegion) error {
	return s.object(func(name string) error {
		switch name {
		case "startLine":
			return s.int(&r.StartLine)
		case "startColumn":
			return s.int(&r.StartColumn)
		case "endLine":
			return s.int(&r.EndLine)
		case "endColumn":
			return s.int(&r.EndColumn)
		case "snippet":
			r.Snippet = &sarifMultiformat{}
			return s.object(func(k string) error {
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
// decoder at the member's value; null is an absent object.
func (s *sarifStream) object(field func(name string) error) error {
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
		name, err := s.name()
		if err != nil {
			return err
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
func (s *sarifStream) str(dst *string) error {
	switch s.dec.PeekKind() {
	case '"':
		v, err := s.dec.ReadValue()
		if err != nil {
			return err
		}
		raw := v[1 : len(v)-1]
		if len(raw) <= maxSARIFText && bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
			*dst = string(raw)
			return nil
		}
		*dst = s.unquote(v, maxSARIFText)
		return nil
	case 'n':
		_, err := s.dec.ReadToken()
		return err
	}
	return s.mismatch("a string")
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
func (s *sarifStream) istr(dst *string) error {
	if s.dec.PeekKind() != '"' {
		return s.str(dst)
	}
	v, err := s.dec.ReadValue()
	if err != nil {
		return err
	}
	raw := v[1 : len(v)-1]
	if len(raw) <= maxSARIFName && bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		if w, ok := s.strs[string(raw)]; ok { // no allocation for the lookup
			*dst = w
			return nil
		}
		*dst = s.intern(string(raw))
		return nil
	}
	*dst = s.intern(s.unquote(v, maxSARIFName))
	return nil
}

// name reads an object's member name. The names SARIF defines come back as
// constants, without allocating; others (message ids, fingerprint keys,
// properties of a tool's own) as new strings.
func (s *sarifStream) name() (string, error) {
	v, err := s.dec.ReadValue()
	if err != nil {
		return "", err
	}
	raw := v[1 : len(v)-1]
	if bytes.IndexByte(raw, '\\') >= 0 {
		u, _ := jsontext.AppendUnquote(nil, v)
		return string(u), nil
	}
	return sarifName(raw), nil
}

// sarifName returns raw as a string, a constant for the names recap reads
// or skips most often.
func sarifName(raw []byte) string {
	switch string(raw) {
	case "ruleId":
		return "ruleId"
	case "ruleIndex":
		return "ruleIndex"
	case "rule":
		return "rule"
	case "kind":
		return "kind"
	case "level":
		return "level"
	case "message":
		return "message"
	case "locations":
		return "locations"
	case "partialFingerprints":
		return "partialFingerprints"
	case "suppressions":
		return "suppressions"
	case "status":
		return "status"
	case "id":
		return "id"
	case "name":
		return "name"
	case "helpUri":
		return "helpUri"
	case "defaultConfiguration":
		return "defaultConfiguration"
	case "messageStrings":
		return "messageStrings"
	case "text":
		return "text"
	case "properties":
		return "properties"
	case "ruleset":
		return "ruleset"
	case "category":
		return "category"
	case "priority":
		return "priority"
	case "tags":
		return "tags"
	case "index":
		return "index"
	case "toolComponent":
		return "toolComponent"
	case "markdown":
		return "markdown"
	case "arguments":
		return "arguments"
	case "physicalLocation":
		return "physicalLocation"
	case "artifactLocation":
		return "artifactLocation"
	case "region":
		return "region"
	case "contextRegion":
		return "contextRegion"
	case "uri":
		return "uri"
	case "uriBaseId":
		return "uriBaseId"
	case "startLine":
		return "startLine"
	case "startColumn":
		return "startColumn"
	case "endLine":
		return "endLine"
	case "endColumn":
		return "endColumn"
	case "snippet":
		return "snippet"
	case "shortDescription":
		return "shortDescription"
	case "fullDescription":
		return "fullDescription"
	case "help":
		return "help"
	case "guid":
		return "guid"
	case "fingerprints":
		return "fingerprints"
	case "baselineState":
		return "baselineState"
	case "codeFlows":
		return "codeFlows"
	case "relatedLocations":
		return "relatedLocations"
	case "logicalLocations":
		return "logicalLocations"
	case "fixes":
		return "fixes"
	case "rank":
		return "rank"
	case "occurrenceCount":
		return "occurrenceCount"
	case "provenance":
		return "provenance"
	case "analysisTarget":
		return "analysisTarget"
	case "correlationGuid":
		return "correlationGuid"
	case "hostedViewerUri":
		return "hostedViewerUri"
	case "taxa":
		return "taxa"
	case "stacks":
		return "stacks"
	case "graphs":
		return "graphs"
	case "attachments":
		return "attachments"
	case "workItemUris":
		return "workItemUris"
	case "charOffset":
		return "charOffset"
	case "charLength":
		return "charLength"
	case "byteOffset":
		return "byteOffset"
	case "byteLength":
		return "byteLength"
	case "sourceLanguage":
		return "sourceLanguage"
	case "enabled":
		return "enabled"
	case "relationships":
		return "relationships"
	case "deprecatedIds":
		return "deprecatedIds"
	case "deprecatedGuids":
		return "deprecatedGuids"
	case "deprecatedNames":
		return "deprecatedNames"
	case "justification":
		return "justification"
	case "location":
		return "location"
	case "fullyQualifiedName":
		return "fullyQualifiedName"
	case "decoratedName":
		return "decoratedName"
	case "parentIndex":
		return "parentIndex"
	case "problem":
		return "problem"
	case "severity":
		return "severity"
	}
	return string(raw)
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
		*dst = &n
	}
	return err
}

// readInt reads an integer: ok is false for null and for a value that is
// not one (noted as a type error and skipped). A number written as a
// float with no fraction ("3.0", "1e2") is taken.
func (s *sarifStream) readInt() (n int, ok bool, err error) {
	switch s.dec.PeekKind() {
	case '0':
		off := s.valueOffset()
		v, err := s.dec.ReadValue()
		if err != nil {
			return 0, false, err
		}
		if n, ok := smallInt(v); ok {
			return n, true, nil
		}
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
		_, err := s.dec.ReadToken()
		return 0, false, err
	}
	return 0, false, s.mismatch("a number")
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

// noteType keeps the first value of the wrong kind as the input's type error.
func (s *sarifStream) noteType(off int64, want, got string) {
	if s.typeErr != nil {
		return
	}
	line, col, off := s.position(off)
	s.typeErr = &ParseError{Input: s.opts.Name, Path: pointerToPath(string(s.dec.StackPointer())), Line: line, Column: col, Offset: off,
		Err: fmt.Errorf("want %s, got %s", want, got)}
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
