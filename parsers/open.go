package parsers

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/recap-dev/recap/inputs"
	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/reports"
)

// ReadOptions configure [ReadAll]. The zero value detects formats and keeps
// paths as the reports give them.
type ReadOptions struct {
	// Root is the repository root (absolute): paths are made relative to it.
	Root string
	// FS holds the repository's files (nil: Root opened as a
	// [content.Root], confined to it); see [Options].
	FS fs.FS
	// Open, when set, opens the inputs named by ReadFile (a server's
	// confined root: [content.Root.Open]); nil opens them as they are
	// named ([content.Open]). Either refuses what is not a regular file.
	Open func(name string) (*os.File, fs.FileInfo, error)
	// Format, when set, overrides detection for every input.
	Format Format
	// Stdin is read for the input "-".
	Stdin io.Reader
	// Wrap, when set, wraps each opened input (before decompression), for
	// example to count bytes for a progress bar; size is -1 when unknown.
	Wrap func(r io.Reader, name string, size int64) io.Reader
	// Context, when set, stops the reading once it is done: the input's
	// next read fails with its error (a server's cancelled call).
	Context context.Context
	// Keep, when set, is asked about each finding before it is given its
	// fingerprint: a finding it refuses is counted in its input but not
	// emitted. What it changes in the finding is emitted (the pipeline
	// carries lines onto another revision); it must not keep the pointer.
	// The fields it sees are all but Fingerprint (its id it sees: the
	// pipeline's triage groups the findings a filter refuses too).
	Keep func(f *reports.Finding) bool
	// NoFingerprints leaves the findings' Fingerprint empty, for a reader
	// that needs none (counts without a baseline): hashing each finding's
	// message is a tenth of reading a large SARIF log.
	NoFingerprints bool
	// Uncounted emits the results a report says are no findings too
	// (suppressed ones, SARIF results of a kind other than fail), marked
	// ([reports.Finding.Uncounted]), for recap's SARIF. They have no id
	// (ids number the findings) and fingerprints of their own count.
	Uncounted bool
	// Runs digests each input's findings into its Run ([reports.Run]),
	// for a reader that keeps reports and tells one tool's run given in
	// two formats (a server); ReadAll does that itself.
	Runs bool
	// Sources, when set, is shared by the SpotBugs reports read with these
	// options: the repository is walked once for them all (see
	// [SourceIndex]). ReadAll makes one when it is nil.
	Sources *SourceIndex
	// Door, when set, is what ReadAll looks at files through (see
	// [inputs.Door]): a query's passes that read the reports again share
	// one, and each file is looked at, sized and hashed once. ReadAll
	// makes one when it is nil.
	Door *inputs.Door
	// Tagged, when set, is called by ReadAll once the inputs are known and
	// before any is read: their names (a report file found in a directory
	// by its path, standard input as "-") and the tags of their findings'
	// ids, in order. A reader that judges a finding by its report (when it
	// was written) tells the report by the tag.
	Tagged func(names, tags []string)

	table formatTable // the formats read (nil: the package's table)
}

func (o *ReadOptions) formats() formatTable {
	if o.table != nil {
		return o.table
	}
	return formats
}

// ReadAll reads every input — a file, "-" for standard input, a gzip file, or
// a directory searched recursively for reports — and calls emit for each
// finding, with its ID set. It returns one [reports.Input] per report read; an
// input that could not be read has its Error set, and the others are still
// read. The error is non-nil only when emit returned one.
func ReadAll(args []string, opts ReadOptions, emit func(reports.Finding) error) ([]reports.Input, error) {
	opts, done := opts.withRoot()
	defer done()
	if opts.Sources == nil {
		opts.Sources = &SourceIndex{} // one walk for every SpotBugs report
	}
	if opts.Door == nil {
		opts.Door = inputs.New(nil, opts.formats().lookReader)
	}
	var srcs []source
	for _, a := range args {
		srcs = append(srcs, expand(a, opts.formats(), opts.Door)...)
	}
	srcs, notes, skipped := once(srcs, opts.Door)
	srcs, notes = sameRuns(srcs, notes, opts)
	tags := inputTags(srcs)
	if opts.Tagged != nil {
		names := make([]string, len(srcs))
		for i := range srcs {
			names[i] = srcs[i].name
		}
		opts.Tagged(names, slices.Clone(tags))
	}
	inputs := make([]reports.Input, 0, len(srcs)+len(skipped))
	var files fileSets
	for i, src := range srcs {
		noted := emit
		if len(srcs) > 1 {
			noted = func(f reports.Finding) error {
				files.note(i, &f)
				return emit(f)
			}
		}
		in, err := readOne(src, tags[i], opts, noted)
		in.Warnings = append(in.Warnings, notes[i]...)
		inputs = append(inputs, in)
		if err != nil {
			return inputs, err
		}
	}
	files.warn(inputs)
	for _, o := range skipped {
		inputs = append(inputs, reports.Input{Path: o.name, Format: string(o.own.Format), Warnings: []string{o.own.Warning}, LeftOut: true})
	}
	return inputs, nil
}

