package render

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/klauspost/compress/flate"

	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// The page's script and styles, embedded whole: the page loads nothing.
var (
	//go:embed html/report.js
	htmlScript string
	//go:embed html/report.css
	htmlStyle string
)

// htmlCSP is the page's Content-Security-Policy: nothing may be loaded,
// and the one script and the one style sheet run by their hashes, so that
// nothing a report holds can run even if it reached the page as markup.
var htmlCSP = "default-src 'none'; script-src '" + cspHash(htmlScript) + "'; style-src '" + cspHash(htmlStyle) +
	"'; img-src data:; base-uri 'none'; form-action 'none'"

func cspHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// DefaultCompressOver is the size of the findings' data, in bytes, past
// which the page holds them deflated (base64 in the page, inflated by the
// browser's DecompressionStream): a report of a few thousand findings
// stays readable as it is.
const DefaultCompressOver = 1 << 20

// HTML writes the findings view as one self-contained HTML page: the
// summary, charts drawn by the page itself in SVG, and every finding that
// passed the filters, with its code context, its rule's text, its fix, its
// flows and the other tools that report its problem, in a list the reader
// filters and searches. Styles, script and data are inside the page; it
// makes no request and runs under a strict Content-Security-Policy. Report
// text is only ever data (JSON with <, >, &, U+2028 and U+2029 escaped),
// which the script puts into the page as text, never as markup.
//
// HTML is a [Streamer]: the findings are encoded as they stream by into a
// spill on disk, and [HTMLStream.Write] copies them into the page.
type HTML struct {
	// Version is recap's version, shown in the page's footer.
	Version string
	// CompressOver is the size of the findings' data past which it is
	// deflated (0: DefaultCompressOver; negative: always).
	CompressOver int
	// Source gives the code around each finding and the lines its fix
	// changes; nil: none (the report's snippet, when it has one).
	Source summarize.Source
	// Stale, when set, says of a finding whose code Source gave why those
	// lines may not be the code its report describes (its file changed
	// after the report was written), "" when nothing says so: the page
	// says it by the code.
	Stale func(f *reports.Finding) string
	// History is the earlier runs the page draws the trend of, oldest
	// first (recap's JSON summaries, --history); the view is the last.
	History []HistoryRun
	// MaxStrings bounds the strings of the page's table (0: 1<<17); past
	// it, a row holds its strings itself.
	MaxStrings int
	// Review makes the page the review of a change (recap review): its
	// headline names the change; nil: a report of the whole findings.
	Review *ReviewOf
}

// ReviewOf is the change a review's page is of.
type ReviewOf struct {
	// Base and Head are the revisions compared, as given; Diff the diff
	// file when the change came as one ("-": standard input).
	Base string `json:"base,omitempty"`
	Head string `json:"head,omitempty"`
	Diff string `json:"diff,omitempty"`
	// Files counts the files the change touches; Outside the findings
	// that passed the filters on lines it did not change, NotInHead those
	// on lines only the merge commit has.
	Files     int `json:"files"`
	Outside   int `json:"outside"`
	NotInHead int `json:"notInHead,omitempty"`
	// Whole says that no change was given: every finding of the reports.
	Whole bool `json:"whole,omitempty"`
}

// SetReview makes the page the review of a change (see [HTML.Review]),
// once the query has run.
func (s *HTMLStream) SetReview(r *ReviewOf) { s.opts.Review = r }

// Render writes v, with the findings of its page.
func (h HTML) Render(w io.Writer, v *summarize.View) error {
	st := h.newStream()
	defer st.Close()
	for i := range v.Findings {
		fv := v.Findings[i]
		if err := st.add(&fv); err != nil {
			return err
		}
	}
	return st.Write(w, v)
}

// ShowsFingerprints says that the page shows no finding's fingerprint: a
// reader without a baseline need not make them.
func (HTML) ShowsFingerprints() bool { return false }

// HistoryRun is an earlier run of a trend: its name (its summary's file
// name), its counts, and its problems by impact ("high": 3).
type HistoryRun struct {
	Label    string         `json:"label"`
	Problems int            `json:"problems"`
	Findings int            `json:"findings"`
	ByImpact map[string]int `json:"byImpact"`
}

