package summarize

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize/budget"
)

// MaxHunks is the most hunks one diff view shows.
const MaxHunks = 20

// DiffView is the whitespace-free view of a diff: the counts, a line per
// file, then at most MaxHunks hunks. Field names are a contract: extend,
// don't rename.
type DiffView struct {
	Summary     DiffSummary       `json:"summary"`
	Files       []DiffFile        `json:"files"`
	Hunks       []HunkView        `json:"hunks"`
	Omitted     []budget.Omission `json:"omitted,omitempty"`
	Suggestions []string          `json:"suggestions,omitempty"`
	Tokens      *budget.TokenInfo `json:"tokens,omitempty"`
	hunkBase    []budget.Omission // the markers NewDiffView made, which FitDiff keeps
}

// DiffSummary counts what the view covers, whitespace-only hunks left out.
type DiffSummary struct {
	Files               int `json:"files"`
	Hunks               int `json:"hunks"`
	Added               int `json:"added"`
	Deleted             int `json:"deleted"`
	WhitespaceOnlyHunks int `json:"whitespaceOnlyHunks"`
}

// DiffFile is one file of the view: its hunks and lines without the
// whitespace-only ones.
type DiffFile struct {
	Path    string      `json:"path"`
	OldPath string      `json:"oldPath,omitempty"`
	Status  diff.Status `json:"status"`
	Binary  bool        `json:"binary"`
	// Mode is "100644 → 100755" when the mode changed.
	Mode    string `json:"mode,omitempty"`
	Hunks   int    `json:"hunks"`
	Added   int    `json:"added"`
	Deleted int    `json:"deleted"`
	// Large: the file's diff is too large to show (its hunks are not in the
	// view); Note says what is known of it ("large file: 1114200 lines
	// changed").
	Large bool   `json:"large,omitempty"`
	Note  string `json:"note,omitempty"`
}

// HunkView is one hunk as the view shows it: lines with their unified-diff
// prefix, each cut at MaxLineChars.
type HunkView struct {
	Path     string   `json:"path"`
	OldStart int      `json:"oldStart"`
	OldLines int      `json:"oldLines"`
	NewStart int      `json:"newStart"`
	NewLines int      `json:"newLines"`
	Lines    []string `json:"lines"`
}

// DiffOptions shape a diff view.
type DiffOptions struct {
	// MaxHunks bounds the hunks shown (1…MaxHunks; 0 means MaxHunks).
	MaxHunks int
	// Paths keeps the files whose new or old path matches (none: all).
	Paths reports.Globs
	// Spell writes the path filter of the suggestions as the door takes
	// it (nil: path="…").
	Spell Speller
}

// MaxDiffFiles is the most file lines one diff view keeps; past them files
// are counted (in the summary and a marker), not listed.
const MaxDiffFiles = 10_000

// NewDiffView builds the whitespace-free view of files (see
// [DiffViewBuilder]).
func NewDiffView(files []diff.File, opts DiffOptions) *DiffView {
	b := NewDiffViewBuilder(opts)
	for i := range files {
		b.Add(&files[i])
	}
	return b.View()
}

// A DiffViewBuilder builds the whitespace-free view of a diff a file at a
// time, keeping only what the view shows: hunks whose changes are all
// whitespace are dropped (and counted), files left with nothing are left
// out, a large file is a line with its counts, and past opts.MaxHunks hunks
// the rest are counted in a marker with their approximate cost, with
// suggestions of files to narrow to.
type DiffViewBuilder struct {
	opts            DiffOptions
	v               *DiffView
	more, moreChars int
	moreFiles       int
	top             []fileHunks // the files with the most hunks, at most 3
}

type fileHunks struct {
	path string
	n    int
}

// NewDiffViewBuilder starts a view.
func NewDiffViewBuilder(opts DiffOptions) *DiffViewBuilder {
	if opts.MaxHunks <= 0 || opts.MaxHunks > MaxHunks {
		opts.MaxHunks = MaxHunks
	}
	return &DiffViewBuilder{opts: opts, v: &DiffView{Files: []DiffFile{}, Hunks: []HunkView{}}}
}