// ReadFile reads one report file (gzip or not) and calls emit for each
// finding, its ID made of tag and its ordinal (see [reports.ID]). A caller
// that reads reports one at a time, as a server caching them does, gives each
// a tag of its own (for example [reports.InputTag] of its path), so that ids
// stay stable whatever else is read. The error is non-nil only when emit
// returned one; a report that could not be read has the Input's Error set.
func ReadFile(name, tag string, opts ReadOptions, emit func(reports.Finding) error) (reports.Input, error) {
	opts, done := opts.withRoot()
	defer done()
	return readOne(source{name: name}, tag, opts, emit)
}

// withRoot gives FS, when it is nil and Root is set, as Root opened
// inside itself: placing a report's paths then looks at nothing outside
// the repository, whatever links it holds. done releases it.
func (o ReadOptions) withRoot() (ReadOptions, func()) {
	if o.FS != nil || o.Root == "" {
		return o, func() {}
	}
	r, err := content.OpenRoot(o.Root)
	if err != nil {
		return o, func() {} // no repository: nothing is looked up
	}
	o.FS = r.FS()
	return o, func() { r.Close() }
}

// Sniff detects the format of a report from its first bytes (gzip undone),
// as a directory search does: JSON must carry its format's marks (see
// [Detect]). False when it is not a report recap reads, or cannot be read.
func Sniff(r io.Reader) (Format, bool) { return formats.sniff(r) }

// HasReportExt reports whether a directory search looks at a file of this
// name before sniffing its content: an ending a format declares (.sarif,
// .json, .xml; any case), or .gz.
func HasReportExt(name string) bool { return formats.hasExt(name) }

// ParseAll reads one report into memory: for tests and small inputs.
func ParseAll(r io.Reader, name string, opts ReadOptions) ([]reports.Finding, reports.Input) {
	opts, done := opts.withRoot()
	defer done()
	var out []reports.Finding
	in, _ := readOne(source{name: name, r: r}, reports.InputTag(name, 4), opts, func(f reports.Finding) error {
		out = append(out, f)
		return nil
	})
	return out, in
}

// source is one input: a file path, or an open reader (standard input), or
// an error found while expanding the arguments.
type source struct {
	name  string
	r     io.Reader
	err   error
	info  fs.FileInfo // a file's, once looked at
	found bool        // by a directory search, not named
}

// The bounds of a directory search (docs/reliability.md, "Limits"): past
// either, the search stops and the directory is an input error that says
// so (exit 2), the reports found before it still read. An input costs
// about 600 bytes while a run lasts (its status, its copy check, its id):
// 200,000 reports stay within recap's 256 MiB.
const (
	MaxSearchEntries = 1_000_000 // files and directories a search visits
	MaxSearchReports = 200_000   // reports a search gives
)

// The bounds expand applies (tests lower them).
var searchEntries, searchReports = MaxSearchEntries, MaxSearchReports

