package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/recap-dev/recap/summarize/tokens"
)

// diffAnswer is vcs.diff's answer: the diff view of SPEC §6.
type diffAnswer struct {
	v    *diff.View
	orig diff.View // before fitting: each fit starts from it
}

func (a *diffAnswer) fit(c summarize.Counter, budget int) {
	v := a.orig
	v.Files, v.Hunks, v.Omitted = slices.Clone(v.Files), slices.Clone(v.Hunks), slices.Clone(v.Omitted)
	*a.v = v
	diff.Fit(a.v, c, budget, diffLayout{})
}
func (a *diffAnswer) measured() int { return a.v.Tokens.Estimated }
func (a *diffAnswer) text() string  { return diffLayout{}.View(a.v) }
func (a *diffAnswer) out() any      { return a.v }

// diffLayout renders a diff view as the tool sends it: a line, then the JSON.
type diffLayout struct{ render.DiffJSON }

func (l diffLayout) View(v *diff.View) string {
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
		in.MaxHunks = diff.MaxHunks
	}
	for _, p := range in.Paths {
		if err := s.root.checkPattern(p); err != nil {
			return nil, err
		}
	}
	globs, err := reports.CompileGlobs(in.Paths)
	if err != nil {
		return nil, toolErrorf(CodeBadArgument, "paths: %v", err)
	}
	repo, err := diff.Open(s.root.dir)
	if err != nil {
		return nil, gitError(s.name(ctx, ToolDiff), err)
	}
	var files []diff.File
	if in.Base != "" {
		files, err = repo.Revisions(ctx, in.Base, in.Head)
	} else {
		files, err = repo.WorkingTree(ctx)
	}
	if err != nil {
		return nil, gitError(s.name(ctx, ToolDiff), err)
	}
	v := diff.NewView(s.underRoot(repo, files), diff.ViewOptions{MaxHunks: in.MaxHunks, Paths: globs})
	return &diffAnswer{v: v, orig: *v}, nil
}

// TokensAnswer is tokens.count's answer.
type TokensAnswer struct {
	tokens.Report
	Omitted []summarize.Omission `json:"omitted,omitempty"`
	Tokens  *summarize.TokenInfo `json:"tokens,omitempty"`

	all []tokens.File
}

func (a *TokensAnswer) out() any { return a }

func (a *TokensAnswer) text() string {
	t := a.Total
	line := fmt.Sprintf("recap: %d files, %d tokens, %d lines, %d bytes (%s)", len(a.all), t.Tokens, t.Lines, t.Bytes, a.Tokenizer)
	if a.Recommendation != "" {
		line += "; " + a.Recommendation
	}
	b, _ := json.Marshal(a)
	return line + "\n" + string(b)
}

// fit keeps the first files' rows that fit, and a marker for the rest.
func (a *TokensAnswer) fit(c summarize.Counter, budget int) {
	budget = min(max(budget, summarize.MinMaxTokens), summarize.MaxMaxTokens)
	if a.all == nil {
		a.all = a.Files
	}
	a.Tokens = &summarize.TokenInfo{Budget: budget, Tokenizer: c.Name()}
	lo, hi := 0, len(a.all)
	for lo < hi { // the most rows that fit
		mid := (lo + hi + 1) / 2
		if a.cost(c, mid) <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	a.cost(c, lo)
}

func (a *TokensAnswer) cost(c summarize.Counter, rows int) int {
	a.Files, a.Omitted = a.all[:rows], nil
	if rows < len(a.all) {
		a.Omitted = []summarize.Omission{{What: fmt.Sprintf("%d more files (counted in the total): raise maxTokens, or count fewer paths", len(a.all)-rows)}}
	}
	n := summarize.Measure(a.Tokens, c, a.text)
	return max(n, (len([]rune(a.text()))+3)/4)
}

func (s *Server) tokens(ctx context.Context, in *TokensIn) (answer, error) {
	if len(in.Paths) == 0 {
		return nil, toolErrorf(CodeBadArgument, "paths: give at least one file or glob")
	}
	name := in.Tokenizer
	if name == "" {
		name = tokens.Default
	}
	c, err := tokens.New(name)
	if err != nil {
		return nil, toolErrorf(CodeBadArgument, "tokenizer: %v", err)
	}
	if in.Budget == 0 {
		in.Budget = summarize.DefaultMaxTokens
	}
	files, err := s.root.expand(in.Paths, false)
	if err != nil {
		return nil, err
	}
	counted := make([]tokens.File, len(files))
	for i, f := range files {
		counted[i] = s.counts.count(c, f)
	}
	rep := tokens.Total(c, counted, in.Budget)
	rep.Recommendation = s.text(ctx, rep.Recommendation) // it names analysis.getReports
	return &TokensAnswer{Report: rep}, nil
}

// countCache keeps token counts by file, tokenizer, size and modification
// time: counting is about 7 MB/s, and agents count the same files again.
type countCache struct {
	mu sync.Mutex
	m  map[countKey]tokens.File
}

type countKey struct {
	abs, tokenizer string
	size           int64
	mtime          int64
}

// maxCounts bounds the counts kept; past it the cache starts again.
const maxCounts = 20000

func (cc *countCache) count(c tokens.Counter, f file) tokens.File {
	k := countKey{f.abs, c.Name(), f.info.Size(), f.info.ModTime().UnixNano()}
	cc.mu.Lock()
	got, ok := cc.m[k]
	cc.mu.Unlock()
	if ok {
		return got
	}
	got = tokens.CountFile(c, f.abs)
	got.Path = f.rel
	got.Error = strings.ReplaceAll(got.Error, f.abs, f.rel)
	cc.mu.Lock()
	if cc.m == nil || len(cc.m) >= maxCounts {
		cc.m = map[countKey]tokens.File{}
	}
	cc.m[k] = got
	cc.mu.Unlock()
	return got
}

// StatsAnswer is server.stats' answer.
type StatsAnswer struct {
	Stats
	Tokens *summarize.TokenInfo `json:"tokens,omitempty"`
}

func (a *StatsAnswer) out() any { return a }

func (a *StatsAnswer) text() string {
	calls := 0
	for _, t := range a.Tools {
		calls += t.Calls
	}
	b, _ := json.Marshal(a)
	return fmt.Sprintf("recap: %d calls, %d reports parsed, %d cached, %d buffers", calls, a.ReportsParsed, a.ReportsCached, a.Buffers) + "\n" + string(b)
}

// fit: the statistics are a row per tool (five at most); they always fit
// the smallest budget.
func (a *StatsAnswer) fit(c summarize.Counter, budget int) {
	a.Tokens = &summarize.TokenInfo{Budget: min(max(budget, summarize.MinMaxTokens), summarize.MaxMaxTokens), Tokenizer: c.Name()}
	summarize.Measure(a.Tokens, c, a.text)
}

func (s *Server) statsTool(ctx context.Context, _ *StatsIn) (answer, error) {
	return &StatsAnswer{Stats: s.snapshot(ctx)}, nil
}
