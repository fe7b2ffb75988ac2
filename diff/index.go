package diff

import "sort"

// Index holds the changed lines of the head revision: path → the sorted
// numbers of its added lines (a modified line is a deleted one and an added
// one), leaving out what changed in whitespace only: blank lines, and lines
// that only moved in indentation or spacing, as git diff -w
// --ignore-blank-lines leaves them out.
type Index struct {
	lines map[string][]int
	whole map[string]bool // files every line of which counts (NewFileIndex)
}

// NewIndex indexes the changed lines of files.
func NewIndex(files []File) *Index {
	x := &Index{lines: map[string][]int{}}
	for i := range files {
		f := &files[i]
		if f.NewPath == "" {
			continue
		}
		if f.Large != nil && !f.Large.Diffed {
			x.wholeFile(f.NewPath)
			continue
		}
		nums := f.Changed
		if nums == nil {
			for hi := range f.Hunks {
				nums = f.Hunks[hi].changedLines(nums)
			}
			if f.Large != nil { // the hunks are not kept: every added line
				nums = expand(nums, f.Large.AddedRuns)
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
	return hunkIndex(files, func(l *Large) []Run { return l.AddedRuns }, func(h *Hunk, nums []int) []int {
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
		return nums
	})
}

// NewContextIndex indexes every line the files' hunks show on the new
// side, context lines included, as reviewdog's filter-mode=diff_context
// does: where a review may comment.
func NewContextIndex(files []File) *Index {
	return hunkIndex(files, func(l *Large) []Run { return l.HunkRuns }, func(h *Hunk, nums []int) []int {
		for n := h.NewStart; n < h.NewStart+h.NewLines; n++ {
			nums = append(nums, n)
		}
		return nums
	})
}

// hunkIndex indexes the lines lines picks of each hunk of the files that
// have a new side (of a large file, the runs large picks; every line of
// one not diffed).
func hunkIndex(files []File, large func(l *Large) []Run, lines func(h *Hunk, nums []int) []int) *Index {
	x := &Index{lines: map[string][]int{}}
	for i := range files {
		f := &files[i]
		if f.NewPath == "" {
			continue
		}
		var nums []int
		switch {
		case f.Large != nil && !f.Large.Diffed:
			x.wholeFile(f.NewPath)
			continue
		case f.Large != nil:
			nums = expand(nums, large(f.Large))
		}
		for hi := range f.Hunks {
			nums = lines(&f.Hunks[hi], nums)
		}
		if len(nums) > 0 {
			x.lines[f.NewPath] = append(x.lines[f.NewPath], nums...)
			sort.Ints(x.lines[f.NewPath])
		}
	}
	return x
}

// wholeFile makes every line of path count: a large file not diffed, of
// which nothing is known but that it changed.
func (x *Index) wholeFile(path string) {
	if x.whole == nil {
		x.whole = map[string]bool{}
	}
	x.whole[path] = true
}

// expand appends the lines of runs to nums.
func expand(nums []int, runs []Run) []int {
	for _, r := range runs {
		for n := r.From; n <= r.To; n++ {
			nums = append(nums, n)
		}
	}
	return nums
}

// NewFileIndex counts every line of every file the diff changed (added,
// modified, renamed, copied; not deleted), and a file's findings without a
// line too, as reviewdog's filter-mode=file does.
func NewFileIndex(files []File) *Index {
	x := &Index{lines: map[string][]int{}, whole: map[string]bool{}}
	for i := range files {
		if p := files[i].NewPath; p != "" {
			x.whole[p] = true
		}
	}
	return x
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
// nor in a file index).
func (x *Index) Lines(path string) []int {
	if x == nil {
		return nil
	}
	return x.lines[path]
}

// Touches reports whether any line of from..to (to < from means from alone)
// in path changed. A finding without a line (from ≤ 0) touches nothing but
// in a file index, where every line of a changed file counts.
func (x *Index) Touches(path string, from, to int) bool {
	if x.whole[path] {
		return true
	}
	if from <= 0 {
		return false
	}
	to = max(to, from)
	nums := x.lines[path]
	i := sort.SearchInts(nums, from)
	return i < len(nums) && nums[i] <= to
}
