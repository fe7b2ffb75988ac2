package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/internal/tooltest"
)

var bin string

// testVersion is the version the tests' binary is built with.
const testVersion = "v0.0.0-test"

// TestMain builds the recap binary once; the tests run it as a user would.
// Under go test -cover, or with $GOCOVERDIR set, the binary is built with
// coverage of every package of recap (cover_test.go).
func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "recap-e2e")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "recap")
	// A fixed version, which recap's SARIF records (run.conversion), keeps
	// the goldens the same from commit to commit.
	args := []string{"build", "-ldflags", "-X github.com/recap-dev/recap/cmd/recap/internal/cli.Version=" + testVersion, "-o", bin}
	cover := binaryCoverage(dir)
	args = append(args, cover.buildFlags()...)
	if out, err := exec.Command("go", append(args, ".")...).CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	cover.report()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestCommands(t *testing.T) {
	root := reportstest.RepoRoot(t)
	gz := gzipFile(t, filepath.Join(root, "testdata", "reports", "checkstyle.xml"))
	tests := []struct {
		name     string
		args     []string
		stdin    string
		golden   string // under testdata/golden; "" to check the exit code only
		wantCode int
	}{
		{"summary text", []string{"summary", "--repo", "testdata/sample", "testdata/reports"}, "", "summary.txt", 0},
		{"summary json", []string{"summary", "--format", "json", "--repo", "testdata/sample", "testdata/reports"}, "", "summary.json", 0},
		{"flags after inputs", []string{"summary", "testdata/reports/spotbugs.xml", "--repo", "testdata/sample", "--format", "json"}, "", "spotbugs.json", 0},
		{"a bad input among good ones", []string{"summary", "--repo", "testdata/sample", "testdata/reports/pmd.sarif", "testdata/bad/truncated.sarif", "testdata/bad/missing.xml"}, "", "bad-input.txt", 2},
		{"standard input", []string{"summary", "--format", "json", "--repo", "testdata/sample", "-"}, readFile(t, filepath.Join(root, "testdata", "pmd-xml", "pmd.xml")), "stdin.json", 0},
		{"gzip input", []string{"summary", "--repo", "testdata/sample", gz}, "", "", 0},
		{"input format override", []string{"summary", "--input-format", "pmd", "testdata/reports/spotbugs.xml"}, "", "", 2},
		{"summary filtered", []string{"summary", "--repo", "testdata/sample", "--tool", "spotbugs", "--path", "**/Order.java", "testdata/reports"}, "", "summary-filtered.txt", 0},
		{"findings text", []string{"findings", "--repo", "testdata/sample", "--severity", "error", "--limit", "5", "testdata/reports"}, "", "findings.txt", 0},
		{"findings json, second page", []string{"findings", "--format", "json", "--repo", "testdata/sample", "--category", "Code Style", "--offset", "5", "--limit", "3", "testdata/reports"}, "", "findings.json", 0},
		{"findings past the end", []string{"findings", "--repo", "testdata/sample", "--offset", "1000", "testdata/reports/spotbugs.xml"}, "", "findings-past-end.txt", 0},
		{"findings json within 1000 tokens", []string{"findings", "--format", "json", "--max-tokens", "1000", "--repo", "testdata/sample", "testdata/reports"}, "", "findings-budget.json", 0},
		{"findings text within 1000 tokens", []string{"findings", "--max-tokens", "1000", "--repo", "testdata/sample", "testdata/reports"}, "", "findings-budget.txt", 0},
		{"findings markdown within 600 tokens", []string{"findings", "--format", "markdown", "--max-tokens", "600", "--tokenizer", "o200k_base", "--repo", "testdata/sample", "--severity", "error", "testdata/reports"}, "", "findings-budget.md", 0},
		{"max-tokens under 256", []string{"findings", "--format", "json", "--max-tokens", "100", "testdata/reports"}, "", "", 2},
		{"limit over 200", []string{"findings", "--limit", "201", "testdata/reports"}, "", "", 2},
		{"bad severity", []string{"summary", "--severity", "fatal", "testdata/reports"}, "", "", 2},
		{"bad path glob", []string{"summary", "--path", "src/[a", "testdata/reports"}, "", "", 2},
		{"tokens", []string{"tokens", "--budget", "20000", "testdata/reports/pmd.sarif", "testdata/reports/spotbugs.xml"}, "", "tokens.txt", 0},
		{"tokens json, chars4", []string{"tokens", "--format", "json", "--tokenizer", "chars4", "testdata/sample/src/main/java/com/example/shop/Order.java"}, "", "tokens.json", 0},
		{"tokens of a missing file", []string{"tokens", "testdata/nope.txt"}, "", "", 2},
		{"tokens of a directory", []string{"tokens", "--budget", "20000", "testdata/reports"}, "", "tokens-dir.txt", 0},
		{"unknown tokenizer", []string{"tokens", "--tokenizer", "gpt9", "README.md"}, "", "", 2},
		{"no input", []string{"summary"}, "", "", 2},
		{"unknown flag", []string{"summary", "--nope", "x"}, "", "", 2},
		{"unknown output format", []string{"summary", "--format", "yaml", "testdata/reports"}, "", "", 2},
		{"unknown command", []string{"summarise"}, "", "", 2},
		{"version", []string{"version"}, "", "", 0},
		{"diff text", []string{"diff", "testdata/changes.diff"}, "", "diff.txt", 0},
		{"diff markdown from standard input", []string{"diff", "--format", "markdown", "-"}, readFile(t, filepath.Join(root, "testdata", "changes.diff")), "diff.md", 0},
		{"diff json", []string{"diff", "--format", "json", "testdata/changes.diff"}, "", "diff.json", 0},
		{"diff text within 256 tokens, one hunk", []string{"diff", "--max-tokens", "256", "--max-hunks", "1", "--tokenizer", "o200k_base", "testdata/changes.diff"}, "", "diff-budget.txt", 0},
		{"diff of some paths", []string{"diff", "--path", "**/*.png", "--path", "src/**/Purchase*", "testdata/changes.diff"}, "", "diff-path.txt", 0},
		{"diff of a gzip file", []string{"diff", gzipFile(t, filepath.Join(root, "testdata", "changes.diff"))}, "", "diff.txt", 0},
		{"diff of a file that is not a diff", []string{"diff", "testdata/sample/src/main/java/com/example/shop/Order.java"}, "", "", 2},
		{"diff of a missing file", []string{"diff", "testdata/nope.diff"}, "", "", 2},
		{"diff with too many hunks", []string{"diff", "--max-hunks", "21", "testdata/changes.diff"}, "", "", 2},
		{"diff of a file and revisions", []string{"diff", "--base", "HEAD", "testdata/changes.diff"}, "", "", 2},
		{"diff --head without --base", []string{"diff", "--head", "HEAD"}, "", "", 2},
		{"diff in markdown with an unknown format", []string{"diff", "--format", "sarif", "testdata/changes.diff"}, "", "", 2},
		{"--base without --changed-only", []string{"findings", "--base", "HEAD", "testdata/reports"}, "", "", 2},
		{"--changed-only with a diff file", []string{"summary", "--changed-only", "--diff", "testdata/changes.diff", "--repo", "testdata/sample", "testdata/reports"}, "", "summary-changed.txt", 0},
		{"findings as annotations", []string{"findings", "--format", "github", "--repo", "testdata/sample", "testdata/reports"}, "", "findings.github", 0},
		{"summary as annotations, new only", []string{"summary", "--format", "github", "--repo", "testdata/sample", "--baseline", "testdata/reports/pmd.sarif", "--new-only", "testdata/reports"}, "", "summary-new.github", 0},
		{"findings as sarif", []string{"findings", "--format", "sarif", "--repo", "testdata/sample", "testdata/reports"}, "", "findings.sarif", 0},
		{"findings as sarif, one page", []string{"findings", "--format", "sarif", "--limit", "2", "--repo", "testdata/sample", "testdata/reports"}, "", "findings-page.sarif", 0},
		{"findings markdown", []string{"findings", "--format", "markdown", "--repo", "testdata/sample", "--severity", "error", "--limit", "3", "testdata/reports"}, "", "findings.md", 0},
		{"summary against a baseline", []string{"summary", "--repo", "testdata/sample", "--baseline", "testdata/reports/checkstyle.xml", "testdata/reports/checkstyle.xml", "testdata/reports/spotbugs.xml"}, "", "summary-baseline.txt", 0},
		{"fail on error", []string{"summary", "--fail-on", "error", "--repo", "testdata/sample", "testdata/reports"}, "", "", 1},
		{"fail on error, none left after filters", []string{"summary", "--fail-on", "error", "--tool", "SpotBugs", "--repo", "testdata/sample", "testdata/reports"}, "", "", 0},
		{"fail on note", []string{"findings", "--format", "github", "--fail-on", "note", "--tool", "SpotBugs", "--repo", "testdata/sample", "testdata/reports"}, "", "", 1},
		{"max new 0 against itself", []string{"summary", "--max-new", "0", "--baseline", "testdata/reports", "--repo", "testdata/sample", "testdata/reports"}, "", "", 0},
		{"max new 10 against less", []string{"summary", "--max-new", "10", "--baseline", "testdata/reports/pmd.sarif", "--repo", "testdata/sample", "testdata/reports"}, "", "", 1},
		{"max new without a baseline", []string{"summary", "--max-new", "0", "testdata/reports"}, "", "", 2},
		{"new only without a baseline", []string{"findings", "--new-only", "testdata/reports"}, "", "", 2},
		{"a baseline that cannot be read", []string{"summary", "--baseline", "testdata/bad/truncated.sarif", "testdata/reports"}, "", "", 2},
		{"a missing baseline", []string{"summary", "--baseline", "testdata/nope.sarif", "testdata/reports"}, "", "", 2},
		{"bad fail-on level", []string{"summary", "--fail-on", "fatal", "testdata/reports"}, "", "", 2},
		{"max-tokens with annotations", []string{"findings", "--format", "github", "--max-tokens", "1000", "testdata/reports"}, "", "", 2},
		{"max-chars too small", []string{"findings", "--format", "markdown", "--max-chars", "100", "testdata/reports"}, "", "", 2},
		{"--changed-only with a bad diff file", []string{"summary", "--changed-only", "--diff", "README.md", "testdata/reports"}, "", "", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			cmd.Dir = root
			cmd.Stdin = strings.NewReader(tc.stdin)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.wantCode {
				t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.wantCode, stdout.String(), stderr.String())
			}
			if tc.wantCode == 2 && tc.golden == "" && !strings.HasPrefix(stderr.String(), "recap: ") && stdout.Len() == 0 {
				t.Errorf("no error message on stderr")
			}
			if tc.golden != "" {
				got := strings.ReplaceAll(stdout.String(), root, "$REPO")
				reportstest.Golden(t, filepath.Join(root, "testdata", "golden", tc.golden), []byte(got))
			}
			if strings.Contains(stdout.String()+stderr.String(), "panic") {
				t.Errorf("output mentions a panic")
			}
		})
	}
}