// NewStream implements [Streamer].
func (h HTML) NewStream() Stream { return h.newStream() }

func (h HTML) newStream() *HTMLStream {
	s := &HTMLStream{opts: h, strs: map[string]int{"": 0}, list: []string{""}, rules: map[ruleRef]bool{}}
	if h.Source != nil {
		s.known = &knownMissing{src: h.Source, missing: map[string]error{}, notes: map[string]string{}}
		s.src = s.known
	}
	return s
}

// HTMLStream is the stream of an [HTML] page.
type HTMLStream struct {
	opts  HTML
	src   summarize.Source
	known *knownMissing  // src, when there is one
	strs  map[string]int // the string table: tools, rules, categories, paths, notes, messages (see ref)
	list  []string       // the table in order; "" first
	bytes int            // the bytes of the strings in the table
	rules map[ruleRef]bool
	order []ruleRef
	last  ruleRef // the rule of the last finding, in rules or past their bound
	// refs are the last string of each of a row's names and its index in
	// the table (tool, rule, rule name, category, path, message, and the
	// detail's context note, tool's category and help link): a report
	// lists a file's findings together, a tool's, often a rule's.
	refs  lastRefs
	spill *spill
	marks fileMarks // the findings' lines of each file, for the file view (with src)
	n     int
	buf   []byte
	err   error
	// early: the rows are taken before their problems are known (SetEarly),
	// each in the spill with what Settle needs (see earlyRow); the
	// rules they name, by index.
	early        bool
	earlyRules   map[ruleRef]int
	earlyOrder   []ruleRef
	ruleMessages []ruleMessage // by the index of the rule in earlyOrder
	lastRule     struct {
		ref ruleRef
		i   int // its index in earlyOrder plus 1; 0: past MaxRules
	}
	hdr, size []byte // an early row's header, and its length
	// Where the last row (appendRow) holds its state against the baseline,
	// its detail, where the detail takes the other findings of its
	// problem, and its decision.
	baseAt, detailAt, alAt, triageAt int

	// changed are the files that changed after their findings' reports
	// were written (opts.Stale), for the file view.
	changed map[string]bool
}

type ruleRef struct{ tool, rule string }

// lastRefs are the last string of each field a row names by the table
// (see HTMLStream.refs), by slot.
type lastRefs [9]struct {
	s  string
	i  int
	ok bool
}

// The slots of the detail's strings in lastRefs.
const (
	refNote = 6 + iota
	refToolCategory
	refHelp
)

// knownMissing is a Source that remembers the files it could not read,
// so that a report of 700,000 findings on files not at hand tries each
// file once.
type knownMissing struct {
	src     summarize.Source
	missing map[string]error
	notes   map[string]string // the context note of a finding of each missing file
	// The last path whose note was found: a report lists a file's
	// findings together.
	lastPath, lastNote string
}

// maxMissing bounds the files knownMissing remembers.
const maxMissing = 1 << 14

func (k *knownMissing) Lines(p string, from, to int) ([]string, error) {
	if err, ok := k.missing[p]; ok {
		return nil, err
	}
	lines, err := k.src.Lines(p, from, to)
	if err != nil && len(k.missing) < maxMissing {
		k.missing[p] = err
	}
	return lines, err
}

// addContext adds the code around fv's line as [summarize.AddContext]
// does; the note of a finding of a file known to be missing, which has no
// snippet, is made once a file.
func (k *knownMissing) addContext(fv *summarize.FindingView) {
	if fv.Line > 0 && fv.Snippet == "" {
		if k.lastNote != "" && fv.Path == k.lastPath {
			fv.ContextNote = k.lastNote
			return
		}
		if note, ok := k.notes[fv.Path]; ok {
			fv.ContextNote = note
			k.lastPath, k.lastNote = fv.Path, note
			return
		}
	}
	summarize.AddContext(fv, k)
	if fv.Line > 0 && fv.Snippet == "" && len(fv.Context) == 0 && len(k.notes) < maxMissing {
		if _, missing := k.missing[fv.Path]; missing {
			k.notes[fv.Path] = fv.ContextNote
		}
	}
}

// noSource is the Source of a page made without one.
type noSource struct{}

