package diff

import "strings"

// Status says what happened to a file.
type Status string

// The statuses of a changed file.
const (
	Added    Status = "added"
	Deleted  Status = "deleted"
	Modified Status = "modified"
	Renamed  Status = "renamed"
	Copied   Status = "copied"
)

// LineKind is a diff line's kind, written as its unified-diff prefix.
type LineKind byte

// The kinds of lines in a hunk.
const (
	Context LineKind = ' '
	Add     LineKind = '+'
	Delete  LineKind = '-'
)

// Line is one line of a hunk: its kind, its numbers in the old and the new
// file (0 on the side it is not on), and its text without the line feed (a
// CR before it is kept: whitespace checks fold it, output drops it).
type Line struct {
	Kind LineKind
	Old  int
	New  int
	Text string
	// NoEOL: the line ends its file without a newline.
	NoEOL bool
}

// Hunk is a run of changed lines with the context around them.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	Lines              []Line
}

// File is one changed file. OldPath is empty for an added file and NewPath
// for a deleted one. Modes are git's octal modes (0o100644), 0 when unknown.
type File struct {
	OldPath, NewPath string
	Status           Status
	OldMode, NewMode uint32
	Binary           bool
	Hunks            []Hunk
	// Changed, when the whole file was diffed (from a repository), holds
	// the new line numbers that changed in more than whitespace, as git diff
	// -w --ignore-blank-lines sees the whole file; nil when only the hunks
	// are known, and the index then looks at each hunk alone.
	Changed []int
	// Large, when set, stands for the hunks of a file whose diff is too
	// large to show (see MaxHunkLines, MaxDiffBytes, MaxDiffLines): Hunks is
	// empty, and Large says how much changed and where.
	Large *Large
}

// Large is what is kept of the diff of a large file: its counts and where
// its changes are, without their text.
type Large struct {
	// OldLines and NewLines are the lines of each side (0 when unknown:
	// a file of a diff read as text).
	OldLines, NewLines int
	// Diffed is false for a file with more lines than a line diff takes
	// (MaxDiffLines): then nothing is known of its changes but that the
	// file changed.
	Diffed bool
	// Added and Deleted count the changed lines.
	Added, Deleted int
	// AddedRuns are the new side's added lines; HunkRuns the new side's
	// lines its hunks would show (the changes and ContextLines around them).
	AddedRuns, HunkRuns []Run
	// ChangedRuns, for a file of a diff read as text, are its Changed lines
	// (the whitespace-blind changed lines of each hunk); a file diffed
	// from a repository has them in File.Changed.
	ChangedRuns []Run
}

// Summarize drops f's hunks, keeping what is known of them in f.Large:
// the counts, the added lines, the hunks' lines and the changed ones.
func (f *File) Summarize() {
	if f.Large != nil || f.Binary {
		return
	}
	f.Large = &Large{Diffed: true}
	for i := range f.Hunks {
		f.Large.add(&f.Hunks[i], f.Changed == nil)
	}
	if f.Changed != nil {
		for _, n := range f.Changed {
			f.Large.ChangedRuns = appendRun(f.Large.ChangedRuns, n, n)
		}
		f.Changed = nil
	}
	if f.Large.ChangedRuns == nil {
		f.Large.ChangedRuns = []Run{}
	}
	f.Hunks = nil
}

// add counts a hunk in, with its changed lines when changed.
func (l *Large) add(h *Hunk, changed bool) {
	a, d := h.Counts()
	l.Added += a
	l.Deleted += d
	for _, ln := range h.Lines {
		if ln.Kind == Add {
			l.AddedRuns = appendRun(l.AddedRuns, ln.New, ln.New)
		}
	}
	if h.NewLines > 0 {
		l.HunkRuns = appendRun(l.HunkRuns, h.NewStart, h.NewStart+h.NewLines-1)
	}
	if changed {
		for _, n := range h.changedLines(nil) {
			l.ChangedRuns = appendRun(l.ChangedRuns, n, n)
		}
		if l.ChangedRuns == nil {
			l.ChangedRuns = []Run{}
		}
	}
}

// Run is the lines From to To, both included.
type Run struct{ From, To int }

// appendRun adds lines from..to to runs, joining it to the last run when
// they touch.
func appendRun(runs []Run, from, to int) []Run {
	if to < from {
		return runs
	}
	if n := len(runs); n > 0 && runs[n-1].To+1 >= from {
		runs[n-1].To = max(runs[n-1].To, to)
		return runs
	}
	return append(runs, Run{from, to})
}

// Path is the file's path in the new revision, or its old path when it was
// deleted.
func (f *File) Path() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// ModeChanged reports whether the file's mode changed.
func (f *File) ModeChanged() bool {
	return f.OldMode != 0 && f.NewMode != 0 && f.OldMode != f.NewMode
}

// Counts returns the added and deleted lines of the hunks (of a large
// file, its counts; 0 when it was not diffed).
func (f *File) Counts() (added, deleted int) {
	if f.Large != nil {
		if !f.Large.Diffed {
			return 0, 0
		}
		return f.Large.Added, f.Large.Deleted
	}
	for _, h := range f.Hunks {
		a, d := h.Counts()
		added += a
		deleted += d
	}
	return added, deleted
}

// Counts returns the hunk's added and deleted lines.
func (h *Hunk) Counts() (added, deleted int) {
	for _, l := range h.Lines {
		switch l.Kind {
		case Add:
			added++
		case Delete:
			deleted++
		}
	}
	return added, deleted
}

// Unified writes the line as a unified diff does: its prefix, then its text
// without a trailing CR.
func (l Line) Unified() string {
	return string(l.Kind) + strings.TrimSuffix(l.Text, "\r")
}

// Under keeps the files under directory dir (slash-separated, relative to
// the repository's top level) and makes their paths relative to it: the
// changes as seen from a subdirectory.
func Under(files []File, dir string) []File {
	var out []File
	for _, f := range files {
		if UnderFile(&f, dir) {
			out = append(out, f)
		}
	}
	return out
}

// UnderFile makes f's paths relative to directory dir, as [Under] does;
// false when neither is under it.
func UnderFile(f *File, dir string) bool {
	prefix := strings.TrimSuffix(dir, "/") + "/"
	rel := func(p string) string {
		if strings.HasPrefix(p, prefix) {
			return p[len(prefix):]
		}
		return ""
	}
	f.OldPath, f.NewPath = rel(f.OldPath), rel(f.NewPath)
	return f.OldPath != "" || f.NewPath != ""
}
