package review

import (
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/gfmtest"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// The files a tool could not analyse are named where the findings are: the
// review's body and the check run's summary name the changed ones and
// count the others, the job summary names every one without an index;
// report text stays inert.
func TestNotAnalysed(t *testing.T) {
	notAnalysed := []reports.NotAnalysed{
		{Path: "A.java", Reason: "ParseException: Parse exception in file 'A.java' at line 5, column 17: Encountered \";\" <b>x</b>"},
		{Path: "Unchanged.java", Reason: "ParseException: boom"},
	}
	withInputs := func(in Input, na []reports.NotAnalysed) Input {
		v := *in.View
		v.Inputs = []reports.Input{{Path: "pmd.xml", Format: "pmd", Tool: "PMD", NotAnalysed: na}}
		in.View = &v
		return in
	}
	tests := []struct {
		name      string
		na        []reports.NotAnalysed
		review    []string // in the review's body, in order; nil: no section
		jobAll    []string // in the job summary without an index
		jobAbsent []string
	}{
		{"a changed file and another", notAnalysed,
			[]string{"**Not analysed: 1 changed file** — a tool could not analyse it, so its findings are missing:\n\n- A.java (PMD: ParseException: Parse exception in file 'A.java' at line 5, column 17: Encountered \";\" &lt;b&gt;x&lt;/b&gt;)\n",
				"1 file that is not changed could not be analysed either.\n"},
			[]string{"**Not analysed: 2 files** — a tool could not analyse them, so their findings are missing:", "- A.java (PMD: ", "- Unchanged.java (PMD: ParseException: boom)"}, nil},
		{"only an unchanged file", notAnalysed[1:],
			[]string{"1 file that is not changed could not be analysed either.\n"},
			[]string{"**Not analysed: 1 file**"}, []string{"changed file**"}},
		{"none", nil, nil, nil, []string{"Not analysed", "could not be analysed"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := withInputs(fixture(3), tc.na)
			body := Build(in).Body
			inOrder(t, "review", body, tc.review)
			if tc.review == nil && strings.Contains(body, "analys") {
				t.Errorf("review names files not analysed:\n%s", body)
			}
			check := BuildCheck(CheckInput{View: in.View, Where: "on changed lines", Name: "recap: PMD", HeadSHA: headSHA,
				Conclusion: ConclusionSuccess, Index: in.Index}).Summary
			inOrder(t, "check run", check, tc.review)
			if tc.review == nil && strings.Contains(check, "analys") {
				t.Errorf("check run names files not analysed:\n%s", check)
			}
			c := summarize.NewCollector()
			j := &JobSummary{}
			var b strings.Builder
			if err := j.Write(&b, JobSummaryInput{View: withInputs(Input{View: c.View(nil)}, tc.na).View, Where: "in the reports", Rest: "the SARIF file"}); err != nil {
				t.Fatal(err)
			}
			inOrder(t, "job summary", b.String(), tc.jobAll)
			for _, s := range tc.jobAbsent {
				if strings.Contains(b.String(), s) {
					t.Errorf("job summary has %q:\n%s", s, b.String())
				}
			}
			for _, out := range []string{body, b.String(), check} {
				for _, p := range gfmtest.Problems(gfmtest.Render(t, out)) {
					t.Errorf("%s", p)
				}
			}
		})
	}
}

func inOrder(t *testing.T, what, out string, want []string) {
	t.Helper()
	rest := out
	for _, w := range want {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Errorf("%s lacks %q (in order):\n%s", what, w, out)
			return
		}
		rest = rest[i+len(w):]
	}
}
