package render

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// SARIFStream writes every finding added to it as one SARIF log, as
// [SARIF] does, without holding the findings: each result is encoded when it
// is added, into a temporary file of its tool's run, and Write joins the
// runs. Its memory is the rules the results use, whatever the number of
// results; the results keep the order they were added in.
//
// With MaxResults, a run keeps at most that many results: the most severe,
// then the first in view order ([reports.Less]), chosen while they stream
// by with a bounded heap of their sort keys and their places in the file
// (its memory grows with MaxResults, not with the results); a run that left
// some out writes its kept results in view order and counts the others in
// its properties ([OmittedProperty]).
//
//	st := render.NewSARIFStream()
//	defer st.Close()
//	for each finding: st.Add(&f)
//	st.Write(os.Stdout, view.Inputs)
type SARIFStream struct {
	// MaxResults is the most results of a run (0: all); set it before the
	// first Add.
	MaxResults int
	// Version is recap's version, recorded in each run's conversion.
	Version string
	// DropUnlocated leaves out the findings without a file (see [SARIF]).
	DropUnlocated bool
	runs          *sarifRuns
	// keptUnlocated and keptLocated count the results added without and
	// with a file.
	keptUnlocated, keptLocated int
	enc                        resultEncoder
	err                        error
}

// spill is a run's encoded results: a temporary file, or memory when no
// temporary file can be made.
type spill struct {
	file *os.File
	mem  []byte
	bw   *bufio.Writer
	size int64    // bytes written
	kept keptHeap // with a cap, the results kept so far
}

// keptResult is a result kept under a cap: what view order compares, and
// where its encoding is in the spill.
type keptResult struct {
	key      reports.SortKey
	off      int64
	len, seq int
}

// keptHeap is a max-heap in view order: its root is the result to drop
// first. Its results move as container/heap would move them (the same
// results kept on ties), each copied once a move rather than swapped.
type keptHeap []keptResult

// push adds k.
func (h *keptHeap) push(k keptResult) {
	*h = append(*h, k)
	q := *h
	j := len(q) - 1
	for j > 0 {
		i := (j - 1) / 2
		if !q[i].key.Less(&k.key) { // k is not after its parent
			break
		}
		q[j] = q[i]
		j = i
	}
	q[j] = k
}

// replaceRoot puts k in the root's place.
func (h keptHeap) replaceRoot(k keptResult) {
	i, n := 0, len(h)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && h[c].key.Less(&h[r].key) {
			c = r // the later child
		}
		if !k.key.Less(&h[c].key) {
			break
		}
		h[i] = h[c]
		i = c
	}
	h[i] = k
}

// NewSARIFStream returns an empty stream that keeps every result.
func NewSARIFStream() *SARIFStream {
	return &SARIFStream{runs: newSARIFRuns()}
}

// Add encodes f as a result of its tool's run.
func (s *SARIFStream) Add(f *reports.Finding) error { return s.AddState(f, f.Baseline) }

// AddState is Add of f in the given state against the baseline (f's own
// Baseline is not read): a query's findings are added without a copy of
// each to set its state.
func (s *SARIFStream) AddState(f *reports.Finding, baseline string) error {
	if s.err != nil {
		return s.err
	}
	if f.Path == "" && s.DropUnlocated {
		s.runs.unlocated(f)
		return nil
	}
	if f.Path == "" {
		s.keptUnlocated++
	} else {
		s.keptLocated++
	}
	r, idx := s.runs.add(f)
	if r.spill == nil {
		r.findings = nil
		r.spill = newSpill()
		if s.MaxResults > 0 {
			// The heap fills to the cap in most runs that reach it: made
			// once, not grown by copies (a large allocation's pages are
			// only touched as it fills).
			r.spill.kept = make(keptHeap, 0, min(s.MaxResults, MaxRunResults))
		}
	}
	sp := r.spill
	if s.MaxResults <= 0 {
		_, err := sp.bw.WriteString(resultSep(r.n - 1))
		if err == nil {
			_, err = sp.bw.Write(s.enc.result(f, idx, baseline))
		}
		s.err = err
		return err
	}
	// Under a cap, a result is encoded only when it is kept (so far).
	k := keptResult{key: reports.KeyOf(f), seq: r.n}
	full := len(sp.kept) >= s.MaxResults
	if full && !k.key.Less(&sp.kept[0].key) {
		r.omitted++
		return nil // not written at all
	}
	b := s.enc.result(f, idx, baseline)
	k.off, k.len = sp.size, len(b)
	if full {
		sp.kept.replaceRoot(k)
		r.omitted++
	} else {
		sp.kept.push(k)
	}
	_, s.err = sp.bw.Write(b)
	sp.size += int64(len(b))
	return s.err
}

// Located returns the findings without a file written (kept), and those
// with one, in all runs.
func (s *SARIFStream) Located() (unlocated, located int) {
	return s.keptUnlocated, s.keptLocated
}

// Unlocated counts the findings without a file left out, in all runs.
func (s *SARIFStream) Unlocated() int {
	n := 0
	for _, r := range s.runs.byTool {
		n += r.unlocated
	}
	return n
}

// Omitted counts the results left out by the cap, in all runs.
func (s *SARIFStream) Omitted() int {
	n := 0
	for _, r := range s.runs.byTool {
		n += r.omitted
	}
	return n
}

