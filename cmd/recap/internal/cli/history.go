package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/render"
)

// maxHistoryFile bounds a summary read for --history: recap's JSON
// summary is a few kilobytes.
const maxHistoryFile = 16 << 20

// history reads the earlier runs of --history: recap's JSON summaries
// (recap summary --format json), files or directories of them (their
// .json files in name order), oldest first as given.
func history(paths []string) ([]render.HistoryRun, error) {
	var runs []render.HistoryRun
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, usageError("--history %s: %v", p, content.PathErr(err))
		}
		files := []string{p}
		if st.IsDir() {
			entries, err := os.ReadDir(p)
			if err != nil {
				return nil, usageError("--history %s: %v", p, content.PathErr(err))
			}
			files = files[:0]
			for _, e := range entries {
				if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
					files = append(files, filepath.Join(p, e.Name()))
				}
			}
		}
		for _, f := range files {
			run, err := historyRun(f)
			if err != nil {
				return nil, usageError("--history %s: %v", f, err)
			}
			runs = append(runs, run)
		}
	}
	return runs, nil
}

// historyRun reads one summary: its problems by impact are its findings'
// less the duplicates'.
func historyRun(path string) (render.HistoryRun, error) {
	f, _, err := content.Open(path)
	if err != nil {
		return render.HistoryRun{}, content.PathErr(err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxHistoryFile+1))
	if err != nil {
		return render.HistoryRun{}, content.PathErr(err)
	}
	if len(b) > maxHistoryFile {
		return render.HistoryRun{}, fmt.Errorf("over %d MiB: not recap's JSON summary", maxHistoryFile>>20)
	}
	var v struct {
		Summary *summarize.Summary `json:"summary"`
	}
	if err := json.Unmarshal(b, &v); err != nil || v.Summary == nil {
		why := "no summary"
		if err != nil {
			why = err.Error()
		}
		return render.HistoryRun{}, fmt.Errorf("not recap's JSON summary (recap summary --format json): %s", why)
	}
	s := v.Summary
	run := render.HistoryRun{Label: strings.TrimSuffix(filepath.Base(path), ".json"), Problems: s.Problems, Findings: s.Total, ByImpact: map[string]int{}}
	if s.Problems == 0 && s.Total > 0 && s.Duplicates == nil {
		run.Problems = s.Total // a summary written before problems were counted
	}
	for _, i := range reports.Impacts {
		n := s.ByImpact.Of(i)
		if d := s.Duplicates; d != nil {
			n -= d.ByImpact.Of(i)
		}
		if n > 0 {
			run.ByImpact[i.String()] = n
		}
	}
	return run, nil
}
