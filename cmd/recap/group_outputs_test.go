package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/githubtest"
	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/reports"
)

// The sample's reports (PMD, Checkstyle, SpotBugs of testdata/sample) hold
// 171 findings of 116 problems (docs/formats.md, "Duplicates").
const (
	sampleFindings = 171
	sampleProblems = tooltest.SampleProblems
)

// sampleIDs returns every finding of the sample's reports by id, from
// recap findings --no-group --format json (two pages).
func sampleIDs(t *testing.T, root string) map[string]reports.Finding {
	t.Helper()
	byID := map[string]reports.Finding{}
	for offset := 0; ; {
		out, errOut, code := recap(t, root, nil, "findings", "--no-group", "--format", "json", "--max-tokens", "25000", "--no-context", "--limit", "40",
			"--offset", fmt.Sprint(offset), "--repo", "testdata/sample", "testdata/reports")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var v struct {
			Findings []reports.Finding
			Page     struct{ NextOffset *int }
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		for _, f := range v.Findings {
			byID[f.ID.String()] = f
		}
		if v.Page.NextOffset == nil || *v.Page.NextOffset <= offset {
			break
		}
		offset = *v.Page.NextOffset
	}
	if len(byID) != sampleFindings {
		t.Fatalf("%d findings by id, want %d", len(byID), sampleFindings)
	}
	return byID
}

// checkAlso checks that each other finding named is a finding of the
// reports, of the tool and rule named, and that each finding is shown or
// named exactly once.
func checkAlso(t *testing.T, what string, byID map[string]reports.Finding, shown int, also [][]reports.Also) {
	t.Helper()
	named := 0
	seen := map[string]bool{}
	for _, as := range also {
		for _, a := range as {
			f, ok := byID[a.ID.String()]
			if !ok || f.Tool != a.Tool || reports.ShortRule(f.Tool, f.Rule) != a.Rule || seen[a.ID.String()] {
				t.Errorf("%s: %+v names no finding of the reports, or one named twice (%+v)", what, a, f)
			}
			seen[a.ID.String()] = true
			named++
		}
	}
	if shown != sampleProblems || shown+named != sampleFindings {
		t.Errorf("%s: %d shown and %d named, want %d problems naming the other %d findings", what, shown, named, sampleProblems, sampleFindings-sampleProblems)
	}
}

// TestSARIFOfProblems: recap's SARIF of the sample writes one result per
// problem, the others named in its properties (alsoReportedBy), each a
// finding of the reports; the SARIF Multitool finds nothing against the
// SARIF rules or GitHub's; --no-group writes every finding, none naming
// others; recap reads either back.
func TestSARIFOfProblems(t *testing.T) {
	root := reportstest.RepoRoot(t)
	byID := sampleIDs(t, root)
	dir := t.TempDir()
	var files []string
	for _, tc := range []struct {
		name    string
		args    []string
		results int
	}{
		{"grouped", nil, sampleProblems},
		{"no-group", []string{"--no-group"}, sampleFindings},
	} {
		out, errOut, code := recap(t, root, nil, append(append([]string{"summary", "--format", "sarif"}, tc.args...), "--repo", "testdata/sample", "testdata/reports")...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, errOut)
		}
		var log struct {
			Runs []struct {
				Results []struct {
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(out), &log); err != nil {
			t.Fatal(err)
		}
		var also [][]reports.Also
		results := 0
		for _, r := range log.Runs {
			for _, res := range r.Results {
				results++
				if raw, ok := res.Properties["alsoReportedBy"]; ok {
					var as []reports.Also
					if err := json.Unmarshal(raw, &as); err != nil || len(as) == 0 {
						t.Errorf("%s: alsoReportedBy %s: %v", tc.name, raw, err)
					}
					also = append(also, as)
				}
			}
		}
		if results != tc.results {
			t.Errorf("%s: %d results, want %d", tc.name, results, tc.results)
		}
		if tc.name == "grouped" {
			checkAlso(t, "sarif", byID, results, also)
		} else if len(also) > 0 {
			t.Errorf("--no-group: %d results name others", len(also))
		}
		p := filepath.Join(dir, tc.name+".sarif")
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
		back, errOut, code := recap(t, root, nil, "summary", "--no-group", "--format", "json", p)
		var v struct{ Summary struct{ Total int } }
		if code != 0 || json.Unmarshal([]byte(back), &v) != nil || v.Summary.Total != tc.results {
			t.Errorf("%s read back: exit %d, %d findings, want %d: %s", tc.name, code, v.Summary.Total, tc.results, errOut)
		}
	}
	if errs := tooltest.ValidateSARIF(t, files...); len(errs) > 0 {
		t.Errorf("Sarif.Multitool validate: %d results, first:\n%s", len(errs), strings.Join(errs[:min(len(errs), 10)], "\n"))
	}
}

// TestCodeQualityOfProblems: GitLab Code Quality of the sample is one issue
// per problem, its description naming the others; fingerprints unique;
// --no-group keeps every finding.
func TestCodeQualityOfProblems(t *testing.T) {
	root := reportstest.RepoRoot(t)
	for _, tc := range []struct {
		args           []string
		issues, naming int
	}{
		{nil, sampleProblems, 0},
		{[]string{"--no-group"}, sampleFindings, 0},
	} {
		out, errOut, code := recap(t, root, nil, append(append([]string{"summary", "--format", "codeclimate"}, tc.args...), "--repo", "testdata/sample", "testdata/reports")...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var issues []struct {
			Description, Fingerprint string
		}
		if err := json.Unmarshal([]byte(out), &issues); err != nil {
			t.Fatal(err)
		}
		fps := map[string]bool{}
		naming := 0
		for _, is := range issues {
			if fps[is.Fingerprint] {
				t.Errorf("fingerprint %s twice", is.Fingerprint)
			}
			fps[is.Fingerprint] = true
			if strings.Contains(is.Description, "(also reported by ") {
				naming++
			}
		}
		if len(issues) != tc.issues {
			t.Errorf("%v: %d issues, want %d", tc.args, len(issues), tc.issues)
		}
		if grouped := len(tc.args) == 0; grouped != (naming > 0) {
			t.Errorf("%v: %d descriptions name other tools", tc.args, naming)
		}
	}
}

// TestAnnotationsOfProblems: workflow annotations of the sample annotate
// each problem once (10 of each level, as GitHub shows), naming the others;
// the closing notice counts findings and problems.
func TestAnnotationsOfProblems(t *testing.T) {
	root := reportstest.RepoRoot(t)
	out, errOut, code := recap(t, root, nil, "findings", "--format", "github", "--repo", "testdata/sample", "testdata/reports")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	levels := map[string]int{}
	places := map[string]bool{}
	naming := 0
	for _, l := range lines[:len(lines)-1] {
		levels[l[:strings.IndexByte(l, ' ')]]++
		key := l[:strings.Index(l[2:], "::")+2] // the level, the place and the title
		if places[key] {
			t.Errorf("annotated twice: %s", l)
		}
		places[key] = true
		if strings.HasSuffix(l, ")") && strings.Contains(l, " (also reported by ") {
			naming++
		}
	}
	// Levels follow the impact: the sample's one high finding (the SQL
	// injection) is the one error; of its medium problems GitHub shows 10
	// as warnings; the low ones fill the notices up to the 20 annotated.
	if levels["::error"] != 1 || levels["::warning"] != 10 || levels["::notice"] != 9 || naming == 0 {
		t.Errorf("levels %v, %d naming others:\n%s", levels, naming, out)
	}
	if !strings.Contains(lines[len(lines)-1], fmt.Sprintf("171 findings (%d problems, %d reported more than once)", sampleProblems, tooltest.SampleRepeated)) {
		t.Errorf("notice: %s", lines[len(lines)-1])
	}
}

// TestGateCountsProblems: --fail-on counts problems (each at its leading
// finding's severity or impact), --no-group findings; the counts are the
// summary's less its duplicates.
func TestGateCountsProblems(t *testing.T) {
	root := reportstest.RepoRoot(t)
	js, _, _ := recap(t, root, nil, "summary", "--format", "json", "--repo", "testdata/sample", "testdata/reports")
	var v struct {
		Summary struct {
			BySeverity map[string]int `json:"bySeverity"`
			ByImpact   map[string]int `json:"byImpact"`
			Duplicates struct {
				BySeverity map[string]int `json:"bySeverity"`
				ByImpact   map[string]int `json:"byImpact"`
			} `json:"duplicates"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		t.Fatal(err)
	}
	s := v.Summary
	re := regexp.MustCompile(`quality gate failed: (\d+) (problems|findings) at or above`)
	for _, tc := range []struct {
		level   string
		counts  map[string]int
		dups    map[string]int
		atLeast []string
	}{
		{"error", s.BySeverity, s.Duplicates.BySeverity, []string{"error"}},
		{"warning", s.BySeverity, s.Duplicates.BySeverity, []string{"error", "warning"}},
		{"medium", s.ByImpact, s.Duplicates.ByImpact, []string{"blocker", "high", "medium"}},
		{"low", s.ByImpact, s.Duplicates.ByImpact, []string{"blocker", "high", "medium", "low"}},
	} {
		findings, problems := 0, 0
		for _, l := range tc.atLeast {
			findings += tc.counts[l]
			problems += tc.counts[l] - tc.dups[l]
		}
		for _, grouped := range []bool{true, false} {
			args := []string{"summary", "--fail-on", tc.level, "--repo", "testdata/sample", "testdata/reports"}
			want, unit := problems, "problems"
			if !grouped {
				args = append(args, "--no-group")
				want, unit = findings, "findings"
			}
			_, errOut, code := recap(t, root, nil, args...)
			m := re.FindStringSubmatch(errOut)
			if code != 1 || m == nil || m[1] != fmt.Sprint(want) || m[2] != unit {
				t.Errorf("--fail-on %s (grouped %v): exit %d, %q; want %d %s", tc.level, grouped, code, errOut, want, unit)
			}
		}
		if problems == findings && tc.level != "error" {
			t.Errorf("--fail-on %s: no duplicate at or above it, the test tells nothing", tc.level)
		}
	}
	// A gate that only duplicates would fail: the rule pairs of the sample
	// (PMD's MethodArgumentCouldBeFinal, a warning, and Checkstyle's
	// FinalParameters, an error) as two problems each would be twice as many.
	_, errOut, _ := recap(t, root, nil, "summary", "--fail-on", "note", "--rule", "MethodArgumentCouldBeFinal", "--rule", "FinalParameters", "--repo", "testdata/sample", "testdata/reports")
	if m := re.FindStringSubmatch(errOut); m == nil || m[1] != "16" || m[2] != "problems" {
		t.Errorf("16 pairs: %q", errOut)
	}
}

// samplePR is a pull request that adds the sample project, its reports'
// findings all on added lines, with GitHub's stand-in (OpenAPI-validated),
// the event and the job summary's file in the environment.
type samplePR struct {
	g       *gittest.Repo
	s       *githubtest.Server
	env     []string
	summary string // the job summary's file
	reports string // the sample's reports
}

func newSamplePR(t *testing.T) *samplePR {
	t.Helper()
	root := reportstest.RepoRoot(t)
	g := gittest.New(t)
	base := g.Commit("base", map[string]string{"README.md": "shop\n"})
	g.Git("checkout", "-q", "-b", "feature")
	files := map[string]string{}
	sample := filepath.Join(root, "testdata", "sample")
	filepath.WalkDir(sample, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(sample, p)
			files[filepath.ToSlash(rel)] = readFile(t, p)
		}
		return nil
	})
	head := g.Commit("add the shop", files)
	event := githubtest.EventFile(t, githubtest.PullRequestEvent{Action: "synchronize", Owner: "acme", Repo: "shop", Number: 5, Head: head, Base: base})
	s := githubtest.New(t, "acme", "shop", 5, githubtest.HunksOfGitDiff(g.Git("diff", base+"..."+head)))
	summary := filepath.Join(t.TempDir(), "summary.md")
	env := []string{"GITHUB_EVENT_PATH=" + event, "GITHUB_TOKEN=" + s.Token, "GITHUB_REPOSITORY=acme/shop", "GITHUB_STEP_SUMMARY=" + summary}
	return &samplePR{g: g, s: s, env: env, summary: summary, reports: filepath.Join(root, "testdata", "reports")}
}

// TestReviewOfProblems: recap review of a pull request that adds the
// sample, its reports' findings all on added lines, against GitHub's
// stand-in (OpenAPI-validated): one inline comment per problem (up to the
// cap), which names the others; a check run of one annotation per problem;
// a job summary that lists each problem once.
func TestReviewOfProblems(t *testing.T) {
	pr := newSamplePR(t)
	s, summary := pr.s, pr.summary
	out, errOut, code := recap(t, pr.g.Dir, pr.env, "review", "--post", "--checks", "--job-summary", "--api-url", s.URL, pr.reports)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	rc, ic, reviews, errs := s.Snapshot()
	if len(errs) > 0 {
		t.Fatalf("protocol errors: %v", errs)
	}
	if reviews != 1 || len(rc) != 30 || len(ic) != 1 {
		t.Fatalf("%d reviews, %d comments, %d summaries", reviews, len(rc), len(ic))
	}
	naming := 0
	for _, c := range rc {
		if strings.Contains(c.Body, "Also reported by ") {
			naming++
		}
	}
	if naming == 0 {
		t.Error("no comment names the other tools of its problem")
	}
	// Every finding of the reports is on the lines the pull request adds
	// (SpotBugs' field finding on its class's first line).
	const problems, findings = sampleProblems, sampleFindings
	if !strings.Contains(ic[0].Body, fmt.Sprintf("### recap: %d findings on changed lines", findings)) ||
		!strings.Contains(ic[0].Body, fmt.Sprintf("They are %d problems, %d reported more than once", problems, tooltest.SampleRepeated)) ||
		!strings.Contains(ic[0].Body, fmt.Sprintf("Not commented inline (%d)", problems-30)) {
		t.Errorf("summary comment:\n%.3000s", ic[0].Body)
	}
	checks := s.Checks()
	if len(checks) != 1 || len(checks[0].Annotations) != problems ||
		!strings.HasPrefix(checks[0].Title, fmt.Sprintf("%d problems (%d findings) on changed lines", problems, findings)) {
		t.Fatalf("check runs %d, annotations %d, title %q", len(checks), len(checks[0].Annotations), checks[0].Title)
	}
	naming = 0
	for _, a := range checks[0].Annotations {
		if strings.HasSuffix(a.Message, ")") && strings.Contains(a.Message, " (also reported by ") {
			naming++
		}
	}
	if naming == 0 {
		t.Error("no annotation names the other tools of its problem")
	}
	js := readFile(t, summary)
	if n := strings.Count(js, "\n- "); n != problems || !strings.Contains(js, fmt.Sprintf("Findings by file (%d listed)", problems)) ||
		!strings.Contains(js, "also reported by PMD MethodArgumentCouldBeFinal") {
		t.Errorf("job summary lists %d:\n%.3000s", n, js)
	}
}
