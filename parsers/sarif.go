package parsers

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/reports"
)

// sarifParser reads SARIF 2.1.0 logs from any tool as a stream: a
// jsontext.Decoder walks the tokens down to runs[].results[] and reads one
// result at a time, token by token (sarif_result.go), so memory does not grow
// with the number of results. Rule descriptors are read the same way into
// compact rules (id, name, level, help URI, category and security
// properties); the descriptions and help of a rule id are read from its
// first descriptor only, and kept once per rule in the input's rule table.
// go-sarif's own decoder is not used to read (recap uses go-sarif to write
// SARIF only): it rejects "ruleIndex": -1 and a BOM, which real tools write,
// and holds the whole log in memory.
type sarifParser struct{ opts Options }

func newSARIF(opts Options) Parser { return &sarifParser{opts: opts} }

// sarifVersion is the only SARIF version recap reads.
const sarifVersion = "2.1.0"

// newJSONStream sets up the reading of a JSON report (SARIF, Code
// Climate): a byte-order mark skipped, lines counted for errors' places,
// strings and depth bounded, the decoder and the placing of paths.
func newJSONStream(r io.Reader, opts Options, in *reports.Input, emit Emit) *sarifStream {
	br := bufio.NewReaderSize(r, 64<<10)
	if b, err := br.Peek(3); err == nil && string(b) == string(utf8BOM) {
		br.Discard(3)
	}
	lc := newLineCounter(br)
	lim := newJSONLimiter(lc)
	dec := jsontext.NewDecoder(lim, jsonOptions)
	lim.watch(dec)
	return &sarifStream{opts: opts, dec: dec, lc: lc, lim: lim, in: in, emit: emit, placer: newPlacer(opts.Root, opts.FS)}
}

func (p *sarifParser) Parse(r io.Reader, emit Emit) (reports.Input, error) {
	in := reports.Input{Format: string(FormatSARIF), Rules: &reports.Rules{}}
	s := newJSONStream(r, p.opts, &in, emit)
	lim := s.lim
	s.held.p = s.placer
	defer func() {
		for _, sp := range s.spills {
			sp.close()
		}
	}()
	err := s.held.end(s.emit, s.documents())
	warnRules(&in)
	if s.badSeverities > 0 {
		in.Warn(fmt.Sprintf("the security-severity of %s is neither a number nor a severity word (first: %q): left out", english.Plural(s.badSeverities, "rule", "rules"), s.badSeverity))
	}
	if n := lim.cuts + s.cuts; n > 0 {
		in.Warn(fmt.Sprintf("%s longer than its bound cut (marked …)", english.Plural(n, "string", "strings")))
	}
	s.placer.finish(&in)
	if err == nil {
		err = s.typeError()
	}
	return in, err
}

type sarifStream struct {
	opts Options
	dec  *jsontext.Decoder
	lc   *lineCounter
	lim  *jsonLimiter
	cuts int // kept strings cut to their bound (jsonLimiter counts its own)
	// badSeverities counts the rules whose security-severity is neither a
	// number nor a word of severityWords; badSeverity is the first.
	badSeverities int
	badSeverity   string
	in            *reports.Input
	emit          Emit
	placer        *placer
	typeErrs      int               // values of the wrong kind, skipped; reading went on
	typePlaces    []*ParseError     // the first maxTypePlaces of them
	skipped       int               // results left out for them
	item          string            // what a result is called in messages ("result"; Code Quality: "issue")
	tools         map[string]bool   // the tools of the runs read, by name
	toolNames     []string          // the first maxListedTools, in the input's Tool
	moreTools     int               // distinct tools past them
	strs          map[string]string // interned rule strings
	last          [lastNone]string  // the last of them read at each place (see istrAt)
	// propBags are the descriptors' property bags read, by their bytes,
	// and sub the decoder that reads one (see cachedRuleProperties).
	propBags map[string]*propBag
	sub      *jsontext.Decoder
	subR     bytes.Reader
	// wholeBags, set by tests, reads every bag whole, however the
	// decoder's buffer holds it.
	wholeBags bool
	// ruleFirst is what the descriptors of each rule id of the component
	// being read share (see firstOfID).
	ruleFirst map[string]*ruleShared
	// stubRule stands for the descriptors of ids past maxRuleIDs.
	stubRule *sarifRule
	// oneLocation says that the results being read need their first
	// location only (their tool is known, and not PMD); spills are the
	// results' locations written aside, removed at the end.
	oneLocation bool
	spills      []*locSpill
	held        heldFindings // findings whose path waits for the report's root (see placer)
	// heldRuleText is the bytes of the descriptors' texts read and not yet
	// in the rule table (see maxHeldRuleText).
	heldRuleText int
	// The small objects of the results' locations, handed out from chunks
	// (see slab).
	physical  slab[sarifPhysicalLocation]
	artifacts slab[sarifArtifactLocation]
	regions   slab[sarifRegion]
	// inl is the inline storage of the result whose first location is
	// being read (see sarifResult.inline); nil otherwise.
	inl  *inlineLocation
	ints slab[int] // optional integers (a result's ruleIndex)
}