func readFile(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func gzipFile(t *testing.T, path string) string {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(readFile(t, path)))
	zw.Close()
	out := filepath.Join(t.TempDir(), filepath.Base(path)+".gz")
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFindingsAtRevision reads context from git revisions of a real
// repository: the same finding shows the line as each revision had it.
func TestFindingsAtRevision(t *testing.T) {
	g := gittest.New(t)
	g.Commit("first", map[string]string{"src/A.java": "class A {\n  int a = 1;\n}\n"})
	g.Commit("second", map[string]string{"src/A.java": "class A {\n  int a = 2;\n}\n"})
	report := filepath.Join(t.TempDir(), "report.sarif")
	if err := os.WriteFile(report, []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD"}},"results":[
		{"ruleId":"R","level":"warning","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/A.java"},"region":{"startLine":2}}}]}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rev, want string
		code      int
	}{
		{"HEAD", "> 2 |   int a = 2;", 0},
		{"HEAD~1", "> 2 |   int a = 1;", 0},
		{"", "> 2 |   int a = 2;", 0}, // the working tree
		{"v9", `--rev: unknown revision "v9"`, 2},
	} {
		args := []string{"findings", "--repo", g.Dir, report}
		if tc.rev != "" {
			args = append(args, "--rev", tc.rev)
		}
		out, err := exec.Command(bin, args...).CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != tc.code || !strings.Contains(string(out), tc.want) {
			t.Errorf("--rev %q: exit %d, output:\n%s\nwant exit %d and %q", tc.rev, code, out, tc.code, tc.want)
		}
	}
}

