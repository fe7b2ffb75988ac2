package diff

import (
	"bytes"
	"encoding/binary"
	"sort"
	"sync"
)

// Index holds the changed lines of the head revision: path → its added
// lines (a modified line is a deleted one and an added one), leaving out
// what changed in whitespace only: blank lines, and lines that only moved
// in indentation or spacing, as git diff -w --ignore-blank-lines leaves
// them out. It is made to hold a diff of millions of files and lines in
// little memory: the paths one after another in one buffer, the lines as
// runs, each two varints (the gap from the run before, the length) in
// another, about 20 bytes a file and 3 a run; the files are sorted by path
// when it is first asked. It is safe for concurrent use once made.
type Index struct {
	kind    indexKind
	names   []byte
	runs    []byte
	big     [][]span // the runs of files that have many
	entries []indexEntry
	once    sync.Once // sorts the entries, once they are all added
}

// indexEntry is one path of an index.
type indexEntry struct {
	name, nameLen uint32 // names[name:name+nameLen]
	// at and n: the file's runs are runs[at:at+n]; or, with bigRuns,
	// big[at].
	at, n uint32
	flags uint8
}

const (
	wholeFile = 1 << iota // every line counts
	bigRuns               // the runs are in big
)

// manyRuns is how many runs a file may have before they are kept as
// spans, searched by halves, rather than varints read in order.
const manyRuns = 64

// span is the lines from to to, both included.
type span struct{ from, to int32 }

// indexKind says which lines an index keeps.
type indexKind int

const (
	changedKind indexKind = iota // NewIndex
	addedKind                    // NewAddedIndex
	contextKind                  // NewContextIndex
	fileKind                     // NewFileIndex
)

func newIndex(kind indexKind, files []File) *Index {
	x := &Index{kind: kind}
	for i := range files {
		x.Add(&files[i])
	}
	return x
}

// NewIndex indexes the changed lines of files.
func NewIndex(files []File) *Index { return newIndex(changedKind, files) }

// NewAddedIndex indexes every added line of the files' hunks, whitespace-only
// changes included, as git diff and reviewdog's filter-mode=added count them.
func NewAddedIndex(files []File) *Index { return newIndex(addedKind, files) }

// NewContextIndex indexes every line the files' hunks show on the new
// side, context lines included, as reviewdog's filter-mode=diff_context
// does: where a review may comment.
func NewContextIndex(files []File) *Index { return newIndex(contextKind, files) }

// NewFileIndex counts every line of every file the diff changed (added,
// modified, renamed, copied; not deleted), and a file's findings without a
// line too, as reviewdog's filter-mode=file does.
func NewFileIndex(files []File) *Index { return newIndex(fileKind, files) }

// Add indexes one more file, as the index's constructor indexes each of
// its files: an index is made a file at a time as a diff streams. A large
// file counts its runs; one not diffed counts whole. All files are added
// before the index is first asked.
func (x *Index) Add(f *File) {
	p := f.NewPath
	if p == "" {
		return
	}
	if x.kind == fileKind || f.Large != nil && !f.Large.Diffed {
		x.add(p, nil, true)
		return
	}
	var nums []int
	var runs []Run
	switch x.kind {
	case changedKind:
		switch {
		case f.Changed != nil:
			nums = f.Changed
		case f.Large != nil && f.Large.ChangedRuns != nil:
			runs = f.Large.ChangedRuns
		case f.Large != nil: // the hunks are not kept: every added line
			runs = f.Large.AddedRuns
		default:
			for hi := range f.Hunks {
				nums = f.Hunks[hi].changedLines(nums)
			}
		}
	case addedKind:
		if f.Large != nil {
			runs = f.Large.AddedRuns
		}
		for hi := range f.Hunks {
			h := &f.Hunks[hi]
			n := h.NewStart
			for _, l := range h.Lines {
				switch l.Kind {
				case Add:
					nums = append(nums, n)
					n++
				case Context:
					n++
				}
			}
		}
	case contextKind:
		if f.Large != nil {
			runs = f.Large.HunkRuns
		}
		for hi := range f.Hunks {
			h := &f.Hunks[hi]
			if h.NewLines > 0 {
				runs = appendRun(runs, h.NewStart, h.NewStart+h.NewLines-1)
			}
		}
	}
	if len(nums) == 0 && len(runs) == 0 {
		return
	}
	var sp []span
	for _, r := range runs {
		sp = append(sp, span{int32(r.From), int32(r.To)})
	}
	if !sort.IntsAreSorted(nums) {
		nums = append([]int(nil), nums...)
		sort.Ints(nums)
	}
	for _, n := range nums {
		if k := len(sp); k > 0 && int(sp[k-1].to)+1 == n {
			sp[k-1].to++
		} else {
			sp = append(sp, span{int32(n), int32(n)})
		}
	}
	x.add(p, normalize(sp), false)
}

// add adds an entry for path with its runs (sorted, apart).
func (x *Index) add(path string, sp []span, whole bool) {
	e := indexEntry{name: uint32(len(x.names)), nameLen: uint32(len(path))}
	x.names = append(x.names, path...)
	if whole {
		e.flags |= wholeFile
	}
	x.setRuns(&e, sp)
	x.entries = append(x.entries, e)
}