// expand lists the inputs an argument names: a file (a regular one: a
// FIFO or a device would block or never end; "-" is standard input), or a
// directory searched for files with the endings the formats declare. In a
// directory, a file is read when its content is a report; and when its name
// says it is one (reportName) but its first bytes do not say what it is
// (empty, cut, unreadable, binary), it is read too, so that its error is
// reported: a crashed tool leaves exactly such a file. A file whose content
// shows it is something else (a Checkstyle configuration named
// checkstyle.xml, package.json) stays out. Symbolic links to files are
// followed; links to directories are not (they could loop).
func expand(arg string, table formatTable, door *inputs.Door) []source {
	if arg == "-" {
		return []source{{name: "-"}}
	}
	st, err := os.Stat(arg)
	if err != nil {
		return []source{{name: arg, err: err}}
	}
	if !st.IsDir() {
		if err := content.Regular(st); err != nil {
			return []source{{name: arg, err: err}}
		}
		return []source{{name: arg, info: st}}
	}
	var out []source
	fsys := os.DirFS(arg)
	name := func(rel string) string { return filepath.Join(arg, filepath.FromSlash(rel)) }
	stop, walkErr := inputs.Walk{FS: fsys, Dir: ".", Bounds: inputs.Bounds{Entries: searchEntries, Reports: searchReports},
		File: func(rel string, d fs.DirEntry) error {
			if s, ok := found(fsys, rel, name(rel), d, table, door); ok {
				out = append(out, s)
			}
			return nil
		},
		Error: func(rel string, err error) error {
			out = append(out, source{name: name(rel), err: err})
			return nil
		},
		Found: func() int { return len(out) },
	}.Run()
	for i := range out {
		out[i].found = true
	}
	if walkErr != nil {
		out = append(out, source{name: arg, err: walkErr})
	}
	switch stop.Why {
	case inputs.Entries:
		out = append(out, source{name: arg, err: fmt.Errorf("the search stopped after %d files and directories, its bound: name narrower directories", searchEntries)})
	case inputs.Reports:
		out = append(out, source{name: arg, err: fmt.Errorf("the search stopped after %d reports, its bound: name narrower directories", searchReports)})
	}
	if len(out) == 0 {
		return []source{{name: arg, err: errors.New("no " + table.titles("or") + " report found in the directory")}}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// found says whether a directory search reads the file rel of fsys (p
// as the command line names it): see expand.
func found(fsys fs.FS, rel, p string, d fs.DirEntry, table formatTable, door *inputs.Door) (source, bool) {
	if !table.hasExt(d.Name()) {
		return source{}, false
	}
	named := table.reportName(p)
	info, err := d.Info()
	if err == nil && d.Type()&fs.ModeSymlink != 0 {
		info, err = fs.Stat(fsys, rel)
		if err == nil && info.IsDir() {
			return source{}, false
		}
	}
	switch {
	case err != nil:
		return source{name: p, err: err}, named
	case !info.Mode().IsRegular():
		return source{name: p, err: content.NotRegular(info.Mode().Type())}, named
	}
	src := source{name: p, info: info}
	switch kind, _ := door.Kind(p, info); kind {
	case inputs.Report:
		return src, true
	case inputs.Unknown: // empty, cut, unreadable, not XML nor JSON
		return src, named
	case inputs.JSON: // a JSON file without a format's marks
		if sarifNamed(p) {
			return src, true
		}
		_, own := door.Own(p, info)
		return src, own // recap's JSON is left out with a warning
	}
	return source{}, false
}

// pastSpace reads past the white space at the start of br (after a byte
// order mark) when its first SniffLen bytes are all white space and more
// follows, so that detection sees the content: a report may begin with
// any amount of it. It gives the line ends it read, for the parser to be
// given again, so that its line numbers stay those of the input.
func pastSpace(br *bufio.Reader) (lines int64, skipped bool) {
	head, _ := br.Peek(SniffLen)
	rest := bytes.TrimPrefix(head, utf8BOM)
	if len(head) < SniffLen || len(bytes.TrimLeft(rest, " \t\r\n")) > 0 {
		return 0, false
	}
	br.Discard(len(head) - len(rest))
	for {
		b, err := br.Peek(SniffLen)
		i := 0
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
			i++
		}
		lines += int64(bytes.Count(b[:i], []byte{'\n'}))
		br.Discard(i)
		if i < len(b) || err != nil {
			return lines, true
		}
	}
}

// lineEnds reads n line ends.
type lineEnds struct{ n int64 }

func (l *lineEnds) Read(p []byte) (int, error) {
	if l.n == 0 {
		return 0, io.EOF
	}
	k := int(min(int64(len(p)), l.n))
	for i := range p[:k] {
		p[i] = '\n'
	}
	l.n -= int64(k)
	return k, nil
}

// Look tells what a file's content holds from its first bytes (gzip
// undone), and its format when it is a report: the [inputs.Look] of the
// format table, for an [inputs.Door].
func Look(r io.Reader) (inputs.Kind, string) { return formats.lookReader(r) }

// lookReader tells what r holds from its first bytes (gzip undone).
func (t formatTable) lookReader(r io.Reader) (inputs.Kind, string) {
	raw := readers.Get().(*bufio.Reader) // one buffer for every file looked at
	raw.Reset(r)
	defer func() { raw.Reset(nil); readers.Put(raw) }()
	br, err := decompress(raw)
	if err != nil {
		return inputs.Unknown, ""
	}
	pastSpace(br)
	head, _ := br.Peek(SniffLen)
	switch format, m := t.detect(head); {
	case m == strongMatch:
		return inputs.Report, string(format)
	case m == weakMatch:
		return inputs.JSON, ""
	}
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(head, utf8BOM), " \t\r\n")
	switch {
	case len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '['):
		return inputs.JSON, ""
	case len(trimmed) > 0 && trimmed[0] == '<' && firstElement(head) != "":
		return inputs.Other, ""
	}
	return inputs.Unknown, ""
}