// TestChangedOnlyWithPMD runs the real PMD on the head of a feature branch
// of the sample project (a new method with an empty catch block, a method
// re-indented with tabs, a blank line, a rename) and checks that
// --changed-only keeps exactly the findings whose lines touch a line that
// git diff -w --ignore-blank-lines shows as added: from --base/--head, from
// a --diff file, and from the working tree.
func TestChangedOnlyWithPMD(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs PMD")
	}
	tooltest.PMD(t)
	root := reportstest.RepoRoot(t)
	g := gittest.Sample(t, root)
	g.Git("checkout", "-q", "-b", "feature")
	g.Git("apply", "--index", filepath.Join(root, "testdata", "changes.diff"))
	g.Git("commit", "-q", "-m", "feature")

	report := filepath.Join(t.TempDir(), "pmd.sarif")
	tooltest.RunPMD(t, g.Dir, "src", "sarif", report)

	type finding struct {
		Rule    string `json:"rule"`
		Path    string `json:"path"`
		Line    int    `json:"line"`
		EndLine int    `json:"endLine"`
	}
	findings := func(args ...string) []finding {
		t.Helper()
		args = append([]string{"findings", "--format", "json", "--no-context", "--limit", "200", "--max-tokens", "25000", "--repo", g.Dir}, args...)
		out, err := exec.Command(bin, append(args, report)...).Output()
		if err != nil {
			t.Fatalf("recap %s: %v", strings.Join(args, " "), err)
		}
		var v struct {
			Findings []finding `json:"findings"`
			Page     struct{ Total int }
		}
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatal(err)
		}
		if len(v.Findings) != v.Page.Total {
			t.Fatalf("%d of %d findings returned: raise the limit or the budget", len(v.Findings), v.Page.Total)
		}
		sort.Slice(v.Findings, func(i, j int) bool {
			return fmt.Sprint(v.Findings[i]) < fmt.Sprint(v.Findings[j])
		})
		return v.Findings
	}

	all := findings()
	changed := g.ChangedLines("main...feature")
	var want []finding
	for _, f := range all {
		for _, l := range changed[f.Path] {
			if f.Line > 0 && l >= f.Line && l <= max(f.Line, f.EndLine) {
				want = append(want, f)
				break
			}
		}
	}
	if len(want) == 0 || len(want) == len(all) {
		t.Fatalf("%d of %d findings are on changed lines; the change is meant to add some and not all", len(want), len(all))
	}
	for _, f := range want {
		if f.Line < 49 {
			t.Errorf("finding %+v is before the new method: the re-indented lines count as changed", f)
		}
	}
	t.Logf("PMD: %d findings, %d on changed lines", len(all), len(want))

	if d := cmp.Diff(want, findings("--changed-only", "--base", "main", "--head", "feature")); d != "" {
		t.Errorf("--base main --head feature (-want +got):\n%s", d)
	}
	diffFile := filepath.Join(t.TempDir(), "pr.diff")
	if err := os.WriteFile(diffFile, []byte(g.Git("diff", "main...feature")), 0o644); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, findings("--changed-only", "--diff", diffFile)); d != "" {
		t.Errorf("--diff (-want +got):\n%s", d)
	}
	// The same change, uncommitted on main.
	g.Git("checkout", "-q", "main")
	g.Git("apply", filepath.Join(root, "testdata", "changes.diff"))
	if d := cmp.Diff(want, findings("--changed-only")); d != "" {
		t.Errorf("working tree (-want +got):\n%s", d)
	}
}

