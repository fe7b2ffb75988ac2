package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/summarize/render"
)

// diffAnswer is vcs.diff's answer: the diff view.
type diffAnswer struct{ v *summarize.DiffView }

func (a *diffAnswer) fit(c budget.Counter, limit int) int {
	return summarize.FitDiff(a.v, c, limit, diffLayout{})
}
func (a *diffAnswer) text() string { return diffLayout{}.View(a.v) }
func (a *diffAnswer) out() any     { return a.v }

// diffLayout renders a diff view as the tool sends it: a line, then the JSON.
type diffLayout struct{ render.DiffJSON }

func (l diffLayout) View(v *summarize.DiffView) string {
	line := "recap: " + v.Title()
	if len(v.Omitted) > 0 {
		line += fmt.Sprintf("; %d parts omitted (see omitted)", len(v.Omitted))
	}
	return line + "\n" + strings.TrimSuffix(l.DiffJSON.View(v), "\n")
}

func (s *Server) diff(ctx context.Context, in *DiffIn) (answer, error) {
	if in.Head != "" && in.Base == "" {
		return nil, toolErrorf(CodeBadArgument, "head needs base: give base (for example main) to diff base...head, or neither for the working tree")
	}
	if in.MaxHunks == 0 {
		in.MaxHunks = summarize.MaxHunks
	}
	in.Paths = reports.UnderRoot(s.root.dir, in.Paths) // an absolute path inside the root: relative to it
	for _, p := range in.Paths {
		if err := s.root.checkPattern(p); err != nil {
			return nil, err
		}
	}
	globs, err := reports.CompileGlobs(in.Paths)
	if err != nil {
		return nil, toolErrorf(CodeBadArgument, "paths: %v", err)
	}
	ch, err := s.root.changes(pipeline.Changes{Base: in.Base, Head: in.Head})
	if err != nil {
		return nil, gitError(s.name(ctx, ToolDiff), err)
	}
	// The view is built a file at a time, as the files are diffed.
	b := summarize.NewDiffViewBuilder(summarize.DiffOptions{MaxHunks: in.MaxHunks, Paths: globs, Spell: argSpelling{}})
	sub := ch.Repo.Sub(s.root.dir) // the root's place in its repository
	if _, err := ch.Each(ctx, func(f *diff.File) error {
		if sub != "" && !diff.UnderFile(f, sub) {
			return nil
		}
		b.Add(f)
		return nil
	}); err != nil {
		return nil, gitError(s.name(ctx, ToolDiff), err)
	}
	return &diffAnswer{v: b.View()}, nil
}
