package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/triage"
)

// gitMerge runs git merge of branch in g and returns its output and exit
// code: a merge that conflicts is no failure of the test.
func gitMerge(t *testing.T, g *gittest.Repo, branch string) (string, int) {
	t.Helper()
	cmd := exec.Command("git", "merge", "--no-edit", branch)
	cmd.Dir = g.Dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// decideOn commits, on a new branch from main, the decision of the
// finding id.
func decideOn(t *testing.T, g *gittest.Repo, branch, id, state, reason string) {
	t.Helper()
	g.Git("checkout", "-q", "-b", branch, "main")
	if _, stderr, code := recap(t, g.Dir, nil, "triage", id, "--as", state, "--reason", reason, "build/reports"); code != 0 {
		t.Fatalf("triage %s: exit %d\n%s", id, code, stderr)
	}
	g.Commit("decide "+id, nil)
}

// TestTriageMerge: two branches that each decide a finding on the sample,
// the entries neighbours once sorted, conflict in git's own merge, which
// every command then names (the file, the line of <<<<<<<) and merge
// --resolve mends; with the merge driver configured, they merge by
// themselves, both decisions in the file as recap writes it. Two
// decisions of one finding made otherwise are a conflict with the
// driver too, exit 1, both versions between the markers.
func TestTriageMerge(t *testing.T) {
	g := triageRepo(t)
	g.Commit("merge the triage file by entry", map[string]string{".gitattributes": ".recap/triage.yml merge=recap-triage\n"})
	fs := findingsOf(t, g.Dir)
	created := findingAt(t, fs, "ReplaceJavaUtilDate", "Order.java", 13)["id"].(string)
	param := findingAt(t, fs, "ReplaceJavaUtilDate", "Order.java", 16)["id"].(string)
	decideOn(t, g, "api", created, "false-positive", "the API takes a Date")
	decideOn(t, g, "later", param, "wont-fix", "until the port to java.time")
	decideOn(t, g, "other", created, "accepted-risk", "the dates are UTC")
	file := filepath.Join(g.Dir, ".recap", "triage.yml")

	// Without the driver (the attribute names one git does not know):
	// git's line merge, in each of its conflict styles; --resolve takes
	// the three versions git's index holds, whatever the markers.
	resolvedBy := map[string]string{}
	g.Git("checkout", "-q", "api")
	for _, style := range []string{"merge", "diff3", "zdiff3"} {
		g.Git("config", "merge.conflictStyle", style)
		if out, code := gitMerge(t, g, "later"); code == 0 {
			t.Fatalf("git merge without the driver did not conflict:\n%s", out)
		}
		marker := 0
		for i, l := range strings.Split(readFile(t, file), "\n") {
			if strings.HasPrefix(l, "<<<<<<< ") {
				marker = i + 1
				break
			}
		}
		if marker == 0 {
			t.Fatalf("no conflict marker in the file:\n%s", readFile(t, file))
		}
		_, stderr, code := recap(t, g.Dir, nil, "triage", "list", "build/reports")
		if want := ".recap/triage.yml:" + strconv.Itoa(marker) + ": an unresolved merge conflict (git's <<<<<<< line): run recap triage merge --resolve"; code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("%s: list of the file in conflict: exit %d, want 2 and %q\n%s", style, code, want, stderr)
		}
		out, stderr, code := recap(t, g.Dir, nil, "triage", "merge", "--resolve")
		if code != 0 || out != ".recap/triage.yml: both sides' decisions merged: git add it\n" {
			t.Errorf("%s: merge --resolve: exit %d\n%s%s", style, code, out, stderr)
		}
		resolvedBy[style] = readFile(t, file)
		g.Git("merge", "--abort")
	}
	g.Git("config", "--unset", "merge.conflictStyle")

	// With the driver.
	g.Git("config", "merge.recap-triage.driver", "'"+bin+"' triage merge %O %A %B")
	if out, code := gitMerge(t, g, "later"); code != 0 {
		t.Fatalf("git merge with the driver: exit %d\n%s", code, out)
	}
	merged := readFile(t, file)
	f, err := triage.Parse(".recap/triage.yml", []byte(merged))
	if err != nil {
		t.Fatal(err)
	}
	if again, err := f.Marshal(); err != nil || string(again) != merged {
		t.Errorf("the merged file is not as recap writes it (%v):\n%s", err, merged)
	}
	for style, resolved := range resolvedBy {
		if merged != resolved {
			t.Errorf("merge --resolve (%s) wrote\n%s\nthe driver\n%s", style, resolved, merged)
		}
	}
	out, stderr, code := recap(t, g.Dir, nil, "triage", "list", "build/reports")
	if code != 0 || !strings.Contains(out, ".recap/triage.yml: 2 entries, 0 stale, 0 expired") || !strings.Contains(out, "the API takes a Date") || !strings.Contains(out, "until the port to java.time") {
		t.Errorf("list after the merge: exit %d\n%s%s", code, out, stderr)
	}

	// One finding decided otherwise on each side.
	out, code = gitMerge(t, g, "other")
	if code == 0 || !strings.Contains(out, `conflict: PMD ReplaceJavaUtilDate src/main/java/com/example/shop/Order.java "private Date created;": decided otherwise on each side (ours: false-positive, "the API takes a Date"; theirs: accepted-risk, "the dates are UTC")`) {
		t.Errorf("git merge of a decision made otherwise: exit %d\n%s", code, out)
	}
	if s := readFile(t, file); !strings.Contains(s, "<<<<<<< ours\n") || !strings.Contains(s, "reason: the dates are UTC\n") || !strings.Contains(s, "reason: until the port to java.time\n") {
		t.Errorf("the file in conflict:\n%s", s)
	}
}
