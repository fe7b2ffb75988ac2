package mcpserver

import (
	"runtime/metrics"
	"sort"
	"sync"
	"time"
)

// statsWindow is how many recent calls of a tool the percentiles look at.
const statsWindow = 1000

// ToolStats are one tool's figures since the server started: calls, errors,
// and the tokens and durations of its answers (mean and max over all calls,
// p95 over the last 1,000).
type ToolStats struct {
	Tool        string  `json:"tool"`
	Calls       int     `json:"calls"`
	Errors      int     `json:"errors"`
	Cancelled   int     `json:"cancelled"` // calls the client cancelled: not in calls, errors or the figures
	MeanTokens  int     `json:"meanTokens"`
	P95Tokens   int     `json:"p95Tokens"`
	MaxTokens   int     `json:"maxTokens"`
	MeanMillis  float64 `json:"meanMillis"`
	P95Millis   float64 `json:"p95Millis"`
	MaxMillis   float64 `json:"maxMillis"`
	TotalTokens int64   `json:"totalTokens"`
	TotalBytes  int64   `json:"totalBytes"`
}

// Stats are the server's figures: per tool, and its caches.
type Stats struct {
	Tools          []ToolStats `json:"tools"`
	ReportsParsed  int         `json:"reportsParsed"`
	ReportsCached  int         `json:"reportsCached"`
	CacheBytes     int64       `json:"cacheBytes"`
	Buffers        int         `json:"buffers"`
	BufferBytes    int64       `json:"bufferBytes"` // the result buffers' references
	Memory         Memory      `json:"memory"`
	UptimeSeconds  float64     `json:"uptimeSeconds"`
	TokenizerName  string      `json:"tokenizer"`
	DefaultBudget  int         `json:"defaultBudget"`
	MaxBudget      int         `json:"maxBudget"`
	BufferIdleSecs float64     `json:"bufferIdleSeconds"`
	Sessions       int         `json:"sessions"` // MCP sessions open that called a tool
}

type toolStats struct {
	calls, errors  int
	cancelled      int
	tokens         int64
	bytes          int64
	maxTokens      int
	dur, maxDur    time.Duration
	recentTokens   []int
	recentDuration []time.Duration
	next           int
}

type stats struct {
	mu     sync.Mutex
	tools  map[string]*toolStats
	parsed int
}

func newStats() *stats { return &stats{tools: map[string]*toolStats{}} }

func (s *stats) record(tool string, tokens, bytes int, d time.Duration, failed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tools[tool]
	if t == nil {
		t = &toolStats{}
		s.tools[tool] = t
	}
	t.calls++
	if failed {
		t.errors++
	}
	t.tokens += int64(tokens)
	t.bytes += int64(bytes)
	t.maxTokens = max(t.maxTokens, tokens)
	t.dur += d
	t.maxDur = max(t.maxDur, d)
	if len(t.recentTokens) < statsWindow {
		t.recentTokens = append(t.recentTokens, tokens)
		t.recentDuration = append(t.recentDuration, d)
	} else {
		t.recentTokens[t.next] = tokens
		t.recentDuration[t.next] = d
		t.next = (t.next + 1) % statsWindow
	}
}

// cancel counts a call the client cancelled.
func (s *stats) cancel(tool string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tools[tool]
	if t == nil {
		t = &toolStats{}
		s.tools[tool] = t
	}
	t.cancelled++
}

func (s *stats) parsedOne() {
	s.mu.Lock()
	s.parsed++
	s.mu.Unlock()
}

func (s *stats) snapshot() ([]ToolStats, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ToolStats, 0, len(s.tools))
	for name, t := range s.tools {
		ts := ToolStats{Tool: name, Calls: t.calls, Errors: t.errors, Cancelled: t.cancelled, MaxTokens: t.maxTokens,
			MaxMillis: millis(t.maxDur), TotalTokens: t.tokens, TotalBytes: t.bytes}
		if t.calls > 0 {
			ts.MeanTokens = int(t.tokens / int64(t.calls))
			ts.MeanMillis = millis(t.dur / time.Duration(t.calls))
		}
		ts.P95Tokens = p95(t.recentTokens)
		ts.P95Millis = millis(p95(t.recentDuration))
		out = append(out, ts)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Tool < out[j].Tool })
	return out, s.parsed
}

func p95[T int | time.Duration](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := append([]T(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (len(s)*95 + 99) / 100
	return s[min(max(i-1, 0), len(s)-1)]
}

func millis(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}

// Memory is what the process holds, as the Go runtime counts it, against
// the bound the server keeps within ([Server.MemoryBound]): the cache and
// buffers' bytes are part of the heap, beside the tokenizer's vocabularies,
// the calls under way and the garbage not yet collected.
type Memory struct {
	HeapBytes    int64 `json:"heapBytes"`    // heap objects, live or not yet collected
	RuntimeBytes int64 `json:"runtimeBytes"` // all the runtime has from the system and not given back: about the resident set
	BoundBytes   int64 `json:"boundBytes"`   // the bound: cache, buffers and headroom
}

// memoryNow reads the runtime's figures (runtime/metrics: no pause of the
// program, unlike ReadMemStats).
func memoryNow(bound int64) Memory {
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(samples)
	v := func(i int) int64 {
		if samples[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(samples[i].Value.Uint64())
	}
	return Memory{HeapBytes: v(0), RuntimeBytes: v(1) - v(2), BoundBytes: bound}
}
