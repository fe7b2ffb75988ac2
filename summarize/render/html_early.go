package render

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// SetEarly has the stream take the findings before their problems are
// known (pipeline.Keep.Early): each is encoded as it comes, as a row that
// Settle then keeps, changes or drops, once told what becomes of it. No
// pass over the findings is needed for the page after the first.
func (s *HTMLStream) SetEarly() {
	s.early = true
	s.earlyRules = map[ruleRef]int{}
}

// An early row in the spill: its length (uvarint), then
//
//	flags        1 its decision suppresses it, 2 it is a result that is no finding
//	rule         the index of its rule in earlyOrder, plus 1 (0: past MaxRules)
//	id           its tag's length, then its bytes, then its number
//	at           where the row holds its state, its detail, where the
//	             detail takes the others of its problem, its decision
//	path, lines  with the source at hand (the file view's marks): the
//	             path's index in the table plus 1, else 0 and its length
//	             and bytes; its line and end line
//	row          the row as the page holds it, but for its indexes into
//	             the table: each refMark and a uvarint (JSON text has no
//	             byte below 0x20)
const (
	earlySuppressed = 1 << iota
	earlyUncounted
)

// refMark begins an index into the table in a row taken early.
const refMark = 0x01

// ruleMessage is the last message of a rule's findings taken early, and
// its index in the table: a report lists a rule's findings together, or
// a file's, each rule with the few wordings of its messages.
type ruleMessage struct {
	s  string
	i  int
	ok bool
}

// message appends the index of a row's message, first by its rule's last
// (early), then by the last row's (refAt).
func (s *HTMLStream) message(b []byte, msg string) []byte {
	if !s.early || s.lastRule.i == 0 {
		return s.refAt(b, 5, msg)
	}
	m := &s.ruleMessages[s.lastRule.i-1]
	if m.ok && m.s == msg {
		return s.appendIndex(b, m.i)
	}
	b = s.refAt(b, 5, msg)
	if r := &s.refs[5]; r.ok && r.s == msg {
		m.s, m.i, m.ok = msg, r.i, true
	}
	return b
}

// addEarly writes fv's early row.
func (s *HTMLStream) addEarly(fv *summarize.FindingView) error {
	f := &fv.Finding
	if ref := (ruleRef{f.Tool, f.Rule}); ref != s.lastRule.ref || s.lastRule.i == 0 {
		i, ok := s.earlyRules[ref]
		if !ok && len(s.earlyOrder) < reports.MaxRules {
			i, ok = len(s.earlyOrder), true
			s.earlyRules[ref] = i
			s.earlyOrder = append(s.earlyOrder, ref)
			s.ruleMessages = append(s.ruleMessages, ruleMessage{})
		}
		s.lastRule.ref, s.lastRule.i = ref, 0
		if ok {
			s.lastRule.i = i + 1
		}
	}
	row := s.appendRow(s.buf[:0], fv)
	s.buf = row
	h := s.hdr[:0]
	var flags byte
	if f.Triage.Suppressed() {
		flags |= earlySuppressed
	}
	if f.Uncounted() {
		flags |= earlyUncounted
	}
	h = append(h, flags)
	h = binary.AppendUvarint(h, uint64(s.lastRule.i))
	h = binary.AppendUvarint(appendEarlyString(h, f.ID.Tag), uint64(f.ID.N))
	for _, at := range [...]int{s.baseAt, s.detailAt, s.alAt, s.triageAt} {
		h = binary.AppendUvarint(h, uint64(at))
	}
	if s.src != nil {
		// The path: its index in the table plus 1, as the row has it, else
		// 0 and the path.
		if r := &s.refs[4]; r.ok && r.s == f.Path {
			h = binary.AppendUvarint(h, uint64(r.i)+1)
		} else {
			h = appendEarlyString(append(h, 0), f.Path)
		}
		h = binary.AppendVarint(h, int64(f.Line))
		h = binary.AppendVarint(h, int64(f.EndLine))
	}
	s.hdr = h
	s.size = binary.AppendUvarint(s.size[:0], uint64(len(h)+len(row)))
	bw := s.spill.bw
	bw.Write(s.size)
	bw.Write(h)
	_, s.err = bw.Write(row)
	s.spill.size += int64(len(s.size) + len(h) + len(row))
	s.n++
	return s.err
}

func appendEarlyString(b []byte, str string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(str))), str...)
}

// baselineStates are the states against a baseline by their codes
// (baselineCode).
var baselineStates = [...]string{"", reports.BaselineNew, reports.BaselineUnchanged, reports.BaselineFixed}

