package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// TestSpoolSameOutputs: every output format writes the same bytes whether
// the passes after the first replay the spool of the findings or parse the
// reports again (RECAP_NO_SPOOL): on the sample, several corpus reports
// (duplicates, flows, fixes, suppressed results), standard input, with
// new only against a baseline (a recount), on changed lines (with a
// baseline too), and deep pages.
func TestSpoolSameOutputs(t *testing.T) {
	root := reportstest.RepoRoot(t)
	corpus := reportstest.SharedDir(t, "corpus")
	c := func(p string) string { return filepath.Join(corpus, p) }
	sample := []string{"--repo", "testdata/sample", "testdata/reports"}
	mixed := []string{c("checkstyle-xml/checkstyle-8.19-duplicates.xml"), c("pmd-xml/pmd-6.49.0.xml"), c("sarif-other/mayhem-api-flows.sarif"),
		c("sarif-other/semgrep-autofix-fixes.sarif"), c("pmd-xml/pmd-6.55.0-suppressed.xml"), c("spotbugs-xml"), c("pmd-sarif/pmd-7.0.0-rc4-java.sarif")}
	// Lines 30 to 54 of OrderRepository.java changed: 24 of the sample's
	// problems on them.
	changed := filepath.Join(t.TempDir(), "changed.diff")
	d := "diff --git a/src/main/java/com/example/shop/OrderRepository.java b/src/main/java/com/example/shop/OrderRepository.java\n" +
		"--- a/src/main/java/com/example/shop/OrderRepository.java\n+++ b/src/main/java/com/example/shop/OrderRepository.java\n@@ -29,0 +30,25 @@\n" +
		strings.Repeat("+x\n", 25)
	if err := os.WriteFile(changed, []byte(d), 0o644); err != nil {
		t.Fatal(err)
	}
	type run struct {
		name  string
		args  []string
		stdin string
	}
	var runs []run
	for _, format := range []string{"text", "markdown", "json", "sarif", "github", "codeclimate", "html"} {
		runs = append(runs,
			run{"summary/" + format + "/sample", append([]string{"summary", "--format", format}, sample...), ""},
			run{"summary/" + format + "/corpus", append([]string{"summary", "--format", format}, mixed...), ""},
			run{"findings/" + format + "/sample", append([]string{"findings", "--format", format}, sample...), ""},
			run{"findings/" + format + "/corpus", append([]string{"findings", "--format", format, "--no-context"}, mixed...), ""})
	}
	runs = append(runs,
		run{"sarif/all-results", append([]string{"summary", "--format", "sarif", "--max-results", "0"}, mixed...), ""},
		run{"stdin", []string{"findings", "--format", "json", "--limit", "100", "-"}, "testdata/reports/pmd.sarif"},
		run{"stdin/sarif", []string{"summary", "--format", "sarif", "--repo", "testdata/sample", "testdata/reports/checkstyle.xml", "-"}, "testdata/reports/pmd.sarif"},
		run{"new-only", []string{"findings", "--format", "json", "--limit", "100", "--new-only", "--baseline", "testdata/reports/pmd.sarif", "--repo", "testdata/sample", "testdata/reports"}, ""},
		run{"new-only/sarif", []string{"summary", "--format", "sarif", "--new-only", "--baseline", "testdata/reports/checkstyle.xml", "--repo", "testdata/sample", "testdata/reports"}, ""},
		run{"changed-only/sarif", []string{"summary", "--format", "sarif", "--changed-only", "--diff", changed, "--repo", "testdata/sample", "testdata/reports"}, ""},
		run{"changed-only/baseline/codeclimate", []string{"summary", "--format", "codeclimate", "--changed-only", "--diff", changed, "--baseline", "testdata/reports/checkstyle.xml",
			"--repo", "testdata/sample", "testdata/reports"}, ""},
		run{"page", []string{"findings", "--format", "json", "--limit", "100", "--offset", "40", "--no-context", c("checkstyle-xml"), c("pmd-xml"), c("pmd-sarif")}, ""})
	if bench, ok := reportstest.Shared(t, "bench"); ok && !testing.Short() {
		lang := []string{filepath.Join(bench, "commons-lang.checkstyle-sun.xml.gz"), filepath.Join(bench, "commons-lang.pmd7-all.sarif.gz")}
		runs = append(runs,
			run{"deep", append([]string{"findings", "--format", "json", "--no-context", "--offset", "30000", "--limit", "50"}, lang...), ""},
			run{"deep/sorted", append([]string{"findings", "--format", "json", "--no-context", "--offset", "20000", "--limit", "50", "--sort", "location"}, lang...), ""},
			run{"codeclimate/commons-lang", append([]string{"summary", "--format", "codeclimate"}, lang...), ""})
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			var outs [2][2]string
			var codes [2]int
			for i, env := range [][]string{nil, {"RECAP_NO_SPOOL=1"}} {
				if r.stdin != "" {
					outs[i][0], outs[i][1], codes[i] = recapStdin(t, root, env, r.stdin, r.args...)
				} else {
					outs[i][0], outs[i][1], codes[i] = recap(t, root, env, r.args...)
				}
			}
			if codes[0] != codes[1] || outs[0] != outs[1] {
				t.Errorf("spooled: exit %d, %d bytes out, stderr %q\nparsed again: exit %d, %d bytes out, stderr %q", codes[0], len(outs[0][0]), outs[0][1],
					codes[1], len(outs[1][0]), outs[1][1])
			}
			if codes[0] > 1 || len(outs[0][0]) == 0 {
				t.Errorf("exit %d, %d bytes: %s", codes[0], len(outs[0][0]), outs[0][1])
			}
		})
	}
}

// recapStdin runs recap, as recap does, with the file in as its standard
// input.
func recapStdin(t *testing.T, dir string, env []string, in string, args ...string) (string, string, int) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, in))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Stdin = dir, f
	cmd.Env = append(os.Environ(), append([]string{"GITHUB_EVENT_PATH=", "GITHUB_REPOSITORY=", "GITHUB_TOKEN=", "GITHUB_STEP_SUMMARY="}, env...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}
