package parsers

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/reports"
)

// codeClimateParser reads a GitLab Code Quality report: a JSON array of
// Code Climate issues, as GitLab's codequality artifacts hold them and many
// linters write them (ESLint's and Stylelint's GitLab formatters, PHPStan,
// golangci-lint, Code Climate's engines, recap --format codeclimate). It
// streams the array with the SARIF reader's bounded token reader, one
// issue at a time, member by member:
//   - description is the message (the zero-width joiners recap's output puts
//     after reference sigils are taken out again, see stripJoiners);
//   - check_name is the rule, without the tool's "engine_name/" prefix
//     recap's output adds;
//   - engine_name is the tool (when the report names none: ESLint for an
//     issue as ESLint's formatter writes it, see eslintFormatted, else
//     "Code Quality");
//   - severity info and minor are note, major warning, critical and blocker
//     error (codeClimateSeverity);
//   - location.path, location.lines.begin and end or location.positions'
//     begin and end lines (and the begin column);
//   - categories' first value is the category;
//   - fingerprint is the issue's identity across runs (a partial fingerprint).
//
// An element whose type is not "issue" (a Code Climate measurement) is
// skipped.
type codeClimateParser struct{ opts Options }

func newCodeClimate(opts Options) Parser { return &codeClimateParser{opts: opts} }

// codeClimateMarked: a JSON array whose head has the members of a Code
// Climate issue.
func codeClimateMarked(head []byte) bool {
	return bytes.Contains(head, []byte(`"location"`)) &&
		(bytes.Contains(head, []byte(`"check_name"`)) || bytes.Contains(head, []byte(`"fingerprint"`)))
}

// codeClimateTool is the tool of issues whose report names none.
const codeClimateTool = "Code Quality"

var (
	ccIssueMembers    = []string{"type", "check_name", "description", "categories", "severity", "fingerprint", "location", "engine_name"}
	ccLocationMembers = []string{"path", "lines", "positions"}
	ccLinesMembers    = []string{"begin", "end"}
	ccPositionMembers = []string{"line", "column"}
)

// ccIssue is what recap reads of an issue.
type ccIssue struct {
	typ, check, description, category, severity, fingerprint, engine, path string
	line, endLine, column                                                  int
}

func (p *codeClimateParser) Parse(r io.Reader, emit Emit) (reports.Input, error) {
	in := reports.Input{Format: string(FormatCodeClimate)}
	s := newJSONStream(r, p.opts, &in, emit)
	s.item = "issue"
	lim := s.lim
	err := p.issues(s, &in, emit)
	if n := lim.cuts + s.cuts; n > 0 {
		in.Warn(fmt.Sprintf("%s longer than its bound cut (marked …)", english.Plural(n, "string", "strings")))
	}
	s.placer.finish(&in)
	if err == nil {
		err = s.typeError()
	}
	return in, err
}

func (p *codeClimateParser) issues(s *sarifStream, in *reports.Input, emit Emit) error {
	k := s.dec.PeekKind()
	if k == 0 {
		if _, err := s.dec.ReadToken(); err != io.EOF {
			return s.fail("$", err)
		}
		return &ParseError{Input: p.opts.Name, Offset: 0, Err: ErrEmpty}
	}
	if k != '[' {
		return s.failAt("$", fmt.Errorf("want a JSON array of Code Quality issues, got %s", kindName(k)))
	}
	if _, err := s.dec.ReadToken(); err != nil {
		return s.fail("$", err)
	}
	for i := 0; s.more(); i++ {
		path := fmt.Sprintf("$[%d]", i)
		if k := s.dec.PeekKind(); k != '{' {
			return s.failAt(path, fmt.Errorf("want a Code Quality issue (an object), got %s", kindName(k)))
		}
		var is ccIssue
		bad := s.typeErrs
		if err := s.ccIssue(&is); err != nil {
			return s.fail(path, err)
		}
		if s.typeErrs > bad { // a field of the wrong kind: the issue is left out, counted (see typeError)
			s.skipped++
			continue
		}
		if is.typ != "" && !strings.EqualFold(is.typ, "issue") {
			continue
		}
		f := is.finding(s)
		s.listTool(f.Tool, "") // a report of several tools names them all, as a SARIF log of several runs
		var partial map[string]string
		if fp, ok := is.recapFingerprint(); ok {
			partial = map[string]string{reports.SARIFFingerprintKey: fp} // kept as it is, as recap's SARIF's
		} else if is.fingerprint != "" {
			partial = map[string]string{"codeclimate": is.fingerprint}
		}
		if err := emit(f, partial); err != nil {
			return errEmit{err}
		}
		in.Findings++
	}
	if _, err := s.dec.ReadToken(); err != nil {
		return s.fail("$", err)
	}
	if k := s.dec.PeekKind(); k != 0 {
		return s.failAt("$", fmt.Errorf("more JSON after the array of issues"))
	}
	if _, err := s.dec.ReadToken(); err != io.EOF {
		return s.fail("$", err)
	}
	return nil
}

// failAt is an error at the next value, which the decoder has not read.
func (s *sarifStream) failAt(path string, err error) error {
	line, col, off := s.position(s.valueOffset())
	return &ParseError{Input: s.opts.Name, Path: path, Line: line, Column: col, Offset: off, Err: err}
}

