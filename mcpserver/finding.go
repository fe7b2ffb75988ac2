package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// Limits of getFinding's code snippet (SPEC §6).
const (
	snippetMaxLines  = 80
	snippetMaxTokens = 1200
	snippetRadius    = 10  // lines before and after the finding's lines
	snippetLineChars = 400 // characters of a line; longer ones are cut with …
)

// FindingAnswer is analysis.getFinding's answer.
type FindingAnswer struct {
	Finding reports.Finding `json:"finding"`
	// Report is the report the finding comes from, relative to the root.
	Report string    `json:"report"`
	Rule   *RuleInfo `json:"rule,omitempty"`
	// Code is the source around the finding.
	Code    *Snippet             `json:"code,omitempty"`
	Omitted []summarize.Omission `json:"omitted,omitempty"`
	Tokens  *summarize.TokenInfo `json:"tokens,omitempty"`

	full  *Snippet // the snippet before fitting
	msg   string   // the message before fitting
	rule  *RuleInfo
	saved bool
	short bool // the line without place and message: the smallest budgets
}

// RuleInfo is what recap knows of a finding's rule, and how often the rule
// fires in the same report.
type RuleInfo struct {
	ID       string `json:"id"`
	Name     string `json:"name,omitempty"`
	Tool     string `json:"tool"`
	Category string `json:"category"`
	HelpURI  string `json:"helpUri,omitempty"`
	InReport int    `json:"findingsInReport"`
}

// Snippet is lines of a file around a finding.
type Snippet struct {
	Path  string                  `json:"path"`
	From  int                     `json:"from"`
	To    int                     `json:"to"`
	Lines []summarize.ContextLine `json:"lines"`
	Note  string                  `json:"note,omitempty"`
}

func (a *FindingAnswer) out() any { return a }

func (a *FindingAnswer) text() string {
	f := &a.Finding
	line := fmt.Sprintf("recap: %s %s %s/%s at %s:%d: %s", f.ID, f.Severity, f.Tool, f.Rule, f.Path, f.Line, firstLine(f.Message, 80))
	if a.short {
		line = fmt.Sprintf("recap: %s %s %s/%s", f.ID, f.Severity, f.Tool, f.Rule)
	}
	b, _ := json.Marshal(a)
	return line + "\n" + string(b)
}

func firstLine(s string, n int) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// fit keeps the answer within budget: it narrows the code around the
// finding, then drops it, then the report's own snippet, and last cuts a
// long message; each with a marker.
func (a *FindingAnswer) fit(c summarize.Counter, budget int) {
	budget = min(max(budget, summarize.MinMaxTokens), summarize.MaxMaxTokens)
	if !a.saved {
		a.saved, a.full, a.msg, a.rule = true, a.Code, a.Finding.Message, a.Rule
	}
	a.Code, a.Finding.Message, a.Rule, a.Omitted, a.short = a.full, a.msg, a.rule, nil, false
	a.Tokens = &summarize.TokenInfo{Budget: budget, Tokenizer: c.Name()}
	measure := func() int {
		n := summarize.Measure(a.Tokens, c, a.text)
		return max(n, (len([]rune(a.text()))+3)/4)
	}
	if measure() <= budget {
		return
	}
	if a.full != nil {
		lines := a.full.Lines
		first, last := a.Finding.Line, max(a.Finding.EndLine, a.Finding.Line)
		for len(lines) > 1 {
			// Drop a line from the side farther from the finding's lines.
			before, after := first-lines[0].Line, lines[len(lines)-1].Line-last
			if before > after {
				lines = lines[1:]
			} else {
				lines = lines[:len(lines)-1]
			}
			cut := *a.full
			cut.Lines = lines
			cut.From, cut.To = lines[0].Line, lines[len(lines)-1].Line
			a.Code = &cut
			a.Omitted = []summarize.Omission{{What: fmt.Sprintf("%d lines of code around the finding: raise maxTokens", len(a.full.Lines)-len(lines))}}
			if measure() <= budget {
				return
			}
		}
		a.Code = nil
		a.Omitted = []summarize.Omission{{What: "the code around the finding: raise maxTokens"}}
		if measure() <= budget {
			return
		}
	}
	if a.Finding.Snippet != "" {
		a.Finding.Snippet = ""
		a.Omitted = append(a.Omitted, summarize.Omission{What: "the report's snippet: raise maxTokens"})
		if measure() <= budget {
			return
		}
	}
	a.short = true
	if measure() <= budget {
		return
	}
	if a.Rule != nil {
		a.Rule = nil
		a.Omitted = append(a.Omitted, summarize.Omission{What: "the rule's summary: raise maxTokens"})
		if measure() <= budget {
			return
		}
	}
	r := []rune(a.msg)
	for n := len(r) / 2; n > 0; n /= 2 {
		a.Finding.Message = string(r[:n]) + "…"
		a.Omitted = append(a.Omitted[:len(a.Omitted):len(a.Omitted)], summarize.Omission{What: fmt.Sprintf("%d characters of the message: raise maxTokens", len(r)-n)})
		if measure() <= budget {
			return
		}
		a.Omitted = a.Omitted[:len(a.Omitted)-1]
	}
}

