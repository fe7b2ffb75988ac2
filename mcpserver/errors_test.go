package mcpserver_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/recap-dev/recap/mcpserver"
	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/summarize/tokens"
)

// TestHugeArguments: a 10 MB string (1 MB with -short), and one of the
// 4,096 characters the schemas admit, in any string argument of any tool (a
// list's item too) get an answer within maxTokens (256 and the default)
// and 4 characters a token: errors quote an argument cut to 100
// characters, and are cut to their budget like every answer. server.stats
// then still fits 256 tokens.
func TestHugeArguments(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	size := 1 << 20 // 256 times the schemas' bound
	if *full {
		size = 10 << 20
	}
	huge := strings.Repeat(`ab/é"x *`, size/9)
	long := strings.Repeat(`ab/é"x *`, 4096/8)
	args := map[string][]string{
		"analysis.getReports": {"reports", "types", "categories", "severity", "tools", "rules", "paths", "grep", "changedSince", "filterMode", "baseline", "bufferId"},
		"analysis.getFinding": {"id"},
		"vcs.diff":            {"base", "head", "paths"},
		"tokens.count":        {"paths", "tokenizer"},
		"analysis.triage":     {"id", "fingerprint", "state", "reason", "until", "link", "by"},
	}
	lists := map[string]bool{"reports": true, "types": true, "categories": true, "tools": true, "rules": true, "paths": true, "baseline": true}
	exact, err := tokens.New(tokens.Default)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, r result, limit int) {
		t.Helper()
		if quoted := string([]rune(long)[:101]); strings.Contains(r.text, quoted) || strings.Contains(r.text, strings.ReplaceAll(quoted, `"`, `\"`)) {
			t.Errorf("%s: an argument quoted whole:\n%.300s", what, r.text)
		}
		if n := len([]rune(r.text)); n > 4*limit {
			t.Errorf("%s: %d characters, over %d:\n%.300s", what, n, 4*limit, r.text)
			return
		}
		if n := exact.Count(r.text); n > limit {
			t.Errorf("%s: %d tokens, over %d:\n%.300s", what, n, limit, r.text)
		}
		if len(r.raw) > 8*limit {
			t.Errorf("%s: structured content of %d bytes:\n%.300s", what, len(r.raw), r.raw)
		}
	}
	calls := 0
	for tool, names := range args {
		for _, name := range names {
			for _, limit := range []int{256, budget.DefaultMaxTokens} {
				for _, v := range []string{huge, long} {
					a := map[string]any{name: v, "maxTokens": limit}
					if lists[name] {
						a[name] = []string{v}
					}
					if tool == "vcs.diff" && name == "head" {
						a["base"] = "main"
					}
					if tool == "tokens.count" && name != "paths" {
						a["paths"] = []string{"src/**/*.java"}
					}
					r := call(t, cs, tool, a)
					check(fmt.Sprintf("%s %s of %d bytes in %d tokens", tool, name, len(v), limit), r, limit)
					calls++
				}
			}
		}
	}
	if calls != 4*25 {
		t.Errorf("%d calls", calls)
	}
	// An argument the schema refuses by its length or its kind.
	for _, a := range []map[string]any{{"maxTokens": huge}, {"limit": huge}, {huge[:1000]: 1}} {
		check("getReports with a bad argument", call(t, cs, "analysis.getReports", a), budget.DefaultMaxTokens)
	}
	r := call(t, cs, "server.stats", map[string]any{"maxTokens": 256})
	check("server.stats", r, 256)
	var s mcpserver.StatsAnswer
	r.decode(t, &s)
	if len(s.Tools) == 0 || s.Tools[0].Errors == 0 {
		t.Errorf("stats: %+v", s.Tools)
	}
}

// TestArgumentOutOfBounds: a number past its schema's bound is named with
// its argument, in a few digits, beside the bound (an offset of 1e308 is
// not echoed in 309 digits).
func TestArgumentOutOfBounds(t *testing.T) {
	g := workspace(t)
	cs, _ := connect(t, mcpserver.Options{Root: g.Dir})
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"offset": 1e308}, "BAD_ARGUMENT: offset: 1e+308 is out of bounds (the largest is 1073741824)"},
		{map[string]any{"offset": -3}, "BAD_ARGUMENT: offset: -3 is out of bounds (the smallest is 0)"},
		{map[string]any{"maxTokens": 7}, "BAD_ARGUMENT: maxTokens: 7 is out of bounds (the smallest is 256)"},
		{map[string]any{"limit": 2.5e9}, "BAD_ARGUMENT: limit: 2.5e+09 is out of bounds (the largest is 200)"},
	} {
		r := call(t, cs, "analysis.getReports", tc.args)
		if !r.isErr || !strings.HasPrefix(r.text, tc.want) || len(r.text) > 300 {
			t.Errorf("%v:\n got %.400q\nwant %q", tc.args, r.text, tc.want)
		}
	}
}
