package diff

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
	"github.com/recap-dev/recap/internal/content"
)

// Parse reads unified diff text: git's (extended headers, renames, copies,
// modes, binary files, C-quoted names), and plain diffs (diff -u, svn),
// whose a/ and b/ prefixes it strips as patch -p1 does. name names the
// input in errors, which give the line of the malformed text. Gzip
// compressed text is undone first. A file whose hunks hold more than
// MaxHunkLines lines is kept as [Large].
func Parse(name string, r io.Reader) ([]File, error) {
	var files []File
	err := ParseEach(name, r, func(f *File) error {
		files = append(files, *f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if files == nil {
		files = []File{}
	}
	return files, nil
}

// ParseEach reads unified diff text as [Parse] does, giving each file to
// each as soon as its last hunk is read, and keeping nothing of it: what
// it holds is one file's hunks (at most MaxHunkLines lines; past them the
// file's counts and changed lines). An error of each stops the read.
//
// go-gitdiff reads each file's header (names, quoting, modes, renames),
// one file at a time; the hunks are read here, line by line, with its
// checks and messages.
func ParseEach(name string, r io.Reader, each func(*File) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: reading the diff failed: %v (please report it: it is a bug)", name, p)
		}
	}()
	r, err = content.Decompress(bufio.NewReaderSize(r, 64<<10))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	p := &streamParser{lr: &lineQueue{src: &diffLines{r: bufio.NewReaderSize(r, 64<<10)}}, each: each}
	if err := p.run(); err != nil {
		return fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "gitdiff: "))
	}
	return nil
}

// lineQueue gives the lines of a diff with a look ahead of a few lines.
type lineQueue struct {
	src      *diffLines
	buf      []string // read ahead; buf[0] is the current line
	eof      bool
	consumed int // lines moved past
}

// peek returns the line k lines ahead of the current one, "" past the end.
func (q *lineQueue) peek(k int) (string, error) {
	for len(q.buf) <= k && !q.eof {
		line, err := q.src.ReadString('\n')
		if err != nil && err != io.EOF {
			return "", err
		}
		if line == "" {
			q.eof = true
			break
		}
		q.buf = append(q.buf, line)
		if err == io.EOF {
			q.eof = true
		}
	}
	if k < len(q.buf) {
		return q.buf[k], nil
	}
	return "", nil
}

// next moves past the current line.
func (q *lineQueue) next() {
	if len(q.buf) > 0 {
		q.buf[0] = ""
		q.buf = q.buf[1:]
		q.consumed++
	}
}

// line is the number of the current line.
func (q *lineQueue) line() int { return q.consumed + 1 }

// streamParser reads a diff a file at a time.
type streamParser struct {
	lr    *lineQueue
	each  func(*File) error
	files int
	junk  bool // text that is not white space before the first file
}

func (p *streamParser) errorf(line int, format string, args ...any) error {
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
}

func (p *streamParser) run() error {
	for {
		line, err := p.lr.peek(0)
		if err != nil {
			return err
		}
		if line == "" {
			break
		}
		switch {
		case strings.HasPrefix(line, "@@ -"):
			if frag, err := fragmentHeader(line); err == nil {
				return p.errorf(p.lr.line(), "patch fragment without file header: %s", fragmentString(frag))
			}
		case strings.HasPrefix(line, "diff --git "):
			if err := p.file(true); err != nil {
				return err
			}
			continue
		default:
			trad, err := p.traditional()
			if err != nil {
				return err
			}
			if trad {
				if err := p.file(false); err != nil {
					return err
				}
				continue
			}
		}
		if p.files == 0 && strings.TrimSpace(line) != "" {
			p.junk = true
		}
		p.lr.next()
	}
	if p.files == 0 && p.junk {
		return p.errorf(1, "no file header (diff --git, or --- and +++ lines) found: is it a unified diff?")
	}
	return nil
}

// traditional reports whether a plain diff's file header starts here:
// --- and +++ lines, then a hunk header.
func (p *streamParser) traditional() (bool, error) {
	const shortestValidFragHeader = "@@ -1 +1 @@\n"
	l0, err := p.lr.peek(0)
	if err != nil || !strings.HasPrefix(l0, "--- ") {
		return false, err
	}
	l1, err := p.lr.peek(1)
	if err != nil || !strings.HasPrefix(l1, "+++ ") {
		return false, err
	}
	l2, err := p.lr.peek(2)
	if err != nil {
		return false, err
	}
	return len(l2) >= len(shortestValidFragHeader) && strings.HasPrefix(l2, "@@ -"), nil
}