// parseID splits "tag-n" into the report's tag and the finding's ordinal.
func parseID(id string) (string, int, bool) {
	i := strings.LastIndexByte(id, '-')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(id[i+1:])
	if err != nil || n < 1 {
		return "", 0, false
	}
	return id[:i], n, true
}

func (s *Server) getFinding(ctx context.Context, in *GetFindingIn) (answer, error) {
	tag, n, ok := parseID(in.ID)
	if !ok {
		return nil, toolErrorf(CodeBadArgument, "%q is not a finding id (ids look like %s-12): take one from %s", in.ID, strings.Repeat("a", tagLen), s.name(ToolGetReports))
	}
	r, err := s.reportByTag(ctx, tag)
	if err != nil {
		return nil, err
	}
	if r == nil || n > r.n {
		return nil, toolErrorf(CodeNotFound, "no finding %s: the reports may have changed since it was listed; call %s again for current ids", in.ID, s.name(ToolGetReports))
	}
	f := *r.at(n - 1)
	a := &FindingAnswer{Finding: f, Report: r.rel,
		Rule: &RuleInfo{ID: f.Rule, Name: f.RuleName, Tool: f.Tool, Category: f.Category, HelpURI: f.HelpURI}}
	for i := 0; i < r.n; i++ {
		if x := r.at(i); x.Rule == f.Rule && x.Tool == f.Tool {
			a.Rule.InReport++
		}
	}
	a.Code = s.snippet(&f)
	return a, nil
}

// reportByTag finds the report whose id tag is tag: cached, or among the
// reports under the root; it is read again when it changed on disk.
func (s *Server) reportByTag(ctx context.Context, tag string) (*report, error) {
	rel := ""
	if r := s.cache.byTag(tag); r != nil {
		rel = r.rel
	} else {
		files, err := s.root.discover(s.root.dir)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if reports.InputTag(f.rel, tagLen) == tag {
				rel = f.rel
				break
			}
		}
	}
	if rel == "" || ctx.Err() != nil {
		return nil, ctx.Err()
	}
	f, err := s.root.resolve(rel)
	if err != nil {
		return nil, nil // the report is gone
	}
	r, parsed := s.cache.get(f, s.root.dir, "")
	if parsed {
		s.stats.parsedOne()
	}
	return r, nil
}

// snippet reads the code around f: its lines and snippetRadius more each
// side, at most snippetMaxLines lines and snippetMaxTokens tokens.
func (s *Server) snippet(f *reports.Finding) *Snippet {
	if f.Line <= 0 || f.Path == "" {
		return nil
	}
	end := max(f.EndLine, f.Line)
	src := &summarize.FileSource{Open: s.root.open}
	note := ""
	if end-f.Line+1 > snippetMaxLines {
		end = f.Line + snippetMaxLines - 1
		note = fmt.Sprintf("the finding spans lines %d-%d; the first %d are shown", f.Line, f.EndLine, snippetMaxLines)
	}
	pad := min(snippetRadius, (snippetMaxLines-(end-f.Line+1))/2)
	for ; pad >= 0; pad-- {
		from := max(f.Line-pad, 1)
		lines, err := src.Lines(f.Path, from, end+pad)
		if err != nil {
			return &Snippet{Path: f.Path, Note: fmt.Sprintf("no code: %v", err)}
		}
		sn := &Snippet{Path: f.Path, From: from, To: from + len(lines) - 1, Note: note}
		for i, l := range lines {
			if r := []rune(l); len(r) > snippetLineChars {
				l = string(r[:snippetLineChars-1]) + "…"
			}
			sn.Lines = append(sn.Lines, summarize.ContextLine{Line: from + i, Text: l})
		}
		b, _ := json.Marshal(sn)
		if cost(s.counter, string(b)) <= snippetMaxTokens {
			return sn
		}
		if pad == 0 { // the finding's own lines are over: show the first that fit
			for len(sn.Lines) > 1 {
				sn.Lines = sn.Lines[:len(sn.Lines)-1]
				sn.To = sn.Lines[len(sn.Lines)-1].Line
				sn.Note = fmt.Sprintf("lines %d-%d of the finding are shown, within %d tokens", sn.From, sn.To, snippetMaxTokens)
				b, _ := json.Marshal(sn)
				if cost(s.counter, string(b)) <= snippetMaxTokens {
					return sn
				}
			}
			return sn
		}
	}
	return nil
}