// sarifNamed reports whether a file's name says it is SARIF.
func sarifNamed(p string) bool {
	return strings.Contains(strings.ToLower(filepath.Base(p)), ".sarif")
}

// reportName reports whether a file's name says it is a report: it ends in
// .sarif (before .json or .gz), or its name or its directory's names a
// format or its tool (pmd.xml, checkstyle-result.xml,
// build/reports/spotbugs/main.xml).
func (t formatTable) reportName(p string) bool {
	base := strings.ToLower(filepath.Base(p))
	base = strings.TrimSuffix(base, ".gz")
	if strings.Contains(base, ".sarif") {
		return true
	}
	dir := strings.ToLower(filepath.Base(filepath.Dir(p)))
	for _, f := range t {
		for _, n := range append([]string{string(f.name)}, f.aka...) {
			if strings.Contains(base, n) || strings.Contains(dir, n) {
				return true
			}
		}
	}
	return false
}

// ErrNotRegular: an input is a FIFO, a device or a socket, refused (its
// reading would block or never end); "-" reads standard input.
var ErrNotRegular = content.ErrNotRegular

// sniff detects the format of content (gzip undone) as a directory search
// does: a weak match (JSON without its format's marks: package.json,
// tsconfig.json, …) is not a report.
func (t formatTable) sniff(r io.Reader) (Format, bool) {
	br, err := decompress(bufio.NewReaderSize(r, SniffLen))
	if err != nil {
		return "", false
	}
	pastSpace(br)
	head, _ := br.Peek(SniffLen)
	format, m := t.detect(head)
	return format, m == strongMatch
}

// decompress undoes gzip when the content starts with its magic bytes.
func decompress(br *bufio.Reader) (*bufio.Reader, error) {
	if !content.IsGzip(br) {
		return br, nil
	}
	r, err := content.Decompress(br)
	if err != nil {
		return nil, err
	}
	return bufio.NewReaderSize(r, 64<<10), nil
}

// readAhead is decompress for a report to parse: a file of aheadMin bytes
// or more is read, and its gzip undone, ahead of the parser (see ahead),
// which the caller closes once the parsing is over; the parser's reads
// still fail once ctx is done, whatever was read ahead. Standard input and
// other readers are read by the parser's goroutine: their reads may not
// end.
func readAhead(br *bufio.Reader, size int64, ctx context.Context) (*bufio.Reader, *ahead, error) {
	var r io.Reader = br
	if content.IsGzip(br) {
		zr, err := content.Decompress(br)
		if err != nil {
			return nil, nil, err
		}
		r = zr
	} else if size < aheadMin || serial {
		return br, nil, nil
	}
	if size < aheadMin || serial {
		return bufio.NewReaderSize(r, 64<<10), nil, nil
	}
	a := newAhead(r)
	r = a
	if ctx != nil {
		r = ctxReader{ctx, a}
	}
	return bufio.NewReaderSize(r, 64<<10), a, nil
}

// inputTags gives each source a short tag for finding ids, lengthened until
// no two sources share one.
func inputTags(srcs []source) []string {
	names := make([]string, len(srcs))
	for i, s := range srcs {
		names[i] = s.name
	}
	return InputTags(names)
}

// InputTags gives the tags of the findings' ids of the inputs named so, in
// the order read (a run's Inputs, by their Path): each input's own, so
// that a finding's id tells its input.
func InputTags(names []string) []string {
	tags := make([]string, len(names))
	for n := 4; ; n += 2 {
		seen := map[string]bool{}
		dup := false
		for i, name := range names {
			tags[i] = reports.InputTag(fmt.Sprintf("%d:%s", i, name), n)
			if seen[tags[i]] {
				dup = true
			}
			seen[tags[i]] = true
		}
		if !dup || n >= 40 {
			return tags
		}
	}
}