// TestUsageErrors: a value that would silently mean something else (an
// offset that overflows, a limit of 0, a negative --max-new, an empty
// --base from an unset CI variable) is a usage error that says so.
func TestUsageErrors(t *testing.T) {
	root := reportstest.RepoRoot(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"offset near 2^63", []string{"findings", "--offset", "9223372036854775000", "testdata/reports"}, "offset must be between 0 and"},
		{"offset -1", []string{"findings", "--offset", "-1", "testdata/reports"}, "offset must be between 0 and"},
		{"limit 0", []string{"findings", "--limit", "0", "testdata/reports"}, "limit must be between 1 and 200"},
		{"max-new -1", []string{"summary", "--max-new", "-1", "--baseline", "testdata/reports/pmd.sarif", "testdata/reports"}, "--max-new must not be negative"},
		{"an empty --base", []string{"summary", "--changed-only", "--base", "", "testdata/reports"}, "--base is empty"},
		{"an empty --baseline", []string{"summary", "--baseline", "", "testdata/reports"}, "--baseline is empty"},
		{"an empty --rev", []string{"findings", "--rev", " ", "testdata/reports"}, "--rev is empty"},
		{"an empty review --base", []string{"review", "--base", "", "testdata/reports"}, "--base is empty"},
		{"an empty diff --head", []string{"diff", "--base", "HEAD", "--head", ""}, "--head is empty"},
		{"a filter mode without --changed-only", []string{"findings", "--filter-mode", "file", "testdata/reports"}, "--filter-mode chooses the lines for --changed-only"},
		{"an unknown filter mode", []string{"findings", "--changed-only", "--filter-mode", "context", "--diff", "testdata/changes.diff", "testdata/reports"}, `unknown filter mode "context"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(bin, tc.args...)
			cmd.Dir = root
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
				t.Fatalf("%v, want exit 2\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.want) || stdout.Len() > 0 {
				t.Errorf("stderr %q, want it to say %q (and nothing on stdout: %q)", stderr.String(), tc.want, stdout.String())
			}
		})
	}
}

// TestSignals: SIGINT and SIGTERM stop recap within a second, with exit
// codes 130 and 143 and nothing on standard output, while it reads a large
// input and while it waits on a pipe that never ends.
func TestSignals(t *testing.T) {
	root := reportstest.RepoRoot(t)
	// Three reports of different content (one read each, none the same
	// as another): the reading lasts well past the signal.
	var bigs []string
	for k := range 3 {
		big := filepath.Join(t.TempDir(), fmt.Sprintf("big%d.sarif", k))
		var b strings.Builder
		fmt.Fprintf(&b, `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Lint%d"}},"results":[`, k)
		for i := 0; i < 400_000; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"ruleId":"R%d","message":{"text":"problem %d"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/f%d.go"},"region":{"startLine":%d}}}]}`, i%50, i, i%900, 1+i%70)
		}
		b.WriteString(`]}]}`)
		if err := os.WriteFile(big, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		bigs = append(bigs, big)
	}
	tests := []struct {
		name  string
		args  []string
		stdin bool // a pipe kept open: the read blocks
		sig   syscall.Signal
		code  int
	}{
		{"SIGINT while reading", append([]string{"findings", "--format", "sarif"}, bigs...), false, syscall.SIGINT, 130},
		{"SIGTERM while reading", append([]string{"summary", "--format", "json"}, bigs...), false, syscall.SIGTERM, 143},
		{"SIGINT on a pipe that never ends", []string{"summary", "-"}, true, syscall.SIGINT, 130},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			cmd.Dir = root
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if tc.stdin {
				cmd.Stdin = neverEnding(t)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond)
			sent := time.Now()
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			took := time.Since(sent)
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != tc.code {
				t.Fatalf("%v, want exit %d\nstderr:\n%s", err, tc.code, stderr.String())
			}
			if took > 1500*time.Millisecond {
				t.Errorf("took %v to stop after the signal", took)
			}
			if stdout.Len() > 0 || !strings.Contains(stderr.String(), "stopped by SIG") {
				t.Errorf("stdout %d bytes (want none), stderr %q", stdout.Len(), stderr.String())
			}
		})
	}
}