// Warnings implements [Warner]: the results left out by the cap, the
// findings without a file left out, and those kept without one.
func (s *SARIFStream) Warnings() []string {
	var out []string
	if n := s.Omitted(); n > 0 {
		out = append(out, fmt.Sprintf("sarif: %s left out to keep at most %d results a run, the most important first "+
			"(GitHub's code scanning takes %d): the run's properties.%s counts them; --max-results sets the cap, 0 keeps all",
			english.Plural(n, "result", "results"), s.MaxResults, MaxRunResults, OmittedProperty))
	}
	if n := s.Unlocated(); n > 0 {
		out = append(out, fmt.Sprintf("sarif: %s without a file left out (--unlocated drop): the run's properties.%s counts them; --format json lists them",
			english.Plural(n, "finding", "findings"), UnlocatedProperty))
	}
	if n, _ := s.Located(); n > 0 {
		out = append(out, fmt.Sprintf("sarif: %s without a file kept, with the place their tool gave: GitHub's code scanning shows no "+
			"result without a file and refuses an upload that has one; --unlocated drop leaves them out", english.Plural(n, "finding", "findings")))
	}
	return out
}

func newSpill() *spill {
	sp := &spill{}
	if f, err := os.CreateTemp("", "recap-sarif-*"); err == nil {
		sp.file = f
		sp.bw = bufio.NewWriterSize(f, 64<<10)
		return sp
	}
	sp.bw = bufio.NewWriterSize(sp, 64<<10)
	return sp
}

// Write is the memory spill's io.Writer.
func (sp *spill) Write(p []byte) (int, error) {
	sp.mem = append(sp.mem, p...)
	return len(p), nil
}

// copyTo writes the spilled results to w: all of them as written, or the
// kept ones of a cap (in the order written when none was left out, else in
// view order).
func (sp *spill) copyTo(w io.Writer, capped bool, omitted int) error {
	if err := sp.bw.Flush(); err != nil {
		return err
	}
	if !capped {
		if sp.file == nil {
			_, err := w.Write(sp.mem)
			return err
		}
		if _, err := sp.file.Seek(0, io.SeekStart); err != nil {
			return err
		}
		_, err := io.Copy(w, sp.file)
		return err
	}
	kept := []keptResult(sp.kept)
	mem, inMem := sp.mem, sp.file == nil
	if total := keptBytes(kept); sp.file != nil && total <= maxKeptRead {
		// The kept results read into memory in one pass over the file, in
		// large reads, rather than a read each (25,000 system calls).
		var err error
		if mem, err = sp.readKept(kept, total); err != nil {
			return err
		}
		inMem = true
	}
	if omitted == 0 {
		slices.SortFunc(kept, func(a, b keptResult) int { return cmp.Compare(a.seq, b.seq) })
	} else {
		slices.SortFunc(kept, func(a, b keptResult) int {
			if c := reports.OrderImportance.Compare(&a.key, &b.key); c != 0 {
				return c
			}
			return cmp.Compare(a.seq, b.seq) // findings without ids: in the order added
		})
	}
	var buf []byte
	for i, k := range kept {
		if _, err := io.WriteString(w, resultSep(i)); err != nil {
			return err
		}
		if inMem {
			if _, err := w.Write(mem[k.off : k.off+int64(k.len)]); err != nil {
				return err
			}
			continue
		}
		// More than maxKeptRead kept (a cap raised far past GitHub's): a
		// read each, the memory of one.
		if cap(buf) < k.len {
			buf = make([]byte, k.len)
		}
		buf = buf[:k.len]
		if _, err := sp.file.ReadAt(buf, k.off); err != nil {
			return err
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// maxKeptRead bounds the bytes of the kept results read into memory at
// once to be written in their order: GitHub's cap of 25,000 results
// comes to about 16 MB on Spring's PMD report.
var maxKeptRead = 64 << 20 // tests lower it

// keptBytes is the size of the kept results' encodings.
func keptBytes(kept []keptResult) int {
	n := 0
	for _, k := range kept {
		n += k.len
	}
	return n
}

// readKept reads the kept results (total bytes) out of the spill's file,
// in the order of the file, into one buffer of their size, and sets each
// one's off to its place there.
func (sp *spill) readKept(kept []keptResult, total int) ([]byte, error) {
	slices.SortFunc(kept, func(a, b keptResult) int { return cmp.Compare(a.off, b.off) })
	mem := make([]byte, 0, total)
	r := bufio.NewReaderSize(io.NewSectionReader(sp.file, 0, sp.size), 1<<20)
	var at int64 // where r is in the file
	for i := range kept {
		k := &kept[i]
		if _, err := r.Discard(int(k.off - at)); err != nil {
			return nil, err
		}
		start := len(mem)
		mem = mem[:start+k.len]
		if _, err := io.ReadFull(r, mem[start:]); err != nil {
			return nil, err
		}
		at, k.off = k.off+int64(k.len), int64(start)
	}
	return mem, nil
}

// Write writes the log; the view's inputs describe the rules.
func (s *SARIFStream) Write(w io.Writer, v *summarize.View) error {
	if s.err != nil {
		return s.err
	}
	s.runs.recap = s.Version
	s.runs.inputs = v.Inputs
	return s.runs.write(w, func(r *sarifRun, bw *bufio.Writer) error {
		if r.spill == nil { // only findings without a file
			return nil
		}
		return r.spill.copyTo(bw, s.MaxResults > 0, r.omitted)
	})
}

// Close removes the temporary files.
func (s *SARIFStream) Close() error {
	var errs []error
	for _, r := range s.runs.byTool {
		if r.spill != nil && r.spill.file != nil {
			name := r.spill.file.Name()
			errs = append(errs, r.spill.file.Close(), os.Remove(name))
			r.spill.file = nil
		}
	}
	return errors.Join(errs...)
}