// internProperty is intern(cut(stringProperty(raw), maxSARIFName)), the
// string found without allocating when it was interned before (a rule's
// ruleset, written again in each of PMD 7's descriptors).
func (s *sarifStream) internProperty(raw []byte) string {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		// What intern holds is valid text, cut to maxSARIFName.
		if body := raw[1 : len(raw)-1]; len(body) <= maxSARIFName && bytes.IndexByte(body, '\\') < 0 {
			if w, ok := s.strs[string(body)]; ok {
				return w
			}
		}
	}
	return s.intern(s.cut(stringProperty(raw), maxSARIFName))
}

// A slab hands out zeroed values of T from chunks of slabChunk, one
// allocation a chunk: each result of a large report had four small
// objects of its own (its locations, the physical location, the artifact
// location and the region), 1.26 million allocations in Spring's PMD
// SARIF, on the goroutine that tokenizes. A value is never handed out
// twice: a chunk is the collector's once none of its values is held. A
// result's first location's objects are the result's own
// (sarifResult.inline); the slabs hold the others'.
type slab[T any] struct{ free []T }

const slabChunk = 128

// new returns a zeroed *T.
func (s *slab[T]) new() *T {
	if len(s.free) == 0 {
		s.free = make([]T, slabChunk)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

// noteSeverityWord counts a security-severity that is neither a number nor
// a severity word (text: the string's text, raw: the value as written).
func (s *sarifStream) noteSeverityWord(text string, raw []byte) {
	if s.badSeverities++; s.badSeverity == "" {
		if text == "" {
			text = string(raw)
		}
		if len(text) > 40 { // quoted in a warning: the first characters
			text = text[:runeStart([]byte(text[:41]), 40)] + ellipsis
		}
		s.badSeverity = text
	}
}

// intern returns one shared copy of each distinct string.
func (s *sarifStream) intern(v string) string {
	if v == "" {
		return ""
	}
	if w, ok := s.strs[v]; ok {
		return w
	}
	if s.strs == nil || len(s.strs) >= maxInterned {
		s.strs = map[string]string{}
	}
	s.strs[v] = v
	return v
}

// maxInterned bounds the strings intern keeps one copy of: a report
// repeats a few thousand rule ids and paths, a hostile one may not.
const maxInterned = 1 << 16

// position turns an offset of the decoder into the input's offset, line
// and column.
func (s *sarifStream) position(off int64) (line, col int, orig int64) {
	orig = s.lim.original(off)
	line, col = s.lc.position(orig)
	return line, col, orig
}

// errEmit marks an error returned by emit, which is passed on unwrapped.
type errEmit struct{ err error }

func (e errEmit) Error() string { return e.err.Error() }

// jsonOptions read JSON as real tools write it: names matched in any case
// as encoding/json matches them (strings.EqualFold: "RuleId" is ruleId,
// "rule_id" is not), duplicate names and invalid UTF-8 let through.
var jsonOptions = jsonv2.JoinOptions(
	jsonv2.MatchCaseInsensitiveNames(true),
	jsonv1.MatchCaseSensitiveDelimiter(true),
	jsontext.AllowDuplicateNames(true),
	jsontext.AllowInvalidUTF8(true),
)

// valueError is a value that did not fit its Go type, at an offset of the input.
type valueError struct {
	off int64
	err error
}

func (e *valueError) Error() string { return e.err.Error() }

// fail wraps err with the input name, the JSON path and the place.
func (s *sarifStream) fail(path string, err error) error {
	var ee errEmit
	if errors.As(err, &ee) {
		return ee.err
	}
	var pe *ParseError
	if errors.As(err, &pe) {
		return err
	}
	off := s.dec.InputOffset()
	var se *jsontext.SyntacticError
	var ve *valueError
	var le *jsonLimitError
	switch {
	case errors.As(err, &le):
		line, col := s.lc.position(le.off)
		return &ParseError{Input: s.opts.Name, Path: path, Line: line, Column: col, Offset: le.off, Err: le}
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		line, col := s.lc.position(s.lc.read) // the place of a truncation is the end of the input
		return &ParseError{Input: s.opts.Name, Path: path, Line: line, Column: col, Offset: s.lc.read, Err: errors.New("unexpected end of input")}
	case errors.As(err, &se):
		off = se.ByteOffset
		if se.Err != nil {
			err = se.Err
		}
	case errors.As(err, &ve):
		off, err = ve.off, ve.err
	}
	line, col, off := s.position(off)
	return &ParseError{Input: s.opts.Name, Path: path, Line: line, Column: col, Offset: off, Err: err}
}

// decode reads the next value whole and unmarshals it into v. A value that
// does not fit v (a string where a number belongs) is a *valueError, and the
// stream is past the value, so that reading can go on.
func (s *sarifStream) decode(v any) error {
	val, err := s.dec.ReadValue()
	if err != nil {
		return err
	}
	start := s.dec.InputOffset() - int64(len(val))
	if err := jsonv2.Unmarshal(val, v, jsonOptions); err != nil {
		var se *jsonv2.SemanticError
		if errors.As(err, &se) {
			what := pointerPath(string(se.JSONPointer))
			got := kindName(se.JSONKind)
			if se.JSONValue != nil {
				got = kindName(se.JSONValue.Kind())
			}
			return &valueError{off: start + se.ByteOffset, err: fmt.Errorf("%s: want %s, got %s", what, goKind(se), got)}
		}
		return &valueError{off: start, err: err}
	}
	return nil
}

// pointerPath writes a JSON pointer within a value as a path:
// "/locations/0/region" → "locations[0].region"; "" → "value".
func pointerPath(ptr string) string {
	if ptr == "" {
		return "value"
	}
	var b strings.Builder
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		if _, err := strconv.Atoi(tok); err == nil {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

func goKind(se *jsonv2.SemanticError) string {
	if se.GoType == nil {
		return "another value"
	}
	t := se.GoType.String()
	switch {
	case len(t) > 2 && t[:2] == "[]":
		return "an array"
	case t == "string":
		return "a string"
	case t == "bool" || t == "*bool":
		return "a boolean"
	case t == "int" || t == "*int" || t == "int64" || t == "float64":
		return "a number"
	}
	return "an object"
}

// delim reads the next token and checks that it is the delimiter want.
func (s *sarifStream) delim(path string, want jsontext.Kind) error {
	tok, err := s.dec.ReadToken()
	if err != nil {
		return s.fail(path, err)
	}
	if tok.Kind() != want {
		return s.fail(path, fmt.Errorf("want %s, got %s", kindName(want), kindName(tok.Kind())))
	}
	return nil
}

// kindName names a JSON kind in messages.
func kindName(k jsontext.Kind) string {
	switch k {
	case '{', '}':
		if k == '{' {
			return "an object"
		}
		return "'}'"
	case '[':
		return "an array"
	case ']':
		return "']'"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "nothing"
}

// more reports whether the object or array being read has another member.
func (s *sarifStream) more() bool {
	k := s.dec.PeekKind()
	return k != '}' && k != ']' && k != 0
}

// key reads an object key, or reports false at the object's end. A key
// that is none of members but one of them in another case is given as that
// member (see foldName).
func (s *sarifStream) key(path string, members []string) (string, bool, error) {
	if !s.more() {
		if _, err := s.dec.ReadToken(); err != nil { // the closing '}'
			return "", false, s.fail(path, err)
		}
		return "", false, nil
	}
	tok, err := s.dec.ReadToken()
	if err != nil {
		return "", false, s.fail(path, err)
	}
	k := validUTF8(tok.String())
	if !slices.Contains(members, k) {
		k = foldName(k, members)
	}
	return k, true, nil
}

// validUTF8 replaces each byte of s that is not UTF-8 with U+FFFD, as
// encoding/json and json.Unmarshal do with names (jsontext's tokens keep
// the bytes when invalid UTF-8 is allowed).
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func (s *sarifStream) skip(path string) error {
	if err := s.dec.SkipValue(); err != nil {
		return s.fail(path, err)
	}
	return nil
}

// The members of the log's outer objects that recap reads.
var (
	logMembers        = []string{"version", "runs"}
	runMembers        = []string{"tool", "originalUriBaseIds", "artifacts", "invocations", "results"}
	invocationMembers = []string{"ruleConfigurationOverrides", "executionSuccessful", "exitCode", "exitCodeDescription", "exitSignalName",
		"toolExecutionNotifications", "toolConfigurationNotifications"}
	toolMembers      = []string{"driver", "extensions"}
	componentMembers = []string{"name", "version", "semanticVersion", "informationUri", "rules"}
)

// documents reads the log, and further logs when they follow it (logs
// concatenated, as `cat a.sarif b.sarif` makes them, or a stream of logs
// one per line): each is read whole, and anything else after a log is an
// error, so that a report with garbage appended is not taken for sound.
func (s *sarifStream) documents() error {
	if err := s.document(); err != nil {
		return err
	}
	for s.dec.PeekKind() == '{' {
		if err := s.document(); err != nil {
			return err
		}
	}
	_, err := s.dec.ReadToken()
	var se *jsontext.SyntacticError
	switch {
	case err == io.EOF:
		return nil
	case err == nil:
		err = errors.New("content after the SARIF log: a value that is not a log")
	case errors.As(err, &se):
		err = &jsontext.SyntacticError{ByteOffset: se.ByteOffset, Err: fmt.Errorf("content after the SARIF log: %w", se.Err)}
	case errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader):
		return &ParseError{Input: s.opts.Name, Offset: -1, Err: err}
	}
	return s.fail("$", err)
}

// document reads the log object (§3.13).
func (s *sarifStream) document() error {
	tok, err := s.dec.ReadToken()
	if err == io.EOF {
		return &ParseError{Input: s.opts.Name, Offset: 0, Err: ErrEmpty}
	}
	if err != nil {
		return s.fail("$", err)
	}
	if tok.Kind() != '{' {
		return s.fail("$", fmt.Errorf("want a SARIF log object, got %s", kindName(tok.Kind())))
	}
	sawRuns := false
	for {
		k, ok, err := s.key("$", logMembers)
		if err != nil || !ok {
			if err == nil && !sawRuns {
				return s.fail("$", errors.New(`not a SARIF log: no "runs"`))
			}
			return err
		}
		switch k {
		case "version":
			var v string
			if err := s.decode(&v); err != nil {
				return s.fail("$.version", err)
			}
			if v != sarifVersion {
				return s.fail("$.version", fmt.Errorf("SARIF version %q is not supported (recap reads %s)", v, sarifVersion))
			}
		case "runs":
			sawRuns = true
			if err := s.runs(); err != nil {
				return err
			}
		default:
			if err := s.skip("$." + k); err != nil {
				return err
			}
		}
	}
}

func (s *sarifStream) runs() error {
	if err := s.delim("$.runs", '['); err != nil {
		return err
	}
	for i := 0; s.more(); i++ {
		if err := s.run(i); err != nil {
			return err
		}
	}
	if _, err := s.dec.ReadToken(); err != nil {
		return s.fail("$.runs", err)
	}
	return nil
}