// ccIssue reads one issue object.
func (s *sarifStream) ccIssue(is *ccIssue) error {
	return s.object(ccIssueMembers, func(name string) error {
		switch name {
		case "type":
			return s.istr(&is.typ)
		case "check_name":
			return s.istr(&is.check)
		case "description":
			return s.str(&is.description)
		case "severity":
			return s.istr(&is.severity)
		case "fingerprint":
			return s.istr(&is.fingerprint)
		case "engine_name":
			return s.istr(&is.engine)
		case "categories":
			return s.array(func() error {
				var c string
				if err := s.istr(&c); err != nil {
					return err
				}
				if is.category == "" {
					is.category = c
				}
				return nil
			})
		case "location":
			return s.object(ccLocationMembers, func(name string) error {
				switch name {
				case "path":
					return s.istr(&is.path)
				case "lines":
					return s.object(ccLinesMembers, func(name string) error {
						switch name {
						case "begin":
							return s.int(&is.line)
						case "end":
							return s.int(&is.endLine)
						}
						return s.dec.SkipValue()
					})
				case "positions":
					return s.object(ccLinesMembers, func(name string) error {
						var line, col int
						switch name {
						case "begin", "end":
						default:
							return s.dec.SkipValue()
						}
						err := s.object(ccPositionMembers, func(m string) error {
							switch m {
							case "line":
								return s.int(&line)
							case "column":
								return s.int(&col)
							}
							return s.dec.SkipValue()
						})
						if name == "begin" && is.line == 0 {
							is.line, is.column = line, col
						} else if name == "end" && is.endLine == 0 {
							is.endLine = line
						}
						return err
					})
				}
				return s.dec.SkipValue()
			})
		}
		return s.dec.SkipValue()
	})
}

// finding is the issue as a finding.
func (is *ccIssue) finding(s *sarifStream) reports.Finding {
	tool := is.engine
	if tool == "" {
		tool = codeClimateTool
		if is.eslintFormatted() {
			tool = "ESLint"
		}
	}
	rule := is.check
	if is.engine != "" && strings.HasPrefix(rule, is.engine+"/") {
		rule = rule[len(is.engine)+1:]
	}
	msg := stripJoiners(is.description)
	if strings.TrimSpace(msg) == "" {
		msg = rule // a finding always has a message
		if msg == "" {
			msg = "(no description)"
		}
	}
	f := reports.Finding{Tool: tool, Rule: rule, Category: reports.Categorize(tool, is.category), ToolCategory: is.category, Severity: codeClimateSeverity(is.severity),
		Message: msg, Path: s.placer.place(is.path), Line: max(is.line, 0), Column: max(is.column, 0)}
	if is.endLine >= f.Line {
		f.EndLine = is.endLine
	}
	f.Quality, f.Impact = reports.Assess(&reports.Signals{Tool: f.Tool, Rule: f.Rule, Category: f.Category, ToolCategory: f.ToolCategory,
		Level: f.Severity, ClimateSeverity: is.severity})
	return f
}

// recapFingerprint is the finding's own fingerprint, "identity:n", when
// the issue is as recap's Code Quality report writes it: an engine_name,
// a check_name "engine/rule" and a fingerprint of
// [reports.CodeQualityFingerprint]'s form. Read back, recap's report has
// its findings' fingerprints, and is a baseline of the reports it was
// made of.
func (is *ccIssue) recapFingerprint() (string, bool) {
	if is.engine == "" || !strings.HasPrefix(is.check, is.engine+"/") {
		return "", false
	}
	return reports.ParseCodeQualityFingerprint(is.fingerprint)
}

// eslintFormatted reports whether an issue that names no engine is as
// ESLint's Code Climate formatter writes it (eslint-formatter-codeclimate,
// which eslint-formatter-gitlab uses): its fingerprint is the SHA-256 of
// its path, rule and message, in hex, or of them repeated (the formatter
// hashes them once more for each earlier issue of the same three).
func (is *ccIssue) eslintFormatted() bool {
	if is.engine != "" || len(is.fingerprint) != 2*sha256.Size {
		return false
	}
	var want [sha256.Size]byte
	if _, err := hex.Decode(want[:], []byte(is.fingerprint)); err != nil {
		return false
	}
	h := sha256.New()
	var sum [sha256.Size]byte
	for range 8 {
		h.Write([]byte(is.path))
		h.Write([]byte(is.check))
		h.Write([]byte(is.description))
		if [sha256.Size]byte(h.Sum(sum[:0])) == want {
			return true
		}
	}
	return false
}

// codeClimateSeverity maps Code Climate's severities onto recap's: info and
// minor are note, critical and blocker error, major (and anything else)
// warning. It reverses recap's output mapping (note minor, warning major,
// error critical).
func codeClimateSeverity(s string) reports.Severity {
	switch strings.ToLower(s) {
	case "info", "minor":
		return reports.SeverityNote
	case "critical", "blocker":
		return reports.SeverityError
	}
	return reports.SeverityWarning
}

// zwj is the zero-width joiner recap's GitLab output (render.GitLabText)
// puts after a reference sigil (@#!&%~$^), a <, a ] or "www", and before
// "://", so that GitLab makes no mention, reference, tag or link of report
// text.
const zwj = "\u200d"

// stripJoiners takes those joiners out again; the joiners of emoji
// sequences follow pictographs, not these characters, and stay.
func stripJoiners(s string) string {
	if !strings.Contains(s, zwj) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if i > 0 && strings.HasPrefix(s[i:], zwj) &&
			(strings.IndexByte("@#!&%~$^<]wW", s[i-1]) >= 0 || strings.HasPrefix(s[i+len(zwj):], "://")) {
			i += len(zwj)
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}