func readOne(src source, tag string, opts ReadOptions, emit func(reports.Finding) error) (reports.Input, error) {
	in := reports.Input{Path: src.name}
	if src.err != nil {
		in.Error = fmt.Sprintf("%s: %v", src.name, content.PathErr(src.err))
		return in, nil
	}
	b, err := openBody(src, opts)
	if err != nil {
		in.Error = err.Error()
		return in, nil
	}
	defer b.close()
	format := opts.Format
	if format == "" {
		if format, err = b.detect(src.name, opts.formats()); err != nil {
			in.Error = err.Error()
			return in, nil
		}
	}
	p, err := opts.formats().parser(format, Options{Name: src.name, Root: opts.Root, FS: opts.FS, Sources: opts.Sources})
	if err != nil {
		in.Error = src.name + ": " + err.Error()
		return in, nil
	}
	h := &hander{opts: &opts, tag: tag, emit: emit}
	if opts.Runs {
		h.run = &reports.Run{Raise: format == FormatCodeClimate} // its severities are a step below the tool's (see reports.Run)
	}
	got, err := h.parse(p, b.r, format != FormatSARIF)
	if err != nil && err != h.emitErr && opts.Context != nil && opts.Context.Err() != nil {
		err = stoppedErr(err, opts.Context.Err())
	}
	if h.occ.capped {
		got.Warn(fmt.Sprintf("more than %d distinct fingerprints: the occurrences of further findings are not counted, and their fingerprints may repeat", maxOccurrences))
	}
	got.Path = src.name
	got.Run = h.run
	if err != nil && h.emitErr != nil && errors.Is(err, h.emitErr) {
		return got, h.emitErr
	}
	if err == nil {
		err = drain(src.name, b.br)
	}
	if err != nil && src.found && errors.Is(err, errSpotBugsXdoc) {
		// Found by a search, spotbugs-maven-plugin's xdoc report lies
		// beside the XML report it was made from: left out with a word,
		// as recap's own outputs are, not an error of the run.
		got.Warn("spotbugs-maven-plugin's xdoc report, which names no source files: not read (spotbugsXml.xml beside it is the report to read; name this file to see why)")
		return got, nil
	}
	if err != nil {
		got.Error = err.Error()
	}
	return got, nil
}

// body is an input opened for its parser: its reader (r: its line ends
// before the white space skipped given again), the buffer it is read
// through (br), and what closes them.
type body struct {
	r      io.Reader
	br     *bufio.Reader
	closes []func()
}

func (b *body) close() {
	for i := len(b.closes) - 1; i >= 0; i-- {
		b.closes[i]()
	}
}

// openBody opens an input for its parser: its context and wrapper on the
// file, a pooled buffer, gzip undone and large files read ahead, the white
// space at its start skipped. Its error names the input.
func openBody(src source, opts ReadOptions) (*body, error) {
	r, size, closeFn, err := openSource(src, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", src.name, content.PathErr(err))
	}
	b := &body{closes: []func(){closeFn}}
	if opts.Context != nil {
		r = ctxReader{opts.Context, r}
	}
	if opts.Wrap != nil {
		r = opts.Wrap(r, src.name, size)
	}
	raw := readers.Get().(*bufio.Reader)
	raw.Reset(r)
	b.closes = append(b.closes, func() { raw.Reset(nil); readers.Put(raw) })
	br, ah, err := readAhead(raw, size, opts.Context)
	if err != nil {
		b.close()
		return nil, fmt.Errorf("%s: %v", src.name, err)
	}
	if ah != nil {
		b.closes = append(b.closes, ah.close)
	}
	b.r, b.br = br, br
	if lines, skipped := pastSpace(br); skipped {
		b.r = io.MultiReader(&lineEnds{n: lines}, br) // the parser counts the lines as they were
	}
	return b, nil
}

// detect detects the body's format from its first bytes; the error says
// the input is empty or of no format of the table.
func (b *body) detect(name string, t formatTable) (Format, error) {
	head, _ := b.br.Peek(SniffLen)
	f, m := t.detect(head)
	if m != noMatch {
		return f, nil
	}
	if len(strings.TrimSpace(string(head))) == 0 {
		return "", &ParseError{Input: name, Offset: 0, Err: ErrEmpty}
	}
	return "", errors.New(name + ": " + t.errUnknownFormat())
}