func (noSource) Lines(string, int, int) ([]string, error) {
	return nil, errors.New("the source is not at hand")
}

// Add implements [Stream].
func (s *HTMLStream) Add(f *reports.Finding) error { return s.AddState(f, f.Baseline) }

// AddState is Add of f in the given state against the baseline (f's own
// is not read), which spares the caller a copy of f to set it.
func (s *HTMLStream) AddState(f *reports.Finding, baseline string) error {
	fv := summarize.FindingView{Finding: *f}
	fv.Baseline = baseline
	if s.known != nil {
		s.known.addContext(&fv)
		if s.opts.Stale != nil && len(fv.Context) > 0 && fv.ContextNote == "" {
			if why := s.opts.Stale(f); why != "" {
				fv.ContextNote = summarize.EditedSinceNote(why)
				if s.changed == nil {
					s.changed = map[string]bool{}
				}
				if len(s.changed) < maxViewFiles {
					s.changed[f.Path] = true // the file view says it too
				}
			}
		}
	}
	if f.Detail != nil {
		fv.AlsoReportedBy = f.Detail.Also
	}
	return s.add(&fv)
}

// baselineCode is a state against a baseline as the page's data numbers
// it: new 1, unchanged 2, fixed 3, else 0.
func baselineCode(state string) int {
	switch state {
	case reports.BaselineNew:
		return 1
	case reports.BaselineUnchanged:
		return 2
	case reports.BaselineFixed:
		return 3
	}
	return 0
}

// add encodes one finding as a row of the page's data: [id, tool, rule,
// rule name, category, path, line, column, end line, quality, impact,
// severity, baseline, message, detail, triage], the names as indexes into
// the string table, the detail an object or 0, the triage decision 0 or
// [state, reason, by, date, until, link, expired (0 or 1), via].
func (s *HTMLStream) add(fv *summarize.FindingView) error {
	if s.err != nil {
		return s.err
	}
	if len(fv.Context) == 0 && fv.ContextNote == "" {
		// The report's snippet, when the source is not at hand.
		summarize.AddContext(fv, noSource{})
	}
	if s.spill == nil {
		s.spill = newSpill()
	}
	f := &fv.Finding
	if s.early {
		return s.addEarly(fv)
	}
	if s.src != nil {
		s.marks.mark(f.Path, f.Line, f.EndLine)
	}
	s.rule(ruleRef{f.Tool, f.Rule})
	b := s.buf[:0]
	if s.n > 0 {
		b = append(b, ",\n"...)
	}
	b = s.appendRow(b, fv)
	s.buf = b
	s.n++
	_, s.err = s.spill.bw.Write(b)
	s.spill.size += int64(len(b))
	return s.err
}

// rule notes the rule of a row, for the page's rules' texts.
func (s *HTMLStream) rule(ref ruleRef) {
	if ref != s.last || len(s.order) == 0 {
		s.last = ref
		if !s.rules[ref] && len(s.rules) < reports.MaxRules {
			s.rules[ref] = true
			s.order = append(s.order, ref)
		}
	}
}

// appendRow appends fv's row; s.alAt is then where its detail takes the
// other findings of its problem.
func (s *HTMLStream) appendRow(b []byte, fv *summarize.FindingView) []byte {
	f := &fv.Finding
	b = append(b, '[')
	b = append(f.ID.Append(append(b, '"')), '"') // tag-n: nothing to escape
	for i, name := range [...]string{f.Tool, f.Rule, f.RuleName, f.Category, f.Path} {
		b = append(b, ',')
		b = s.refAt(b, i, name)
	}
	for _, n := range [...]int{f.Line, f.Column, f.EndLine, int(f.Quality), int(f.Impact), int(f.Severity)} {
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(n), 10)
	}
	b = append(b, ',')
	s.baseAt = len(b)
	b = strconv.AppendInt(b, int64(baselineCode(f.Baseline)), 10)
	b = append(b, ',')
	b = s.message(b, f.Message)
	b = append(b, ',')
	s.detailAt = len(b)
	b = s.appendDetail(b, fv)
	b = append(b, ',')
	s.triageAt = len(b)
	b = s.triage(b, f.Triage)
	return append(b, ']')
}

