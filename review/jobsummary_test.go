package review

import (
	"fmt"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/gfmtest"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// jobFindings are n findings over files files, with messages of size bytes.
func jobFindings(n, files, size int) []reports.Finding {
	out := make([]reports.Finding, n)
	for i := range out {
		out[i] = reports.Finding{ID: reports.ID("n", i), Tool: "PMD", Rule: fmt.Sprintf("R%d", i%7), Category: "Design",
			Severity: reports.Severities[i%3], Path: fmt.Sprintf("src/F%03d.java", i%files), Line: 1 + i,
			Message: fmt.Sprintf("finding %d: @param #12 GH-3 ", i) + strings.Repeat("x", size)}
	}
	return out
}

// TestJobSummary: every finding is listed when they fit, grouped by file
// in collapsed <details>, the file of the first finding in view order
// first; past GitHub's 1 MiB the first findings in view order are listed,
// the summary stays within the room left in the step's summary, and it
// says where the rest are. It never says to page: a job summary's reader
// cannot.
func TestJobSummary(t *testing.T) {
	for _, tc := range []struct {
		name       string
		n, files   int
		size, room int
		all        bool
	}{
		{"all fit", 117, 3, 40, 0, true},
		{"30,000 findings", 30000, 400, 60, 0, false},
		{"room left by an earlier step", 2000, 20, 100, 100 << 10, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := summarize.NewCollector()
			j := &JobSummary{Room: tc.room}
			for _, f := range jobFindings(tc.n, tc.files, tc.size) {
				c.Add(f)
				j.Add(&f)
			}
			var b strings.Builder
			if err := j.Write(&b, JobSummaryInput{View: c.View(nil), Where: "in the reports", Rest: "the SARIF file"}); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			room := tc.room
			if room == 0 {
				room = MaxJobSummary
			}
			listed := strings.Count(out, "\n- ")
			if len(out) > room || strings.Contains(out, "offset") {
				t.Errorf("%d bytes (room %d), or it says to page", len(out), room)
			}
			if tc.all != (listed == tc.n) || tc.all == strings.Contains(out, "did not fit GitHub's 1 MiB job summary") {
				t.Errorf("%d of %d listed:\n%.2000s", listed, tc.n, out)
			}
			if !tc.all && (len(out) < room*8/10 || !strings.Contains(out, fmt.Sprintf("_%d more findings did not fit", tc.n-listed))) {
				t.Errorf("%d bytes of %d used, %d listed; the end:\n%s", len(out), room, listed, out[len(out)-300:])
			}
			if got := strings.Count(out, "<details><summary><code>src/"); got == 0 || got > tc.files || got != strings.Count(out, "</details>") {
				t.Errorf("%d file groups", got)
			}
			if tc.n < 5000 {
				doc := gfmtest.Render(t, out)
				for _, p := range gfmtest.Problems(doc) {
					t.Errorf("%s", p)
				}
			}
			// The first listed is an error (view order), of the file with the first error.
			if i := strings.Index(out, "\n- "); i < 0 || !strings.HasPrefix(out[i:], "\n- 🔴 **error**") {
				t.Errorf("the first listed is not an error")
			}
		})
	}
}

// TestJobSummaryLevels: the headline's and each file's counts of errors,
// warnings and notes are the levels the annotations show (the impact's),
// not the tools' words; a finding without an impact counts by its severity.
func TestJobSummaryLevels(t *testing.T) {
	type fd struct {
		sev    reports.Severity
		impact reports.Impact
	}
	tests := []struct {
		name       string
		findings   []fd
		headline   string // in the counts line
		fileCounts string // the file group's summary
	}{
		{"a high warning and style errors",
			[]fd{{reports.SeverityWarning, reports.ImpactHigh}, {reports.SeverityError, reports.ImpactLow}, {reports.SeverityError, reports.ImpactLow}},
			"**1** high · **2** low (as levels: 1 error, 0 warning, 2 note)", "1 error, 2 note"},
		{"a blocker note and a medium note",
			[]fd{{reports.SeverityNote, reports.ImpactBlocker}, {reports.SeverityNote, reports.ImpactMedium}, {reports.SeverityError, reports.ImpactInfo}},
			"**1** blocker · **1** medium · **1** info (as levels: 1 error, 1 warning, 1 note)", "1 error, 1 warning, 1 note"},
		{"no impacts: the severities",
			[]fd{{reports.SeverityError, 0}, {reports.SeverityNote, 0}},
			"**1** error · **0** warning · **1** note", "1 error, 1 note"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := summarize.NewCollector()
			j := &JobSummary{}
			for i, x := range tc.findings {
				f := reports.Finding{ID: reports.ID("n", i), Tool: "T", Rule: "R", Severity: x.sev, Impact: x.impact, Path: "A.java", Line: i + 1, Message: "m"}
				if x.impact != 0 {
					f.Quality = reports.QualityReliability
				}
				c.Add(f)
				j.Add(&f)
			}
			var b strings.Builder
			if err := j.Write(&b, JobSummaryInput{View: c.View(nil), Where: "in the reports", Rest: "the SARIF file"}); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if !strings.Contains(out, tc.headline+" in 1 file") {
				t.Errorf("headline counts, want %q:\n%s", tc.headline, out)
			}
			if !strings.Contains(out, "<code>A.java</code>: "+tc.fileCounts+"</summary>") {
				t.Errorf("file counts, want %q:\n%s", tc.fileCounts, out)
			}
		})
	}
}
