package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/internal/githubtest"
	"github.com/recap-dev/recap/internal/gitlabtest"
	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/review"
	"github.com/recap-dev/recap/triage"
)

// e2eFinding is a finding of recap findings --format json.
type e2eFinding struct {
	ID, Fingerprint, Tool, Rule, Path string
	Line                              int
	Triage                            *reports.Triage
	AlsoReportedBy                    []struct{ Tool, Rule, ID string }
}

func (f e2eFinding) key() string {
	return f.Tool + " " + f.Rule + " " + f.Path + ":" + strconv.Itoa(f.Line)
}

// e2eFindings runs recap findings --format json with args and returns the
// page's findings and the summary's counts.
func e2eFindings(t *testing.T, dir string, args ...string) ([]e2eFinding, e2eSummary) {
	t.Helper()
	out, stderr, code := recap(t, dir, nil, append(append([]string{"findings", "--format", "json", "--no-context"}, args...), "build/reports")...)
	if code != 0 {
		t.Fatalf("findings %v: exit %d\n%s", args, code, stderr)
	}
	var v struct {
		Findings []e2eFinding
		Summary  e2eSummary
	}
	mustJSON(t, out, &v)
	return v.Findings, v.Summary
}

// e2eSummary is the summary of recap findings --format json.
type e2eSummary struct {
	Total   int
	Triaged struct{ Total, Problems, Expired int }
}

