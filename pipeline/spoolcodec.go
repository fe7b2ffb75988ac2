package pipeline

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/recap-dev/recap/reports"
)

// The spool's encoding of a finding (one record): a mask of the fields
// that are set (uvarint), then each set field in the order of the bits
// below. Integers are varints (zigzag for the signed), a float its 8 bytes,
// a slice or pointer set (even empty) its length then its elements. A
// string is a uvarint n: 0 the empty string, odd the entry n/2 of the
// spool's table of strings, even a literal of n/2 bytes, which the table
// takes when it is short (encoder and decoder add the same strings in the
// same order). A fingerprint and a message are always literals. Names
// (tools, rules, paths, ids' tags) and texts (snippets) have a table each.
// An id is its tag and its number.
const (
	fID = 1 << iota
	fFingerprint
	fTool
	fToolVersion
	fRule
	fRuleName
	fCategory
	fToolCategory
	fSeverity
	fQuality
	fImpact
	fPriority
	fMessage
	fPath
	fLine
	fEndLine
	fColumn
	fEndColumn
	fHelpURI
	fSecuritySeverity
	fCWE
	fSnippet
	fSnippetLine
	fFlowSteps
	fRelated
	fFixable
	fRank
	fBaseline
	fTriage
	fDetail
)

// Bounds of a table of strings: the longest string it takes, and how many
// strings and bytes it holds at most (when full, it starts again empty).
const (
	tableString  = 256
	tableEntries = 1 << 15
	tableBytes   = 2 << 20
)

// table is the strings a spool's records share, by index.
type table struct {
	list  []string
	index map[string]uint32 // encoder's
	bytes int
	gen   uint32 // times emptied
}

// takes reports whether the table takes s, a literal.
func (t *table) takes(s string) bool { return t != nil && len(s) <= tableString }

// add adds s, emptying the table first when it is full (at the same string
// for the encoder and the decoder).
func (t *table) add(s string) {
	if len(t.list) >= tableEntries || t.bytes+len(s) > tableBytes {
		t.list, t.bytes = t.list[:0], 0
		t.gen++
		clear(t.index)
	}
	if t.index != nil {
		s = strings.Clone(s) // no reader's buffer kept
		t.index[s] = uint32(len(t.list))
	}
	t.list = append(t.list, s)
	t.bytes += len(s)
}

// encoder encodes findings, one record each. last is each field's
// string of the record before, with its index in its table: a finding's
// tool, rule, category, path and often message are those of the one before,
// found without hashing.
type encoder struct {
	names, texts table
	buf          []byte
	last         [slots]struct {
		s   string
		i   uint32
		gen uint32
	}
}

// The fields whose last string the encoder remembers.
const (
	sTag = iota
	sTool
	sToolVersion
	sRule
	sRuleName
	sCategory
	sToolCategory
	sPath
	sHelpURI
	sBaseline
	slots
	sNone = -1
)

func newEncoder() *encoder {
	return &encoder{names: table{index: map[string]uint32{}}, texts: table{index: map[string]uint32{}}}
}

func (e *encoder) str(t *table, s string) { e.strAt(t, sNone, s) }

// strAt writes s, the string of field slot (sNone: none remembered).
func (e *encoder) strAt(t *table, slot int, s string) {
	if s == "" {
		e.buf = append(e.buf, 0)
		return
	}
	if t != nil {
		if slot != sNone {
			if l := &e.last[slot]; l.gen == t.gen && len(l.s) == len(s) && l.s == s {
				e.buf = binary.AppendUvarint(e.buf, uint64(l.i)<<1|1)
				return
			}
		}
		if i, ok := t.index[s]; ok {
			e.buf = binary.AppendUvarint(e.buf, uint64(i)<<1|1)
			e.remember(t, slot, s, i)
			return
		}
	}
	e.buf = binary.AppendUvarint(e.buf, uint64(len(s))<<1)
	e.buf = append(e.buf, s...)
	if t.takes(s) {
		t.add(s)
		e.remember(t, slot, s, uint32(len(t.list)-1))
	}
}