// triage appends a finding's decision as a row holds it.
func (s *HTMLStream) triage(b []byte, t *reports.Triage) []byte {
	if t == nil || t.State == "" {
		return append(b, '0')
	}
	b = append(b, '[')
	b = s.ref(b, t.State)
	b = append(b, ',')
	b = s.ref(b, t.Reason)
	for _, v := range [...]string{t.By, t.Date, t.Until, t.Link} {
		b = append(b, ',')
		b = appendJSONString(b, v)
	}
	if t.Expired {
		b = append(b, ",1,"...)
	} else {
		b = append(b, ",0,"...)
	}
	b = append(t.Via.Append(append(b, '"')), '"') // tag-n: nothing to escape
	if t.Overrules != "" || len(t.OverrulesOthers) > 0 {
		b = append(b, ',')
		b = s.ref(b, t.Overrules)
	}
	if len(t.OverrulesOthers) > 0 {
		// The decisions a confirmation overrules on the problem's other
		// findings: [tool, short rule, state] each, written whole.
		b = append(b, ",["...)
		for i, o := range t.OverrulesOthers {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(append(b, '['), o.Tool)
			b = appendJSONString(append(b, ','), reports.ShortRule(o.Tool, o.Rule))
			b = append(appendJSONString(append(b, ','), o.State), ']')
		}
		b = append(b, ']')
	}
	return append(b, ']')
}

// Bounds of the string table: the names and messages of a report repeat
// (a few thousand files, a rule's few wordings), and the table writes each
// once; past the bounds (a report of millions of distinct files), a string
// is written where it is used.
const (
	maxStrings     = 1 << 17
	maxStringBytes = 16 << 20
)

// ref appends a string as a row holds it: its index in the string table,
// added within the bounds, else the string itself.
func (s *HTMLStream) ref(b []byte, str string) []byte {
	if i, ok := s.index(str); ok {
		return s.appendIndex(b, i)
	}
	return appendJSONString(b, str)
}

// appendIndex appends the index of a string of the table: in decimal, or,
// in a row taken early, as refMark and a uvarint, which Settle numbers
// again as the rows it keeps use the strings.
func (s *HTMLStream) appendIndex(b []byte, i int) []byte {
	if s.early {
		return binary.AppendUvarint(append(b, refMark), uint64(i))
	}
	return strconv.AppendInt(b, int64(i), 10)
}

// refAt is ref of the string of slot i of a row (see refs); a detail's
// strings are never "", and written as a row's.
func (s *HTMLStream) refAt(b []byte, i int, str string) []byte {
	r := &s.refs[i]
	if !r.ok || r.s != str {
		idx, ok := s.index(str)
		if !ok {
			return appendJSONString(b, str)
		}
		r.s, r.i, r.ok = str, idx, true
	}
	return s.appendIndex(b, r.i)
}

func (s *HTMLStream) index(str string) (int, bool) {
	if i, ok := s.strs[str]; ok {
		return i, true
	}
	limit := s.opts.MaxStrings
	if limit <= 0 {
		limit = maxStrings
	}
	if len(s.list) >= limit || s.bytes+len(str) > maxStringBytes {
		return 0, false
	}
	i := len(s.list)
	s.strs[str] = i
	s.list = append(s.list, str)
	s.bytes += len(str)
	return i, true
}

// appendDetail appends what the page shows of a finding when it is
// opened, beyond its row: an object of the members below (those with
// nothing left out), or 0 when it has none. The object is what
// encoding/json wrote of htmlDetail (TestHTMLDetailAsJSON), its strings
// with <, >, &, U+2028 and U+2029 escaped:
//
//	c   the code around the line: [[line, text], …]
//	cn  the context's note (a string of the table, see refValue)
//	tc  the tool's category when it is not recap's (refValue)
//	h   the rule's help link (refValue)
//	cwe the CWE ids
//	fx  the fix as a diff; fd its description; fn notes on the diff
//	fl  the flows: [{m: message, s: [[path, line, message], …]}, …]
//	rl  related locations, lo further locations: [[path, line, message], …]
//	lg  the logical locations' names
//	al  the other findings of its problem: [[tool, rule, id], …]
//	sp  its suppressions, in words
//	n   what the report gave beyond what the detail keeps: {fs: flow steps, rl: related}
func (s *HTMLStream) appendDetail(b []byte, fv *summarize.FindingView) []byte {
	o := jsonObject{b: append(b, '{'), start: len(b)}
	// A detail of nothing but an empty list of CWE ids or of notes is {},
	// as encoding/json wrote it.
	empty := fv.CWE != nil
	s.detailFinding(&o, fv)
	if det := fv.Detail; det != nil {
		empty = s.detailFix(&o, det.Fix) || empty
		detailPlaces(&o, det)
	}
	s.alAt = len(o.b)
	if len(fv.AlsoReportedBy) > 0 {
		o.key("al")
		o.b = appendOthers(o.b, fv.AlsoReportedBy)
	}
	if det := fv.Detail; det != nil {
		detailCounts(&o, &fv.Finding, det)
	}
	if len(o.b) == o.start+1 && !empty {
		return append(o.b[:o.start], '0')
	}
	return append(o.b, '}')
}

