package diff

import "sort"

// Index holds the changed lines of the head revision: path → its added
// lines (a modified line is a deleted one and an added one), leaving out
// what changed in whitespace only: blank lines, and lines that only moved
// in indentation or spacing, as git diff -w --ignore-blank-lines leaves
// them out. Lines are held as runs (8 bytes a run), so that a diff of
// millions of added lines costs little.
type Index struct {
	kind  indexKind
	lines map[string][]span
	whole map[string]bool // files every line of which counts
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
	x := &Index{kind: kind, lines: map[string][]span{}, whole: map[string]bool{}}
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
		x.whole[p] = true
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
	sp := x.lines[p]
	for _, r := range runs {
		sp = append(sp, span{int32(r.From), int32(r.To)})
	}
	sorted := sort.IntsAreSorted(nums)
	if !sorted {
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
	x.lines[p] = normalize(sp)
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
	n := len(x.lines)
	for p := range x.whole {
		if len(x.lines[p]) == 0 {
			n++
		}
	}
	return n
}

// Changed reports whether path has changed lines, or is a changed file of
// a file index.
func (x *Index) Changed(path string) bool {
	return x != nil && (len(x.lines[path]) > 0 || x.whole[path])
}

// Lines returns the changed lines of path, sorted (none for a nil index,
// nor for a file every line of which counts).
func (x *Index) Lines(path string) []int {
	if x == nil {
		return nil
	}
	var out []int
	for _, s := range x.lines[path] {
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
	if x.whole[path] {
		return true
	}
	if from <= 0 {
		return false
	}
	to = max(to, from)
	sp := x.lines[path]
	// the first span that ends at or after from
	i := sort.Search(len(sp), func(i int) bool { return int(sp[i].to) >= from })
	return i < len(sp) && int(sp[i].from) <= to
}
