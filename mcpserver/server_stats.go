package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/recap-dev/recap/summarize/budget"
)

// StatsAnswer is server.stats' answer.
type StatsAnswer struct {
	Stats
	Omitted []budget.Omission `json:"omitted,omitempty"`
	Tokens  *budget.TokenInfo `json:"tokens,omitempty"`

	all []ToolStats
}

func (a *StatsAnswer) out() any { return a }

func (a *StatsAnswer) text() string {
	calls := 0
	for _, t := range a.all {
		calls += t.Calls
	}
	b, _ := json.Marshal(a)
	return fmt.Sprintf("recap: %d calls, %d reports parsed, %d cached, %d buffers", calls, a.ReportsParsed, a.ReportsCached, a.Buffers) + "\n" + string(b)
}

// fit keeps the totals and the rows of the tools that fit, busiest first,
// with a marker for the rest.
func (a *StatsAnswer) fit(c budget.Counter, limit int) int {
	if a.all == nil {
		a.all = a.Tools
		sort.SliceStable(a.all, func(i, j int) bool { return a.all[i].Calls > a.all[j].Calls })
	}
	a.Tokens = &budget.TokenInfo{}
	a.Tools, a.Omitted = []ToolStats{}, nil
	parts := []budget.Part{{Kind: 0, Tokens: budget.Cost(c, a.text())}}
	for i := range a.all {
		b, _ := json.Marshal(a.all[i])
		parts = append(parts, budget.Part{Kind: 1, Tokens: budget.Cost(c, string(b))})
	}
	return budget.Fit(c, limit, budget.Plan{
		Parts: parts,
		Apply: func(keep []bool, _ int) {
			rows := 0
			for rows < len(a.all) && keep[1+rows] {
				rows++
			}
			a.Tools, a.Omitted = a.all[:rows], nil
			if rows < len(a.all) {
				a.Omitted = []budget.Omission{{What: fmt.Sprintf("the figures of %d more tools: raise maxTokens", len(a.all)-rows)}}
			}
		},
		Render: a.text,
		Tokens: a.Tokens,
	})
}

func (s *Server) statsTool(context.Context, *StatsIn) (answer, error) {
	return &StatsAnswer{Stats: s.snapshot()}, nil
}