// appendOthers appends the other findings of a problem: [[tool, rule, id], …].
func appendOthers(b []byte, also []reports.Also) []byte {
	b = append(b, '[')
	for i, a := range also {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendStrings(b, a.Tool, a.Rule, a.ID.String())
	}
	return append(b, ']')
}

// jsonObject is a JSON object being appended: b, from its { at start.
type jsonObject struct {
	b     []byte
	start int
}

// key appends a member's name, after a comma when it is not the first.
func (o *jsonObject) key(k string) {
	if len(o.b) > o.start+1 {
		o.b = append(o.b, ',')
	}
	o.b = append(o.b, '"')
	o.b = append(o.b, k...)
	o.b = append(o.b, '"', ':')
}

// detailFinding appends the detail's members of the finding itself: its
// code, the note on it, its tool's category, its help link, its CWE ids.
func (s *HTMLStream) detailFinding(o *jsonObject, fv *summarize.FindingView) {
	f := &fv.Finding
	if len(fv.Context) > 0 {
		o.key("c")
		o.b = append(o.b, '[')
		for i, c := range fv.Context {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			o.b = append(o.b, '[')
			o.b = appendJSONInt(o.b, int64(c.Line))
			o.b = append(o.b, ',')
			o.b = appendJSONText(o.b, c.Text, escMarshal)
			o.b = append(o.b, ']')
		}
		o.b = append(o.b, ']')
	}
	if note := fv.ContextNote; note != "" && !(s.src == nil && strings.HasPrefix(note, "no context: ")) { // else the page says the source was not at hand
		o.key("cn")
		o.b = s.refAt(o.b, refNote, note)
	}
	if f.ToolCategory != "" && f.ToolCategory != f.Category {
		o.key("tc")
		o.b = s.refAt(o.b, refToolCategory, f.ToolCategory)
	}
	if f.HelpURI != "" {
		o.key("h")
		o.b = s.refAt(o.b, refHelp, f.HelpURI)
	}
	if len(f.CWE) > 0 {
		o.key("cwe")
		o.b = append(o.b, '[')
		for i, id := range f.CWE {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			o.b = appendJSONInt(o.b, int64(id))
		}
		o.b = append(o.b, ']')
	}
}

// detailFix appends a fix: as a diff, its description, notes on the
// diff; empty says that its notes are an empty list.
func (s *HTMLStream) detailFix(o *jsonObject, x *reports.Fix) (empty bool) {
	if x == nil {
		return false
	}
	var diff string
	var notes []string
	if len(x.Replacements) > 0 {
		src := s.src
		if src == nil {
			src = noSource{}
		}
		diff, notes = summarize.FixDiff(x, src)
	}
	if diff != "" {
		o.key("fx")
		o.b = appendJSONText(o.b, diff, escMarshal)
	}
	if x.Description != "" {
		o.key("fd")
		o.b = appendJSONText(o.b, x.Description, escMarshal)
	}
	if len(notes) > 0 {
		o.key("fn")
		o.b = appendStrings(o.b, notes...)
	}
	return notes != nil && len(notes) == 0
}