// TestNonRegularInputs: a FIFO or a device given as an input is refused at
// once (opening a FIFO blocks until a writer comes; /dev/zero never ends),
// by every command that reads files; a broken report inside a directory
// fails the run.
func TestNonRegularInputs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "report.sarif")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	reportsDir := filepath.Join(dir, "build")
	if err := os.MkdirAll(reportsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	root := reportstest.RepoRoot(t)
	if err := os.WriteFile(filepath.Join(reportsDir, "pmd.sarif"), []byte(readFile(t, filepath.Join(root, "testdata", "reports", "pmd.sarif"))), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(reportsDir, "checkstyle.xml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"summary of a FIFO", []string{"summary", fifo}, "not a regular file (a FIFO)"},
		{"summary of /dev/zero", []string{"summary", "--input-format", "checkstyle", "/dev/zero"}, "not a regular file (a character device)"},
		{"tokens of /dev/zero", []string{"tokens", "/dev/zero"}, "not a regular file"},
		{"tokens of a FIFO", []string{"tokens", fifo}, "not a regular file"},
		{"diff of a FIFO", []string{"diff", fifo}, "not a regular file"},
		{"changed lines from a FIFO", []string{"summary", "--changed-only", "--diff", fifo, reportsDir}, "not a regular file"},
		{"a directory with an empty report", []string{"summary", reportsDir}, "checkstyle.xml: byte 0: empty input"},
		{"--triage a FIFO", []string{"summary", "--triage", fifo, filepath.Join(reportsDir, "pmd.sarif")}, "--triage: " + fifo + ": not a regular file (a FIFO): a triage file is a file"},
		{"--triage /dev/zero", []string{"summary", "--triage", "/dev/zero", filepath.Join(reportsDir, "pmd.sarif")}, "--triage: /dev/zero: not a regular file (a character device)"},
		{"triage writing to a FIFO", []string{"triage", "--rule", "ReplaceJavaUtilDate", "--as", "wont-fix", "--reason", "r", "--triage", fifo, filepath.Join(reportsDir, "pmd.sarif")}, "not a regular file (a FIFO)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, tc.args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if ctx.Err() != nil {
				t.Fatal("recap blocked")
			}
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
				t.Fatalf("%v, want exit 2\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
			}
			if out := stdout.String() + stderr.String(); !strings.Contains(out, tc.want) {
				t.Errorf("output does not say %q:\n%s", tc.want, out)
			}
		})
	}
}

