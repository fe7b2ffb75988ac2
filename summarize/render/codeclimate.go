package render

import (
	"bufio"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// CodeClimate writes the findings as a GitLab Code Quality report: the JSON
// array of Code Climate issues that GitLab's merge-request widget, its
// pipeline tab and its diff view read (artifacts: reports: codequality:).
// Each issue has the fields GitLab documents:
//   - description: the message, made inert ([GitLabText]: GitLab renders it);
//   - check_name: the tool and the rule as users write it, "PMD/SystemPrintln",
//     "Checkstyle/LineLength" (not Checkstyle's class name);
//   - fingerprint: 32 hex digits, the finding's fingerprint, its
//     occurrence among the findings with that fingerprint in its report (as
//     SARIF's partial fingerprint counts them) and how many issues of the
//     set have those two before it (the same finding in two reports;
//     [reports.CodeQualityFingerprint]), so that every issue has its own —
//     GitLab keeps one issue per fingerprint — and keeps it from run to
//     run, and recap reads its own report back with the findings' own
//     fingerprints (a baseline); a fingerprint of another form is written
//     as the MD5 of it and its occurrence, a finding without one as the MD5
//     of its tool and id;
//   - severity: the finding's impact in Code Climate's words (blocker,
//     critical, major, minor, info), else its severity's ([CodeClimateSeverity]);
//   - location.path, repository-relative, and location.lines.begin (and end).
//
// It also writes type ("issue"), engine_name (the tool) and categories (the
// finding's category in Code Climate's words, see ccCategories), as the
// Code Climate CLI does. GitLab needs a file: a finding without a path is left
// out (counted by [CodeClimateStream.NoPath]); a file-level finding is on
// line 1. As a [Streamer] it writes every finding that passes the filters,
// spilled to a temporary file as they come; Render writes a view's page.
type CodeClimate struct{}

// Code Climate severities (GitLab: info, minor, major, critical, blocker).
const (
	ccInfo     = "info"
	ccMinor    = "minor"
	ccMajor    = "major"
	ccCritical = "critical"
	ccBlocker  = "blocker"
)

// CodeClimateSeverity maps a finding's impact onto Code Climate's
// severities: blocker is blocker, high critical, medium major, low minor,
// info info (docs/formats.md, "Levels on the hosts"); a finding without an
// impact has its severity's: note minor, warning major, error critical.
func CodeClimateSeverity(s reports.Severity, i reports.Impact) string {
	switch i {
	case reports.ImpactBlocker:
		return ccBlocker
	case reports.ImpactHigh:
		return ccCritical
	case reports.ImpactMedium:
		return ccMajor
	case reports.ImpactLow:
		return ccMinor
	case reports.ImpactInfo:
		return ccInfo
	}
	switch s {
	case reports.SeverityError:
		return ccCritical
	case reports.SeverityNote:
		return ccMinor
	}
	return ccMajor
}

// ccCategories are Code Climate's categories of recap's scale (Code
// Climate names seven; recap reads each back as the scale's category it
// came from, but Multithreading as Error Prone and Internationalization as
// Best Practices). Other has none.
var ccCategories = map[string][]string{
	reports.CategoryBestPractices:        {"Compatibility"},
	reports.CategoryCodeStyle:            {"Style"},
	reports.CategoryDesign:               {"Complexity"},
	reports.CategoryDocumentation:        {"Clarity"},
	reports.CategoryErrorProne:           {"Bug Risk"},
	reports.CategoryMultithreading:       {"Bug Risk"},
	reports.CategoryPerformance:          {"Performance"},
	reports.CategorySecurity:             {"Security"},
	reports.CategoryInternationalization: {"Compatibility"},
}

// ccEncoder appends Code Quality issues into a buffer it reuses, as
// encoding/json wrote them, then [EscapeJSON] (TestCodeClimateAsJSON).
type ccEncoder struct {
	buf []byte
	// the last check's name, as a report lists a rule's findings together
	lastTool, lastRule, lastCheck string
}

// issue encodes f as an issue; ok is false when it has no path. The
// bytes are valid until the next call.
func (e *ccEncoder) issue(f *reports.Finding, occ *reports.Occurrences) (b []byte, ok bool) {
	if f.Path == "" {
		return nil, false
	}
	b = append(e.buf[:0], `{"type":"issue","check_name":`...)
	if f.Tool != e.lastTool || f.Rule != e.lastRule || e.lastCheck == "" {
		e.lastTool, e.lastRule = f.Tool, f.Rule
		e.lastCheck = f.Tool + "/" + reports.ShortRule(f.Tool, f.Rule)
	}
	b = str(b, e.lastCheck)
	b = append(b, `,"description":`...)
	b = str(b, ccDescription(f))
	b = append(b, `,"severity":"`...)
	b = append(b, CodeClimateSeverity(f.Severity, f.Impact)...)
	b = append(b, `","fingerprint":"`...)
	b = appendCCFingerprint(b, f, occ)
	b = append(b, `","location":{"path":`...)
	b = str(b, f.Path)
	line := max(f.Line, 1)
	b = append(b, `,"lines":{"begin":`...)
	b = appendJSONInt(b, int64(line))
	if f.EndLine > line {
		b = append(b, `,"end":`...)
		b = appendJSONInt(b, int64(f.EndLine))
	}
	b = append(b, "}}"...)
	if f.Tool != "" {
		b = append(b, `,"engine_name":`...)
		b = str(b, f.Tool)
	}
	if cats := ccCategories[f.Category]; len(cats) > 0 {
		b = append(b, `,"categories":[`...)
		for i, c := range cats {
			if i > 0 {
				b = append(b, ',')
			}
			b = str(b, c)
		}
		b = append(b, ']')
	}
	b = append(b, '}')
	e.buf = b
	return b, true
}

// appendCCFingerprint appends the issue's fingerprint, 32 hex digits:
// identity:occurrence, as SARIF's partial fingerprint writes it, and its
// copy ([reports.CodeQualityFingerprint]); a fingerprint not of recap's
// form: an MD5, unique in the set.
func appendCCFingerprint(b []byte, f *reports.Finding, occ *reports.Occurrences) []byte {
	if fp, copy := occ.Copy(f.Fingerprint); fp != "" {
		if id, n := reports.SplitFingerprint(fp); len(id) == 16 && n <= 1<<31 && copy >= 0 && copy <= 1<<31 && isHex(id) {
			for i := 0; i < len(id); i++ {
				c := id[i]
				if 'A' <= c && c <= 'F' {
					c += 'a' - 'A'
				}
				b = append(b, c)
			}
			b = appendHex8(b, uint32(copy))
			return appendHex8(b, uint32(n))
		}
	}
	id := occ.Value(f.Fingerprint)
	if id == "" {
		id = occ.Value(f.Tool + "\x00" + f.ID.String())
	}
	sum := md5.Sum([]byte(id))
	return hex.AppendEncode(b, sum[:])
}

// isHex says whether s is a number strconv.ParseUint(s, 16, 64) reads, of
// 16 digits at most: hex digits alone, of either case.
func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return s != ""
}