// stoppedErr is the error of a reading stopped by its context, whatever
// the parser made of the end of its input (an XML scanner sees the end of
// the document).
func stoppedErr(err, ctxErr error) error {
	var pe *ParseError
	if errors.As(err, &pe) && !errors.Is(err, ctxErr) {
		stopped := *pe
		stopped.Err = fmt.Errorf("reading stopped: %w", ctxErr)
		return &stopped
	}
	return err
}

// hander numbers the findings of one input, gives them their
// fingerprints, asks Keep about them and hands them on.
type hander struct {
	opts    *ReadOptions
	tag     string
	emit    func(reports.Finding) error
	emitErr error           // what emit returned
	n       int             // the findings so far: ids number every finding of the input, kept or not
	asked   reports.Finding // what Keep is asked about: one copy, not one a finding on the heap
	occ     occurrences
	run     *reports.Run
}

// hand takes one finding of the parser.
func (h *hander) hand(f reports.Finding, partial map[string]string) error {
	// The fingerprint is the finding's as the report gives it, and its
	// occurrence counts every result of its identity (kept or not,
	// suppressed or not), so that a finding has the same fingerprint
	// whatever the filters and options.
	fp := ""
	if !h.opts.NoFingerprints {
		fp = h.occ.fingerprint(&f, partial)
	}
	uncounted := f.Uncounted()
	if uncounted && !h.opts.Uncounted {
		return nil
	}
	if f.RuleName == f.Rule {
		f.RuleName = "" // a name that is the id says nothing more
	}
	if !uncounted {
		h.n++
		if h.run != nil {
			h.run.Add(&f)
		}
	}
	if !uncounted {
		f.ID = reports.ID(h.tag, h.n)
	}
	if h.opts.Keep != nil {
		h.asked = f
		if !h.opts.Keep(&h.asked) {
			return nil
		}
		f = h.asked
	}
	f.Fingerprint = fp
	if e := h.emit(f); e != nil {
		h.emitErr = e
		return e
	}
	return nil
}

// parse runs the parser over r. The findings are numbered, asked about
// and handed on by a goroutine of their own while the parser reads on
// (see pipe), in the order the parser gives them, when piped. The SARIF
// reader converts its results on a goroutine of its own (convPipe), which
// hands them on itself: the reading of tokens is the longer half there.
func (h *hander) parse(p Parser, r io.Reader, piped bool) (reports.Input, error) {
	out := newPipe(func(it *emitItem) error { return h.hand(it.f, it.partial) })
	defer out.stop()
	got, err := p.Parse(r, func(f reports.Finding, partial map[string]string) error {
		if !piped {
			return h.hand(f, partial)
		}
		it := out.slot()
		it.f, it.partial = f, partial
		if !out.push() {
			return out.finish()
		}
		return nil
	})
	if out.finish() != nil {
		err = h.emitErr
	}
	return got, err
}

// emitItem is a finding on its way from a parser to the reader's caller.
type emitItem struct {
	f       reports.Finding
	partial map[string]string
}

// readers are the buffers inputs are read through, one an input at a
// time: thousands of small reports do not each allocate one.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

// occurrences numbers the findings of one input by their identity: the
// n-th finding of an identity gets the fingerprint identity:n
// ([reports.Occurrence]), so that no two findings of a tool's report share
// one. A finding of recap's own SARIF keeps the fingerprint it was written
// with (reports.SARIFFingerprintKey), which its occurrence is already part
// of, even when another finding has it too: recap's SARIF of several
// reports of one tool writes each finding with its own report's
// occurrence, and a finding that two reports share is there twice, as
// "identity:1" both times; read back, it matches those reports finding for
// finding. A finding of the tool's own fingerprints after them takes the
// first occurrence none took.
type occurrences struct {
	seen   identities         // identity → the occurrences counted
	taken  map[[2]uint64]bool // identity and occurrence given by recap's SARIF (nil: none)
	capped bool               // past maxOccurrences identities: further ones are not counted

	// The identities of the findings of the last path, by their tool, rule
	// and message: half the findings of Spring's PMD SARIF repeat an
	// identity of their file (a rule's message twice in one file), and a
	// report lists a file's findings together, so each is hashed once.
	lastPath string
	ofPath   map[identityKey]uint64
}

