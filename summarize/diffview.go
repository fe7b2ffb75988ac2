package summarize

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/recap-dev/recap/diff"
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

// NewDiffView builds the whitespace-free view of files: hunks whose changes
// are all whitespace are dropped (and counted), files left with nothing are
// left out, and past opts.MaxHunks hunks the rest are counted in a marker
// with their approximate cost, with suggestions of files to narrow to.
func NewDiffView(files []diff.File, opts DiffOptions) *DiffView {
	maxHunks := opts.MaxHunks
	if maxHunks <= 0 || maxHunks > MaxHunks {
		maxHunks = MaxHunks
	}
	v := &DiffView{Files: []DiffFile{}, Hunks: []HunkView{}}
	more, moreChars := 0, 0
	type fileHunks struct {
		path string
		n    int
	}
	var byHunks []fileHunks
	for i := range files {
		f := &files[i]
		if len(opts.Paths) > 0 && !opts.Paths.Match(f.NewPath) && !opts.Paths.Match(f.OldPath) {
			continue
		}
		row := DiffFile{Path: f.Path(), Status: f.Status, Binary: f.Binary}
		if f.Status == diff.Renamed || f.Status == diff.Copied {
			row.OldPath = f.OldPath
		}
		if f.ModeChanged() {
			row.Mode = fmt.Sprintf("%o → %o", f.OldMode, f.NewMode)
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
			hv := hunkView(row.Path, h)
			if len(v.Hunks) < maxHunks {
				v.Hunks = append(v.Hunks, hv)
			} else {
				more++
				for _, l := range hv.Lines {
					moreChars += utf8.RuneCountInString(l) + 4
				}
			}
		}
		if row.Hunks == 0 && f.Status == diff.Modified && !f.Binary && row.Mode == "" && len(f.Hunks) > 0 {
			continue // only whitespace changed
		}
		v.Files = append(v.Files, row)
		v.Summary.Files++
		v.Summary.Hunks += row.Hunks
		v.Summary.Added += row.Added
		v.Summary.Deleted += row.Deleted
		byHunks = append(byHunks, fileHunks{row.Path, row.Hunks})
	}
	if more > 0 {
		v.hunkBase = append(v.hunkBase, budget.Omission{
			What:   fmt.Sprintf("%d hunks after the first %d: narrow to the files you need with a path filter", more, maxHunks),
			Tokens: budget.FloorRunes(moreChars),
		})
		sort.SliceStable(byHunks, func(i, j int) bool { return byHunks[i].n > byHunks[j].n })
		for _, fh := range byHunks[:min(3, len(byHunks))] {
			v.Suggestions = append(v.Suggestions, fmt.Sprintf("%s has %d hunks", spell(opts.Spell, "path", fh.path), fh.n))
		}
	}
	v.Omitted = append([]budget.Omission(nil), v.hunkBase...)
	return v
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
