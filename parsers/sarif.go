package parsers

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/recap-dev/recap/reports"
)

// sarifParser reads SARIF 2.1.0 logs from any tool as a stream: a
// json.Decoder walks the tokens down to runs[].results[] and decodes one result
// at a time, so memory does not grow with the number of results. Rules are
// decoded with the tool object into small structs (id, name, level, category
// properties). See ../shared/LIBRARIES.md §1 for why go-sarif's own decoder is
// not used to read: it rejects "ruleIndex": -1 and a BOM, and holds the whole log.
type sarifParser struct{ opts Options }

func newSARIF(opts Options) Parser { return &sarifParser{opts: opts} }

// sarifVersion is the only SARIF version recap reads.
const sarifVersion = "2.1.0"

func (p *sarifParser) Parse(r io.Reader, emit func(reports.Finding) error) (reports.Input, error) {
	in := reports.Input{Format: string(FormatSARIF)}
	br := bufio.NewReaderSize(r, 64<<10)
	if b, err := br.Peek(3); err == nil && string(b) == string(utf8BOM) {
		br.Discard(3)
	}
	lc := newLineCounter(br)
	dec := json.NewDecoder(lc)
	s := &sarifStream{opts: p.opts, dec: dec, lc: lc, in: &in, emit: emit, placer: newPlacer(p.opts.Root)}
	err := s.document()
	s.placer.finish(&in)
	if err == nil && s.typeErr != nil {
		err = s.typeErr
	}
	return in, err
}

type sarifStream struct {
	opts    Options
	dec     *json.Decoder
	lc      *lineCounter
	in      *reports.Input
	emit    func(reports.Finding) error
	placer  *placer
	typeErr error // the first result that did not fit the schema; reading went on
	tools   map[string]bool
}

// errEmit marks an error returned by emit, which is passed on unwrapped.
type errEmit struct{ err error }

func (e errEmit) Error() string { return e.err.Error() }

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
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
		err = errors.New(strings.TrimPrefix(se.Error(), "json: "))
	case errors.As(err, &te):
		off = te.Offset
		what := te.Field
		if what == "" {
			what = "value"
		}
		err = fmt.Errorf("%s: want %s, got %s", what, jsonKind(te.Type.String()), te.Value)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		off = s.lc.read // the place of a truncation is the end of the input
		err = errors.New("unexpected end of input")
	}
	line, col := s.lc.position(off)
	return &ParseError{Input: s.opts.Name, Path: path, Line: line, Column: col, Offset: off, Err: err}
}

func jsonKind(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case strings.HasPrefix(goType, "map[") || strings.HasPrefix(goType, "parsers.") || strings.HasPrefix(goType, "struct"):
		return "an object"
	case goType == "string":
		return "a string"
	case strings.HasPrefix(goType, "int") || strings.HasPrefix(goType, "*int"):
		return "a number"
	case goType == "bool" || goType == "*bool":
		return "a boolean"
	}
	return goType
}

// delim reads the next token and checks that it is the delimiter want.
func (s *sarifStream) delim(path string, want json.Delim) error {
	tok, err := s.dec.Token()
	if err != nil {
		return s.fail(path, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return s.fail(path, fmt.Errorf("want %s, got %s", delimName(want), tokenName(tok)))
	}
	return nil
}

func delimName(d json.Delim) string {
	if d == '{' {
		return "an object"
	}
	return "an array"
}

func tokenName(tok json.Token) string {
	switch v := tok.(type) {
	case json.Delim:
		if v == '{' {
			return "an object"
		}
		if v == '[' {
			return "an array"
		}
		return "'" + v.String() + "'"
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", tok)
}

// key reads an object key, or reports false at the object's end.
func (s *sarifStream) key(path string) (string, bool, error) {
	if !s.dec.More() {
		if _, err := s.dec.Token(); err != nil { // the closing '}'
			return "", false, s.fail(path, err)
		}
		return "", false, nil
	}
	tok, err := s.dec.Token()
	if err != nil {
		return "", false, s.fail(path, err)
	}
	k, _ := tok.(string)
	return k, true, nil
}

func (s *sarifStream) skip(path string) error {
	var raw json.RawMessage
	if err := s.dec.Decode(&raw); err != nil {
		return s.fail(path, err)
	}
	return nil
}

// document reads the log object (§3.13).
func (s *sarifStream) document() error {
	tok, err := s.dec.Token()
	if err == io.EOF {
		return &ParseError{Input: s.opts.Name, Offset: 0, Err: ErrEmpty}
	}
	if err != nil {
		return s.fail("$", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return s.fail("$", fmt.Errorf("want a SARIF log object, got %s", tokenName(tok)))
	}
	sawRuns := false
	for {
		k, ok, err := s.key("$")
		if err != nil || !ok {
			if err == nil && !sawRuns {
				return s.fail("$", errors.New(`not a SARIF log: no "runs"`))
			}
			return err
		}
		switch k {
		case "version":
			var v string
			if err := s.dec.Decode(&v); err != nil {
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
	for i := 0; s.dec.More(); i++ {
		if err := s.run(i); err != nil {
			return err
		}
	}
	if _, err := s.dec.Token(); err != nil {
		return s.fail("$.runs", err)
	}
	return nil
}
