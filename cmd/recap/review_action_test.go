package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/githubtest"
	"github.com/recap-dev/recap/internal/reportstest"
)

// actionValidator finds @action-validator/cli (package.json; npm install
// puts it in node_modules), or skips the test.
func actionValidator(t *testing.T) string {
	t.Helper()
	p := filepath.Join(reportstest.RepoRoot(t), "node_modules", ".bin", "action-validator")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	if p, err := exec.LookPath("action-validator"); err == nil {
		return p
	}
	t.Skip("action-validator not found (npm install puts @action-validator/cli in node_modules)")
	return ""
}

// validate runs action-validator on file: it checks an action.yml against
// the schema of action metadata and any other file against the schema of
// workflows (SchemaStore's github-action and github-workflow).
func validate(t *testing.T, tool, file string) (string, bool) {
	out, err := exec.Command(tool, file).CombinedOutput()
	return string(out), err == nil
}

// TestActionMetadata: action.yml, the repository's workflows and every
// GitHub Actions workflow of the docs and the README pass the schema
// check; a broken copy of each kind fails it (the check can fail).
func TestActionMetadata(t *testing.T) {
	tool := actionValidator(t)
	root := reportstest.RepoRoot(t)
	if out, ok := validate(t, tool, filepath.Join(root, "action.yml")); !ok {
		t.Errorf("action.yml: %s", out)
	}
	meta, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken", "action.yml")
	os.MkdirAll(filepath.Dir(broken), 0o755)
	os.WriteFile(broken, bytes.Replace(meta, []byte("      shell: bash\n"), nil, 1), 0o644)
	if out, ok := validate(t, tool, broken); ok || !strings.Contains(out, "shell") {
		t.Errorf("a composite step without shell passes the schema check: %s", out)
	}

	var workflows []string
	repoWorkflows, _ := filepath.Glob(filepath.Join(root, ".github", "workflows", "*.yml"))
	workflows = append(workflows, repoWorkflows...)
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, doc := range append(docs, filepath.Join(root, "README.md")) {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range yamlBlock.FindAllStringSubmatch(string(b), -1) {
			if !workflow.MatchString(m[1]) {
				continue
			}
			name := filepath.Join(dir, strings.TrimSuffix(filepath.Base(doc), ".md")+"-"+itoa(i+1)+".yml")
			os.WriteFile(name, []byte(m[1]), 0o644)
			workflows = append(workflows, name)
		}
	}
	if len(repoWorkflows) == 0 || len(workflows) < 4 {
		t.Fatalf("%d workflows found (%d in .github/workflows)", len(workflows), len(repoWorkflows))
	}
	usesAction := 0
	for _, wf := range workflows {
		b, _ := os.ReadFile(wf)
		if regexp.MustCompile(`(?m)uses: (\./|recap-dev/recap@v1)\s*$`).Match(b) {
			usesAction++
		}
		if out, ok := validate(t, tool, wf); !ok {
			t.Errorf("%s: %s", filepath.Base(wf), out)
		}
	}
	if usesAction < 2 {
		t.Errorf("%d workflows use recap's action, want the repository's and the docs'", usesAction)
	}
	bad := filepath.Join(dir, "bad.yml")
	os.WriteFile(bad, []byte("name: x\non: pull_request\njobs:\n  a:\n    steps:\n      - run: echo\n"), 0o644)
	if out, ok := validate(t, tool, bad); ok || !strings.Contains(out, "runs-on") {
		t.Errorf("a job without runs-on passes the schema check: %s", out)
	}
}

// TestActionLint: actionlint passes the repository's workflows, reading
// the inputs of the local action (uses: ./) from action.yml, and refuses
// one that gives the action an input it does not have.
func TestActionLint(t *testing.T) {
	bin := actionlint(t)
	root := reportstest.RepoRoot(t)
	files, _ := filepath.Glob(filepath.Join(root, ".github", "workflows", "*.yml"))
	cmd := exec.Command(bin, append([]string{"-no-color"}, files...)...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil || len(files) == 0 {
		t.Errorf("actionlint %v: %v\n%s", files, err, out)
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".github", "workflows"), 0o755)
	exec.Command("git", "init", "-q", dir).Run()
	meta, _ := os.ReadFile(filepath.Join(root, "action.yml"))
	os.WriteFile(filepath.Join(dir, "action.yml"), meta, 0o644)
	wf, _ := os.ReadFile(filepath.Join(root, ".github", "workflows", "recap.yml"))
	os.WriteFile(filepath.Join(dir, ".github", "workflows", "bad.yml"), bytes.Replace(wf, []byte("reports: ../reports"), []byte("report: ../reports"), 1), 0o644)
	cmd = exec.Command(bin, "-no-color", ".github/workflows/bad.yml")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), `input "report" is not defined in action "recap"`) {
		t.Errorf("actionlint took an input the action has not: %v\n%s", err, out)
	}
}