// detailPlaces appends the flows, the related and further locations and
// the logical locations' names.
func detailPlaces(o *jsonObject, det *reports.Detail) {
	if len(det.Flows) > 0 {
		o.key("fl")
		o.b = append(o.b, '[')
		for i := range det.Flows {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			o.b = append(o.b, '{')
			if m := det.Flows[i].Message; m != "" {
				o.b = append(o.b, `"m":`...)
				o.b = appendJSONText(o.b, m, escMarshal)
				o.b = append(o.b, ',')
			}
			o.b = append(o.b, `"s":`...)
			o.b = appendPlaces(o.b, det.Flows[i].Steps)
			o.b = append(o.b, '}')
		}
		o.b = append(o.b, ']')
	}
	if len(det.Related) > 0 {
		o.key("rl")
		o.b = appendPlaces(o.b, det.Related)
	}
	if len(det.Locations) > 0 {
		o.key("lo")
		o.b = appendPlaces(o.b, det.Locations)
	}
	n := 0
	for _, l := range det.Logical {
		name := l.FullyQualifiedName
		if name == "" {
			name = l.Name
		}
		if name == "" {
			continue
		}
		if n++; n == 1 {
			o.key("lg")
			o.b = append(o.b, '[')
		} else {
			o.b = append(o.b, ',')
		}
		o.b = appendJSONText(o.b, name, escMarshal)
	}
	if n > 0 {
		o.b = append(o.b, ']')
	}
}

// detailCounts appends the suppressions, in words, and what the report
// gave beyond what the detail keeps.
func detailCounts(o *jsonObject, f *reports.Finding, det *reports.Detail) {
	if len(det.Suppressions) > 0 {
		o.key("sp")
		o.b = append(o.b, '[')
		for i, sp := range det.Suppressions {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			o.b = appendJSONText(o.b, strings.TrimSpace(sp.Kind+" "+sp.Status+" "+sp.Justification), escMarshal)
		}
		o.b = append(o.b, ']')
	}
	if int(f.FlowSteps) > det.FlowSteps() || int(f.Related) > len(det.Related) {
		o.key("n")
		o.b = append(o.b, '{')
		if f.FlowSteps != 0 {
			o.b = append(o.b, `"fs":`...)
			o.b = appendJSONInt(o.b, int64(f.FlowSteps))
		}
		if f.Related != 0 {
			if f.FlowSteps != 0 {
				o.b = append(o.b, ',')
			}
			o.b = append(o.b, `"rl":`...)
			o.b = appendJSONInt(o.b, int64(f.Related))
		}
		o.b = append(o.b, '}')
	}
}

// appendStrings appends a JSON array of strings.
func appendStrings(b []byte, ss ...string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONText(b, s, escMarshal)
	}
	return append(b, ']')
}

// appendPlaces appends places as [[path, line, message], …].
func appendPlaces(b []byte, ls []reports.Location) []byte {
	b = append(b, '[')
	for i := range ls {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = appendJSONText(b, ls[i].Path, escMarshal)
		b = append(b, ',')
		b = appendJSONInt(b, int64(ls[i].Line))
		b = append(b, ',')
		b = appendJSONText(b, ls[i].Message, escMarshal)
		b = append(b, ']')
	}
	return append(b, ']')
}

// appendJSONString appends s as a JSON string that is safe inside an HTML
// script element: <, > and & escaped (no </script>, no <!--), and U+2028
// and U+2029 too; invalid UTF-8 becomes U+FFFD (encoding/json's Marshal
// escaping, appendJSONText).
func appendJSONString(b []byte, s string) []byte { return appendJSONText(b, s, escMarshal) }

// htmlMeta is the page's small data, read before the findings: the view's
// summary and inputs, the string table, the rules' texts, the names of
// the scales.
type htmlMeta struct {
	Version string             `json:"version,omitempty"`
	Summary *summarize.Summary `json:"summary"`
	Inputs  []htmlInput        `json:"inputs"`
	Rows    int                `json:"rows"`
	Page    *summarize.Page    `json:"page,omitempty"`
	Rules   []htmlRule         `json:"rules"`
	Tools   map[string]string  `json:"tools,omitempty"`
	History []HistoryRun       `json:"history,omitempty"`
	Review  *ReviewOf          `json:"review,omitempty"`
	Scales  htmlScales         `json:"scales"`
}

