package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/summarize/tokens"
)

// TokensAnswer is tokens.count's answer.
type TokensAnswer struct {
	tokens.Report
	Omitted []budget.Omission `json:"omitted,omitempty"`
	Tokens  *budget.TokenInfo `json:"tokens,omitempty"`

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
func (a *TokensAnswer) fit(c budget.Counter, limit int) int {
	if a.all == nil {
		a.all = a.Files
	}
	a.Tokens = &budget.TokenInfo{}
	a.Files, a.Omitted = nil, nil
	return budget.FitList(c, limit, a.text(), jsonRows(a.all), func(n int) {
		a.Files, a.Omitted = a.all[:n], nil
		if n < len(a.all) {
			a.Omitted = []budget.Omission{{What: fmt.Sprintf("%d more files (counted in the total): raise maxTokens, or count fewer paths", len(a.all)-n)}}
		}
	}, a.text, a.Tokens)
}

// jsonRows are the rows as JSON, to price them.
func jsonRows[T any](rows []T) []string {
	out := make([]string, len(rows))
	for i := range rows {
		b, _ := json.Marshal(rows[i])
		out[i] = string(b)
	}
	return out
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
		in.Budget = budget.DefaultMaxTokens
	}
	g, err := s.root.expand(in.Paths, false, s.root.maxReport)
	if err != nil {
		return nil, err
	}
	if g.stopped != "" {
		return nil, toolErrorf(CodeTooLarge, "the search for the files the globs match stopped (%s): give narrower globs, starting with a directory (src/**/*.java)", g.stopped)
	}
	files := g.files
	release, err := s.coldRead(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	counted := make([]tokens.File, len(files))
	for i, f := range files {
		counted[i] = s.counts.count(c, f, s.root.openReport)
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

func (cc *countCache) count(c tokens.Counter, f file, open func(string) (*os.File, fs.FileInfo, error)) tokens.File {
	k := countKey{f.abs, c.Name(), f.info.Size(), f.info.ModTime().UnixNano()}
	cc.mu.Lock()
	got, ok := cc.m[k]
	cc.mu.Unlock()
	if ok {
		return got
	}
	got = tokens.CountOpened(c, f.rel, open)
	cc.mu.Lock()
	if cc.m == nil || len(cc.m) >= maxCounts {
		cc.m = map[countKey]tokens.File{}
	}
	cc.m[k] = got
	cc.mu.Unlock()
	return got
}