// TestActionScript runs the action's script as its run step does, with
// the test's binary, in a pull_request job whose merge commit is checked
// out, against GitHub's stand-in: the job summary, the annotations, the
// SARIF file and its output, the review, the check run, then the gate's
// exit code; shellcheck passes it; its cache key is stable and names the
// sources.
func TestActionScript(t *testing.T) {
	root := reportstest.RepoRoot(t)
	script := filepath.Join(root, "action", "run.sh")
	if sc, err := exec.LookPath("shellcheck"); err == nil {
		if out, err := exec.Command(sc, script).CombinedOutput(); err != nil {
			t.Errorf("shellcheck: %v\n%s", err, out)
		}
	}
	pr := newMergePR(t)
	event := githubtest.EventFile(t, githubtest.PullRequestEvent{Action: "synchronize", Owner: "acme", Repo: "shop", Number: 5, Head: pr.head, Base: pr.base})
	s := githubtest.New(t, "acme", "shop", 5, pr.hunks)
	tmp := t.TempDir()
	summary, output := filepath.Join(tmp, "summary.md"), filepath.Join(tmp, "output")
	env := []string{"RECAP_BIN=" + bin, "GITHUB_EVENT_PATH=" + event, "GITHUB_TOKEN=" + s.Token, "GITHUB_REPOSITORY=acme/shop",
		"GITHUB_API_URL=" + s.URL, "GITHUB_STEP_SUMMARY=" + summary, "GITHUB_OUTPUT=" + output,
		"INPUT_REPORTS=" + pr.sarif + "\n", "INPUT_BASE=" + pr.base, "INPUT_FILTER_MODE=added", "INPUT_FAIL_ON=warning",
		"INPUT_MAX_NEW=", "INPUT_BASELINE=", "INPUT_SUMMARY=true", "INPUT_ANNOTATIONS=true", "INPUT_REVIEW=true", "INPUT_CHECKS=true",
		"INPUT_SARIF=recap.sarif"}
	cmd := exec.Command("bash", script, "run")
	cmd.Dir = pr.repo.Dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 1 || !strings.Contains(stderr.String(), "quality gate failed: 1 finding at or above warning") {
		t.Fatalf("exit %d, want 1 (the gate)\nstdout %s\nstderr %s", code, stdout.String(), stderr.String())
	}
	sum, _ := os.ReadFile(summary)
	if !strings.Contains(string(sum), "1 finding on changed lines") || !strings.Contains(string(sum), fmt.Sprintf("line %d · PMD", pr.prLine)) {
		t.Errorf("job summary:\n%s", sum)
	}
	// The check run holds the annotations: no workflow annotation besides.
	if strings.Contains(stdout.String(), "::warning") || !strings.Contains(stdout.String(), "posted 1 inline comment") ||
		!strings.Contains(stdout.String(), `created the check run "recap: PMD"`) {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	var log struct {
		Runs []json.RawMessage `json:"runs"`
	}
	b, _ := os.ReadFile(filepath.Join(pr.repo.Dir, "recap.sarif"))
	if err := json.Unmarshal(b, &log); err != nil || len(log.Runs) != 1 {
		t.Errorf("recap.sarif: %v, %d runs", err, len(log.Runs))
	}
	if out, _ := os.ReadFile(output); string(out) != "sarif=recap.sarif\n" {
		t.Errorf("GITHUB_OUTPUT: %q", out)
	}
	rc, ic, reviews, errs := s.Snapshot()
	checks := s.Checks()
	if len(errs) > 0 || reviews != 1 || len(rc) != 1 || len(ic) != 1 || len(checks) != 1 || checks[0].Conclusion != "failure" || checks[0].HeadSHA != pr.head {
		t.Errorf("%d reviews, %d comments, %d summaries, check runs %+v; protocol errors %v", reviews, len(rc), len(ic), checks, errs)
	}

	// A glob in the reports input is expanded by the script, as a shell
	// would (recap takes its arguments as paths): the same report, the
	// same gate.
	glob := pr.sarif[:len(pr.sarif)-len(".sarif")-1] + "?.sarif"
	cmd = exec.Command("bash", script, "run")
	cmd.Dir = pr.repo.Dir
	cmd.Env = append(os.Environ(), append(env, "INPUT_REPORTS="+glob+"\n", "INPUT_CHECKS=false", "INPUT_REVIEW=false", "INPUT_SARIF=")...)
	if out, err := cmd.CombinedOutput(); !strings.Contains(string(out), "quality gate failed: 1 finding at or above warning") {
		t.Errorf("reports %s: %v\n%s", glob, err, out)
	}

	// Without the check run, the workflow annotations are on the head's
	// line (the merge commit's is 20 lines lower).
	cmd = exec.Command("bash", script, "run")
	cmd.Dir = pr.repo.Dir
	cmd.Env = append(os.Environ(), append(env, "INPUT_CHECKS=false", "INPUT_REVIEW=false", "INPUT_SARIF=")...)
	out, _ := cmd.Output()
	if !strings.Contains(string(out), fmt.Sprintf("::warning file=src/Cart.java,line=%d,", pr.prLine)) || strings.Count(string(out), "::warning") != 1 {
		t.Errorf("annotations:\n%s", out)
	}

	// The config input: a .recap.yml that excludes the finding's rule
	// passes the gate, and the job summary says one was excluded; one with
	// a mistake fails the step (exit 2) naming the file and the line.
	cfg := filepath.Join(tmp, "recap.yml")
	if err := os.WriteFile(cfg, []byte("exclude:\n  rules: [PMD:MagicNumber]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(summary)
	cmd = exec.Command("bash", script, "run")
	cmd.Dir = pr.repo.Dir
	cmd.Env = append(os.Environ(), append(env, "INPUT_CHECKS=false", "INPUT_REVIEW=false", "INPUT_SARIF=", "INPUT_CONFIG="+cfg)...)
	stderr.Reset()
	cmd.Stderr = &stderr
	out, err = cmd.Output()
	sum, _ = os.ReadFile(summary)
	if err != nil || strings.Contains(string(out), "::warning") || !strings.Contains(string(sum), "1 finding excluded by the configuration") {
		t.Errorf("with the config excluding the rule: %v\nstdout %s\nstderr %s\nsummary %s", err, out, stderr.String(), sum)
	}
	if err := os.WriteFile(cfg, []byte("exclude:\n  rule: [PMD:MagicNumber]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command("bash", script, "run")
	cmd.Dir = pr.repo.Dir
	cmd.Env = append(os.Environ(), append(env, "INPUT_CHECKS=false", "INPUT_REVIEW=false", "INPUT_SARIF=", "INPUT_CONFIG="+cfg)...)
	stderr.Reset()
	cmd.Stderr = &stderr
	_, err = cmd.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), cfg+`:2:3: exclude: unknown key "rule"`) {
		t.Errorf("a config with a mistake: %v\nstderr %s", err, stderr.String())
	}

	keys := map[string]bool{}
	for i := 0; i < 2; i++ {
		out := filepath.Join(tmp, "key"+itoa(i))
		cmd := exec.Command("bash", script, "key")
		cmd.Env = append(os.Environ(), "GITHUB_ACTION_PATH="+root, "GITHUB_OUTPUT="+out, "RUNNER_OS=Linux", "RUNNER_ARCH=X64", "RUNNER_TEMP=/runner/tmp", "RECAP_VERSION=v1")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("key: %v\n%s", err, b)
		}
		b, _ := os.ReadFile(out)
		keys[string(b)] = true
		if !regexp.MustCompile(`^key=recap-Linux-X64-[0-9a-f]{64}\ndir=/runner/tmp/recap-bin\n$`).Match(b) {
			t.Errorf("key output %q", b)
		}
	}
	if len(keys) != 1 {
		t.Errorf("two runs gave two keys: %v", keys)
	}
}

// TestActionsPinned: every action that action.yml and the repository's
// workflows use is pinned by a full commit SHA with its version in a
// comment (a tag can be moved to other code; a SHA cannot); the action's
// own checkout (uses: ./) is exempt.
func TestActionsPinned(t *testing.T) {
	root := reportstest.RepoRoot(t)
	files, _ := filepath.Glob(filepath.Join(root, ".github", "workflows", "*.yml"))
	files = append(files, filepath.Join(root, "action.yml"))
	uses := regexp.MustCompile(`(?m)^\s*(?:-\s+)?uses:\s*(\S+)(.*)$`)
	pinned := regexp.MustCompile(`^[\w.-]+/[\w.-]+(?:/[\w./-]+)?@[0-9a-f]{40}$`)
	version := regexp.MustCompile(`^\s+# v\d+\.\d+\.\d+$`)
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range uses.FindAllStringSubmatch(string(b), -1) {
			if strings.HasPrefix(m[1], "./") {
				continue
			}
			n++
			if !pinned.MatchString(m[1]) || !version.MatchString(m[2]) {
				t.Errorf("%s: uses: %s%s, want OWNER/REPO@<commit SHA> # vX.Y.Z", filepath.Base(f), m[1], m[2])
			}
		}
	}
	if n < 4 {
		t.Errorf("%d actions used, want checkout, codeql-action, cache and setup-go at least", n)
	}
}
