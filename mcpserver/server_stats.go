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
	return budget.FitList(c, limit, a.text(), jsonRows(a.all), func(n int) {
		a.Tools, a.Omitted = a.all[:n], nil
		if n < len(a.all) {
			a.Omitted = []budget.Omission{{What: fmt.Sprintf("the figures of %d more tools: raise maxTokens", len(a.all)-n)}}
		}
	}, a.text, a.Tokens)
}

func (s *Server) statsTool(ctx context.Context, _ *StatsIn) (answer, error) {
	return &StatsAnswer{Stats: s.snapshot(ctx)}, nil
}