// Settle implements pipeline.Early: the rows taken early, each kept as
// fate says (its state, the decision of its problem, the other findings
// of the problem it leads) or dropped, make the page's rows, its rules
// and its file view's marks.
func (s *HTMLStream) Settle(fate func(id reports.FindingID, baseline string, suppressed, uncounted bool) (drop bool, state string, t *reports.Triage, also []reports.Also)) error {
	if s.err != nil || !s.early {
		return s.err
	}
	s.early = false
	early := s.spill
	s.spill, s.n = nil, 0
	if early == nil {
		return nil
	}
	defer closeSpill(early)
	if err := early.bw.Flush(); err != nil {
		return err
	}
	var r *bufio.Reader
	if early.file != nil {
		if _, err := early.file.Seek(0, io.SeekStart); err != nil {
			return err
		}
		r = bufio.NewReaderSize(early.file, 64<<10)
	} else {
		r = bufio.NewReaderSize(bytes.NewReader(early.mem), 64<<10)
	}
	seen := make([]bool, len(s.earlyOrder))
	// The table is made again of the strings of the rows kept, in the
	// order they use them, as when they are handed late.
	st := &settling{old: s.list, remap: make([]int32, len(s.list)), seen: seen}
	for i := range st.remap {
		st.remap[i] = -1
	}
	st.remap[0] = 0
	s.strs, s.list, s.bytes = make(map[string]int, len(st.old)), make([]string, 1, len(st.old)), 0 // at most the strings of every row
	s.strs[""] = 0
	s.refs = lastRefs{}
	var rec []byte
	for size := early.size; size > 0; {
		l, err := binary.ReadUvarint(r)
		if err != nil {
			return earlyError(err)
		}
		if l > uint64(size) {
			return earlyError(io.ErrUnexpectedEOF)
		}
		if cap(rec) < int(l) {
			rec = make([]byte, l)
		}
		rec = rec[:l]
		if _, err := io.ReadFull(r, rec); err != nil {
			return earlyError(err)
		}
		size -= int64(uvarintSize(l)) + int64(l)
		row, err := s.settleRow(rec, fate, st)
		if err != nil {
			return err
		}
		if row == nil {
			continue
		}
		if s.spill == nil {
			s.spill = newSpill()
		}
		if s.n > 0 {
			s.spill.bw.WriteString(",\n")
			s.spill.size += 2
		}
		if _, err := s.spill.bw.Write(row); err != nil {
			s.err = err
			return err
		}
		s.spill.size += int64(len(row))
		s.n++
	}
	s.earlyRules, s.earlyOrder, s.ruleMessages = nil, nil, nil
	return nil
}

// settling is what Settle keeps from row to row: the table of the rows
// taken early, and the new index of each of its strings (-1: none yet);
// the rules of the rows kept, by their index in earlyOrder.
type settling struct {
	old   []string
	remap []int32
	seen  []bool
	row   []byte // the row with its strings numbered again
	tag   string // the last row's id's tag
}

var errCorruptRow = earlyError(errors.New("corrupt row"))

// settleRow returns the row of the early record rec as fate leaves it, nil
// when fate drops it, and notes its rule and its marks.
func (s *HTMLStream) settleRow(rec []byte, fate func(id reports.FindingID, baseline string, suppressed, uncounted bool) (bool, string, *reports.Triage, []reports.Also), st *settling) ([]byte, error) {
	d := earlyReader{b: rec}
	flags := d.byte()
	rule := d.uint()
	id := reports.FindingID{Tag: d.tag(&st.tag)}
	if n := d.uint(); n <= math.MaxUint32 {
		id.N = uint32(n)
	} else {
		d.bad = true
	}
	var at [4]int
	for i := range at {
		at[i] = int(d.uint())
	}
	var path string
	var line, end int
	if s.src != nil {
		if i := d.uint(); i == 0 {
			path = d.string()
		} else if i <= uint64(len(st.old)) {
			path = st.old[i-1]
		} else {
			return nil, errCorruptRow
		}
		line, end = int(d.int()), int(d.int())
	}
	row := d.b
	base, detail, tri := at[0], at[1], at[3]
	if d.bad || !(base < detail && detail < tri && tri < len(row)) || row[base] < '0' || row[base] > '3' || rule > uint64(len(st.seen)) {
		return nil, errCorruptRow
	}
	drop, state, t, also := fate(id, baselineStates[row[base]-'0'], flags&earlySuppressed != 0, flags&earlyUncounted != 0)
	if drop {
		return nil, nil
	}
	row, err := s.renumber(row, &at, t != nil, st)
	if err != nil {
		return nil, err
	}
	seen := st.seen
	if rule > 0 && !seen[rule-1] {
		seen[rule-1] = true
		ref := s.earlyOrder[rule-1]
		if !s.rules[ref] && len(s.rules) < reports.MaxRules {
			s.rules[ref] = true
			s.order = append(s.order, ref)
		}
	}
	if s.src != nil {
		s.marks.mark(path, line, end)
	}
	base, detail, al, tri := at[0], at[1], at[2], at[3]
	row[base] = byte('0' + baselineCode(state))
	if len(also) == 0 && t == nil {
		return row, nil
	}
	b := append(s.buf[:0], row[:detail]...)
	switch {
	case len(also) == 0:
		b = append(b, row[detail:tri]...)
	case row[detail] == '0': // a detail of nothing else
		b = append(b, `{"al":`...)
		b = appendOthers(b, also)
		b = append(b, "},"...)
	default:
		if al <= detail || al > tri-2 {
			return nil, earlyError(errors.New("corrupt row"))
		}
		// The members after the others begin with a comma when some
		// come before them.
		b = append(b, row[detail:al]...)
		if al > detail+1 {
			b = append(b, ',')
		}
		b = append(b, `"al":`...)
		b = appendOthers(b, also)
		if al == detail+1 && row[al] != '}' {
			b = append(b, ',')
		}
		b = append(b, row[al:tri]...)
	}
	if t != nil {
		b = s.triage(b, t)
		b = append(b, ']')
	} else {
		b = append(b, row[tri:]...)
	}
	s.buf = b
	return b, nil
}

