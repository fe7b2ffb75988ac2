package diff

import "sort"

// Index holds the changed lines of the head revision: path → the sorted
// numbers of its added lines (a modified line is a deleted one and an added
// one), leaving out what changed in whitespace only: blank lines, and lines
// that only moved in indentation or spacing, as git diff -w
// --ignore-blank-lines leaves them out.
type Index struct {
	lines map[string][]int
}

// NewIndex indexes the changed lines of files.
func NewIndex(files []File) *Index {
	x := &Index{lines: map[string][]int{}}
	for i := range files {
		f := &files[i]
		if f.NewPath == "" {
			continue
		}
		nums := f.Changed
		if nums == nil {
			for hi := range f.Hunks {
				nums = f.Hunks[hi].changedLines(nums)
			}
		}
		if len(nums) > 0 {
			x.lines[f.NewPath] = append(x.lines[f.NewPath], nums...)
			sort.Ints(x.lines[f.NewPath])
		}
	}
	return x
}

// NewAddedIndex indexes every added line of the files' hunks, whitespace-only
// changes included, as git diff and reviewdog's filter-mode=added count them.
func NewAddedIndex(files []File) *Index {
	x := &Index{lines: map[string][]int{}}
	for i := range files {
		f := &files[i]
		if f.NewPath == "" {
			continue
		}
		var nums []int
		for _, h := range f.Hunks {
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
		if len(nums) > 0 {
			x.lines[f.NewPath] = append(x.lines[f.NewPath], nums...)
			sort.Ints(x.lines[f.NewPath])
		}
	}
	return x
}

// Files is how many files have changed lines.
func (x *Index) Files() int { return len(x.lines) }

// Lines returns the changed lines of path, sorted.
func (x *Index) Lines(path string) []int { return x.lines[path] }

// Touches reports whether any line of from..to (to < from means from alone)
// in path changed. A finding without a line (from ≤ 0) touches nothing.
func (x *Index) Touches(path string, from, to int) bool {
	if from <= 0 {
		return false
	}
	to = max(to, from)
	nums := x.lines[path]
	i := sort.SearchInts(nums, from)
	return i < len(nums) && nums[i] <= to
}