// appendHex8 appends n as 8 lowercase hex digits.
func appendHex8(b []byte, n uint32) []byte {
	for shift := 28; shift >= 0; shift -= 4 {
		b = append(b, lowerHex[n>>uint(shift)&0xf])
	}
	return b
}

// ccDescription is the issue's description: the message, and the other
// findings of its problem when it leads one ("… (also reported by PMD
// MethodArgumentCouldBeFinal)"), made inert.
func ccDescription(f *reports.Finding) string {
	msg := sarifMessage(f)
	if f.Detail != nil && len(f.Detail.Also) > 0 {
		msg += " (" + AlsoReportedBy(f.Detail.Also) + ")"
	}
	if f.Triage != nil {
		msg += " (" + TriageNote(f.Triage) + ")"
	}
	return GitLabText(msg)
}

// Render implements [Renderer]: the findings of the view's page.
func (CodeClimate) Render(w io.Writer, v *summarize.View) error {
	bw := bufio.NewWriter(w)
	occ := &reports.Occurrences{}
	var enc ccEncoder
	n := 0
	bw.WriteString("[")
	for i := range v.Findings {
		b, ok := enc.issue(leadFinding(&v.Findings[i]), occ)
		if !ok || v.Findings[i].Triage.Suppressed() { // triaged: left out
			continue
		}
		bw.WriteString(resultSep(n))
		bw.Write(b)
		n++
	}
	bw.WriteString("\n]\n")
	return bw.Flush()
}

// NewStream implements [Streamer].
func (CodeClimate) NewStream() Stream { return NewCodeClimateStream() }

// CodeClimateStream writes every finding added to it as a Code Quality
// report without holding them: each issue is encoded when it is added, into
// a temporary file (memory when none can be made), and Write wraps them in
// the array. Its memory is a counter per distinct fingerprint.
type CodeClimateStream struct {
	sp  *spill
	occ *reports.Occurrences
	enc ccEncoder
	n   int
	// NoPath counts the findings left out for want of a path.
	NoPath int
	err    error
}

// Warnings implements [Warner]: the findings left out for want of a path.
func (s *CodeClimateStream) Warnings() []string {
	if s.NoPath == 0 {
		return nil
	}
	return []string{fmt.Sprintf("codeclimate: %s without a file left out (a Code Quality issue needs a path)", english.Plural(s.NoPath, "finding", "findings"))}
}

// NewCodeClimateStream returns an empty stream.
func NewCodeClimateStream() *CodeClimateStream {
	return &CodeClimateStream{sp: newSpill(), occ: &reports.Occurrences{}}
}

// Add implements [Stream].
func (s *CodeClimateStream) Add(f *reports.Finding) error {
	if s.err != nil {
		return s.err
	}
	b, ok := s.enc.issue(f, s.occ)
	if f.Triage.Suppressed() { // triaged: left out, its occurrence counted
		return nil
	}
	if !ok {
		s.NoPath++
		return nil
	}
	if _, err := s.sp.bw.WriteString(resultSep(s.n)); err != nil {
		s.err = err
		return err
	}
	_, s.err = s.sp.bw.Write(b)
	s.n++
	return s.err
}

// AddState is Add: an issue of Code Quality has no state against a
// baseline, and a query's findings are added without a copy of each.
func (s *CodeClimateStream) AddState(f *reports.Finding, _ string) error { return s.Add(f) }

// Write implements [Stream]: the array of the issues added.
func (s *CodeClimateStream) Write(w io.Writer, _ *summarize.View) error {
	if s.err != nil {
		return s.err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("[")
	if err := s.sp.copyTo(bw, false, 0); err != nil {
		return err
	}
	bw.WriteString("\n]\n")
	return bw.Flush()
}

// Close implements [Stream]: it removes the temporary file.
func (s *CodeClimateStream) Close() error {
	if s.sp == nil || s.sp.file == nil {
		return nil
	}
	name := s.sp.file.Name()
	err := errors.Join(s.sp.file.Close(), os.Remove(name))
	s.sp.file = nil
	return err
}