// TestContextThroughSymlink: findings on a file that is a symbolic link out
// of the repository (a pull request can add one) show no context from the
// link's target, in any format that shows context.
func TestContextThroughSymlink(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "passwd"), []byte("root:x:0:0:root:/root:/bin/bash\nSECRET-LINE\nmore\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	target, err := filepath.Rel(filepath.Join(repo, "src"), filepath.Join(outside, "passwd")) // relative: an absolute link is not followed at all
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(repo, "src", "Evil.java")); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(repo, "checkstyle.xml")
	xml := `<?xml version="1.0"?><checkstyle version="8.36"><file name="` + filepath.Join(repo, "src", "Evil.java") +
		`"><error line="2" severity="error" message="Line is longer than 80 characters." source="com.puppycrawl.tools.checkstyle.checks.sizes.LineLengthCheck"/></file></checkstyle>`
	if err := os.WriteFile(report, []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "markdown", "json"} {
		out, err := exec.Command(bin, "findings", "--format", format, "--repo", repo, report).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", format, err, out)
		}
		if strings.Contains(string(out), "SECRET-LINE") || !strings.Contains(string(out), "leads outside the repository") {
			t.Errorf("%s: the link's target shows, or no note says why not:\n%s", format, out)
		}
	}
}

// TestReadmeSample: the README's sample command prints what the README
// shows (each line of its output block, in order; "…" stands for lines
// left out).
func TestReadmeSample(t *testing.T) {
	root := reportstest.RepoRoot(t)
	readme := readFile(t, filepath.Join(root, "README.md"))
	const cmdLine = "go run ./cmd/recap summary --repo testdata/sample testdata/reports\n```\n\n```\n"
	i := strings.Index(readme, cmdLine)
	if i < 0 {
		t.Fatal("the README does not show the sample command and its output")
	}
	block, _, _ := strings.Cut(readme[i+len(cmdLine):], "```")
	cmd := exec.Command(bin, "summary", "--repo", "testdata/sample", "testdata/reports")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(out), "\n")
	at := 0
	for _, want := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
		if want == "…" {
			continue
		}
		for at < len(lines) && lines[at] != want {
			at++
		}
		if at == len(lines) {
			t.Fatalf("the README shows %q, which the command does not print (in that order):\n%s", want, out)
		}
		at++
	}
}