func (e *encoder) remember(t *table, slot int, s string, i uint32) {
	if slot != sNone {
		e.last[slot].s, e.last[slot].i, e.last[slot].gen = s, i, t.gen
	}
}

func (e *encoder) int(n int)     { e.buf = binary.AppendVarint(e.buf, int64(n)) }
func (e *encoder) uint(n uint64) { e.buf = binary.AppendUvarint(e.buf, n) }

// encode returns f's record (without its length), valid until the next
// call: the mask of the fields set, then the fields by group, in the order
// decode reads them.
func (e *encoder) encode(f *reports.Finding) []byte {
	mask := fieldMask(f)
	e.buf = binary.AppendUvarint(e.buf[:0], mask)
	e.identity(mask, f)
	e.tool(mask, f)
	e.importance(mask, f)
	e.place(mask, f)
	e.security(mask, f)
	e.extras(mask, f)
	if t := f.Triage; t != nil {
		e.triage(t)
	}
	if d := f.Detail; d != nil {
		e.detail(d)
	}
	return e.buf
}

// fieldMask returns the bits of the fields f sets.
func fieldMask(f *reports.Finding) (mask uint64) {
	set := func(bit uint64, ok bool) {
		if ok {
			mask |= bit
		}
	}
	set(fID, !f.ID.IsZero())
	set(fFingerprint, f.Fingerprint != "")
	set(fTool, f.Tool != "")
	set(fToolVersion, f.ToolVersion != "")
	set(fRule, f.Rule != "")
	set(fRuleName, f.RuleName != "")
	set(fCategory, f.Category != "")
	set(fToolCategory, f.ToolCategory != "")
	set(fSeverity, f.Severity != 0)
	set(fQuality, f.Quality != 0)
	set(fImpact, f.Impact != 0)
	set(fPriority, f.Priority != 0)
	set(fMessage, f.Message != "")
	set(fPath, f.Path != "")
	set(fLine, f.Line != 0)
	set(fEndLine, f.EndLine != 0)
	set(fColumn, f.Column != 0)
	set(fEndColumn, f.EndColumn != 0)
	set(fHelpURI, f.HelpURI != "")
	set(fSecuritySeverity, math.Float64bits(f.SecuritySeverity) != 0)
	set(fCWE, f.CWE != nil)
	set(fSnippet, f.Snippet != "")
	set(fSnippetLine, f.SnippetLine != 0)
	set(fFlowSteps, f.FlowSteps != 0)
	set(fRelated, f.Related != 0)
	set(fFixable, f.Fixable)
	set(fRank, f.Rank != 0)
	set(fBaseline, f.Baseline != "")
	set(fTriage, f.Triage != nil)
	set(fDetail, f.Detail != nil)
	return mask
}

// id writes a finding's id: its tag (the string of field slot), then its
// number.
func (e *encoder) id(slot int, id reports.FindingID) {
	e.strAt(&e.names, slot, id.Tag)
	e.uint(uint64(id.N))
}

// identity writes f's id (its tag and number) and fingerprint.
func (e *encoder) identity(mask uint64, f *reports.Finding) {
	if mask&fID != 0 {
		e.id(sTag, f.ID)
	}
	if mask&fFingerprint != 0 {
		e.str(nil, f.Fingerprint) // each its own
	}
}

// tool writes f's tool, its version, its rule and its categories.
func (e *encoder) tool(mask uint64, f *reports.Finding) {
	for _, x := range []struct {
		bit  uint64
		slot int
		s    string
	}{{fTool, sTool, f.Tool}, {fToolVersion, sToolVersion, f.ToolVersion}, {fRule, sRule, f.Rule}, {fRuleName, sRuleName, f.RuleName},
		{fCategory, sCategory, f.Category}, {fToolCategory, sToolCategory, f.ToolCategory}} {
		if mask&x.bit != 0 {
			e.strAt(&e.names, x.slot, x.s)
		}
	}
}