// Add adds a file to the view; the view keeps nothing of f.
func (b *DiffViewBuilder) Add(f *diff.File) {
	v, opts := b.v, b.opts
	if len(opts.Paths) > 0 && !opts.Paths.Match(f.NewPath) && !opts.Paths.Match(f.OldPath) {
		return
	}
	row := DiffFile{Path: f.Path(), Status: f.Status, Binary: f.Binary}
	if f.Status == diff.Renamed || f.Status == diff.Copied {
		row.OldPath = f.OldPath
	}
	if f.ModeChanged() {
		row.Mode = fmt.Sprintf("%o → %o", f.OldMode, f.NewMode)
	}
	if f.Large != nil {
		row.Large = true
		row.Note = LargeNote(f.Large)
		row.Added, row.Deleted = f.Counts()
	}
	for hi := range f.Hunks {
		h := &f.Hunks[hi]
		if h.WhitespaceOnly() {
			v.Summary.WhitespaceOnlyHunks++
			continue
		}
		a, d := h.Counts()
		row.Hunks++
		row.Added += a
		row.Deleted += d
		if len(v.Hunks) < opts.MaxHunks {
			v.Hunks = append(v.Hunks, hunkView(row.Path, h))
		} else {
			b.more++
			for _, l := range h.Lines {
				b.moreChars += min(utf8.RuneCountInString(l.Text)+1, MaxLineChars+1) + 4
			}
		}
	}
	if row.Hunks == 0 && f.Status == diff.Modified && !f.Binary && row.Mode == "" && len(f.Hunks) > 0 {
		return // only whitespace changed
	}
	v.Summary.Files++
	v.Summary.Hunks += row.Hunks
	v.Summary.Added += row.Added
	v.Summary.Deleted += row.Deleted
	if len(v.Files) < MaxDiffFiles {
		v.Files = append(v.Files, row)
	} else {
		b.moreFiles++
	}
	b.rank(fileHunks{row.Path, row.Hunks})
}

// rank keeps the three files with the most hunks, the first seen first
// among equals.
func (b *DiffViewBuilder) rank(fh fileHunks) {
	i := len(b.top)
	for i > 0 && b.top[i-1].n < fh.n {
		i--
	}
	if i >= 3 {
		return
	}
	b.top = append(b.top, fileHunks{})
	copy(b.top[i+1:], b.top[i:])
	b.top[i] = fh
	if len(b.top) > 3 {
		b.top = b.top[:3]
	}
}

// View is the view of the files added.
func (b *DiffViewBuilder) View() *DiffView {
	v := b.v
	if b.moreFiles > 0 {
		v.hunkBase = append(v.hunkBase, budget.Omission{
			What: fmt.Sprintf("%d files after the first %d: narrow with a path filter", b.moreFiles, MaxDiffFiles),
		})
	}
	if b.more > 0 {
		v.hunkBase = append(v.hunkBase, budget.Omission{
			What:   fmt.Sprintf("%d hunks after the first %d: narrow to the files you need with a path filter", b.more, b.opts.MaxHunks),
			Tokens: budget.FloorRunes(b.moreChars),
		})
		for _, fh := range b.top {
			v.Suggestions = append(v.Suggestions, fmt.Sprintf("%s has %d hunks", spell(b.opts.Spell, "path", fh.path), fh.n))
		}
	}
	v.Omitted = append([]budget.Omission(nil), v.hunkBase...)
	return v
}

// LargeNote says what is known of a large file's changes.
func LargeNote(l *diff.Large) string {
	if !l.Diffed {
		if l.OldLines > 0 || l.NewLines > 0 {
			return fmt.Sprintf("large file (%s → %s): not diffed", english.Plural(l.OldLines, "line", "lines"), english.Plural(l.NewLines, "line", "lines"))
		}
		return "large file: not diffed"
	}
	return fmt.Sprintf("large file: %s changed", english.Plural(l.Added+l.Deleted, "line", "lines"))
}