// identityKey is what makes a finding's identity besides its path, when
// it has no partial fingerprints (see reports.FingerprintSum).
type identityKey struct{ tool, rule, message string }

// maxOfPath bounds the identities kept of one path.
const maxOfPath = 1024

// maxOccurrences bounds the identities counted in one input (a word and a
// count each): real reports have a few hundred thousand findings.
const maxOccurrences = 1 << 22

func (o *occurrences) fingerprint(f *reports.Finding, partial map[string]string) string {
	if v, ok := partial[reports.SARIFFingerprintKey]; ok && len(partial) == 1 {
		if fp := reports.NormalFingerprint(v); validFingerprint(fp) {
			id, n := reports.SplitFingerprint(fp)
			sum, _ := strconv.ParseUint(id, 16, 64)
			if c := o.seen.at(sum, false); c == nil || int(*c) < n {
				if o.taken == nil {
					o.taken = map[[2]uint64]bool{}
				}
				if len(o.taken) < maxOccurrences {
					o.taken[[2]uint64{sum, uint64(n)}] = true
				}
				return fp
			}
			return o.next(sum)
		}
	}
	return o.next(o.sum(f, partial))
}

// sum returns reports.FingerprintSum(*f, partial), hashing the identity
// once while the findings are of one path.
func (o *occurrences) sum(f *reports.Finding, partial map[string]string) uint64 {
	if len(partial) > 0 {
		return reports.FingerprintSum(*f, partial)
	}
	if o.ofPath == nil || f.Path != o.lastPath || len(o.ofPath) >= maxOfPath {
		if o.ofPath == nil || len(o.ofPath) > 64 {
			o.ofPath = make(map[identityKey]uint64, 16) // a map grown large would take long to clear
		} else {
			clear(o.ofPath)
		}
		o.lastPath = f.Path
	}
	k := identityKey{f.Tool, f.Rule, f.Message}
	if sum, ok := o.ofPath[k]; ok {
		return sum
	}
	sum := reports.FingerprintSum(*f, nil)
	o.ofPath[k] = sum
	return sum
}

// next counts one more finding of the identity sum and returns its
// fingerprint: its first occurrence not taken.
func (o *occurrences) next(sum uint64) string {
	p := o.seen.at(sum, true)
	if p == nil {
		o.capped = true
		return reports.FingerprintHex(sum)
	}
	c := *p + 1
	for o.taken != nil && o.taken[[2]uint64{sum, uint64(c)}] {
		c++
	}
	*p = c
	return reports.FingerprintOf(sum, int(c))
}

// validFingerprint reports whether fp has the form of recap's fingerprints:
// 16 lower-case hex digits, and its occurrence after a colon.
func validFingerprint(fp string) bool {
	id, _ := reports.SplitFingerprint(fp)
	if len(id) != 16 {
		return false
	}
	for _, c := range id {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// drain reads what a parser left of its input once the report ended, to
// the end: a gzip stream checks its checksum only there (a corrupt .gz
// whose report parsed would pass), and bytes a parser did not reach (it
// reads a format's end itself and refuses what follows) must be blank.
func drain(name string, br *bufio.Reader) error {
	for {
		b, err := br.Peek(br.Size()) // the reader's own buffer: nothing allocated
		if i := bytes.IndexFunc(b, func(r rune) bool { return !unicode.IsSpace(r) }); i >= 0 {
			return &ParseError{Input: name, Offset: -1, Err: errors.New("content after the end of the report")}
		}
		br.Discard(len(b))
		switch {
		case err == io.EOF:
			return nil
		case err != nil:
			return &ParseError{Input: name, Offset: -1, Err: err}
		}
	}
}

func openSource(src source, opts ReadOptions) (io.Reader, int64, func(), error) {
	if src.r != nil {
		return src.r, -1, func() {}, nil
	}
	if src.name == "-" {
		if opts.Stdin == nil {
			return nil, 0, nil, errors.New("no standard input")
		}
		return opts.Stdin, -1, func() {}, nil
	}
	open := opts.Open
	if open == nil {
		open = content.Open
	}
	f, st, err := open(src.name)
	if err != nil {
		return nil, 0, nil, err
	}
	return f, st.Size(), func() { f.Close() }, nil
}

// ctxReader fails its reads with the context's error once it is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
