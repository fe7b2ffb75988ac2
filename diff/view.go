package diff

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// MaxHunks is the most hunks one view shows (SPEC §5).
const MaxHunks = 20

// View is the whitespace-free view of a diff, in the JSON shape of SPEC §6:
// the counts, a line per file, then at most MaxHunks hunks. Field names are a
// contract: extend, don't rename.
type View struct {
	Summary     ViewSummary          `json:"summary"`
	Files       []FileRow            `json:"files"`
	Hunks       []HunkView           `json:"hunks"`
	Omitted     []summarize.Omission `json:"omitted,omitempty"`
	Suggestions []string             `json:"suggestions,omitempty"`
	Tokens      *summarize.TokenInfo `json:"tokens,omitempty"`
	hunkBase    []summarize.Omission // the markers NewView made, which Fit keeps
}

// ViewSummary counts what the view covers, whitespace-only hunks left out.
type ViewSummary struct {
	Files               int `json:"files"`
	Hunks               int `json:"hunks"`
	Added               int `json:"added"`
	Deleted             int `json:"deleted"`
	WhitespaceOnlyHunks int `json:"whitespaceOnlyHunks"`
}

// FileRow is one file of the view: its hunks and lines without the
// whitespace-only ones.
type FileRow struct {
	Path    string `json:"path"`
	OldPath string `json:"oldPath,omitempty"`
	Status  Status `json:"status"`
	Binary  bool   `json:"binary"`
	// Mode is "100644 → 100755" when the mode changed.
	Mode    string `json:"mode,omitempty"`
	Hunks   int    `json:"hunks"`
	Added   int    `json:"added"`
	Deleted int    `json:"deleted"`
}

// HunkView is one hunk as the view shows it: lines with their unified-diff
// prefix, each cut at summarize.MaxLineChars.
type HunkView struct {
	Path     string   `json:"path"`
	OldStart int      `json:"oldStart"`
	OldLines int      `json:"oldLines"`
	NewStart int      `json:"newStart"`
	NewLines int      `json:"newLines"`
	Lines    []string `json:"lines"`
}

// ViewOptions shape a view.
type ViewOptions struct {
	// MaxHunks bounds the hunks shown (1…MaxHunks; 0 means MaxHunks).
	MaxHunks int
	// Paths keeps the files whose new or old path matches (none: all).
	Paths reports.Globs
}

// NewView builds the whitespace-free view of files: hunks whose changes
// are all whitespace are dropped (and counted), files left with nothing are
// left out, and past opts.MaxHunks hunks the rest are counted in a marker
// with their approximate cost, with suggestions of files to narrow to.
func NewView(files []File, opts ViewOptions) *View {
	maxHunks := opts.MaxHunks
	if maxHunks <= 0 || maxHunks > MaxHunks {
		maxHunks = MaxHunks
	}
	v := &View{Files: []FileRow{}, Hunks: []HunkView{}}
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
		row := FileRow{Path: f.Path(), Status: f.Status, Binary: f.Binary}
		if f.Status == Renamed || f.Status == Copied {
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
		if row.Hunks == 0 && f.Status == Modified && !f.Binary && row.Mode == "" && len(f.Hunks) > 0 {
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
		v.hunkBase = append(v.hunkBase, summarize.Omission{
			What:   fmt.Sprintf("%d hunks after the first %d: narrow to the files you need with a path filter", more, maxHunks),
			Tokens: (moreChars + 3) / 4,
		})
		sort.SliceStable(byHunks, func(i, j int) bool { return byHunks[i].n > byHunks[j].n })
		for _, fh := range byHunks[:min(3, len(byHunks))] {
			v.Suggestions = append(v.Suggestions, fmt.Sprintf("path=%q has %d hunks", fh.path, fh.n))
		}
	}
	v.Omitted = append([]summarize.Omission(nil), v.hunkBase...)
	return v
}

func hunkView(path string, h *Hunk) HunkView {
	hv := HunkView{Path: path, OldStart: h.OldStart, OldLines: h.OldLines, NewStart: h.NewStart, NewLines: h.NewLines,
		Lines: make([]string, 0, len(h.Lines))}
	for _, l := range h.Lines {
		hv.Lines = append(hv.Lines, cut(l.Unified()))
		if l.NoEOL {
			hv.Lines = append(hv.Lines, `\ No newline at end of file`)
		}
	}
	return hv
}

func cut(s string) string {
	if len(s) <= summarize.MaxLineChars || utf8.RuneCountInString(s) <= summarize.MaxLineChars {
		return s
	}
	r := []rune(s)
	return string(r[:summarize.MaxLineChars-1]) + "…"
}

// Header is the hunk's unified-diff range line.
func (h *HunkView) Header() string {
	return fmt.Sprintf("@@ -%d,%d +%d,%d @@", h.OldStart, h.OldLines, h.NewStart, h.NewLines)
}

// Title says in one line what the view covers.
func (v *View) Title() string {
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