func hunkView(path string, h *diff.Hunk) HunkView {
	hv := HunkView{Path: path, OldStart: h.OldStart, OldLines: h.OldLines, NewStart: h.NewStart, NewLines: h.NewLines,
		Lines: make([]string, 0, len(h.Lines))}
	for _, l := range h.Lines {
		hv.Lines = append(hv.Lines, cutLine(l.Unified()))
		if l.NoEOL {
			hv.Lines = append(hv.Lines, `\ No newline at end of file`)
		}
	}
	return hv
}

// Header is the hunk's unified-diff range line.
func (h *HunkView) Header() string {
	return fmt.Sprintf("@@ -%d,%d +%d,%d @@", h.OldStart, h.OldLines, h.NewStart, h.NewLines)
}

// Title says in one line what the view covers.
func (v *DiffView) Title() string {
	s := v.Summary
	var b strings.Builder
	fmt.Fprintf(&b, "%s changed, %s (+%d −%d)", count(s.Files, "file"), count(s.Hunks, "hunk"), s.Added, s.Deleted)
	if s.WhitespaceOnlyHunks > 0 {
		fmt.Fprintf(&b, "; %s left out", count(s.WhitespaceOnlyHunks, "whitespace-only hunk"))
	}
	return b.String()
}

// count writes "1 file" or "n files".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// A DiffLayout renders a diff view as one output format writes it: whole,
// and a file line and a hunk alone, so that [FitDiff] prices them as they
// render.
type DiffLayout interface {
	View(v *DiffView) string
	File(f *DiffFile) string
	Hunk(h *HunkView) string
}

// The kinds of a diff view's parts, in the order they are admitted.
const (
	kindDiffSummary = iota // the counts: always kept
	kindDiffFile           // a file line, within half of the room
	kindDiffHunk           // a hunk, whole
)

// FitDiff makes v fit limit tokens as counted by c, and 4 characters per
// token, when rendered by l (see [budget.Fit]): the summary always; then file
// lines, in order, within half of what is left; then hunks, in order, whole.
// Each part left out gets a marker with its cost; Tokens is set. It returns
// what the view costs.
func FitDiff(v *DiffView, c budget.Counter, limit int, l DiffLayout) int {
	limit = budget.Clamp(limit)
	v.Tokens = &budget.TokenInfo{Budget: limit, Tokenizer: c.Name()}
	files, hunks := v.Files, v.Hunks
	v.Files, v.Hunks = []DiffFile{}, []HunkView{}
	parts := []budget.Part{{Kind: kindDiffSummary, Tokens: budget.Cost(c, l.View(v))}}
	for i := range files {
		parts = append(parts, budget.Part{Kind: kindDiffFile, Tokens: budget.Cost(c, l.File(&files[i]))})
	}
	for i := range hunks {
		parts = append(parts, budget.Part{Kind: kindDiffHunk, Tokens: budget.Cost(c, l.Hunk(&hunks[i]))})
	}
	return budget.Fit(c, limit, budget.Plan{
		Parts:  parts,
		Shares: map[int]int{kindDiffFile: 50},
		Apply: func(keep []bool, _ int) {
			nf, nh := 0, 0
			for nf < len(files) && keep[1+nf] {
				nf++
			}
			for nh < len(hunks) && keep[1+len(files)+nh] {
				nh++
			}
			v.Files, v.Hunks = files[:nf], hunks[:nh]
			v.Omitted = append(v.Omitted[:0], v.hunkBase...)
			if nf < len(files) {
				v.Omitted = append(v.Omitted, budget.Omission{
					What:   fmt.Sprintf("%d more files: narrow with a path filter, or raise maxTokens", len(files)-nf),
					Tokens: sumTokens(parts[1+nf : 1+len(files)]),
				})
			}
			if nh < len(hunks) {
				v.Omitted = append(v.Omitted, budget.Omission{
					What:   fmt.Sprintf("%d of the first %d hunks: raise maxTokens, or narrow with a path filter", len(hunks)-nh, len(hunks)),
					Tokens: sumTokens(parts[1+len(files)+nh:]),
				})
			}
		},
		Render: func() string { return l.View(v) },
		Tokens: v.Tokens,
	})
}

func sumTokens(parts []budget.Part) int {
	n := 0
	for _, p := range parts {
		n += p.Tokens
	}
	return n
}