// setRuns stores an entry's runs.
func (x *Index) setRuns(e *indexEntry, sp []span) {
	if len(sp) > manyRuns {
		e.flags |= bigRuns
		e.at, e.n = uint32(len(x.big)), 0
		x.big = append(x.big, sp)
		return
	}
	e.flags &^= bigRuns
	e.at = uint32(len(x.runs))
	prev := int32(0)
	for _, r := range sp {
		x.runs = binary.AppendUvarint(x.runs, uint64(r.from-prev))
		x.runs = binary.AppendUvarint(x.runs, uint64(r.to-r.from))
		prev = r.to
	}
	e.n = uint32(len(x.runs)) - e.at
}

// spansOf decodes an entry's runs.
func (x *Index) spansOf(e *indexEntry) []span {
	if e == nil {
		return nil
	}
	if e.flags&bigRuns != 0 {
		return x.big[e.at]
	}
	var out []span
	b := x.runs[e.at : e.at+e.n]
	prev := int32(0)
	for len(b) > 0 {
		gap, n := binary.Uvarint(b)
		length, m := binary.Uvarint(b[n:])
		b = b[n+m:]
		from := prev + int32(gap)
		out = append(out, span{from, from + int32(length)})
		prev = from + int32(length)
	}
	return out
}

// normalize sorts spans and joins those that overlap or touch.
func normalize(sp []span) []span {
	if !sort.SliceIsSorted(sp, func(i, j int) bool { return sp[i].from < sp[j].from }) {
		sort.Slice(sp, func(i, j int) bool { return sp[i].from < sp[j].from })
	}
	out := sp[:0]
	for _, s := range sp {
		if k := len(out); k > 0 && s.from <= out[k-1].to+1 {
			out[k-1].to = max(out[k-1].to, s.to)
			continue
		}
		out = append(out, s)
	}
	return out
}

func (x *Index) name(e *indexEntry) []byte { return x.names[e.name : e.name+e.nameLen] }

// sorted sorts the entries by path, once, joining those of a path that
// came more than once.
func (x *Index) sorted() {
	x.once.Do(func() {
		sort.SliceStable(x.entries, func(i, j int) bool {
			return bytes.Compare(x.name(&x.entries[i]), x.name(&x.entries[j])) < 0
		})
		out := x.entries[:0]
		for i := range x.entries {
			e := x.entries[i]
			if k := len(out); k > 0 && bytes.Equal(x.name(&out[k-1]), x.name(&e)) {
				last := &out[k-1]
				last.flags |= e.flags & wholeFile
				x.setRuns(last, normalize(append(x.spansOf(last), x.spansOf(&e)...)))
				continue
			}
			out = append(out, e)
		}
		x.entries = out
	})
}

// of is path's entry, or nil.
func (x *Index) of(path string) *indexEntry {
	if x == nil {
		return nil
	}
	x.sorted()
	i := sort.Search(len(x.entries), func(i int) bool { return string(x.name(&x.entries[i])) >= path })
	if i < len(x.entries) && string(x.name(&x.entries[i])) == path {
		return &x.entries[i]
	}
	return nil
}

// Files is how many files have changed lines.
func (x *Index) Files() int {
	if x == nil {
		return 0
	}
	x.sorted()
	n := 0
	for i := range x.entries {
		if e := &x.entries[i]; e.flags&wholeFile != 0 || e.n > 0 || e.flags&bigRuns != 0 {
			n++
		}
	}
	return n
}

// Changed reports whether path has changed lines, or is a changed file of
// a file index.
func (x *Index) Changed(path string) bool {
	e := x.of(path)
	return e != nil && (e.flags&wholeFile != 0 || e.n > 0 || e.flags&bigRuns != 0)
}

// Lines returns the changed lines of path, sorted (none for a nil index,
// nor for a file every line of which counts).
func (x *Index) Lines(path string) []int {
	var out []int
	for _, s := range x.spansOf(x.of(path)) {
		for n := s.from; n <= s.to; n++ {
			out = append(out, int(n))
		}
	}
	return out
}

// Touches reports whether any line of from..to (to < from means from alone)
// in path changed. A finding without a line (from ≤ 0) touches nothing but
// in a file every line of which counts.
func (x *Index) Touches(path string, from, to int) bool {
	e := x.of(path)
	if e == nil {
		return false
	}
	if e.flags&wholeFile != 0 {
		return true
	}
	if from <= 0 {
		return false
	}
	to = max(to, from)
	if e.flags&bigRuns != 0 {
		sp := x.big[e.at]
		// the first span that ends at or after from
		i := sort.Search(len(sp), func(i int) bool { return int(sp[i].to) >= from })
		return i < len(sp) && int(sp[i].from) <= to
	}
	b := x.runs[e.at : e.at+e.n]
	prev := 0
	for len(b) > 0 {
		gap, n := binary.Uvarint(b)
		length, m := binary.Uvarint(b[n:])
		b = b[n+m:]
		f := prev + int(gap)
		t := f + int(length)
		if t >= from {
			return f <= to
		}
		prev = t
	}
	return false
}