// TestNoInput: a command that reads reports, given none, says what to give
// and shows an example (exit 2), rather than cobra's count of arguments.
func TestNoInput(t *testing.T) {
	for _, tc := range []struct{ cmd, want string }{
		{"summary", "recap: summary: give the reports to read (files, directories to search, or - for standard input), for example: recap summary build/reports/\n"},
		{"findings", "recap: findings: give the reports to read (files, directories to search, or - for standard input), for example: recap findings build/reports/\n"},
		{"review", "recap: review: give the reports to read (files, directories to search, or - for standard input), for example: recap review --base origin/main build/reports/\n"},
		{"tokens", "recap: tokens: give the files to count (files, or directories for every file under them), for example: recap tokens build/reports/pmd.sarif\n"},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			out, stderr, code := recap(t, t.TempDir(), nil, tc.cmd)
			if code != 2 || out != "" || !strings.Contains(stderr, tc.want) {
				t.Errorf("recap %s: exit %d, stdout %q, stderr %q; want 2 and %q", tc.cmd, code, out, stderr, tc.want)
			}
		})
	}
}

// TestSignalIgnoredStaysIgnored: a SIGINT recap was started ignoring (a
// script's background job, nohup) stays ignored: recap, waiting on a pipe,
// is still running after it; SIGTERM still stops it.
func TestSignalIgnoredStaysIgnored(t *testing.T) {
	cmd := exec.Command("sh", "-c", `trap "" INT && exec "$0" summary -`, bin)
	var stderr bytes.Buffer
	cmd.Stderr, cmd.Stdin = &stderr, neverEnding(t)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		t.Fatalf("an ignored SIGINT stopped recap: %v\n%s", err, stderr.String())
	case <-time.After(1500 * time.Millisecond):
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err := <-exited
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 143 {
		t.Errorf("%v after SIGTERM, want exit 143\n%s", err, stderr.String())
	}
}

// neverEnding is a pipe that starts a SARIF log and never ends it (its
// writer is closed when the test ends): a read of it blocks.
func neverEnding(t *testing.T) *os.File {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(); r.Close() })
	w.WriteString(`{"version":"2.1.0","runs":[`)
	return r
}
