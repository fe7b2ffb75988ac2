package diff

import (
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"slices"
	"sort"
	"sync"
)

// Index holds the changed lines of the head revision: path → its added
// lines (a modified line is a deleted one and an added one), leaving out
// what changed in whitespace only: blank lines, and lines that only moved
// in indentation or spacing, as git diff -w --ignore-blank-lines leaves
// them out. It is made to hold a diff of millions of files and lines in
// little memory: a file is not kept by its path but by a 64-bit hash of it
// (maphash, seeded anew for each index), in an entry of 12 bytes; its lines
// as runs in one buffer, a varint (the runs' length and the flags) then
// two varints a run (the gap from the run before, the length): about 15
// bytes a file of one run and 2 a run more. The entries are sorted by hash
// when it is first asked. It is safe for concurrent use once made.
//
// Two paths whose hashes are equal are one file to the index: a finding in
// one counts on the other's changed lines too. With a random 64-bit seed
// the chance is 2^-64 for a pair of paths (about 10^-6 that any two of six
// million changed files meet, 3·10^-13 that a finding's path meets one),
// and the seed being secret, a diff or a report cannot aim at it: recap
// takes it, rather than keep every path's bytes (six million one-line
// file diffs held 43 bytes a file, 260 MB, with the paths).
type Index struct {
	kind    indexKind
	seed    maphash.Seed
	hash    func(path string) uint64 // for tests: a hash that collides
	runs    []byte
	big     [][]span // the runs of files that have many
	entries []indexEntry
	scratch []span    // Add's spans of a file, reused
	once    sync.Once // sorts the entries, once they are all added
}

// indexEntry is one path of an index: its hash in two halves (12 bytes,
// no padding), and where its runs begin in runs: a varint, head, of the
// runs' length in bytes (or with bigRuns, their place in big) shifted by
// two, and the flags; the runs follow it.
type indexEntry struct {
	lo, hi, at uint32
}

func (e *indexEntry) key() uint64 { return uint64(e.hi)<<32 | uint64(e.lo) }

const (
	wholeFile = 1 << iota // every line counts
	bigRuns               // the runs are in big
	flagBits  = 2
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
	x := &Index{kind: kind, seed: maphash.MakeSeed()}
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
	sp := x.scratch[:0]
	defer func() { x.scratch = sp[:0] }()
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
	h := x.keyOf(path)
	e := indexEntry{lo: uint32(h), hi: uint32(h >> 32)}
	flags := 0
	if whole {
		flags = wholeFile
	}
	x.setRuns(&e, flags, sp)
	x.entries = append(x.entries, e)
}

// keyOf is path's hash.
func (x *Index) keyOf(path string) uint64 {
	if x.hash != nil {
		return x.hash(path)
	}
	return maphash.String(x.seed, path)
}

// setRuns stores an entry's flags and runs.
func (x *Index) setRuns(e *indexEntry, flags int, sp []span) {
	e.at = uint32(len(x.runs))
	if len(sp) > manyRuns {
		x.runs = binary.AppendUvarint(x.runs, uint64(len(x.big))<<flagBits|uint64(flags|bigRuns))
		x.big = append(x.big, slices.Clone(sp))
		return
	}
	var buf [2 * manyRuns * binary.MaxVarintLen32]byte
	b := buf[:0]
	prev := int32(0)
	for _, r := range sp {
		b = binary.AppendUvarint(b, uint64(r.from-prev))
		b = binary.AppendUvarint(b, uint64(r.to-r.from))
		prev = r.to
	}
	x.runs = binary.AppendUvarint(x.runs, uint64(len(b))<<flagBits|uint64(flags))
	x.runs = append(x.runs, b...)
}

// head is an entry's flags, and its runs: those in runs, or with bigRuns
// the place of those in big.
func (x *Index) head(e *indexEntry) (flags int, b []byte, big int) {
	v, n := binary.Uvarint(x.runs[e.at:])
	flags = int(v & (1<<flagBits - 1))
	if flags&bigRuns != 0 {
		return flags, nil, int(v >> flagBits)
	}
	at := int(e.at) + n
	return flags, x.runs[at : at+int(v>>flagBits)], 0
}

// spansOf decodes an entry's runs.
func (x *Index) spansOf(e *indexEntry) []span {
	if e == nil {
		return nil
	}
	flags, b, big := x.head(e)
	if flags&bigRuns != 0 {
		return x.big[big]
	}
	var out []span
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

// sorted sorts the entries by hash, once, joining those of a path that
// came more than once.
func (x *Index) sorted() {
	x.once.Do(func() {
		slices.SortFunc(x.entries, func(a, b indexEntry) int { return cmp.Compare(a.key(), b.key()) })
		out := x.entries[:0]
		for i := range x.entries {
			e := x.entries[i]
			if k := len(out); k > 0 && out[k-1].key() == e.key() {
				last := &out[k-1]
				lf, _, _ := x.head(last)
				ef, _, _ := x.head(&e)
				x.setRuns(last, (lf|ef)&wholeFile, normalize(append(slices.Clone(x.spansOf(last)), x.spansOf(&e)...)))
				continue
			}
			out = append(out, e)
		}
		x.entries = slices.Clip(out)
	})
}

// of is path's entry, or nil.
func (x *Index) of(path string) *indexEntry {
	if x == nil {
		return nil
	}
	x.sorted()
	h := x.keyOf(path)
	i, ok := slices.BinarySearchFunc(x.entries, h, func(e indexEntry, h uint64) int { return cmp.Compare(e.key(), h) })
	if ok {
		return &x.entries[i]
	}
	return nil
}

// counts is whether an entry has changed lines, or counts whole.
func (x *Index) counts(e *indexEntry) bool {
	flags, b, _ := x.head(e)
	return flags != 0 || len(b) > 0
}

// Files is how many files have changed lines.
func (x *Index) Files() int {
	if x == nil {
		return 0
	}
	x.sorted()
	n := 0
	for i := range x.entries {
		if x.counts(&x.entries[i]) {
			n++
		}
	}
	return n
}

// Changed reports whether path has changed lines, or is a changed file of
// a file index.
func (x *Index) Changed(path string) bool {
	e := x.of(path)
	return e != nil && x.counts(e)
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
	flags, b, big := x.head(e)
	if flags&wholeFile != 0 {
		return true
	}
	if from <= 0 {
		return false
	}
	to = max(to, from)
	if flags&bigRuns != 0 {
		sp := x.big[big]
		// the first span that ends at or after from
		i := sort.Search(len(sp), func(i int) bool { return int(sp[i].to) >= from })
		return i < len(sp) && int(sp[i].from) <= to
	}
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