// gitHeaderLines are the lines of git's extended header (go-gitdiff's
// parseGitHeaderData).
var gitHeaderLines = []string{"--- ", "+++ ", "old mode ", "new mode ", "deleted file mode ", "new file mode ",
	"copy from ", "copy to ", "rename old ", "rename new ", "rename from ", "rename to ",
	"similarity index ", "dissimilarity index ", "index "}

func isGitHeaderLine(line string) bool {
	for _, p := range gitHeaderLines {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// file reads one file: its header (git's, or a plain diff's), then its
// hunks or its binary patch.
func (p *streamParser) file(git bool) error {
	start := p.lr.line()
	var header strings.Builder
	if git {
		l, _ := p.lr.peek(0)
		header.WriteString(l)
		p.lr.next()
		for {
			l, err := p.lr.peek(0)
			if err != nil {
				return err
			}
			if l == "" || !isGitHeaderLine(l) {
				break
			}
			header.WriteString(l)
			p.lr.next()
		}
	} else {
		for range 2 {
			l, _ := p.lr.peek(0)
			header.WriteString(l)
			p.lr.next()
		}
	}
	g, err := parseHeader(header.String(), git, start)
	if err != nil {
		return err
	}
	f := convertHeader(g, git)
	b := fileBuilder{f: &f}
	for {
		l, err := p.lr.peek(0)
		if err != nil {
			return err
		}
		if !strings.HasPrefix(l, "@@ -") {
			break
		}
		h, err := p.hunk(g)
		if err != nil {
			return err
		}
		b.add(h)
	}
	if b.hunks == 0 {
		if err := p.binary(&f); err != nil {
			return err
		}
	}
	p.files++
	return p.each(&f)
}

// gitdiffLine is go-gitdiff's "gitdiff: line N: …".
var gitdiffLine = regexp.MustCompile(`^gitdiff: line (\d+): `)

// parseHeader has go-gitdiff read one file's header, which starts on line
// start; its errors are given the line in the whole diff.
func parseHeader(text string, git bool, start int) (*gitdiff.File, error) {
	// A plain diff's header is one only before a hunk, which is made up
	// here: of lines deleted and added, of lines added to a new file, or
	// of lines deleted from a deleted one (go-gitdiff tells these apart by
	// the names and times).
	tries := []string{""}
	if !git {
		tries = []string{"@@ -1 +1 @@\n-\n+\n", "@@ -0,0 +1 @@\n+\n", "@@ -1 +0,0 @@\n-\n"}
	}
	var err error
	for _, frag := range tries {
		var files []*gitdiff.File
		files, _, err = gitdiff.Parse(strings.NewReader(text + frag))
		if err == nil && len(files) == 1 {
			files[0].TextFragments = nil
			return files[0], nil
		}
		if err == nil {
			return nil, fmt.Errorf("line %d: not a file header", start)
		}
		if !strings.Contains(err.Error(), "depends on old contents") && !strings.Contains(err.Error(), "still has contents") {
			break
		}
	}
	msg := err.Error()
	if m := gitdiffLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		msg = fmt.Sprintf("line %d: %s", start+n-1, msg[len(m[0]):])
	}
	return nil, fmt.Errorf("%s", msg)
}

// fragment is a hunk header's ranges.
type fragment struct {
	oldPos, oldLines, newPos, newLines int64
	comment                            string
}

func fragmentString(f fragment) string {
	s := fmt.Sprintf("@@ -%s +%s @@", rangeString(f.oldPos, f.oldLines), rangeString(f.newPos, f.newLines))
	if f.comment != "" {
		s += " " + f.comment
	}
	return s
}

func rangeString(pos, n int64) string {
	if n == 1 {
		return strconv.FormatInt(pos, 10)
	}
	return strconv.FormatInt(pos, 10) + "," + strconv.FormatInt(n, 10)
}

// fragmentHeader reads "@@ -a,b +c,d @@ comment" as go-gitdiff does.
func fragmentHeader(line string) (fragment, error) {
	const startMark, endMark = "@@ -", " @@"
	var f fragment
	parts := strings.SplitAfterN(line, endMark, 2)
	if len(parts) < 2 {
		return f, fmt.Errorf("invalid fragment header")
	}
	f.comment = strings.TrimSpace(parts[1])
	header := parts[0][len(startMark) : len(parts[0])-len(endMark)]
	ranges := strings.Split(header, " +")
	if len(ranges) != 2 {
		return f, fmt.Errorf("invalid fragment header")
	}
	var err error
	if f.oldPos, f.oldLines, err = parseRange(ranges[0]); err != nil {
		return f, fmt.Errorf("invalid fragment header: %v", err)
	}
	if f.newPos, f.newLines, err = parseRange(ranges[1]); err != nil {
		return f, fmt.Errorf("invalid fragment header: %v", err)
	}
	return f, nil
}

func parseRange(s string) (start, n int64, err error) {
	parts := strings.SplitN(s, ",", 2)
	if start, err = strconv.ParseInt(parts[0], 10, 64); err != nil {
		return 0, 0, fmt.Errorf("bad start of range: %s: %v", parts[0], err.(*strconv.NumError).Err)
	}
	n = 1
	if len(parts) > 1 {
		if n, err = strconv.ParseInt(parts[1], 10, 64); err != nil {
			return 0, 0, fmt.Errorf("bad end of range: %s: %v", parts[1], err.(*strconv.NumError).Err)
		}
	}
	return start, n, nil
}

func isNoNewlineMarker(s string) bool { return len(s) >= 12 && s[:2] == "\\ " }

// hunk reads one hunk, with go-gitdiff's checks: its lines' operations,
// their count against the header's, a change in it.
func (p *streamParser) hunk(g *gitdiff.File) (Hunk, error) {
	headerLine := p.lr.line()
	line, _ := p.lr.peek(0)
	frag, err := fragmentHeader(line)
	if err != nil {
		return Hunk{}, p.errorf(headerLine, "%v", err)
	}
	p.lr.next()
	if g.IsNew && frag.oldLines > 0 {
		return Hunk{}, p.errorf(headerLine, "new file depends on old contents")
	}
	if g.IsDelete && frag.newLines > 0 {
		return Hunk{}, p.errorf(headerLine, "deleted file still has contents")
	}
	h := Hunk{OldStart: int(frag.oldPos), OldLines: int(frag.oldLines), NewStart: int(frag.newPos), NewLines: int(frag.newLines)}
	if l, err := p.lr.peek(0); err != nil {
		return h, err
	} else if l == "" {
		return h, p.errorf(p.lr.line(), "no content following fragment header")
	}
	oldN, newN := h.OldStart, h.NewStart
	oldLeft, newLeft := frag.oldLines, frag.newLines
	changes := 0
	noNewline := func() {
		if n := len(h.Lines); n > 0 {
			h.Lines[n-1].NoEOL = true
		}
	}
	for oldLeft > 0 || newLeft > 0 {
		line, err := p.lr.peek(0)
		if err != nil {
			return h, err
		}
		if line == "" { // the end of the input
			break
		}
		text := strings.TrimSuffix(line[1:], "\n")
		l := Line{Text: text, NoEOL: !strings.HasSuffix(line, "\n")}
		switch line[0] {
		case '\n', ' ':
			if line[0] == '\n' {
				l.Text, l.NoEOL = "", false
			}
			l.Kind, l.Old, l.New = Context, oldN, newN
			oldN++
			newN++
			oldLeft--
			newLeft--
		case '-':
			l.Kind, l.Old = Delete, oldN
			oldN++
			oldLeft--
			changes++
		case '+':
			l.Kind, l.New = Add, newN
			newN++
			newLeft--
			changes++
		case '\\':
			if isNoNewlineMarker(line) {
				noNewline()
				p.lr.next()
				continue
			}
			fallthrough
		default:
			return h, p.errorf(p.lr.line(), "invalid line operation: %q", line[0])
		}
		h.Lines = append(h.Lines, l)
		p.lr.next()
	}
	if oldLeft != 0 || newLeft != 0 {
		return h, p.errorf(headerLine, "fragment header miscounts lines: %+d old, %+d new", -oldLeft, -newLeft)
	}
	if changes == 0 {
		return h, p.errorf(p.lr.line(), "fragment contains no changes")
	}
	if l, err := p.lr.peek(0); err != nil {
		return h, err
	} else if isNoNewlineMarker(l) {
		noNewline()
		p.lr.next()
	}
	return h, nil
}

// binary reads a binary file's marker and patch, if any: the patch's lines
// are checked as go-gitdiff checks them, and not kept.
func (p *streamParser) binary(f *File) error {
	l, err := p.lr.peek(0)
	if err != nil {
		return err
	}
	switch {
	case l == "GIT binary patch\n":
	case strings.HasSuffix(l, " differ\n") && (strings.HasPrefix(l, "Binary files ") || strings.HasPrefix(l, "Files ")):
		f.Binary = true
		p.lr.next()
		return nil
	default:
		return nil
	}
	f.Binary = true
	p.lr.next()
	for i := 0; i < 2; i++ {
		ok, err := p.binaryFragment()
		if err != nil {
			return err
		}
		if !ok {
			if i == 0 {
				return p.errorf(p.lr.line(), "missing data for binary patch")
			}
			break
		}
	}
	return nil
}

// binaryFragment reads "literal N" or "delta N" and its base85 lines, up
// to the blank line that ends them; false when no fragment starts here.
func (p *streamParser) binaryFragment() (bool, error) {
	l, err := p.lr.peek(0)
	if err != nil {
		return false, err
	}
	method, size, found := strings.Cut(strings.TrimSuffix(l, "\n"), " ")
	if !found || method != "delta" && method != "literal" {
		return false, nil
	}
	n, err := strconv.ParseInt(size, 10, 64)
	if err != nil {
		return false, p.errorf(p.lr.line(), "binary patch: invalid size: %v", err.(*strconv.NumError).Err)
	}
	if n < 0 {
		return false, p.errorf(p.lr.line(), "binary patch: invalid size: %d", n)
	}
	p.lr.next()
	for {
		line, err := p.lr.peek(0)
		if err != nil {
			return false, err
		}
		if line == "\n" {
			break
		}
		if line == "" {
			return false, p.errorf(p.lr.line(), "binary patch: corrupt data line")
		}
		if len(line) < len("A00000\n") || (len(line)-2)%5 != 0 {
			return false, p.errorf(p.lr.line(), "binary patch: corrupt data line")
		}
		count, seq := int(line[0]), line[1:len(line)-1]
		switch {
		case 'A' <= count && count <= 'Z':
			count = count - 'A' + 1
		case 'a' <= count && count <= 'z':
			count = count - 'a' + 27
		default:
			return false, p.errorf(p.lr.line(), "binary patch: invalid length byte")
		}
		if most := len(seq) / 5 * 4; count > most || count < most-3 {
			return false, p.errorf(p.lr.line(), "binary patch: incorrect byte count")
		}
		for i := 0; i < len(seq); i++ {
			if !isBase85(seq[i]) {
				return false, p.errorf(p.lr.line(), "binary patch: invalid base85 byte at index %d: 0x%X", i, seq[i])
			}
		}
		p.lr.next()
		if l, _ := p.lr.peek(0); l == "" {
			return false, p.errorf(p.lr.line(), "binary patch: unexpected EOF")
		}
	}
	p.lr.next() // the blank line
	return true, nil
}

func isBase85(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || strings.IndexByte("!#$%&()*+-;<=>?@^_`{|}~", c) >= 0
}

// convertHeader makes a File of a header go-gitdiff read; git says it
// was git's (whose a/ and b/ go-gitdiff has dropped already: a path that
// begins "a/" is the file's own).
func convertHeader(g *gitdiff.File, git bool) File {
	f := File{OldPath: g.OldName, NewPath: g.NewName, OldMode: uint32(g.OldMode), NewMode: uint32(g.NewMode), Binary: g.IsBinary}
	if f.NewMode == 0 {
		f.NewMode = f.OldMode // go-gitdiff leaves NewMode 0 when the mode did not change
	}
	switch {
	case g.IsNew:
		f.Status, f.OldPath = Added, ""
	case g.IsDelete:
		f.Status, f.NewPath = Deleted, ""
	case g.IsRename:
		f.Status = Renamed
	case g.IsCopy:
		f.Status = Copied
	default:
		f.Status = Modified
	}
	if !git {
		stripPrefixes(&f)
	}
	return f
}

// fileBuilder gathers a file's hunks, and past MaxHunkLines lines keeps
// only its counts and changed lines (see Large).
type fileBuilder struct {
	f     *File
	hunks int
	lines int
}

func (b *fileBuilder) add(h Hunk) {
	b.hunks++
	b.lines += len(h.Lines)
	f := b.f
	if f.Large == nil && b.lines > MaxHunkLines {
		f.Summarize()
	}
	if f.Large != nil {
		f.Large.add(&h, true)
		return
	}
	f.Hunks = append(f.Hunks, h)
}