// importance writes f's severity, quality, impact and priority.
func (e *encoder) importance(mask uint64, f *reports.Finding) {
	if mask&fSeverity != 0 {
		e.uint(uint64(f.Severity))
	}
	if mask&fQuality != 0 {
		e.uint(uint64(f.Quality))
	}
	if mask&fImpact != 0 {
		e.uint(uint64(f.Impact))
	}
	if mask&fPriority != 0 {
		e.int(f.Priority)
	}
}

// place writes f's message, path, lines, columns and help page.
func (e *encoder) place(mask uint64, f *reports.Finding) {
	if mask&fMessage != 0 {
		// A literal: messages repeat too seldom for the table's clones and
		// lookups to pay (Spring's PMD SARIF, --format sarif: ×0.94 the
		// wall time without them).
		e.str(nil, f.Message)
	}
	if mask&fPath != 0 {
		e.strAt(&e.names, sPath, f.Path)
	}
	for _, x := range []struct {
		bit uint64
		n   int
	}{{fLine, f.Line}, {fEndLine, f.EndLine}, {fColumn, f.Column}, {fEndColumn, f.EndColumn}} {
		if mask&x.bit != 0 {
			e.int(x.n)
		}
	}
	if mask&fHelpURI != 0 {
		e.strAt(&e.names, sHelpURI, f.HelpURI)
	}
}

// security writes f's security severity and CWE ids.
func (e *encoder) security(mask uint64, f *reports.Finding) {
	if mask&fSecuritySeverity != 0 {
		e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(f.SecuritySeverity))
	}
	if mask&fCWE != 0 {
		e.uint(uint64(len(f.CWE)))
		for _, c := range f.CWE {
			e.int(c)
		}
	}
}

// extras writes what f says of its source and its flows, its rank and its
// state against a baseline (whether it has a fix is the mask's).
func (e *encoder) extras(mask uint64, f *reports.Finding) {
	if mask&fSnippet != 0 {
		e.str(&e.texts, f.Snippet)
	}
	for _, x := range []struct {
		bit uint64
		n   int32
	}{{fSnippetLine, f.SnippetLine}, {fFlowSteps, f.FlowSteps}, {fRelated, f.Related}} {
		if mask&x.bit != 0 {
			e.int(int(x.n))
		}
	}
	if mask&fRank != 0 {
		e.uint(uint64(f.Rank))
	}
	if mask&fBaseline != 0 {
		e.strAt(&e.names, sBaseline, f.Baseline)
	}
}

// triage writes a finding's triage decision.
func (e *encoder) triage(t *reports.Triage) {
	for _, s := range []string{t.State, t.Reason, t.By, t.Date, t.Until, t.Link} {
		e.str(&e.texts, s)
	}
	e.id(sNone, t.Via)
	e.bool(t.Expired)
	e.bool(t.Of != reports.DecidedFinding{})
	if o := t.Of; o != (reports.DecidedFinding{}) {
		for _, s := range []string{o.Tool, o.Rule, o.Path, o.Location, o.Commit} {
			e.str(&e.names, s)
		}
		e.str(&e.texts, o.Line)
		e.str(&e.texts, o.Message)
	}
}