// e2eEdit changes the sample's three reports as the tools run again on
// the changed code would report it: in file's results every line (start
// and end) after the line after is moved by shift, the path becomes to
// (when not empty), and the results at line drop are removed (0: none).
func e2eEdit(t *testing.T, dir, file string, after, shift int, to string, drop int) {
	t.Helper()
	rdir := filepath.Join(dir, "build", "reports")
	moved := func(n int) int {
		if n > after {
			return n + shift
		}
		return n
	}
	// PMD's SARIF.
	p := filepath.Join(rdir, "pmd.sarif")
	var log map[string]any
	mustJSON(t, readFile(t, p), &log)
	for _, run := range log["runs"].([]any) {
		run := run.(map[string]any)
		var kept []any
		for _, r := range run["results"].([]any) {
			loc := r.(map[string]any)["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
			art := loc["artifactLocation"].(map[string]any)
			uri := art["uri"].(string)
			if !strings.HasSuffix(uri, "/"+file) {
				kept = append(kept, r)
				continue
			}
			region := loc["region"].(map[string]any)
			if int(region["startLine"].(float64)) == drop {
				continue
			}
			for _, k := range []string{"startLine", "endLine"} {
				if v, ok := region[k].(float64); ok {
					region[k] = float64(moved(int(v)))
				}
			}
			if to != "" {
				art["uri"] = strings.TrimSuffix(uri, file) + to
			}
			kept = append(kept, r)
		}
		run["results"] = kept
	}
	b, err := json.Marshal(log)
	if err != nil {
		t.Fatal(err)
	}
	writeE2E(t, p, string(b))

	// Checkstyle's XML: the errors of <file name="…/file">.
	p = filepath.Join(rdir, "checkstyle.xml")
	fileBlock := regexp.MustCompile(`(?s)<file name="[^"]*/` + regexp.QuoteMeta(file) + `">.*?</file>`)
	errLine := regexp.MustCompile(`(?m)^\s*<error line="(\d+)"[^\n]*\n`)
	writeE2E(t, p, fileBlock.ReplaceAllStringFunc(readFile(t, p), func(block string) string {
		block = errLine.ReplaceAllStringFunc(block, func(e string) string {
			n, _ := strconv.Atoi(errLine.FindStringSubmatch(e)[1])
			if n == drop {
				return ""
			}
			return strings.Replace(e, `line="`+strconv.Itoa(n)+`"`, `line="`+strconv.Itoa(moved(n))+`"`, 1)
		})
		if to != "" {
			block = strings.Replace(block, "/"+file+`">`, "/"+to+`">`, 1)
		}
		return block
	}))

	// SpotBugs' XML: its SourceLines in file; a BugInstance whose primary
	// line is dropped goes.
	p = filepath.Join(rdir, "spotbugs.xml")
	text := readFile(t, p)
	if drop > 0 {
		bug := regexp.MustCompile(`(?s)\n\s*<BugInstance .*?</BugInstance>`)
		primary := regexp.MustCompile(`<SourceLine [^>]*start="` + strconv.Itoa(drop) + `" end="` + strconv.Itoa(drop) + `"[^>]*sourcefile="` + regexp.QuoteMeta(file) + `"`)
		text = bug.ReplaceAllStringFunc(text, func(b string) string {
			if primary.MatchString(b) {
				return ""
			}
			return b
		})
	}
	sourceLine := regexp.MustCompile(`<SourceLine [^>]*sourcefile="` + regexp.QuoteMeta(file) + `"[^>]*>`)
	num := regexp.MustCompile(` (start|end)="(\d+)"`)
	text = sourceLine.ReplaceAllStringFunc(text, func(s string) string {
		s = num.ReplaceAllStringFunc(s, func(a string) string {
			m := num.FindStringSubmatch(a)
			n, _ := strconv.Atoi(m[2])
			return " " + m[1] + `="` + strconv.Itoa(moved(n)) + `"`
		})
		if to != "" {
			s = strings.ReplaceAll(s, `"`+file+`"`, `"`+to+`"`)
			s = strings.ReplaceAll(s, "/"+file+`"`, "/"+to+`"`)
		}
		return s
	})
	writeE2E(t, p, text)
}

func writeE2E(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// repliedEntries returns the entries a review's body tells to commit.
func repliedEntries(t *testing.T, body string) string {
	t.Helper()
	m := entriesBlock.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no entries to commit in the review's body:\n%s", body)
	}
	return m[2] + "\n"
}

// TestTriageDoneWhen: on a pull request that adds the sample (three
// tools' real reports), five findings of five problems are triaged, one
// through each door: recap triage ID, recap triage --rule, the MCP tool
// analysis.triage of a server started with --allow-triage-writes, a reply
// to recap's comment on GitHub (the stand-in checks every request against
// GitHub's OpenAPI description) and one on GitLab, the entries their
// review bodies show committed into the triage file. On a branch of three
// commits (three lines at the top of the files, a file renamed, a block
// re-indented) all five stay triaged: none on the first page, in the
// review's comments or in the annotations; the gate that failed passes;
// recap's SARIF carries five accepted suppressions and validates; deleting
// one finding's code makes one entry stale; an expired entry brings its
// finding back.
func TestTriageDoneWhen(t *testing.T) {
	root := reportstest.RepoRoot(t)
	g := gittest.New(t)
	g.Git("config", "user.name", "Ana")
	g.Git("config", "user.email", "ana@example.com")
	base := g.Commit("base", map[string]string{"README.md": "shop\n", ".gitignore": "build/\n"})
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
	for _, r := range []string{"pmd.sarif", "checkstyle.xml", "spotbugs.xml"} {
		g.Write(map[string]string{"build/reports/" + r: readFile(t, filepath.Join(root, "testdata", "reports", r))})
	}
	run := func(env []string, code int, args ...string) string {
		t.Helper()
		out, stderr, got := recap(t, g.Dir, env, args...)
		if got != code {
			t.Fatalf("recap %s: exit %d, want %d\n%s%s", strings.Join(args, " "), got, code, out, stderr)
		}
		return out
	}
	// main's reports (the baseline): every problem but the SQL injection,
	// which the pull request brings.
	baseline := t.TempDir()
	for _, r := range []string{"pmd.sarif", "checkstyle.xml", "spotbugs.xml"} {
		text := readFile(t, filepath.Join(root, "testdata", "reports", r))
		if r == "spotbugs.xml" {
			text = regexp.MustCompile(`(?s)\n\s*<BugInstance type="SQL_NONCONSTANT_STRING_PASSED_TO_EXECUTE".*?</BugInstance>`).ReplaceAllString(text, "")
		}
		writeE2E(t, filepath.Join(baseline, r), text)
	}
	run(nil, 1, "summary", "--fail-on", "high", "build/reports")
	run(nil, 1, "summary", "--baseline", baseline, "--max-new", "0", "build/reports")

	all, _ := e2eFindings(t, g.Dir, "--no-group", "--limit", "200", "--max-tokens", "25000")
	pick := func(tool, rule, file string, line int) e2eFinding {
		t.Helper()
		for _, f := range all {
			if f.Tool == tool && f.Rule == rule && f.Path == shop+file && f.Line == line {
				return f
			}
		}
		t.Fatalf("no finding of %s %s at %s:%d", tool, rule, file, line)
		return e2eFinding{}
	}
	sql := pick("SpotBugs", "SQL_NONCONSTANT_STRING_PASSED_TO_EXECUTE", "OrderRepository.java", 31)
	unused := pick("PMD", "UnusedPrivateField", "Order.java", 14)
	hashMap := pick("PMD", "UseConcurrentHashMap", "OrderService.java", 10)
	catch := pick("PMD", "EmptyCatchBlock", "OrderRepository.java", 50)
	sysout := pick("PMD", "SystemPrintln", "OrderService.java", 15)
	if one, _ := e2eFindings(t, g.Dir, "--no-group", "--rule", unused.Rule); len(one) != 1 {
		t.Fatalf("%d findings of %s, want the one", len(one), unused.Rule)
	}

	// The command line, by the id recap findings build/reports showed, the
	// reports found in the repository; the bulk filter.
	run(nil, 0, "triage", sql.ID, "--as", "false-positive", "--reason", "the table name is a constant of the class")
	if out := run(nil, 0, "triage", "--rule", unused.Rule, "--as", "wont-fix", "--reason", "the counter is read by reflection", "build/reports"); !strings.Contains(out, ": 1 decision written, 0 unchanged") {
		t.Errorf("bulk by --rule:\n%s", out)
	}

	// The agent: recap mcp with writes allowed.
	ctx := context.Background()
	cmd := exec.Command(bin, "mcp", "--root", g.Dir, "--allow-triage-writes")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "claude-code"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "analysis.triage", Arguments: map[string]any{
		"fingerprint": hashMap.Fingerprint, "state": "accepted-risk", "reason": "one thread builds the orders"}})
	if err != nil || res.IsError {
		t.Fatalf("analysis.triage: %v %+v", err, res)
	}
	var answer struct{ Written bool }
	b, _ := json.Marshal(res.StructuredContent)
	if json.Unmarshal(b, &answer) != nil || !answer.Written {
		t.Fatalf("analysis.triage did not write: %s", b)
	}
	cs.Close()

	// A reply on GitHub.
	triageYML := filepath.Join(g.Dir, ".recap", "triage.yml")
	commitEntries := func(entries string) {
		t.Helper()
		f := readFile(t, triageYML)
		if !strings.HasSuffix(f, "\n") {
			f += "\n"
		}
		writeE2E(t, triageYML, f+entries)
	}
	gh := githubtest.New(t, "acme", "shop", 5, githubtest.HunksOfGitDiff(g.Git("diff", base+"..."+head)))
	gh.Roles = map[string]string{"maria": "write"}
	event := githubtest.EventFile(t, githubtest.PullRequestEvent{Action: "synchronize", Owner: "acme", Repo: "shop", Number: 5, Head: head, Base: base})
	ghEnv := []string{"GITHUB_EVENT_PATH=" + event, "GITHUB_TOKEN=" + gh.Token, "GITHUB_REPOSITORY=acme/shop"}
	ghArgs := []string{"review", "--post", "--write-interval", "0", "--api-url", gh.URL, "build/reports"}
	run(ghEnv, 0, ghArgs...)
	rc, _, _, errs := gh.Snapshot()
	var to int64
	for _, c := range rc {
		if c.Path == catch.Path && c.Line == catch.Line && strings.Contains(c.Body, catch.Rule) {
			to = c.ID
		}
	}
	if to == 0 || len(errs) > 0 {
		t.Fatalf("no comment on %s among %d, or errors %v", catch.key(), len(rc), errs)
	}
	gh.Reply(t, to, githubtest.By("maria"), "/recap false-positive closing is the caller's business")
	run(ghEnv, 0, ghArgs...)
	_, ic, _, errs := gh.Snapshot()
	if len(errs) > 0 {
		t.Fatalf("requests GitHub's description refuses: %v", errs)
	}
	commitEntries(repliedEntries(t, ic[len(ic)-1].Body))

	// A reply on GitLab.
	gl := gitlabtest.New(t, "acme/shop", 9, g.Git("diff", base+"..."+head), base, base, head)
	dev := gitlabtest.User{ID: 71, Username: "maria", State: "active"}
	gl.Members = map[int64]int{dev.ID: 30}
	glEnv := []string{"CI_API_V4_URL=" + gl.URL + "/api/v4", "CI_PROJECT_ID=42", "CI_MERGE_REQUEST_IID=9",
		"CI_MERGE_REQUEST_DIFF_BASE_SHA=" + base, "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA=" + head,
		"GITLAB_TOKEN=" + gl.Token, "CI_JOB_TOKEN=", "GITLAB_USER_LOGIN="}
	run(glEnv, 0, "review", "--gitlab", "build/reports")
	notes, _, errs := gl.Snapshot()
	var note int64
	for _, x := range notes {
		if x.Position != nil && x.Position.NewPath == sysout.Path && x.Position.NewLine != nil && *x.Position.NewLine == sysout.Line && strings.Contains(x.Body, sysout.Rule) {
			note = x.ID
		}
	}
	if note == 0 || len(errs) > 0 {
		t.Fatalf("no note on %s among %d, or errors %v", sysout.key(), len(notes), errs)
	}
	gl.Reply(t, note, dev, "/recap used-in-tests only the tests call find without a customer")
	run(glEnv, 0, "review", "--gitlab", "build/reports")
	notes, _, errs = gl.Snapshot()
	summary := ""
	for _, x := range notes {
		if strings.HasPrefix(x.Body, review.SummaryMarker) {
			summary = x.Body
		}
	}
	if len(errs) > 0 {
		t.Fatalf("GitLab's stand-in: %v", errs)
	}
	commitEntries(repliedEntries(t, summary))

	decided := []e2eFinding{sql, unused, hashMap, catch, sysout}
	if out := run(nil, 0, "triage", "list", "build/reports"); !strings.Contains(out, ".recap/triage.yml: 5 entries, 0 stale, 0 expired\n") {
		t.Fatalf("list after the five doors:\n%s", out)
	}
	// The new problem against main is triaged: --max-new 0 passes (on the
	// moved branch a baseline taken before the moves counts the renamed
	// file's problems new: baselines do not follow the code).
	run(nil, 0, "summary", "--baseline", baseline, "--max-new", "0", "build/reports")
	g.Commit("triage: five decisions", nil)

	// A branch of several commits moves the code.
	g.Git("checkout", "-q", "-b", "moves")
	header := "// Copyright the shop's authors.\n// Licensed as the rest of the shop.\n\n"
	for _, f := range []string{"Order.java", "OrderRepository.java", "OrderService.java"} {
		g.Write(map[string]string{shop + f: header + readFile(t, filepath.Join(g.Dir, shop+f))})
		e2eEdit(t, g.Dir, f, 0, 3, "", 0)
	}
	g.Commit("a header on every file", nil)
	g.Git("mv", shop+"OrderRepository.java", shop+"ShopRepository.java")
	g.Commit("rename the repository", nil)
	e2eEdit(t, g.Dir, "OrderRepository.java", 0, 0, "ShopRepository.java", 0)
	service := strings.Split(readFile(t, filepath.Join(g.Dir, shop+"OrderService.java")), "\n")
	for i := 14; i <= 20; i++ { // find, lines 15 to 21
		service[i] = strings.Repeat("\t", (len(service[i])-len(strings.TrimLeft(service[i], " ")))/4) + strings.TrimLeft(service[i], " ")
	}
	g.Commit("tabs in find", map[string]string{shop + "OrderService.java": strings.Join(service, "\n")})
	moved := func(f e2eFinding) string {
		path, line := f.Path, f.Line
		if !strings.HasSuffix(path, "PriceCalculator.java") {
			line += 3
		}
		path = strings.Replace(path, "OrderRepository.java", "ShopRepository.java", 1)
		return f.Tool + " " + f.Rule + " " + path + ":" + strconv.Itoa(line)
	}

	// All five stay triaged.
	if out := run(nil, 0, "triage", "list", "build/reports"); !strings.Contains(out, ".recap/triage.yml: 5 entries, 0 stale, 0 expired\n") ||
		!regexp.MustCompile(regexp.QuoteMeta(shop+"ShopRepository.java:")+`\d+ `+regexp.QuoteMeta("(was "+shop+"OrderRepository.java)")).MatchString(out) {
		// The entry of the reply on GitHub has no commit to follow the
		// rename from: it matches by its location in any file.
		t.Errorf("list after the moves (git's rename followed for the entry made by id):\n%s", out)
	}
	run(nil, 0, "triage", "check", "build/reports")
	// The triaged problems, each shown by one finding which names the
	// others of its problem (at its place).
	leads, _ := e2eFindings(t, g.Dir, "--triaged", "only")
	if len(leads) != len(decided) {
		t.Errorf("%d triaged problems on the page of --triaged only, want %d", len(leads), len(decided))
	}
	var only []e2eFinding
	for _, f := range leads {
		only = append(only, f)
		for _, a := range f.AlsoReportedBy {
			only = append(only, e2eFinding{ID: a.ID, Tool: a.Tool, Rule: a.Rule, Path: f.Path, Line: f.Line})
		}
	}
	triaged := map[string]bool{}
	for _, f := range only {
		triaged[f.key()] = true
	}
	for _, d := range decided {
		if !triaged[moved(d)] {
			t.Errorf("%s (now %s) is not triaged after the moves", d.key(), moved(d))
		}
	}
	_, s := e2eFindings(t, g.Dir, "--limit", "1")
	if tr := s.Triaged; tr.Problems != len(decided) || tr.Total != len(only) {
		t.Errorf("the summary counts triaged %+v; want %d problems, %d findings", tr, len(decided), len(only))
	}

	// None on the first page, in the review or in the annotations.
	page, _ := e2eFindings(t, g.Dir)
	for _, f := range page {
		if triaged[f.key()] {
			t.Errorf("triaged %s on the first page", f.key())
		}
	}
	at := func(path string, line int, text string) bool {
		for _, f := range only {
			if f.Path == path && f.Line == line && strings.Contains(text, reports.ShortRule(f.Tool, f.Rule)) {
				return true
			}
		}
		return false
	}
	moves := strings.TrimSpace(g.Git("rev-parse", "HEAD"))
	gh2 := githubtest.New(t, "acme", "shop", 6, githubtest.HunksOfGitDiff(g.Git("diff", base+"..."+moves)))
	event2 := githubtest.EventFile(t, githubtest.PullRequestEvent{Action: "synchronize", Owner: "acme", Repo: "shop", Number: 6, Head: moves, Base: base})
	run([]string{"GITHUB_EVENT_PATH=" + event2, "GITHUB_TOKEN=" + gh2.Token, "GITHUB_REPOSITORY=acme/shop"}, 0,
		"review", "--post", "--checks", "--fail-on", "high", "--write-interval", "0", "--api-url", gh2.URL, "build/reports")
	rc, _, _, errs = gh2.Snapshot()
	checks := gh2.Checks()
	if len(errs) > 0 || len(rc) != 30 || len(checks) != 1 || checks[0].Conclusion != "success" || len(checks[0].Annotations) != sampleProblems-len(decided) {
		t.Fatalf("review of the moved branch: %d comments (want 30), %d check runs, errors %v", len(rc), len(checks), errs)
	}
	for _, c := range rc {
		if at(c.Path, c.Line, c.Body) {
			t.Errorf("an inline comment of a triaged finding at %s:%d", c.Path, c.Line)
		}
	}
	for _, a := range checks[0].Annotations {
		if at(a.Path, a.StartLine, a.Title) {
			t.Errorf("a check run annotation of a triaged finding at %s:%d", a.Path, a.StartLine)
		}
	}
	annotation := regexp.MustCompile(`^::\w+ file=([^,]+),line=(\d+),.*title=([^:]*)::`)
	annotated := 0
	for _, l := range strings.Split(run(nil, 0, "findings", "--format", "github", "build/reports"), "\n") {
		if m := annotation.FindStringSubmatch(l); m != nil {
			annotated++
			line, _ := strconv.Atoi(m[2])
			if at(m[1], line, m[3]) {
				t.Errorf("an annotation of a triaged finding: %s", l)
			}
		}
	}
	if annotated < 10 { // at most 10 a level, the closing notice one of them
		t.Errorf("%d annotations of findings, want the first of the problems not triaged", annotated)
	}

	// The gate passes; SARIF carries five accepted suppressions.
	run(nil, 0, "summary", "--fail-on", "high", "build/reports")
	out := run(nil, 0, "summary", "--format", "sarif", "build/reports")
	var log struct {
		Runs []struct {
			Results []struct {
				Suppressions []struct{ Kind, Status, Justification string }
			}
		}
	}
	mustJSON(t, out, &log)
	suppressed := 0
	for _, r := range log.Runs {
		for _, res := range r.Results {
			for _, s := range res.Suppressions {
				if s.Kind == "external" && s.Status == "accepted" && s.Justification != "" {
					suppressed++
				}
			}
		}
	}
	if suppressed != len(decided) {
		t.Errorf("%d accepted suppressions in recap's SARIF, want %d", suppressed, len(decided))
	}
	sarif := filepath.Join(t.TempDir(), "recap.sarif")
	writeE2E(t, sarif, out)
	t.Run("multitool", func(t *testing.T) {
		if errs := tooltest.ValidateSARIF(t, sarif); len(errs) > 0 {
			t.Errorf("Sarif.Multitool validate: %d results, first:\n%s", len(errs), strings.Join(errs[:min(len(errs), 10)], "\n"))
		}
	})

	// Deleting one finding's code: one stale entry.
	saved := map[string]string{}
	for _, r := range []string{"pmd.sarif", "checkstyle.xml", "spotbugs.xml"} {
		saved[r] = readFile(t, filepath.Join(g.Dir, "build", "reports", r))
	}
	order := filepath.Join(g.Dir, shop+"Order.java")
	writeE2E(t, order, strings.Replace(readFile(t, order), "    private int unusedCounter;\n", "", 1))
	e2eEdit(t, g.Dir, "Order.java", unused.Line+3, -1, "", unused.Line+3)
	out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build/reports")
	if code != 1 || !strings.Contains(out, ".recap/triage.yml: 1 stale entry, 0 expired entries") || !strings.Contains(out, unused.Rule) {
		t.Errorf("check after deleting the unused field: exit %d\n%s%s", code, out, stderr)
	}
	g.Git("checkout", "--", shop+"Order.java")
	for r, text := range saved {
		writeE2E(t, filepath.Join(g.Dir, "build", "reports", r), text)
	}

	// An expired entry brings its finding back.
	f, err := triage.LoadFile(triageYML)
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.Entries {
		if f.Entries[i].Rule == hashMap.Rule {
			f.Entries[i].Until = "2020-01-01"
		}
	}
	if err := triage.WriteFile(triageYML, f); err != nil {
		t.Fatal(err)
	}
	page, s = e2eFindings(t, g.Dir)
	back := false
	for _, f := range page {
		if f.key() == moved(hashMap) {
			back = f.Triage != nil && f.Triage.Expired
		}
	}
	if tr := s.Triaged; !back || tr.Problems != len(decided)-1 || tr.Expired != 1 {
		t.Errorf("the expired decision: on the page marked expired %v; triaged %+v", back, tr)
	}
	out, _, code = recap(t, g.Dir, nil, "triage", "check", "build/reports")
	if code != 1 || !strings.Contains(out, "0 stale entries, 1 expired entry") {
		t.Errorf("check with an expired entry: exit %d\n%s", code, out)
	}
}
