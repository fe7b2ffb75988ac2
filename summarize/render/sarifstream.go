package render

import (
	"bufio"
	"errors"
	"io"
	"os"

	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// SARIFStream writes every finding added to it as one SARIF log, as
// [SARIF] does, without holding the findings: each result is encoded when it
// is added, into a temporary file of its tool's run, and Write joins the
// runs. Its memory is the rules the results use, whatever the number of
// results; the results keep the order they were added in.
//
//	st := render.NewSARIFStream()
//	defer st.Close()
//	for each finding: st.Add(&f)
//	st.Write(os.Stdout, view.Inputs)
type SARIFStream struct {
	runs *sarifRuns
	err  error
}

// spill is a run's encoded results: a temporary file, or memory when no
// temporary file can be made.
type spill struct {
	file *os.File
	mem  []byte
	bw   *bufio.Writer
}

// NewSARIFStream returns an empty stream.
func NewSARIFStream() *SARIFStream {
	return &SARIFStream{runs: newSARIFRuns(nil)}
}

// Add encodes f as a result of its tool's run.
func (s *SARIFStream) Add(f *reports.Finding) error {
	if s.err != nil {
		return s.err
	}
	r, idx := s.runs.add(f)
	if r.spill == nil {
		r.findings = nil
		r.spill = newSpill()
	}
	s.err = writeResult(r.spill.bw, r.n-1, f, idx)
	return s.err
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

// copyTo writes the spilled results to w.
func (sp *spill) copyTo(w io.Writer) error {
	if err := sp.bw.Flush(); err != nil {
		return err
	}
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

// Write writes the log; the view's inputs give the tools' versions.
func (s *SARIFStream) Write(w io.Writer, v *summarize.View) error {
	if s.err != nil {
		return s.err
	}
	for _, in := range v.Inputs {
		if in.ToolVersion != "" {
			s.runs.versions[in.Tool] = in.ToolVersion
		}
	}
	return s.runs.write(w, func(r *sarifRun, bw *bufio.Writer) error {
		return r.spill.copyTo(bw)
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