func (e *encoder) bool(b bool) {
	if b {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

// count writes a slice's length, 0 for nil and n+1 for n elements.
func (e *encoder) count(n int, isNil bool) {
	if isNil {
		e.buf = append(e.buf, 0)
		return
	}
	e.uint(uint64(n) + 1)
}

func (e *encoder) detail(d *reports.Detail) {
	e.count(len(d.Flows), d.Flows == nil)
	for i := range d.Flows {
		fl := &d.Flows[i]
		e.int(fl.Code)
		e.str(&e.texts, fl.Message)
		e.locations(fl.Steps)
	}
	e.int(d.AllFlows)
	e.locations(d.Related)
	e.bool(d.Fix != nil)
	if x := d.Fix; x != nil {
		e.str(&e.texts, x.Description)
		e.count(len(x.Replacements), x.Replacements == nil)
		for i := range x.Replacements {
			r := &x.Replacements[i]
			e.str(&e.names, r.Path)
			for _, n := range []int{r.Line, r.Column, r.EndLine, r.EndColumn, r.Offset, r.Length} {
				e.int(n)
			}
			e.str(&e.texts, r.Text)
		}
	}
	e.locations(d.Locations)
	e.count(len(d.Logical), d.Logical == nil)
	for _, l := range d.Logical {
		e.str(&e.names, l.Name)
		e.str(&e.names, l.FullyQualifiedName)
		e.str(&e.names, l.Kind)
	}
	e.str(&e.names, d.Target)
	e.count(len(d.Suppressions), d.Suppressions == nil)
	for _, s := range d.Suppressions {
		e.str(&e.names, s.Kind)
		e.str(&e.names, s.Status)
		e.str(&e.texts, s.Justification)
		var p reports.SuppressionProperties
		if s.Properties != nil {
			p = *s.Properties
		}
		e.str(&e.names, p.State)
		e.str(&e.texts, p.By)
		e.str(&e.names, p.Date)
		e.str(&e.names, p.Until)
		e.str(&e.texts, p.Link)
		e.str(&e.names, p.Tool)
		e.str(&e.names, p.Rule)
		e.str(&e.names, p.Path)
		e.str(&e.names, p.Location)
		e.str(&e.texts, p.Line)
		e.str(&e.texts, p.Message)
		e.str(&e.names, p.Commit)
	}
	e.str(&e.names, d.Kind)
	e.count(len(d.Also), d.Also == nil)
	for _, a := range d.Also {
		e.str(&e.names, a.Tool)
		e.str(&e.names, a.Rule)
		e.id(sNone, a.ID)
	}
}

func (e *encoder) locations(ls []reports.Location) {
	e.count(len(ls), ls == nil)
	for i := range ls {
		l := &ls[i]
		e.str(&e.names, l.Path)
		e.str(&e.names, l.Base)
		e.int(l.Line)
		e.int(l.EndLine)
		e.int(l.Column)
		e.int(l.EndColumn)
		e.str(&e.texts, l.Message)
	}
}

// errCorrupt is a record that does not decode.
var errCorrupt = errors.New("corrupt record")

// decoder decodes the records of an encoder, in order.
type decoder struct {
	names, texts table
	b            []byte // the rest of the record
	err          error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
	d.b = nil
}

func (d *decoder) uint() uint64 {
	n, k := binary.Uvarint(d.b)
	if k <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[k:]
	return n
}

func (d *decoder) int() int {
	n, k := binary.Varint(d.b)
	if k <= 0 || n != int64(int(n)) {
		d.fail()
		return 0
	}
	d.b = d.b[k:]
	return int(n)
}

func (d *decoder) int32() int32 {
	n := d.int()
	if n != int(int32(n)) {
		d.fail()
		return 0
	}
	return int32(n)
}

func (d *decoder) uint8() uint8 {
	n := d.uint()
	if n > math.MaxUint8 {
		d.fail()
		return 0
	}
	return uint8(n)
}

func (d *decoder) bool() bool {
	if len(d.b) == 0 || d.b[0] > 1 {
		d.fail()
		return false
	}
	b := d.b[0] == 1
	d.b = d.b[1:]
	return b
}

func (d *decoder) str(t *table) string {
	n := d.uint()
	if n == 0 {
		return ""
	}
	if n&1 == 1 {
		i := n >> 1
		if t == nil || i >= uint64(len(t.list)) {
			d.fail()
			return ""
		}
		return t.list[i]
	}
	l := n >> 1
	if l > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	s := string(d.b[:l])
	d.b = d.b[l:]
	if t.takes(s) {
		t.add(s)
	}
	return s
}

// count reads a slice's length (see encoder.count): false for nil. Each
// element takes a byte at least, which bounds what a corrupt one makes.
func (d *decoder) count() (int, bool) {
	n := d.uint()
	if n == 0 {
		return 0, false
	}
	if n-1 > uint64(len(d.b)) {
		d.fail()
		return 0, false
	}
	return int(n - 1), true
}

// decode decodes record b into f, every field of which it sets: the
// fields in the order encode writes them, each group by a method of its
// own.
func (d *decoder) decode(b []byte, f *reports.Finding) error {
	d.b, d.err = b, nil
	*f = reports.Finding{}
	mask := d.uint()
	if mask >= fDetail<<1 {
		d.fail()
	}
	d.identity(mask, f)
	d.tool(mask, f)
	d.importance(mask, f)
	d.place(mask, f)
	d.security(mask, f)
	d.extras(mask, f)
	if mask&fTriage != 0 {
		f.Triage = d.triage()
	}
	if mask&fDetail != 0 {
		f.Detail = d.detail()
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail() // bytes left over
	}
	return d.err
}

// id decodes a finding's id: its tag, then its number.
func (d *decoder) id() reports.FindingID {
	tag := d.str(&d.names)
	n := d.uint()
	if n > math.MaxUint32 {
		d.fail()
	}
	return reports.FindingID{Tag: tag, N: uint32(n)}
}

// identity decodes f's id and fingerprint.
func (d *decoder) identity(mask uint64, f *reports.Finding) {
	if mask&fID != 0 {
		f.ID = d.id()
	}
	if mask&fFingerprint != 0 {
		f.Fingerprint = d.str(nil)
	}
}

// tool decodes f's tool, its version, its rule and its categories.
func (d *decoder) tool(mask uint64, f *reports.Finding) {
	for _, x := range []struct {
		bit uint64
		s   *string
	}{{fTool, &f.Tool}, {fToolVersion, &f.ToolVersion}, {fRule, &f.Rule}, {fRuleName, &f.RuleName}, {fCategory, &f.Category}, {fToolCategory, &f.ToolCategory}} {
		if mask&x.bit != 0 {
			*x.s = d.str(&d.names)
		}
	}
}

// importance decodes f's severity, quality, impact and priority.
func (d *decoder) importance(mask uint64, f *reports.Finding) {
	if mask&fSeverity != 0 {
		f.Severity = reports.Severity(d.uint8())
	}
	if mask&fQuality != 0 {
		f.Quality = reports.Quality(d.uint8())
	}
	if mask&fImpact != 0 {
		f.Impact = reports.Impact(d.uint8())
	}
	if mask&fPriority != 0 {
		f.Priority = d.int()
	}
}

// place decodes f's message, path, lines, columns and help page.
func (d *decoder) place(mask uint64, f *reports.Finding) {
	if mask&fMessage != 0 {
		f.Message = d.str(nil) // a literal (see encoder.place)
	}
	if mask&fPath != 0 {
		f.Path = d.str(&d.names)
	}
	for _, x := range []struct {
		bit uint64
		n   *int
	}{{fLine, &f.Line}, {fEndLine, &f.EndLine}, {fColumn, &f.Column}, {fEndColumn, &f.EndColumn}} {
		if mask&x.bit != 0 {
			*x.n = d.int()
		}
	}
	if mask&fHelpURI != 0 {
		f.HelpURI = d.str(&d.names)
	}
}

// security decodes f's security severity and CWE ids.
func (d *decoder) security(mask uint64, f *reports.Finding) {
	if mask&fSecuritySeverity != 0 {
		if len(d.b) < 8 {
			d.fail()
		} else {
			f.SecuritySeverity = math.Float64frombits(binary.LittleEndian.Uint64(d.b))
			d.b = d.b[8:]
		}
	}
	if mask&fCWE != 0 {
		n := d.uint()
		if n > uint64(len(d.b)) {
			d.fail()
			n = 0
		}
		f.CWE = make([]int, n)
		for i := range f.CWE {
			f.CWE[i] = d.int()
		}
	}
}

// extras decodes what f says of its source and its flows, whether it has
// a fix, its rank and its state against a baseline.
func (d *decoder) extras(mask uint64, f *reports.Finding) {
	if mask&fSnippet != 0 {
		f.Snippet = d.str(&d.texts)
	}
	for _, x := range []struct {
		bit uint64
		n   *int32
	}{{fSnippetLine, &f.SnippetLine}, {fFlowSteps, &f.FlowSteps}, {fRelated, &f.Related}} {
		if mask&x.bit != 0 {
			*x.n = d.int32()
		}
	}
	f.Fixable = mask&fFixable != 0
	if mask&fRank != 0 {
		f.Rank = d.uint8()
	}
	if mask&fBaseline != 0 {
		f.Baseline = d.str(&d.names)
	}
}

// triage decodes a finding's triage decision.
func (d *decoder) triage() *reports.Triage {
	t := &reports.Triage{}
	for _, s := range []*string{&t.State, &t.Reason, &t.By, &t.Date, &t.Until, &t.Link} {
		*s = d.str(&d.texts)
	}
	t.Via = d.id()
	t.Expired = d.bool()
	if d.bool() {
		o := &t.Of
		for _, s := range []*string{&o.Tool, &o.Rule, &o.Path, &o.Location, &o.Commit} {
			*s = d.str(&d.names)
		}
		o.Line, o.Message = d.str(&d.texts), d.str(&d.texts)
	}
	return t
}

func (d *decoder) detail() *reports.Detail {
	x := &reports.Detail{}
	if n, ok := d.count(); ok {
		x.Flows = make([]reports.Flow, n)
		for i := range x.Flows {
			fl := &x.Flows[i]
			fl.Code = d.int()
			fl.Message = d.str(&d.texts)
			fl.Steps = d.locations()
		}
	}
	x.AllFlows = d.int()
	x.Related = d.locations()
	if d.bool() {
		fix := &reports.Fix{Description: d.str(&d.texts)}
		if n, ok := d.count(); ok {
			fix.Replacements = make([]reports.Replacement, n)
			for i := range fix.Replacements {
				r := &fix.Replacements[i]
				r.Path = d.str(&d.names)
				for _, p := range []*int{&r.Line, &r.Column, &r.EndLine, &r.EndColumn, &r.Offset, &r.Length} {
					*p = d.int()
				}
				r.Text = d.str(&d.texts)
			}
		}
		x.Fix = fix
	}
	x.Locations = d.locations()
	if n, ok := d.count(); ok {
		x.Logical = make([]reports.LogicalLocation, n)
		for i := range x.Logical {
			l := &x.Logical[i]
			l.Name, l.FullyQualifiedName, l.Kind = d.str(&d.names), d.str(&d.names), d.str(&d.names)
		}
	}
	x.Target = d.str(&d.names)
	if n, ok := d.count(); ok {
		x.Suppressions = make([]reports.Suppression, n)
		for i := range x.Suppressions {
			s := &x.Suppressions[i]
			s.Kind, s.Status, s.Justification = d.str(&d.names), d.str(&d.names), d.str(&d.texts)
			p := reports.SuppressionProperties{State: d.str(&d.names), By: d.str(&d.texts), Date: d.str(&d.names), Until: d.str(&d.names), Link: d.str(&d.texts)}
			p.DecidedFinding = reports.DecidedFinding{Tool: d.str(&d.names), Rule: d.str(&d.names), Path: d.str(&d.names), Location: d.str(&d.names),
				Line: d.str(&d.texts), Message: d.str(&d.texts), Commit: d.str(&d.names)}
			if !p.IsZero() {
				s.Properties = &p
			}
		}
	}
	x.Kind = d.str(&d.names)
	if n, ok := d.count(); ok {
		x.Also = make([]reports.Also, n)
		for i := range x.Also {
			a := &x.Also[i]
			a.Tool, a.Rule, a.ID = d.str(&d.names), d.str(&d.names), d.id()
		}
	}
	return x
}

func (d *decoder) locations() []reports.Location {
	n, ok := d.count()
	if !ok {
		return nil
	}
	ls := make([]reports.Location, n)
	for i := range ls {
		l := &ls[i]
		l.Path, l.Base = d.str(&d.names), d.str(&d.names)
		l.Line, l.EndLine, l.Column, l.EndColumn = d.int(), d.int(), d.int(), d.int()
		l.Message = d.str(&d.texts)
	}
	return ls
}

// recordError says which record of a spool did not decode.
func recordError(n int, err error) error {
	return fmt.Errorf("spool: record %d: %w", n+1, err)
}