// renumber returns row with its indexes into the table of the rows taken
// early (refMark and a uvarint) made decimal indexes into the table of the
// rows kept (those of its decision left, when it is replaced: replaced),
// and at moved with them.
func (s *HTMLStream) renumber(row []byte, at *[4]int, replaced bool, st *settling) ([]byte, error) {
	out := st.row[:0]
	pos, next := 0, 0 // in row; the next of at to move
	for {
		k := bytes.IndexByte(row[pos:], refMark)
		if k < 0 {
			break
		}
		start := pos + k
		if replaced && start >= at[3] {
			break
		}
		old, n := binary.Uvarint(row[start+1:])
		if n <= 0 || old >= uint64(len(st.old)) {
			return nil, errCorruptRow
		}
		for ; next < len(at) && at[next] < start; next++ {
			at[next] += len(out) - pos
		}
		out = append(out, row[pos:start]...)
		if i := st.remap[old]; i >= 0 {
			out = strconv.AppendInt(out, int64(i), 10)
		} else if i, ok := s.index(st.old[old]); ok {
			st.remap[old] = int32(i)
			out = strconv.AppendInt(out, int64(i), 10)
		} else {
			out = appendJSONString(out, st.old[old]) // past the table's bounds
		}
		pos = start + 1 + n
	}
	for ; next < len(at); next++ {
		at[next] += len(out) - pos
	}
	out = append(out, row[pos:]...)
	st.row = out
	return out, nil
}

// Restart implements pipeline.Early: the rows taken so far are forgotten,
// with the strings and rules they named.
func (s *HTMLStream) Restart() error {
	if s.spill != nil {
		closeSpill(s.spill)
		s.spill = nil
	}
	s.n, s.err = 0, nil
	s.strs, s.list, s.bytes = map[string]int{"": 0}, []string{""}, 0
	s.refs = lastRefs{}
	s.earlyRules, s.earlyOrder, s.ruleMessages = map[ruleRef]int{}, nil, nil
	s.lastRule.i = 0
	s.early = true
	return nil
}

// closeSpill removes a spill's temporary file.
func closeSpill(sp *spill) error {
	if sp.file == nil {
		return nil
	}
	name := sp.file.Name()
	err := errors.Join(sp.file.Close(), os.Remove(name))
	sp.file = nil
	return err
}

func earlyError(err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("html: the rows taken early: %w", err)
}

func uvarintSize(x uint64) int {
	n := 1
	for ; x >= 0x80; x >>= 7 {
		n++
	}
	return n
}

// earlyReader reads an early row's fields; bad says one did not read.
type earlyReader struct {
	b   []byte
	bad bool
}

func (d *earlyReader) byte() byte {
	if len(d.b) == 0 {
		d.bad = true
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *earlyReader) uint() uint64 {
	n, k := binary.Uvarint(d.b)
	if k <= 0 {
		d.bad = true
		return 0
	}
	d.b = d.b[k:]
	return n
}

func (d *earlyReader) int() int64 {
	n, k := binary.Varint(d.b)
	if k <= 0 {
		d.bad = true
		return 0
	}
	d.b = d.b[k:]
	return n
}

func (d *earlyReader) string() string {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.bad = true
		return ""
	}
	str := string(d.b[:n])
	d.b = d.b[n:]
	return str
}

// tag reads a string as string does, but as last when it reads the same
// (the rows of one input share their ids' tag), and keeps it there.
func (d *earlyReader) tag(last *string) string {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.bad = true
		return ""
	}
	if string(d.b[:n]) != *last {
		*last = string(d.b[:n])
	}
	d.b = d.b[n:]
	return *last
}
