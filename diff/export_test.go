package diff

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/recap-dev/recap/internal/content"
)

// ParseWhole is the reference ParseEach is checked against: go-gitdiff
// reading the whole diff at once (through the same bounded line reader),
// its files converted as ParseEach converts them, without the large-file
// summary.
func ParseWhole(name string, r io.Reader) ([]File, error) {
	r, err := content.Decompress(bufio.NewReaderSize(r, 64<<10))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	files, preamble, err := gitdiff.Parse(wholeReader{&diffLines{r: bufio.NewReaderSize(r, 64<<10)}})
	if err != nil {
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "gitdiff: "))
	}
	if len(files) == 0 && strings.TrimSpace(preamble) != "" {
		return nil, fmt.Errorf("%s: line 1: no file header (diff --git, or --- and +++ lines) found: is it a unified diff?", name)
	}
	out := make([]File, 0, len(files))
	for _, g := range files {
		f := convertHeader(g, false) // paths compared through SamePrefixes
		for _, tf := range g.TextFragments {
			h := Hunk{OldStart: int(tf.OldPosition), OldLines: int(tf.OldLines), NewStart: int(tf.NewPosition), NewLines: int(tf.NewLines)}
			oldN, newN := h.OldStart, h.NewStart
			for _, l := range tf.Lines {
				line := Line{Text: strings.TrimSuffix(l.Line, "\n"), NoEOL: l.NoEOL()}
				switch l.Op {
				case gitdiff.OpAdd:
					line.Kind, line.New = Add, newN
					newN++
				case gitdiff.OpDelete:
					line.Kind, line.Old = Delete, oldN
					oldN++
				default:
					line.Kind, line.Old, line.New = Context, oldN, newN
					oldN++
					newN++
				}
				h.Lines = append(h.Lines, line)
			}
			f.Hunks = append(f.Hunks, h)
		}
		out = append(out, f)
	}
	return out, nil
}

// wholeReader gives go-gitdiff the bounded line reader.
type wholeReader struct{ d *diffLines }

func (w wholeReader) Read(p []byte) (int, error)            { return w.d.r.Read(p) }
func (w wholeReader) ReadString(delim byte) (string, error) { return w.d.ReadString(delim) }

// NewIndexHashed is NewIndex with hash for the paths' hashes: a test makes
// two paths collide.
func NewIndexHashed(files []File, hash func(string) uint64) *Index {
	x := &Index{kind: changedKind, hash: hash}
	for i := range files {
		x.Add(&files[i])
	}
	return x
}

// SamePrefixes drops every leading a/ and b/ pair of each file's paths,
// as many times as they are there: go-gitdiff read whole does not say
// which files had git's header (whose a/ and b/ it drops itself) and which
// a plain one, so ParseWhole's paths and ParseEach's are compared through
// it (TestGitPathsKeepTheirA checks git's headers' paths).
func SamePrefixes(fs []File) {
	for i := range fs {
		for {
			before := fs[i].OldPath + "\x00" + fs[i].NewPath
			stripPrefixes(&fs[i])
			if fs[i].OldPath+"\x00"+fs[i].NewPath == before {
				break
			}
		}
	}
}

// PackReader reads objects through the pack reader of r's revision diffs:
// read gives an object's type, content and the size its header says, or
// ErrNotPacked when the reader leaves it to go-git; close unmaps the packs.
func PackReader(r *Repo) (read func(plumbing.Hash) (plumbing.ObjectType, []byte, int64, error), close func()) {
	st := r.storage(r.objects)
	ps, ok := st.s.(*packStore)
	if !ok {
		panic("the repository is not read through the pack reader")
	}
	return func(h plumbing.Hash) (plumbing.ObjectType, []byte, int64, error) {
		o, err := ps.packed(plumbing.AnyObject, h)
		if err != nil {
			return 0, nil, 0, err
		}
		sz, err := ps.packedSize(h)
		if err != nil {
			return 0, nil, 0, err
		}
		return o.Type(), o.(*packedObject).data, sz, nil
	}, st.close
}

// ErrNotPacked says the pack reader leaves an object to go-git.
var ErrNotPacked = errNotPacked
