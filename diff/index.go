package diff

import (
	"hash/maphash"
	"sort"
)

// Index holds the changed lines of the head revision: path → its added
// lines (a modified line is a deleted one and an added one), leaving out
// what changed in whitespace only: blank lines, and lines that only moved
// in indentation or spacing, as git diff -w --ignore-blank-lines leaves
// them out. It is made to hold a diff of millions of files and lines in
// little memory: the paths one after another in one buffer, found by
// their hash, and the lines as runs (8 bytes a run) in another.
type Index struct {
	kind    indexKind
	seed    maphash.Seed
	byHash  map[uint64]int32 // a path's hash → its entry
	byName  map[string]int32 // the paths whose hash another path has
	names   []byte           // the paths
	entries []indexEntry
	spans   []span
}

// indexEntry is one path of an index: its name in names, its runs in
// spans, or every line.
type indexEntry struct {
	name     int
	nameLen  int32
	from, to int32 // spans[from:to]
	whole    bool
}

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
	x := &Index{kind: kind, seed: maphash.MakeSeed(), byHash: map[uint64]int32{}}
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
// file counts its runs; one not diffed counts whole.
func (x *Index) Add(f *File) {
	p := f.NewPath
	if p == "" {
		return
	}
	if x.kind == fileKind || f.Large != nil && !f.Large.Diffed {
		x.entries[x.entry(p, true)].whole = true
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
	e := &x.entries[x.entry(p, true)]
	if e.to > e.from { // the path again: its runs are made anew
		sp = append(sp, x.spans[e.from:e.to]...)
	}
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
	sp = normalize(sp)
	e.from = int32(len(x.spans))
	x.spans = append(x.spans, sp...)
	e.to = int32(len(x.spans))
}

// entry finds path's entry, or makes it when add; -1 when it has none.
func (x *Index) entry(path string, add bool) int {
	h := maphash.String(x.seed, path)
	if i, ok := x.byHash[h]; ok {
		if x.name(int(i)) == path {
			return int(i)
		}
		if i, ok := x.byName[path]; ok {
			return int(i)
		}
		if !add {
			return -1
		}
		if x.byName == nil {
			x.byName = map[string]int32{}
		}
		x.byName[path] = x.newEntry(path)
		return int(x.byName[path])
	}
	if !add {
		return -1
	}
	x.byHash[h] = x.newEntry(path)
	return int(x.byHash[h])
}

func (x *Index) newEntry(path string) int32 {
	x.entries = append(x.entries, indexEntry{name: len(x.names), nameLen: int32(len(path))})
	x.names = append(x.names, path...)
	return int32(len(x.entries) - 1)
}

func (x *Index) name(i int) string {
	e := &x.entries[i]
	return string(x.names[e.name : e.name+int(e.nameLen)])
}

// of is path's entry, or nil.
func (x *Index) of(path string) *indexEntry {
	if x == nil {
		return nil
	}
	if i := x.entry(path, false); i >= 0 {
		return &x.entries[i]
	}
	return nil
}

func (x *Index) spansOf(e *indexEntry) []span {
	if e == nil {
		return nil
	}
	return x.spans[e.from:e.to]
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

// Files is how many files have changed lines.
func (x *Index) Files() int {
	if x == nil {
		return 0
	}
	n := 0
	for i := range x.entries {
		if e := &x.entries[i]; e.whole || e.to > e.from {
			n++
		}
	}
	return n
}

// Changed reports whether path has changed lines, or is a changed file of
// a file index.
func (x *Index) Changed(path string) bool {
	e := x.of(path)
	return e != nil && (e.whole || e.to > e.from)
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
	if e.whole {
		return true
	}
	if from <= 0 {
		return false
	}
	to = max(to, from)
	sp := x.spansOf(e)
	// the first span that ends at or after from
	i := sort.Search(len(sp), func(i int) bool { return int(sp[i].to) >= from })
	return i < len(sp) && int(sp[i].from) <= to
}