type htmlInput struct {
	Path     string   `json:"path"`
	Format   string   `json:"format,omitempty"`
	Tool     string   `json:"tool,omitempty"`
	Findings int      `json:"findings"`
	Error    string   `json:"error,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	LeftOut  bool     `json:"leftOut,omitempty"` // recap's own output, listed, not read
}

// htmlRule is [tool, rule id, short description, full description, help,
// help link, tags].
type htmlRule [7]any

type htmlScales struct {
	Impact   []string `json:"impact"`
	Quality  []string `json:"quality"`
	Severity []string `json:"severity"`
}

func scaleNames() htmlScales {
	var sc htmlScales
	sc.Impact = make([]string, int(reports.ImpactBlocker)+1)
	for _, i := range reports.Impacts {
		sc.Impact[i] = i.String()
	}
	sc.Quality = make([]string, int(reports.QualitySecurity)+1)
	for _, q := range reports.Qualities {
		sc.Quality[q] = q.String()
	}
	sc.Severity = make([]string, int(reports.SeverityError)+1)
	for _, s := range reports.Severities {
		sc.Severity[s] = s.String()
	}
	return sc
}

// meta is the page's small data of view v.
func (s *HTMLStream) meta(v *summarize.View) *htmlMeta {
	meta := htmlMeta{Version: s.opts.Version, Summary: &v.Summary, Rows: s.n, Page: v.Page, Scales: scaleNames(), History: s.opts.History,
		Review: s.opts.Review}
	if s.opts.Review != nil {
		meta.Page = nil // the review's own page of the findings: the rows are every one it keeps
	}
	meta.Inputs = make([]htmlInput, len(v.Inputs))
	for i, in := range v.Inputs {
		meta.Inputs[i] = htmlInput{Path: in.Path, Format: string(in.Format), Tool: in.Tool, Findings: in.Findings, Error: in.Error, Warnings: in.Warnings, LeftOut: in.LeftOut}
	}
	meta.Rules = []htmlRule{}
	for _, ref := range s.order {
		f := reports.Finding{Tool: ref.tool, Rule: ref.rule}
		r := reports.RuleOf(v.Inputs, &f)
		if r == nil || r.Short == "" && r.Full == "" && r.Help == "" && r.HelpURI == "" {
			continue
		}
		meta.Rules = append(meta.Rules, htmlRule{ref.tool, ref.rule, r.Short, r.Full, r.Help, r.HelpURI, r.Tags})
	}
	for tool := range v.Summary.ByTool {
		if u := reports.ToolURIOf(v.Inputs, tool); u != "" {
			if meta.Tools == nil {
				meta.Tools = map[string]string{}
			}
			meta.Tools[tool] = u
		}
	}
	return &meta
}

// Write implements [Stream]: the page, the view's summary and inputs, and
// the findings added.
func (s *HTMLStream) Write(w io.Writer, v *summarize.View) error {
	if s.err != nil {
		return s.err
	}
	if s.early {
		return errors.New("html: the rows taken early were not settled")
	}
	mj, err := json.Marshal(s.meta(v))
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	title := "recap report"
	if s.opts.Review != nil {
		title = "recap review"
	}
	fmt.Fprintf(bw, htmlHead, htmlCSP, title, htmlStyle)
	bw.WriteString(htmlBody)
	bw.WriteString(`<script type="application/json" id="recap-meta">`)
	bw.Write(mj)
	bw.WriteString("</script>\n")
	// The data: {"s": the string table, "r": the rows, "f": the file
	// view's files}, as it is or deflated.
	var rows int64
	if s.spill != nil {
		rows = s.spill.size
	}
	var files []byte // the file view's data
	if s.src != nil && len(s.marks.order) > 0 {
		files = s.appendFiles(nil)
	}
	size := int64(s.bytes) + 3*int64(len(s.list)) + rows + int64(len(files)) + 16 // about: the strings escaped, quoted and separated
	writeData := func(w io.Writer) error {
		io.WriteString(w, `{"s":[`)
		var b []byte
		for i, str := range s.list {
			b = b[:0]
			if i > 0 {
				b = append(b, ",\n"...) // short lines: a guard of workflow commands holds a line
			}
			if _, err := w.Write(appendJSONString(b, str)); err != nil {
				return err
			}
		}
		io.WriteString(w, "],\n\"r\":[\n")
		if s.spill != nil {
			if err := s.spill.copyTo(w, false, 0); err != nil {
				return err
			}
		}
		if files != nil {
			io.WriteString(w, "\n],\n\"f\":")
			_, err := w.Write(files)
			if err != nil {
				return err
			}
			_, err = io.WriteString(w, "}")
			return err
		}
		_, err := io.WriteString(w, "\n]}")
		return err
	}
	limit := int64(s.opts.CompressOver)
	if limit == 0 {
		limit = DefaultCompressOver
	}
	if size <= limit {
		bw.WriteString(`<script type="application/json" id="recap-findings">`)
		if err := writeData(bw); err != nil {
			return err
		}
		bw.WriteString("</script>\n")
	} else {
		fmt.Fprintf(bw, `<script type="application/octet-stream" id="recap-findings-deflate" data-bytes="%d">`, size)
		enc := base64.NewEncoder(base64.StdEncoding, &lineWrap{w: bw, width: 16 << 10})
		zw, err := flate.NewWriter(enc, flate.BestSpeed)
		if err != nil {
			return err
		}
		if err := writeData(zw); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		if err := enc.Close(); err != nil {
			return err
		}
		bw.WriteString("</script>\n")
	}
	bw.WriteString("<script>")
	bw.WriteString(htmlScript)
	bw.WriteString("</script>\n</body>\n</html>\n")
	return bw.Flush()
}

// lineWrap breaks what it writes into lines of width bytes (base64, which
// browsers read across line breaks), so that no line of the page is long:
// a guard of workflow commands on standard output holds a line whole.
type lineWrap struct {
	w     io.Writer
	width int
	col   int
}

func (l *lineWrap) Write(p []byte) (int, error) {
	n := 0
	for len(p) > 0 {
		k := min(len(p), l.width-l.col)
		if _, err := l.w.Write(p[:k]); err != nil {
			return n, err
		}
		n += k
		p = p[k:]
		l.col += k
		if l.col == l.width {
			if _, err := l.w.Write([]byte{'\n'}); err != nil {
				return n, err
			}
			l.col = 0
		}
	}
	return n, nil
}

// Close removes the spill's temporary file.
func (s *HTMLStream) Close() error {
	if s.spill == nil || s.spill.file == nil {
		return nil
	}
	name := s.spill.file.Name()
	err := errors.Join(s.spill.file.Close(), os.Remove(name))
	s.spill.file = nil
	return err
}

const htmlHead = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="%s">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>%s</title>
<style>%s</style>
</head>
`

// htmlBody is the page's frame; the script fills it from the data below
// it. Nothing of a report is in it.
const htmlBody = `<body>
<a class="skip" href="#problems">Skip to the problems</a>
<header>
<h1 id="title">recap report</h1>
<p id="generated" class="muted"></p>
</header>
<main>
<section aria-labelledby="headline-title">
<h2 id="headline-title" class="visually-hidden">Summary</h2>
<dl id="headline" class="headline"></dl>
<p id="notes" class="muted"></p>
</section>
<section aria-labelledby="charts-title">
<h2 id="charts-title">Charts</h2>
<div id="charts" class="charts"></div>
</section>
<section aria-labelledby="problems-title" id="problems">
<h2 id="problems-title">Problems</h2>
<form id="filters" class="filters" role="search" aria-label="Filter the problems"></form>
<p id="status" role="status" aria-live="polite"></p>
<ol id="list" class="list"></ol>
<p><button type="button" id="more" hidden>Show more</button></p>
</section>
<section aria-labelledby="file-title" id="file-view" hidden>
<h2 id="file-title">File</h2>
<form id="file-pick" class="filters" aria-label="Choose a file"></form>
<p id="file-status" class="muted" role="status" aria-live="polite"></p>
<div id="file-body" class="file-body"></div>
</section>
<section aria-labelledby="inputs-title">
<h2 id="inputs-title">Inputs</h2>
<div id="inputs"></div>
</section>
</main>
<footer id="footer" class="muted"></footer>
<noscript><p>This report draws its charts and lists with a script: open it in a browser with scripts enabled.</p></noscript>
`
