package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recap-dev/recap/internal/githubtest"
	"github.com/recap-dev/recap/internal/gittest"
	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/triage"
)

const shop = "src/main/java/com/example/shop/"

// triageRepo is the sample committed with PMD's report of it in
// build/reports.
func triageRepo(t *testing.T) *gittest.Repo {
	t.Helper()
	root := reportstest.RepoRoot(t)
	g := gittest.Sample(t, root)
	g.Git("config", "user.name", "Ana")
	g.Git("config", "user.email", "ana@example.com")
	g.Commit("reports", map[string]string{"build/reports/pmd.sarif": readFile(t, filepath.Join(root, "testdata", "reports", "pmd.sarif"))})
	return g
}

// findingsOf returns the findings recap findings shows of the repository's
// reports, every one of them (--no-group).
func findingsOf(t *testing.T, dir string) []map[string]any {
	t.Helper()
	out, stderr, code := recap(t, dir, nil, "findings", "--format", "json", "--no-group", "--limit", "200", "--no-context", "--max-tokens", "25000", "build/reports")
	if code != 0 {
		t.Fatalf("findings: exit %d\n%s", code, stderr)
	}
	var v struct{ Findings []map[string]any }
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	return v.Findings
}

func findingAt(t *testing.T, fs []map[string]any, rule, file string, line int) map[string]any {
	t.Helper()
	for _, f := range fs {
		if f["rule"] == rule && strings.HasSuffix(f["path"].(string), "/"+file) && int(f["line"].(float64)) == line {
			return f
		}
	}
	t.Fatalf("no finding of %s at %s:%d", rule, file, line)
	return nil
}

// moveResults changes PMD's report as a run on the changed code would:
// the results of file get lines more added (after the line after, 0 for
// all), their path renamed to, and the result at line gone is removed.
func moveResults(t *testing.T, g *gittest.Repo, file string, after, lines int, to string, gone int) {
	t.Helper()
	p := filepath.Join(g.Dir, "build", "reports", "pmd.sarif")
	var log map[string]any
	if err := json.Unmarshal([]byte(readFile(t, p)), &log); err != nil {
		t.Fatal(err)
	}
	run := log["runs"].([]any)[0].(map[string]any)
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
		if int(region["startLine"].(float64)) == gone {
			continue
		}
		for _, k := range []string{"startLine", "endLine"} {
			if v, ok := region[k].(float64); ok && int(v) > after {
				region[k] = v + float64(lines)
			}
		}
		if to != "" {
			art["uri"] = strings.TrimSuffix(uri, file) + to
		}
		kept = append(kept, r)
	}
	run["results"] = kept
	b, err := json.Marshal(log)
	if err != nil {
		t.Fatal(err)
	}
	g.Write(map[string]string{"build/reports/pmd.sarif": string(b)})
}

// TestTriageFollowsTheCode: decisions made by id, by fingerprint and by
// rule stay matched after three lines are inserted at the top of a file, a
// file is renamed (git mv, committed) and a block is re-indented; deleting
// a finding's code makes check report one stale entry (exit 1), which
// prune removes; an entry whose until has passed is reported expired.
// --dry-run writes nothing.
func TestTriageFollowsTheCode(t *testing.T) {
	g := triageRepo(t)
	fs := findingsOf(t, g.Dir)
	date := findingAt(t, fs, "ReplaceJavaUtilDate", "Order.java", 13)
	loop := findingAt(t, fs, "ForLoopCanBeForeach", "PriceCalculator.java", 39)

	steps := []struct {
		args   []string
		code   int
		stdout []string // lines the output holds
	}{
		{[]string{"triage", date["id"].(string), "--as", "false-positive", "--reason", "the API takes a Date", "build/reports"}, 0,
			[]string{"false-positive  " + date["id"].(string) + "  PMD ReplaceJavaUtilDate  " + shop + "Order.java:13", ".recap/triage.yml: 1 decision written, 0 unchanged"}},
		{[]string{"triage", loop["fingerprint"].(string), "--as", "wont-fix", "--reason", "the loop is clearer", "build/reports"}, 0,
			[]string{".recap/triage.yml: 1 decision written, 0 unchanged"}},
		{[]string{"triage", "--rule", "EmptyCatchBlock", "--as", "accepted-risk", "--reason", "nothing to do on failure", "--dry-run", "build/reports"}, 0,
			[]string{".recap/triage.yml: 2 decisions would be written, 0 unchanged (--dry-run: nothing written)"}},
		{[]string{"triage", "list", "build/reports"}, 0, []string{".recap/triage.yml: 2 entries, 0 stale, 0 expired"}},
		{[]string{"triage", "--rule", "EmptyCatchBlock", "--as", "accepted-risk", "--reason", "nothing to do on failure", "build/reports"}, 0,
			[]string{".recap/triage.yml: 2 decisions written, 0 unchanged"}},
		{[]string{"triage", "--rule", "EmptyCatchBlock", "--as", "accepted-risk", "--reason", "nothing to do on failure", "build/reports"}, 0,
			[]string{".recap/triage.yml: 0 decisions written, 2 unchanged"}},
		{[]string{"triage", "list", "build/reports"}, 0, []string{".recap/triage.yml: 4 entries, 0 stale, 0 expired"}},
	}
	run := func(args []string, code int, want []string) string {
		t.Helper()
		out, stderr, got := recap(t, g.Dir, nil, args...)
		if got != code {
			t.Fatalf("recap %s: exit %d, want %d\n%s%s", strings.Join(args, " "), got, code, out, stderr)
		}
		for _, w := range want {
			if !strings.Contains(out, w+"\n") {
				t.Errorf("recap %s: no line %q in\n%s", strings.Join(args, " "), w, out)
			}
		}
		return out
	}
	for _, s := range steps {
		run(s.args, s.code, s.stdout)
	}
	file := readFile(t, filepath.Join(g.Dir, ".recap", "triage.yml"))
	for _, want := range []string{"by: Ana <ana@example.com>", "line: private Date created;", "commit: "} {
		if !strings.Contains(file, want) {
			t.Errorf("the triage file has no %q:\n%s", want, file)
		}
	}
	g.Commit("triage", nil)

	// Three lines at the top of Order.java.
	order := readFile(t, filepath.Join(g.Dir, shop+"Order.java"))
	g.Write(map[string]string{shop + "Order.java": "// Copyright the shop's authors.\n// Licensed as the rest.\n\n" + order})
	moveResults(t, g, "Order.java", 0, 3, "", -1)
	// OrderRepository.java renamed and committed, and changed a little.
	g.Git("mv", shop+"OrderRepository.java", shop+"ShopRepository.java")
	g.Commit("rename", nil)
	moveResults(t, g, "OrderRepository.java", 0, 0, "ShopRepository.java", -1)
	// The block of OrderService.countLines re-indented with tabs.
	service := readFile(t, filepath.Join(g.Dir, shop+"OrderService.java"))
	lines := strings.Split(service, "\n")
	for i := 20; i <= 29; i++ { // lines 21 to 30
		lines[i] = "\t" + strings.TrimLeft(lines[i], " ")
	}
	g.Write(map[string]string{shop + "OrderService.java": strings.Join(lines, "\n")})

	out := run([]string{"triage", "list", "build/reports"}, 0, []string{".recap/triage.yml: 4 entries, 0 stale, 0 expired"})
	if !regexp.MustCompile(regexp.QuoteMeta(shop+"ShopRepository.java:") + `\d+ ` + regexp.QuoteMeta("(was "+shop+"OrderRepository.java)")).MatchString(out) {
		t.Errorf("list does not say where the renamed file went, and the line its finding is on:\n%s", out)
	}
	run([]string{"triage", "check", "build/reports"}, 0, []string{".recap/triage.yml: no stale or expired entry"})

	// The loop deleted: its entry is stale.
	calc := readFile(t, filepath.Join(g.Dir, shop+"PriceCalculator.java"))
	g.Write(map[string]string{shop + "PriceCalculator.java": strings.Replace(calc, "        for (int i = 0; i < prices.length; i++) sum += prices[i];\n", "        sum = java.util.Arrays.stream(prices).sum();\n", 1)})
	moveResults(t, g, "PriceCalculator.java", 0, 0, "", 39)
	out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build/reports")
	// Which entry is stale: its line's text after the table.
	if code != 1 || !strings.Contains(out, ".recap/triage.yml: 1 stale entry, 0 expired entries") || !strings.Contains(out, "stale  wont-fix") ||
		!strings.Contains(out, "\nstale: PMD ForLoopCanBeForeach "+shop+"PriceCalculator.java \"for (int i = 0; i < prices.length; i++) sum += prices[i];\": no finding of the reports matches it") ||
		!strings.Contains(stderr, "recap: triage check failed: 1 stale entry (recap triage prune removes it) in .recap/triage.yml") {
		t.Errorf("check after deleting the loop: exit %d\n%s%s", code, out, stderr)
	}
	run([]string{"triage", "check", "--format", "json", "build/reports"}, 1, nil)
	run([]string{"triage", "prune", "build/reports"}, 0, []string{".recap/triage.yml: 1 stale entry removed"})
	run([]string{"triage", "check", "build/reports"}, 0, []string{".recap/triage.yml: no stale or expired entry"})

	// An entry whose until has passed.
	f, err := triage.LoadFile(filepath.Join(g.Dir, ".recap", "triage.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Entries) != 3 {
		t.Fatalf("%d entries after prune, want 3", len(f.Entries))
	}
	// recap writes only an until to come; the day passes (the file edited).
	run([]string{"triage", date["fingerprint"].(string), "--as", "false-positive", "--reason", "until the port to java.time", "--until", "2999-01-01", "build/reports"}, 0, nil)
	yml := filepath.Join(g.Dir, ".recap", "triage.yml")
	b, err := os.ReadFile(yml)
	if err != nil || !bytes.Contains(b, []byte("until: 2999-01-01")) {
		t.Fatalf("the entry's until: %v\n%s", err, b)
	}
	if err := os.WriteFile(yml, bytes.ReplaceAll(b, []byte("until: 2999-01-01"), []byte("until: 2020-01-01")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code = recap(t, g.Dir, nil, "triage", "check", "build/reports")
	if code != 1 || !strings.Contains(out, "0 stale entries, 1 expired entry") || !strings.Contains(out, "matches 1, expired  false-positive until 2020-01-01  PMD ReplaceJavaUtilDate") ||
		!strings.Contains(out, "\nexpired: PMD ReplaceJavaUtilDate "+shop+"Order.java \"private Date created;\"") ||
		!strings.Contains(out, `: false-positive until 2020-01-01 ("until the port to java.time"): its findings are shown again; decide it again with a later --until (recap triage `+date["id"].(string)+` --as false-positive --until … --reason …), which replaces the entry, or remove the entry`) {
		t.Errorf("check with an expired entry: exit %d\n%s", code, out)
	}
}

// TestTriagePruneReportsOlder: with the committed reports older than the
// code (two lines inserted above decided findings, a decided finding's
// file renamed, the tools not run again), the entries look stale but are
// not: check says so (stale?, not changed, for the entry whose place now
// has another finding of its rule) and prune keeps them (--force removes
// them; --dry-run removes nothing); an uncommitted report is judged by the
// files' times; the reports made again, the entries match.
func TestTriagePruneReportsOlder(t *testing.T) {
	g := triageRepo(t)
	field := findingAt(t, findingsOf(t, g.Dir), "CommentRequired", "Order.java", 14)
	decideDate(t, g)
	for _, args := range [][]string{
		{"triage", "--rule", "EmptyCatchBlock", "--path", "**/OrderRepository.java", "--as", "accepted-risk", "--reason", "nothing to do on failure", "build/reports"},
		{"triage", field["id"].(string), "--as", "wont-fix", "--reason", "a counter", "build/reports"},
	} {
		if out, stderr, code := recap(t, g.Dir, nil, args...); code != 0 || !strings.Contains(out, "1 decision written") {
			t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
		}
	}
	g.Commit("triage", nil)
	report := filepath.Join(g.Dir, "build", "reports", "pmd.sarif")
	order := filepath.Join(g.Dir, shop+"Order.java")
	g.Write(map[string]string{shop + "Order.java": "// Copyright the shop's authors.\n\n" + readFile(t, order)})
	g.Git("mv", shop+"OrderRepository.java", shop+"ShopRepository.java")
	g.Commit("rename", nil)

	const (
		dateLine  = `PMD ReplaceJavaUtilDate ` + shop + `Order.java "private Date created;"`
		fieldLine = `PMD CommentRequired ` + shop + `Order.java "private int unusedCounter;"`
		catchLine = `PMD EmptyCatchBlock ` + shop + `ShopRepository.java (was ` + shop + `OrderRepository.java) "} catch (SQLException e) { }"`
		older     = shop + `Order.java changed after commit `
		gone      = shop + `OrderRepository.java is gone, and the reports of PMD still have findings in it`
	)
	out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build/reports")
	for _, want := range []string{".recap/triage.yml: 3 stale entries (3 with reports that may be older than the code), 0 expired entries",
		"stale?  false-positive  PMD ReplaceJavaUtilDate", "stale?  wont-fix        PMD CommentRequired",
		"stale?: " + dateLine + ": the reports may be older than the code (" + older,
		"stale?: " + fieldLine + ": the reports may be older than the code (" + older,
		", the one build/reports/pmd.sarif was made at): run the tools again to know",
		"stale?: " + catchLine + ": the reports may be older than the code (" + gone + ")"} {
		if !strings.Contains(out, want) {
			t.Errorf("check: no %q in\n%s", want, out)
		}
	}
	if regexp.MustCompile(`(?m)^changed|\d changed`).MatchString(out) {
		t.Errorf("check calls an entry changed, its place holding another finding that moved there:\n%s", out)
	}
	if code != 1 || !strings.Contains(stderr, "triage check failed: 3 stale entries whose reports may be older than the code (run the tools again)") {
		t.Errorf("check: exit %d\n%s", code, stderr)
	}
	out, _, _ = recap(t, g.Dir, nil, "triage", "check", "--format", "json", "build/reports")
	var v struct {
		Outdated, Changed int
		Entries           []struct{ Outdated string }
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.Outdated != 3 || v.Changed != 0 || len(v.Entries) != 3 || v.Entries[0].Outdated == "" {
		t.Errorf("check --format json: %v %+v\n%s", err, v, out)
	}
	yml := filepath.Join(g.Dir, ".recap", "triage.yml")
	before := readFile(t, yml)

	// An uncommitted report, entries without the commit decided on (a
	// file written by hand): by the files' times.
	committed := readFile(t, report)
	g.Write(map[string]string{"build/reports/pmd.sarif": committed + "\n", ".recap/triage.yml": regexp.MustCompile(`(?m)^ *commit: .*\n`).ReplaceAllString(before, "")})
	touchAfter(t, order, report)
	out, _, _ = recap(t, g.Dir, nil, "triage", "check", "build/reports")
	if want := "stale?: " + dateLine + ": the reports may be older than the code (" + shop + "Order.java changed after build/reports/pmd.sarif was written)"; !strings.Contains(out, want) {
		t.Errorf("check by the files' times: no %q in\n%s", want, out)
	}
	// Two seconds after it, not a minute: the tools wrote the report, not
	// a checkout (which writes the code and a committed report in no set
	// order): as older.
	if st, err := os.Stat(report); err != nil {
		t.Fatal(err)
	} else if at := st.ModTime().Add(2 * time.Second); os.Chtimes(order, at, at) != nil {
		t.Fatal("chtimes")
	}
	out, _, _ = recap(t, g.Dir, nil, "triage", "check", "build/reports")
	if want := "stale?: " + dateLine + ": the reports may be older than the code (" + shop + "Order.java changed after build/reports/pmd.sarif was written)"; !strings.Contains(out, want) {
		t.Errorf("check by the files' times, two seconds apart: no %q in\n%s", want, out)
	}
	g.Write(map[string]string{"build/reports/pmd.sarif": committed, ".recap/triage.yml": before})

	out, stderr, code = recap(t, g.Dir, nil, "triage", "prune", "build/reports")
	for _, want := range []string{".recap/triage.yml: 0 stale entries removed; 3 stale entries kept: the reports may be older than the code (run the tools again, or --force removes them)\n",
		"kept     " + dateLine + " (false-positive): " + older,
		"kept     " + catchLine + " (accepted-risk): " + gone + "\n"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("prune: exit %d, no %q in\n%s%s", code, want, out, stderr)
		}
	}
	if after := readFile(t, yml); after != before {
		t.Errorf("prune changed the triage file:\n%s", after)
	}
	out, stderr, code = recap(t, g.Dir, nil, "triage", "prune", "--force", "--dry-run", "build/reports")
	if code != 0 || !strings.Contains(out, "would remove  "+catchLine+" (accepted-risk)\n") ||
		!strings.Contains(out, ".recap/triage.yml: 2 stale entries would be removed (--dry-run: nothing removed); 1 stale entry kept: the finding at its place says another message now") {
		t.Errorf("prune --force --dry-run: exit %d\n%s%s", code, out, stderr)
	}
	if after := readFile(t, yml); after != before {
		t.Errorf("prune --dry-run changed the triage file:\n%s", after)
	}
	out, stderr, code = recap(t, g.Dir, nil, "triage", "prune", "--force", "build/reports")
	// --force removes what reports older than the code kept, not what
	// is to decide again.
	if code != 0 || !strings.Contains(out, "removed  "+catchLine+" (accepted-risk)\n") || !strings.Contains(out, ".recap/triage.yml: 2 stale entries removed; 1 stale entry kept: the finding at its place says another message now") {
		t.Errorf("prune --force: exit %d\n%s%s", code, out, stderr)
	}
	g.Write(map[string]string{".recap/triage.yml": before})

	// The tools run again: the entries follow the code.
	moveResults(t, g, "Order.java", 0, 2, "", -1)
	moveResults(t, g, "OrderRepository.java", 0, 0, "ShopRepository.java", -1)
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build/reports"); code != 0 || !strings.Contains(out, "no stale or expired entry") {
		t.Errorf("check with the reports made again: exit %d\n%s%s", code, out, stderr)
	}
}

// TestTriagePruneReportsOlderInAClone: a clone whose committed reports are
// older than its code gives every file the time of the checkout; the
// commit that gave the report its content (the tools run again after the
// decision) tells that the report's finding is where the line was then,
// so prune keeps the entry. A shallow clone has not that commit: the
// entry is kept, saying so.
func TestTriagePruneReportsOlderInAClone(t *testing.T) {
	g := triageRepo(t)
	decideDate(t, g)
	g.Commit("triage", nil)
	// The tools run again on a changed file, and committed with it.
	order := readFile(t, filepath.Join(g.Dir, shop+"Order.java"))
	g.Write(map[string]string{shop + "Order.java": strings.Replace(order, "\n", "\n// the shop's order\n", 1)})
	moveResults(t, g, "Order.java", 1, 1, "", -1)
	g.Commit("the tools run again", nil)
	// Then the code changes, the tools not run.
	g.Commit("a header", map[string]string{shop + "Order.java": "// Copyright the shop's authors.\n\n" + readFile(t, filepath.Join(g.Dir, shop+"Order.java"))})
	for _, c := range []struct {
		name, depth, want string
	}{
		{"full", "", shop + "Order.java changed after commit "},
		{"shallow", "1", "build/reports/pmd.sarif is committed, but this clone is shallow: the commit it was made at cannot be told (git fetch --unshallow), nor whether it is older than the code"},
	} {
		t.Run(c.name, func(t *testing.T) {
			clone := filepath.Join(t.TempDir(), "clone")
			args := []string{"clone", "-q", "file://" + g.Dir, clone}
			if c.depth != "" {
				args = append(args, "--depth", c.depth)
			}
			if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
				t.Fatalf("git clone: %v\n%s", err, out)
			}
			out, _, code := recap(t, clone, nil, "triage", "check", "build/reports")
			if code != 1 || !strings.Contains(out, c.want) {
				t.Errorf("check in the clone: exit %d, no %q in\n%s", code, c.want, out)
			}
			out, stderr, code := recap(t, clone, nil, "triage", "prune", "build/reports")
			if code != 0 || !strings.Contains(out, "0 stale entries removed; 1 stale entry kept") {
				t.Errorf("prune in the clone: exit %d\n%s%s", code, out, stderr)
			}
		})
	}
}

// TestTriagePruneLineChanged: the decided line changed (a field renamed)
// and committed, the committed report unchanged: not made again, it may
// not describe the file, so prune keeps the entry (stale?); made again
// here, the same bytes written after the file changed, it does: its
// finding is on the decided line as edited, and prune keeps the entry, to
// decide again; the line rewritten, it removes it.
func TestTriagePruneLineChanged(t *testing.T) {
	g := triageRepo(t)
	decideDate(t, g)
	g.Commit("triage", nil)
	order := readFile(t, filepath.Join(g.Dir, shop+"Order.java"))
	g.Commit("rename the field", map[string]string{shop + "Order.java": strings.Replace(order, "private Date created;", "private Date createdAt;", 1)})
	// The report not made again: it may not describe the file.
	out, stderr, code := recap(t, g.Dir, nil, "triage", "prune", "build/reports")
	if code != 0 || !strings.Contains(out, ".recap/triage.yml: 0 stale entries removed; 1 stale entry kept") {
		t.Errorf("prune: exit %d\n%s%s", code, out, stderr)
	}
	// Made again here (the same bytes, written after the file changed).
	touchAfter(t, filepath.Join(g.Dir, "build", "reports", "pmd.sarif"), filepath.Join(g.Dir, shop+"Order.java"))
	out, stderr, code = recap(t, g.Dir, nil, "triage", "prune", "build/reports")
	if code != 0 || !strings.Contains(out, "kept     PMD ReplaceJavaUtilDate "+shop+"Order.java \"private Date created;\" (false-positive): its decided line was edited, and a finding of its rule is on it (recap triage check shows it, to decide again)\n") ||
		!strings.Contains(out, ".recap/triage.yml: 0 stale entries removed; 1 stale entry kept: ") {
		t.Errorf("prune after the tools ran again: exit %d\n%s%s", code, out, stderr)
	}
	g.Commit("rewrite the field", map[string]string{shop + "Order.java": strings.Replace(order, "private Date created;", "private final Instant createdAt = Instant.now();", 1)})
	touchAfter(t, filepath.Join(g.Dir, "build", "reports", "pmd.sarif"), filepath.Join(g.Dir, shop+"Order.java"))
	out, stderr, code = recap(t, g.Dir, nil, "triage", "prune", "build/reports")
	if code != 0 || !strings.Contains(out, ".recap/triage.yml: 1 stale entry removed\n") {
		t.Errorf("prune after the line was rewritten: exit %d\n%s%s", code, out, stderr)
	}
}

// TestTriageFirstFileRenamed: the file of the report's first finding
// renamed, the tools not run again: the report (made elsewhere) is still
// placed in the repository by its other files, so the decisions on those
// files still match, and the renamed file's is stale? (the report still
// names the file, by the path it gives), not removed.
func TestTriageFirstFileRenamed(t *testing.T) {
	g := triageRepo(t)
	decideDate(t, g)
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "--rule", "EmptyCatchBlock", "--path", "**/OrderService.java", "--as", "wont-fix", "--reason", "a failure to read counts nothing", "build/reports"); code != 0 || !strings.Contains(out, "1 decision written") {
		t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
	}
	g.Commit("triage", nil)
	g.Git("mv", shop+"Order.java", shop+"Purchase.java") // the report's first finding's file
	g.Commit("rename", nil)
	out, stderr, code := recap(t, g.Dir, nil, "triage", "prune", "build/reports")
	// Only the renamed file's findings stay unplaced, as the report gives
	// their path.
	if code != 0 || !strings.Contains(stderr, "22 finding paths are outside the repository root") ||
		!strings.Contains(out, ".recap/triage.yml: 0 stale entries removed; 1 stale entry kept: the reports may be older than the code") ||
		!strings.Contains(out, "kept     PMD ReplaceJavaUtilDate "+shop+"Purchase.java (was "+shop+"Order.java)") {
		t.Errorf("prune: exit %d\n%s%s", code, out, stderr)
	}
	if f, err := triage.LoadFile(filepath.Join(g.Dir, ".recap", "triage.yml")); err != nil || len(f.Entries) != 2 {
		t.Errorf("the triage file after prune: %v %+v", err, f)
	}
}

// TestTriageReportsOutside: a report whose findings are not in the
// repository (made on another checkout) makes no entry stale: prune keeps
// them, saying why.
func TestTriageReportsOutside(t *testing.T) {
	g := triageRepo(t)
	decideDate(t, g)
	p := filepath.Join(g.Dir, "build", "reports", "pmd.sarif")
	g.Write(map[string]string{"build/reports/pmd.sarif": strings.ReplaceAll(readFile(t, p), "file:///home/runner/work/shop/shop/src/", "file:///opt/other/lib/")})
	out, stderr, code := recap(t, g.Dir, nil, "triage", "prune", "build/reports")
	if code != 0 || !strings.Contains(out, "(false-positive): 84 of the 84 findings of the reports of PMD are outside the repository: made on another checkout, or before files moved\n") ||
		!strings.Contains(out, "0 stale entries removed; 1 stale entry kept") {
		t.Errorf("prune: exit %d\n%s%s", code, out, stderr)
	}
}

// TestTriageUncommittedReportOlder: reports not committed (made by CI or
// locally), the code changed and committed right after the tools ran: the
// commit HEAD was at when the report was written tells where its findings
// were, so the moved decision is stale?, not removed, though the files'
// times are too close to tell.
func TestTriageUncommittedReportOlder(t *testing.T) {
	g := triageRepo(t)
	// The report out of git, made an hour ago on a commit of two hours ago.
	g.Git("rm", "-q", "--cached", "build/reports/pmd.sarif")
	g.Write(map[string]string{".gitignore": "build/\n"})
	commitDated(t, g, "reports out of git", time.Now().Add(-2*time.Hour))
	report := filepath.Join(g.Dir, "build", "reports", "pmd.sarif")
	hourAgo := time.Now().Add(-time.Hour)
	if err := os.Chtimes(report, hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	decideDate(t, g)
	commitDated(t, g, "triage", time.Now())
	order := filepath.Join(g.Dir, shop+"Order.java")
	g.Write(map[string]string{shop + "Order.java": "// Copyright the shop's authors.\n\n" + readFile(t, order)})
	commitDated(t, g, "a header", time.Now())
	// The files' times too close to tell: the file an hour ago as well.
	if err := os.Chtimes(order, hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := recap(t, g.Dir, nil, "triage", "prune", "--dry-run", "build/reports")
	if want := "(false-positive): build/reports/pmd.sarif has its finding at " + shop + "Order.java:13, where its line was in the code it describes; the line is at 15 now\n"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("prune: exit %d, no %q in\n%s%s", code, want, out, stderr)
	}
	// A report written after the file last changed describes the file as
	// it is (the tools run again on work not committed yet): the entry is
	// stale.
	touchAfter(t, report, order)
	out, stderr, code = recap(t, g.Dir, nil, "triage", "prune", "build/reports")
	if code != 0 || !strings.Contains(out, ".recap/triage.yml: 1 stale entry removed\n") {
		t.Errorf("prune with the report written after the file: exit %d\n%s%s", code, out, stderr)
	}
}

// TestTriagePruneFixed: a decided finding fixed, the reports made again
// and committed with the fix, while another finding of its rule and
// message moved to the line it was on: the entry is stale, not stale?,
// and prune removes it.
func TestTriagePruneFixed(t *testing.T) {
	g := triageRepo(t)
	decideDate(t, g)
	g.Commit("triage", nil)
	// Lines 13 to 15 gone (the Date field among them): the constructor,
	// which takes a Date, comes to line 13.
	lines := strings.SplitAfter(readFile(t, filepath.Join(g.Dir, shop+"Order.java")), "\n")
	if !strings.Contains(lines[12], "private Date created;") || !strings.Contains(lines[15], "Date created)") {
		t.Fatalf("Order.java is not as the test knows it:\n%s", strings.Join(lines, ""))
	}
	g.Write(map[string]string{shop + "Order.java": strings.Join(append(lines[:12:12], lines[15:]...), "")})
	moveResults(t, g, "Order.java", 15, -3, "", 13)
	g.Commit("the Date field gone", nil)
	out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build/reports")
	if code != 1 || !strings.Contains(out, ".recap/triage.yml: 1 stale entry, 0 expired entries") || !strings.Contains(out, "stale  false-positive  PMD ReplaceJavaUtilDate") {
		t.Errorf("check: exit %d\n%s%s", code, out, stderr)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "prune", "build/reports"); code != 0 || !strings.Contains(out, ".recap/triage.yml: 1 stale entry removed\n") {
		t.Errorf("prune: exit %d\n%s%s", code, out, stderr)
	}
}

// commitDated commits the work at the time when (gittest's commits are
// all made on one day of the past).
func commitDated(t *testing.T, g *gittest.Repo, msg string, when time.Time) {
	t.Helper()
	g.Git("add", "-A")
	cmd := exec.Command("git", "-C", g.Dir, "commit", "-qm", msg)
	at := when.UTC().Format(time.RFC3339)
	cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE="+at, "GIT_AUTHOR_DATE="+at)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, out)
	}
}

// today is the day a decision made now is dated.
func today() string { return time.Now().UTC().Format(triage.DateLayout) }

// touchAfter gives path a modification time a minute after ref's (a file
// changed within seconds of a report, as a checkout writes both, is not
// judged changed since).
func touchAfter(t *testing.T, path, ref string) {
	t.Helper()
	st, err := os.Stat(ref)
	if err != nil {
		t.Fatal(err)
	}
	at := st.ModTime().Add(time.Minute)
	if err := os.Chtimes(path, at, at); err != nil {
		t.Fatal(err)
	}
}

// TestTriageCheckInputNotRead: an input that cannot be read makes check
// exit 2, its list saying it is no result (text and JSON).
func TestTriageCheckInputNotRead(t *testing.T) {
	g := triageRepo(t)
	decideDate(t, g)
	out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build/reports/nope.sarif")
	if code != 2 || !strings.HasPrefix(out, ".recap/triage.yml: an input could not be read: what follows is not a result\n") {
		t.Errorf("check: exit %d\n%s%s", code, out, stderr)
	}
	out, _, code = recap(t, g.Dir, nil, "triage", "check", "--format", "json", "build/reports/nope.sarif")
	if code != 2 || !strings.Contains(out, `"inputFailed": true`) {
		t.Errorf("check --format json: exit %d\n%s", code, out)
	}
}

// TestTriageUsage: mistakes of the command line exit 2, naming the flag.
func TestTriageUsage(t *testing.T) {
	g := triageRepo(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"triage", "ap7i-7", "--reason", "r", "build/reports"}, "recap: --as: say what was decided: false-positive, wont-fix, accepted-risk, used-in-tests or confirmed"},
		{[]string{"triage", "ap7i-7", "--as", "falsepositve", "--reason", "r", "build/reports"}, `recap: --as: unknown state "falsepositve"; did you mean false-positive?`},
		{[]string{"triage", "ap7i-7", "--as", "wont-fix", "build/reports"}, "recap: --reason: say why (the next reader needs it)"},
		{[]string{"triage", "ap7i-7", "--as", "wont-fix", "--reason", "r", "--until", "next week", "build/reports"}, `recap: --until "next week" is not a day as YYYY-MM-DD`},
		{[]string{"triage", "ap7i-7", "--as", "wont-fix", "--reason", "r", "--until", "2026-02-30", "build/reports"}, `recap: --until "2026-02-30" is written YYYY-MM-DD but is no day of the calendar`},
		{[]string{"triage", "ap7i-7", "--as", "wont-fix", "--reason", "r", "--until", "2020-01-01", "build/reports"}, "recap: --until 2020-01-01 has come already: give a later day, or none"},
		{[]string{"triage", "--as", "wont-fix", "--reason", "r", "build/reports"}, "recap: name the findings by id or fingerprint"},
		{[]string{"triage", "zzzz-999", "--as", "wont-fix", "--reason", "r", "build/reports"}, "recap: zzzz-999: no finding of the inputs has this id or fingerprint"},
		{[]string{"triage", "nonsense", "--as", "wont-fix", "--reason", "r", "build/reports"}, `recap: unknown command or argument "nonsense" for recap triage`},
		{[]string{"triage", "ap7i-07", "--as", "wont-fix", "--reason", "r", "build/reports"}, "recap: ap7i-07: not a finding's id as recap findings shows it"},
		{[]string{"triage", "AP7I-7", "--as", "wont-fix", "--reason", "r", "build/reports"}, "recap: AP7I-7: not a finding's id as recap findings shows it"},
		{[]string{"triage", "build/reports", "ap7i-07", "--as", "wont-fix", "--reason", "r"}, "recap: ap7i-07: not a finding's id as recap findings shows it"},
		{[]string{"triage", "--rule", "NoSuchRule", "--as", "wont-fix", "--reason", "r", "build/reports"}, "recap: no finding of the inputs passes --rule NoSuchRule"},
		{[]string{"triage", "--path", "[", "--as", "wont-fix", "--reason", "r", "build/reports"}, "recap: --path: "},
		{[]string{"triage", "list", "--format", "xml", "build/reports"}, `recap: --format: unknown format "xml"`},
		{[]string{"triage", "import", "build/reports"}, "recap: give --sarif FILE or --github (one of them)"},
		{[]string{"triage", "ap7i-7", "--as", "wont-fix", "--reason", "r", "--bogus"}, "recap: unknown flag: --bogus"},
		// Each value as the file's reader checks it: never a file recap
		// then refuses to read.
		{[]string{"triage", "ap7i-7", "--as", "wont-fix", "--reason", "r", "--link", "http://", "build/reports"}, `recap: --link: "http://" is not an http or https URL`},
		{[]string{"triage", "ap7i-7", "--as", "wont-fix", "--reason", "r", "--link", "https://exa mple.com", "build/reports"}, `recap: --link: "https://exa mple.com" is not an http or https URL`},
		{[]string{"triage", "ap7i-7", "--as", "wont-fix", "--reason", "r", "--link", "http://[::1", "build/reports"}, `recap: --link: "http://[::1" is not an http or https URL`},
		{[]string{"triage", "ap7i-7", "--as", "wont-fix", "--reason", "r", "--link", "https://x.org/a\nb", "build/reports"}, `recap: --link: `},
		{[]string{"triage", "ap7i-7", "--as", "wont-fix", "--reason", "r", "--link", "https://x.org/" + strings.Repeat("a", 4100), "build/reports"}, "recap: --link: 4114 characters, more than 4096"},
		{[]string{"triage", "ap7i-7", "--as", "wont-fix", "--reason", "r", "--by", strings.Repeat("b", 4097), "build/reports"}, "recap: --by: 4097 characters, more than 4096"},
		{[]string{"triage", "ap7i-7", "--as", "wont-fix", "--reason", strings.Repeat("r", 4097), "build/reports"}, "recap: --reason: 4097 characters, more than 4096"},
		{[]string{"triage", "ap7i-7", "--as", "wont-fix", "--reason", "bad \xff byte", "build/reports"}, "recap: --reason: not valid UTF-8"},
		{[]string{"triage", "check", "--triage", "no/such.yml", "build/reports"}, "recap: --triage: stat "},
		{[]string{"triage", "list", "--triage", "no/such.yml", "build/reports"}, "no such file or directory"},
		{[]string{"triage", "prune", "--triage", "no/such.yml", "build/reports"}, "no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, stderr, code := recap(t, g.Dir, nil, tt.args...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and %q", code, stderr, tt.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(g.Dir, ".recap", "triage.yml")); err == nil {
		t.Error("a refused command wrote the triage file")
	}
}

// TestTriageBadFile: a triage file with a mistake stops every triage
// command with exit 2, naming the file, line, column and key.
func TestTriageBadFile(t *testing.T) {
	g := triageRepo(t)
	g.Write(map[string]string{".recap/triage.yml": "entries:\n  - tool: PMD\n    rule: X\n    state: falsepositive\n    reason: r\n  - tool: PMD\n    rule: Y\n    state: wontfix\n    reason: r\n"})
	for _, args := range [][]string{{"triage", "list", "build/reports"}, {"triage", "check", "build/reports"}, {"triage", "prune", "build/reports"}, {"summary", "build/reports"}} {
		_, stderr, code := recap(t, g.Dir, nil, args...)
		// Each mistake on a line of its own.
		want := "recap: .recap/triage.yml:4:12: entries[0].state: unknown state \"falsepositive\"; did you mean false-positive? " +
			"(want false-positive, wont-fix, accepted-risk, used-in-tests or confirmed)\n" +
			"recap: .recap/triage.yml:8:12: entries[1].state: unknown state \"wontfix\"; did you mean wont-fix? " +
			"(want false-positive, wont-fix, accepted-risk, used-in-tests or confirmed)\n"
		if code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("%v: exit %d\n%s", args, code, stderr)
		}
	}
	// The configuration names another place.
	g.Write(map[string]string{".recap.yml": "triage: decisions.yml\n", "decisions.yml": "version: 1\nentries: []\n"})
	out, stderr, code := recap(t, g.Dir, nil, "triage", "list", "build/reports")
	if code != 0 || !strings.Contains(out, "decisions.yml: no entry") {
		t.Errorf("list with triage: decisions.yml: exit %d\n%s%s", code, out, stderr)
	}
}

// TestTriageImportSARIF: the results of PMD's real report that carry an
// accepted suppression (or one without a status) become entries, the
// justification their reason; those under review or rejected do not.
func TestTriageImportSARIF(t *testing.T) {
	g := triageRepo(t)
	p := filepath.Join(g.Dir, "build", "reports", "pmd.sarif")
	var log map[string]any
	if err := json.Unmarshal([]byte(readFile(t, p)), &log); err != nil {
		t.Fatal(err)
	}
	results := log["runs"].([]any)[0].(map[string]any)["results"].([]any)
	sup := []any{
		[]any{map[string]any{"kind": "external", "status": "accepted", "justification": "reviewed: the date is the API's"}},
		[]any{map[string]any{"kind": "inSource"}},
		[]any{map[string]any{"kind": "external", "status": "underReview"}},
		[]any{map[string]any{"kind": "external", "status": "rejected", "justification": "no"}},
	}
	for i, s := range sup {
		results[i].(map[string]any)["suppressions"] = s
	}
	b, _ := json.Marshal(log)
	g.Write(map[string]string{"suppressed.sarif": string(b)})
	out, stderr, code := recap(t, g.Dir, nil, "triage", "import", "--sarif", "suppressed.sarif")
	if code != 0 || !strings.Contains(out, ".recap/triage.yml: 2 decisions imported, 0 unchanged") {
		t.Fatalf("import --sarif: exit %d\n%s%s", code, out, stderr)
	}
	f, err := triage.LoadFile(filepath.Join(g.Dir, ".recap", "triage.yml"))
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]bool{}
	for _, e := range f.Entries {
		reasons[e.Reason] = true
		if e.State != triage.AcceptedRisk || e.Location == "" || e.Commit == "" {
			t.Errorf("entry %+v", e)
		}
	}
	if !reasons["reviewed: the date is the API's"] || !reasons["suppressed in the SARIF log (inSource), without a justification"] {
		t.Errorf("reasons %v", reasons)
	}
	// A real report's suppressions, its paths outside the repository.
	corpus, files := reportstest.CorpusIfPresent(t)
	if len(files) == 0 {
		return
	}
	out, stderr, code = recap(t, g.Dir, nil, "triage", "import", "--sarif", filepath.Join(corpus, "sarif-other", "suppressions-synthetic.sarif"))
	if code != 0 || !strings.Contains(stderr, "3 suppressed results outside the repository") || !strings.Contains(out, "0 decisions imported") {
		t.Errorf("import of the corpus's suppressions: exit %d\n%s%s", code, out, stderr)
	}
}

// mixedSuppressions are results' suppressions, and whether they suppress
// the result: each is accepted (SARIF §3.27.23, the SARIF SDK's
// TryIsSuppressed). The justification names the case.
var mixedSuppressions = []struct {
	name         string
	suppressions []any // nil for none
	suppressed   bool
}{
	{"none", nil, false},
	{"accepted", []any{map[string]any{"kind": "inSource", "status": "accepted", "justification": "accepted"}}, true},
	{"no status", []any{map[string]any{"kind": "inSource", "justification": "no status"}}, true},
	{"accepted, rejected", []any{map[string]any{"kind": "inSource", "status": "accepted", "justification": "accepted, rejected"},
		map[string]any{"kind": "external", "status": "rejected"}}, false},
	{"accepted, underReview", []any{map[string]any{"kind": "inSource", "status": "accepted", "justification": "accepted, underReview"},
		map[string]any{"kind": "external", "status": "underReview"}}, false},
	{"underReview, no status", []any{map[string]any{"kind": "external", "status": "underReview"},
		map[string]any{"kind": "inSource", "justification": "underReview, no status"}}, false},
	{"rejected", []any{map[string]any{"kind": "external", "status": "rejected", "justification": "rejected"}}, false},
}

// TestMixedSuppressionsGate: a high finding whose suppressions are not all
// accepted (one rejected or under review beside an accepted one) is a
// finding: --fail-on high fails on it.
func TestMixedSuppressionsGate(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range mixedSuppressions {
		t.Run(tc.name, func(t *testing.T) {
			result := map[string]any{"ruleId": "SQLI", "level": "error", "message": map[string]any{"text": "SQL injection"},
				"locations": []any{map[string]any{"physicalLocation": map[string]any{"artifactLocation": map[string]any{"uri": "Repo.java"}, "region": map[string]any{"startLine": 7}}}}}
			if tc.suppressions != nil {
				result["suppressions"] = tc.suppressions
			}
			rule := map[string]any{"id": "SQLI", "properties": map[string]any{"security-severity": "8.0", "tags": []any{"security"}}}
			b, _ := json.Marshal(map[string]any{"version": "2.1.0", "runs": []any{map[string]any{
				"tool": map[string]any{"driver": map[string]any{"name": "T", "rules": []any{rule}}}, "results": []any{result}}}})
			p := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "")+".sarif")
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			want := 1
			if tc.suppressed {
				want = 0
			}
			if out, stderr, code := recap(t, dir, nil, "summary", "--fail-on", "high", p); code != want {
				t.Errorf("summary --fail-on high: exit %d, want %d\n%s%s", code, want, out, stderr)
			}
		})
	}
}

// TestTriageImportMixedSuppressions: import --sarif takes a result only
// when its suppressions suppress it, each accepted: not one with an
// accepted suppression beside one rejected or under review.
func TestTriageImportMixedSuppressions(t *testing.T) {
	g := triageRepo(t)
	var log map[string]any
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(g.Dir, "build", "reports", "pmd.sarif"))), &log); err != nil {
		t.Fatal(err)
	}
	results := log["runs"].([]any)[0].(map[string]any)["results"].([]any)
	var want []string
	for i, tc := range mixedSuppressions {
		if tc.suppressions != nil {
			results[i].(map[string]any)["suppressions"] = tc.suppressions
		}
		if tc.suppressed {
			want = append(want, tc.name)
		}
	}
	b, _ := json.Marshal(log)
	g.Write(map[string]string{"mixed.sarif": string(b)})
	out, stderr, code := recap(t, g.Dir, nil, "triage", "import", "--sarif", "mixed.sarif")
	if code != 0 {
		t.Fatalf("import --sarif: exit %d\n%s%s", code, out, stderr)
	}
	f, err := triage.LoadFile(filepath.Join(g.Dir, ".recap", "triage.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range f.Entries {
		got = append(got, e.Reason)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("entries imported of %q, want %q\n%s%s", got, want, out, stderr)
	}
}

// decideDate decides PMD's ReplaceJavaUtilDate at Order.java:13 of the
// repository's reports a false positive.
func decideDate(t *testing.T, g *gittest.Repo) {
	t.Helper()
	date := findingAt(t, findingsOf(t, g.Dir), "ReplaceJavaUtilDate", "Order.java", 13)
	if out, stderr, code := recap(t, g.Dir, nil, "triage", date["id"].(string), "--as", "false-positive", "--reason", "the API takes a Date", "build/reports"); code != 0 {
		t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
	}
}

// TestTriageCheckChanged: a decided finding whose message changed (as a
// method renamed changes SpotBugs' messages) leaves its entry matching
// nothing; check names the finding at its place, with its id, to decide
// again, and prune keeps the entry; decided again, the old entry is stale
// and prune removes it. The same when the line below the decided one was
// edited too (its location changed, its line the one that reads so).
func TestTriageCheckChanged(t *testing.T) {
	for _, neighbour := range []bool{false, true} {
		t.Run(fmt.Sprintf("neighbour edited %v", neighbour), func(t *testing.T) { triageCheckChanged(t, neighbour) })
	}
}

func triageCheckChanged(t *testing.T, neighbour bool) {
	g := triageRepo(t)
	decideDate(t, g)
	if neighbour {
		src := filepath.Join(g.Dir, filepath.FromSlash(shop+"Order.java"))
		g.Commit("rename a field", map[string]string{shop + "Order.java": strings.Replace(readFile(t, src), "private int unusedCounter;", "private int unusedCount;", 1)})
	}
	p := filepath.Join(g.Dir, "build", "reports", "pmd.sarif")
	changed := "Usage of java.util.Date should give way to java.time"
	g.Write(map[string]string{"build/reports/pmd.sarif": strings.ReplaceAll(readFile(t, p), "Usage of java.util.Date should be replaced with classes from java.time", changed)})
	now := findingAt(t, findingsOf(t, g.Dir), "ReplaceJavaUtilDate", "Order.java", 13)
	id := now["id"].(string)

	out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build/reports")
	for _, want := range []string{".recap/triage.yml: 1 stale entry (1 changed), 0 expired entries", "changed  false-positive  PMD ReplaceJavaUtilDate",
		"changed: PMD ReplaceJavaUtilDate at " + shop + "Order.java:13 now says \"" + changed + "\"; was",
		"decide it again (recap triage " + id + " --as false-positive --reason …)"} {
		if !strings.Contains(out, want) {
			t.Errorf("check: no %q in\n%s", want, out)
		}
	}
	if code != 1 || !strings.Contains(stderr, "1 stale entry whose finding changed (decide it again by the id shown)") {
		t.Errorf("check: exit %d\n%s", code, stderr)
	}
	out, _, _ = recap(t, g.Dir, nil, "triage", "check", "--format", "json", "build/reports")
	var v struct {
		Changed int
		Entries []struct {
			Changed struct{ ID, Message string }
		}
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.Changed != 1 || len(v.Entries) != 1 || v.Entries[0].Changed.ID != id || v.Entries[0].Changed.Message != changed {
		t.Errorf("check --format json: %v %+v\n%s", err, v, out)
	}
	out, stderr, code = recap(t, g.Dir, nil, "triage", "prune", "build/reports")
	if code != 0 || !strings.Contains(out, "0 stale entries removed; 1 stale entry kept: the finding at its place says another message now") {
		t.Errorf("prune: exit %d\n%s%s", code, out, stderr)
	}
	// Decided again by the id shown: the new entry replaces the old.
	out, stderr, code = recap(t, g.Dir, nil, "triage", id, "--as", "false-positive", "--reason", "the API takes a Date", "build/reports")
	if code != 0 || !strings.Contains(out, "replaced  "+id+"  PMD ReplaceJavaUtilDate "+shop+"Order.java:13 (was false-positive: \"the API takes a Date\" by Ana <ana@example.com> on "+today()+"): its finding's message changed\n") {
		t.Fatalf("triage again: exit %d\n%s%s", code, out, stderr)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build/reports"); code != 0 || !strings.Contains(out, "no stale or expired entry") {
		t.Errorf("check after: exit %d\n%s%s", code, out, stderr)
	}
	if f, err := triage.LoadFile(filepath.Join(g.Dir, ".recap", "triage.yml")); err != nil || len(f.Entries) != 1 || f.Entries[0].Message != changed {
		t.Errorf("the triage file after: %v %+v", err, f)
	}
}

// TestTriageCheckChangedElsewhere: the decided code fixed, while a line of
// its text written elsewhere in the file since has a finding of the rule
// with another message (another method's SpotBugs finding, whose message
// names the method), the entry is stale, not changed: git says that line
// is not the decided one, and check does not offer to decide that other
// finding again (which would carry the decision onto it).
func TestTriageCheckChangedElsewhere(t *testing.T) {
	g := triageRepo(t)
	decideDate(t, g)
	src := filepath.Join(g.Dir, filepath.FromSlash(shop+"Order.java"))
	lines := strings.Split(readFile(t, src), "\n")
	if lines[12] != "    private Date created;" || lines[50] != "}" {
		t.Fatalf("Order.java: line 13 %q, line 51 %q", lines[12], lines[50])
	}
	lines[12] = "    private java.time.Instant created;"
	lines = slices.Insert(lines, 50, "    private Date created;") // line 51 now
	g.Commit("java.time, and a Date elsewhere", map[string]string{shop + "Order.java": strings.Join(lines, "\n")})
	p := filepath.Join(g.Dir, "build", "reports", "pmd.sarif")
	sarif := readFile(t, p)
	at := strings.Index(sarif, `"ruleId": "ReplaceJavaUtilDate",`) // the first result of the rule: line 13's
	if at < 0 {
		t.Fatal("no ReplaceJavaUtilDate result in pmd.sarif")
	}
	sarif = sarif[:at] + strings.Replace(sarif[at:], `"startLine": 13,
                  "startColumn": 18,
                  "endLine": 13,`, `"startLine": 51,
                  "startColumn": 18,
                  "endLine": 51,`, 1)
	other := "Usage of java.util.Date should give way to java.time"
	g.Write(map[string]string{"build/reports/pmd.sarif": strings.ReplaceAll(sarif, "Usage of java.util.Date should be replaced with classes from java.time", other)})
	elsewhere := findingAt(t, findingsOf(t, g.Dir), "ReplaceJavaUtilDate", "Order.java", 51)
	if elsewhere["triage"] != nil {
		t.Fatalf("the finding elsewhere is triaged: %v", elsewhere["triage"])
	}
	out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build/reports")
	if code != 1 || !strings.Contains(out, ".recap/triage.yml: 1 stale entry, 0 expired entries") || strings.Contains(out, "changed:") || strings.Contains(out, "changed  ") ||
		strings.Contains(out, elsewhere["id"].(string)) || !strings.Contains(stderr, "1 stale entry (recap triage prune removes it)") {
		t.Errorf("check: exit %d, want 1, the entry stale and no word of %s\n%s%s", code, elsewhere["id"], out, stderr)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "prune", "build/reports"); code != 0 || !strings.Contains(out, "1 stale entry removed") {
		t.Errorf("prune: exit %d\n%s%s", code, out, stderr)
	}
}

// TestTriageCheckEditedLine: a decided line edited since (a field
// renamed) matches nothing; check names the finding on the edited line,
// which git's diff puts in the decided one's place, to decide again, and
// deciding it replaces the entry. A line rewritten, or one like it added
// in a commit before the one that deleted the decided line (followed step
// by step, the decided line is deleted with nothing in its place), is
// named by no entry: the entry is stale.
func TestTriageCheckEditedLine(t *testing.T) {
	rename := func(lines []string) []string {
		k := slices.Index(lines, "    private Date created;")
		lines[k] = "    private Date createdOn;"
		return lines
	}
	edit := func(line string) func([]string) []string {
		return func(lines []string) []string { lines[12] = line; return lines }
	}
	// The fields (lines 11 to 14) moved below the constructor (16 to 19):
	// line 13 is line 18.
	move := func(lines []string) []string {
		fields := slices.Clone(lines[10:14])
		lines = slices.Delete(lines, 10, 15) // and the blank line after them
		return slices.Insert(lines, 14, append([]string{""}, fields...)...)
	}
	// The field alone moved below the constructor (16 to 19, then 15 to
	// 18): line 13 is line 19, among other neighbours.
	moveAlone := func(lines []string) []string {
		field := lines[12]
		lines = slices.Delete(lines, 12, 13)
		return slices.Insert(lines, 18, field)
	}
	for _, c := range []struct {
		name   string
		steps  []func([]string) []string
		line   int    // of the finding
		now    string // that line
		edited bool
	}{
		{"renamed", []func([]string) []string{rename}, 13, "private Date createdOn;", true},
		{"rewritten", []func([]string) []string{edit("    private Instant createdAt = Instant.now();")}, 13, "", false},
		{"added, then the decided one deleted", []func([]string) []string{
			func(lines []string) []string { return slices.Insert(lines, 13, "    private Date createdOn;") },
			func(lines []string) []string { return slices.Delete(lines, 12, 13) },
		}, 13, "", false},
		{"moved and renamed at once", []func([]string) []string{func(lines []string) []string { return rename(move(lines)) }}, 18, "private Date createdOn;", true},
		{"moved, then renamed", []func([]string) []string{move, rename}, 18, "private Date createdOn;", true},
		{"renamed, then moved", []func([]string) []string{rename, move}, 18, "private Date createdOn;", true},
		{"moved alone, then renamed", []func([]string) []string{moveAlone, rename}, 19, "private Date createdOn;", true},
		{"renamed, then moved alone", []func([]string) []string{rename, moveAlone}, 19, "private Date createdOn;", true},
		// A line of its text written elsewhere (lines 20 to 24, line 21 its
		// text), then the decided one deleted: the one line of its text
		// left is another finding.
		{"copied elsewhere, then the decided one deleted", []func([]string) []string{
			func(lines []string) []string {
				return slices.Insert(lines, 19, "    static class Draft {", "        private Date created;", "        private int n;", "    }", "")
			},
			func(lines []string) []string { return slices.Delete(lines, 12, 13) },
		}, 20, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := triageRepo(t)
			decideDate(t, g)
			src := filepath.Join(g.Dir, filepath.FromSlash(shop+"Order.java"))
			lines := strings.Split(readFile(t, src), "\n")
			if lines[12] != "    private Date created;" {
				t.Fatalf("Order.java: line 13 %q", lines[12])
			}
			for k, step := range c.steps {
				lines = step(lines)
				g.Commit(fmt.Sprintf("step %d", k+1), map[string]string{shop + "Order.java": strings.Join(lines, "\n")})
			}
			if lines[c.line-1] != "    "+cmp.Or(c.now, lines[c.line-1][4:]) {
				t.Fatalf("Order.java: line %d %q", c.line, lines[c.line-1])
			}
			// The report of the edited code, written since: PMD's finding
			// of line 13 on the line now.
			p := filepath.Join(g.Dir, "build", "reports", "pmd.sarif")
			sarif := readFile(t, p)
			if at := strings.Index(sarif, `"ruleId": "ReplaceJavaUtilDate",`); at < 0 { // the first result of the rule: line 13's
				t.Fatal("no ReplaceJavaUtilDate result in pmd.sarif")
			} else if c.line != 13 {
				sarif = sarif[:at] + strings.Replace(sarif[at:], `"startLine": 13,
                  "startColumn": 18,
                  "endLine": 13,`, fmt.Sprintf(`"startLine": %d,
                  "startColumn": 18,
                  "endLine": %d,`, c.line, c.line), 1)
			}
			g.Write(map[string]string{"build/reports/pmd.sarif": sarif + "\n"})
			f := findingAt(t, findingsOf(t, g.Dir), "ReplaceJavaUtilDate", "Order.java", c.line)
			if f["triage"] != nil {
				t.Fatalf("the finding on the edited line is triaged: %v", f["triage"])
			}
			id := f["id"].(string)
			out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build/reports")
			named := "changed: PMD ReplaceJavaUtilDate at " + shop + "Order.java:" + strconv.Itoa(c.line) + " \"Usage of java.util.Date should be replaced with classes from java.time\": its decided line was edited, now \"" + c.now + "\" (was \"private Date created;\"): decide it again (recap triage " + id + " --as false-positive --reason …), which replaces the entry"
			if !c.edited {
				if code != 1 || strings.Contains(out, "changed:") || strings.Contains(out, id) || !strings.Contains(stderr, "1 stale entry (recap triage prune removes it)") {
					t.Errorf("check: exit %d, want 1, the entry stale and no word of %s\n%s%s", code, id, out, stderr)
				}
				return
			}
			// The table's row names the line of the finding to decide again.
			if row := regexp.MustCompile(`(?m)^changed +false-positive +PMD ReplaceJavaUtilDate +(\S+) `).FindStringSubmatch(out); row == nil || row[1] != shop+"Order.java:"+strconv.Itoa(c.line) {
				t.Errorf("check: the table's row of the entry %q, want its path and line %d\n%s", row, c.line, out)
			}
			if code != 1 || !strings.Contains(out, named) || !strings.Contains(out, ".recap/triage.yml: 1 stale entry (1 changed), 0 expired entries") ||
				!strings.Contains(stderr, "1 stale entry whose finding changed (decide it again by the id shown)") {
				t.Errorf("check: exit %d, want 1 and\n%s\n%s%s", code, named, out, stderr)
			}
			out, _, _ = recap(t, g.Dir, nil, "triage", "check", "--format", "json", "build/reports")
			if !strings.Contains(out, `"code": "private Date createdOn;"`) {
				t.Errorf("check --format json: no code of the edited line\n%s", out)
			}
			// The finding's fingerprint, which analysis.triage takes.
			if fp, _ := f["fingerprint"].(string); fp == "" || !strings.Contains(out, `"fingerprint": "`+fp+`"`) {
				t.Errorf("check --format json: no fingerprint %q of the finding to decide again\n%s", fp, out)
			}
			out, stderr, code = recap(t, g.Dir, nil, "triage", id, "--as", "false-positive", "--reason", "the API takes a Date", "build/reports")
			if code != 0 || !strings.Contains(out, "replaced  "+id+"  PMD ReplaceJavaUtilDate "+shop+"Order.java:"+strconv.Itoa(c.line)+" (was false-positive") || !strings.Contains(out, "its decided line was edited\n") {
				t.Fatalf("triage again: exit %d\n%s%s", code, out, stderr)
			}
			if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build/reports"); code != 0 {
				t.Errorf("check after: exit %d\n%s%s", code, out, stderr)
			}
		})
	}
}

// TestTriageDecideAgain: deciding again a finding an entry covers under
// another key (its file renamed since) replaces the entry: one finding,
// one decision.
func TestTriageDecideAgain(t *testing.T) {
	g := decidedRepo(t)
	renameOrder(t, g)
	out, stderr, code := recap(t, g.Dir, nil, "findings", "--format", "json", "--no-group", "--triaged", "include", "--limit", "200", "--no-context", "--max-tokens", "25000", "build/reports")
	var v struct{ Findings []map[string]any }
	if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil {
		t.Fatalf("findings: exit %d, %v\n%s", code, err, stderr)
	}
	now := findingAt(t, v.Findings, "ReplaceJavaUtilDate", "Purchase.java", 13)
	if now["triage"] == nil {
		t.Fatalf("the decision does not follow the rename: %v", now)
	}
	out, stderr, code = recap(t, g.Dir, nil, "triage", now["id"].(string), "--as", "wont-fix", "--reason", "kept for the API", "build/reports")
	if code != 0 || !strings.Contains(out, "replaced  "+now["id"].(string)+"  PMD ReplaceJavaUtilDate "+shop+"Purchase.java:13 (was false-positive: \"the API takes a Date\" by Ana <ana@example.com> on "+today()+", at "+shop+"Order.java): decided again\n") {
		t.Fatalf("triage again: exit %d\n%s%s", code, out, stderr)
	}
	f, err := triage.LoadFile(filepath.Join(g.Dir, ".recap", "triage.yml"))
	if err != nil || len(f.Entries) != 1 || f.Entries[0].Path != shop+"Purchase.java" || f.Entries[0].State != triage.WontFix {
		t.Fatalf("the triage file after: %v %+v", err, f)
	}
	// Another finding of the rule decided: the entry stays.
	other := findingAt(t, findingsOf(t, g.Dir), "ReplaceJavaUtilDate", "Purchase.java", 16)
	out, stderr, code = recap(t, g.Dir, nil, "triage", other["id"].(string), "--as", "wont-fix", "--reason", "kept for the API", "build/reports")
	if code != 0 || strings.Contains(out, "replaced") {
		t.Fatalf("triage of another finding: exit %d\n%s%s", code, out, stderr)
	}
	if f, err := triage.LoadFile(filepath.Join(g.Dir, ".recap", "triage.yml")); err != nil || len(f.Entries) != 2 {
		t.Fatalf("the triage file after: %v %+v", err, f)
	}
}

// TestTriageDecideSameAgain: deciding a decided finding otherwise says
// what the decision replaces (--dry-run too); the same decision again
// changes nothing.
func TestTriageDecideSameAgain(t *testing.T) {
	g := triageRepo(t)
	date := findingAt(t, findingsOf(t, g.Dir), "ReplaceJavaUtilDate", "Order.java", 13)
	id := date["id"].(string)
	decideDate(t, g)
	was := id + "  PMD ReplaceJavaUtilDate " + shop + "Order.java:13 (was false-positive: \"the API takes a Date\" by Ana <ana@example.com> on " + today() + "): decided again\n"
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--dry-run"}, []string{"would replace  " + was, "1 decision would be written, 0 unchanged"}},
		{nil, []string{"replaced  " + was, "1 decision written, 0 unchanged"}},
		{nil, []string{"0 decisions written, 1 unchanged"}},
	} {
		args := append([]string{"triage", id, "--as", "wont-fix", "--reason", "kept for the API"}, c.args...)
		out, stderr, code := recap(t, g.Dir, nil, append(args, "build/reports")...)
		for _, w := range c.want {
			if code != 0 || !strings.Contains(out, w) {
				t.Errorf("recap %s: exit %d, no %q in\n%s%s", strings.Join(args, " "), code, w, out, stderr)
			}
		}
		if len(c.want) == 1 && strings.Contains(out, "replace") {
			t.Errorf("the same decision again says it replaces:\n%s", out)
		}
	}
}

// TestTriageCheckOwnSARIF: recap's SARIF writes the findings the triage
// file decided as suppressed results: checked against it, the entries
// match them, and prune removes none.
func TestTriageCheckOwnSARIF(t *testing.T) {
	g := triageRepo(t)
	decideDate(t, g)
	if out, stderr, code := recap(t, g.Dir, nil, "findings", "--format", "sarif", "-o", "recap.sarif", "build/reports"); code != 0 {
		t.Fatalf("findings --format sarif: exit %d\n%s%s", code, out, stderr)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "recap.sarif"); code != 0 || !strings.Contains(out, "no stale or expired entry") {
		t.Errorf("check recap.sarif: exit %d\n%s%s", code, out, stderr)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "prune", "recap.sarif"); code != 0 || !strings.Contains(out, "0 stale entries removed") {
		t.Errorf("prune recap.sarif: exit %d\n%s%s", code, out, stderr)
	}
}

// TestTriageImportRecapSARIF: recap's own SARIF, imported into a
// repository without the triage file it was made with, gives back the
// decision whole: its state, reason, by, date, until and link (--as, when
// given, says the state); a property that is no day is not taken, and
// said so.
func TestTriageImportRecapSARIF(t *testing.T) {
	g := triageRepo(t)
	date := findingAt(t, findingsOf(t, g.Dir), "ReplaceJavaUtilDate", "Order.java", 13)
	triaged := []string{"triage", date["id"].(string), "--as", "false-positive", "--reason", "the API takes a Date", "--by", "Bo <bo@example.com>",
		"--until", "2999-01-31", "--link", "https://example.com/issues/7", "build/reports"}
	if out, stderr, code := recap(t, g.Dir, nil, triaged...); code != 0 {
		t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
	}
	tf := filepath.Join(g.Dir, ".recap", "triage.yml")
	made, err := triage.LoadFile(tf)
	if err != nil || len(made.Entries) != 1 {
		t.Fatalf("%v, %+v", err, made)
	}
	want := made.Entries[0]
	out, stderr, code := recap(t, g.Dir, nil, "findings", "--format", "sarif", "--triaged", "include", "build/reports")
	if code != 0 {
		t.Fatalf("findings --format sarif: exit %d\n%s", code, stderr)
	}
	sarif := out
	for _, tc := range []struct {
		name  string
		log   string
		args  []string
		state triage.State
		date  string
		warn  string
	}{
		{"whole", strings.ReplaceAll(sarif, `"date":"`+want.Date+`"`, `"date":"2025-03-04"`), nil, triage.FalsePositive, "2025-03-04", ""},
		{"--as", sarif, []string{"--as", "wont-fix"}, triage.WontFix, want.Date, ""},
		{"a date that is no day", strings.ReplaceAll(sarif, `"date":"`+want.Date+`"`, `"date":"last week"`), nil, triage.FalsePositive, "",
			`recap: warning: 1 property of suppressions not taken (` + shop + `Order.java:13: date: "last week" is not a day as YYYY-MM-DD)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.Remove(tf); err != nil {
				t.Fatal(err)
			}
			g.Write(map[string]string{"recap.sarif": tc.log})
			args := append([]string{"triage", "import", "--sarif", "recap.sarif"}, tc.args...)
			out, stderr, code := recap(t, g.Dir, nil, args...)
			if code != 0 || !strings.Contains(out, "1 decision imported") || !strings.Contains(stderr, tc.warn) {
				t.Fatalf("import: exit %d\n%s%s\nwant %q", code, out, stderr, tc.warn)
			}
			got, err := triage.LoadFile(tf)
			if err != nil || len(got.Entries) != 1 {
				t.Fatalf("%v, %+v", err, got)
			}
			w := want
			w.State = tc.state
			if tc.date != "" {
				w.Date = tc.date
			}
			if e := got.Entries[0]; e != w {
				t.Errorf("imported\n%+v\nwant\n%+v", e, w)
			}
		})
	}
}

// TestTriageImportGitHub: GitHub's dismissed alerts, listed page by page
// from the stand-in that checks every request against GitHub's OpenAPI
// description, become entries of the findings at their rule and place.
func TestTriageImportGitHub(t *testing.T) {
	g := triageRepo(t)
	srv := githubtest.New(t, "octo", "shop", 1, nil)
	srv.Alerts = []githubtest.Alert{
		{Number: 1, Tool: "PMD", Rule: "ReplaceJavaUtilDate", Path: shop + "Order.java", Line: 13, State: "dismissed", Reason: "false positive",
			Comment: "the API takes a Date", Dismisser: "octocat", At: "2026-11-02T10:00:00Z"},
		{Number: 2, Tool: "PMD", Rule: "EmptyCatchBlock", Path: shop + "OrderService.java", Line: 27, State: "dismissed", Reason: "won't fix", Dismisser: "hubot", At: "2026-11-03T10:00:00Z"},
		{Number: 3, Tool: "PMD", Rule: "SystemPrintln", Path: shop + "OrderService.java", Line: 15, State: "open"},
		{Number: 4, Tool: "PMD", Rule: "Gone", Path: shop + "Order.java", Line: 1, State: "dismissed", Reason: "used in tests", Dismisser: "octocat", At: "2026-11-03T10:00:00Z"},
	}
	for i := 5; i <= 105; i++ { // a second page
		srv.Alerts = append(srv.Alerts, githubtest.Alert{Number: i, Tool: "CodeQL", Rule: "java/other", Path: "x.java", Line: i, State: "dismissed",
			Reason: "used in tests", Dismisser: "octocat", At: "2026-11-03T10:00:00Z"})
	}
	env := []string{"GITHUB_TOKEN=" + srv.Token, "GITHUB_API_URL=" + srv.URL}
	out, stderr, code := recap(t, g.Dir, env, "triage", "import", "--github", "--github-repo", "octo/shop", "build/reports")
	if code != 0 || !strings.Contains(out, ".recap/triage.yml: 2 decisions imported, 0 unchanged") {
		t.Fatalf("import --github: exit %d\n%s%s", code, out, stderr)
	}
	if !strings.Contains(stderr, "alert #4 (Gone at "+shop+"Order.java:1): no finding of the inputs there; left out") {
		t.Errorf("the alert without a finding is not told:\n%s", stderr)
	}
	_, _, _, errs := srv.Snapshot()
	if len(errs) > 0 {
		t.Errorf("requests GitHub's description refuses: %v", errs)
	}
	pages := 0
	for _, r := range srv.Requests {
		if r == "GET /repos/octo/shop/code-scanning/alerts" {
			pages++
		}
	}
	if pages != 2 {
		t.Errorf("%d pages read, want 2: %v", pages, srv.Requests)
	}
	f, err := triage.LoadFile(filepath.Join(g.Dir, ".recap", "triage.yml"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range f.Entries {
		got[e.Rule] = fmt.Sprintf("%s|%s|%s|%s|%s", e.State, e.Reason, e.By, e.Date, e.Link)
	}
	want := map[string]string{
		"ReplaceJavaUtilDate": "false-positive|the API takes a Date|octocat|2026-11-02|https://github.com/octo/shop/security/code-scanning/1",
		"EmptyCatchBlock":     "wont-fix|dismissed on GitHub as won't fix|hubot|2026-11-03|https://github.com/octo/shop/security/code-scanning/2",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %q, want %q", k, got[k], w)
		}
	}
	// Without a token: a usage error naming it.
	_, stderr, code = recap(t, g.Dir, nil, "triage", "import", "--github", "--github-repo", "octo/shop", "build/reports")
	if code != 2 || !regexp.MustCompile(`--github needs a token in GITHUB_TOKEN`).MatchString(stderr) {
		t.Errorf("without a token: exit %d\n%s", code, stderr)
	}
}

// TestTriageConcurrentCommands: two recap triage commands deciding at
// once both keep their decisions.
func TestTriageConcurrentCommands(t *testing.T) {
	g := triageRepo(t)
	fs := findingsOf(t, g.Dir)
	var ids []string
	for _, f := range fs {
		if f["tool"] == "PMD" {
			ids = append(ids, f["id"].(string))
		}
	}
	if len(ids) < 12 {
		t.Fatalf("%d PMD findings", len(ids))
	}
	type result struct {
		out  string
		code int
	}
	done := make(chan result, 2)
	for w := range 2 {
		go func() {
			var out strings.Builder
			code := 0
			for i := w; i < 12; i += 2 {
				o, e, c := recap(t, g.Dir, nil, "triage", ids[i], "--as", "wont-fix", "--reason", fmt.Sprintf("writer %d", w), "build/reports")
				out.WriteString(o + e)
				code = max(code, c)
			}
			done <- result{out.String(), code}
		}()
	}
	for range 2 {
		if r := <-done; r.code != 0 {
			t.Fatalf("a writer failed: exit %d\n%s", r.code, r.out)
		}
	}
	f, err := triage.LoadFile(filepath.Join(g.Dir, ".recap", "triage.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Entries) != 12 {
		t.Errorf("%d entries, want the 12 both writers decided", len(f.Entries))
	}
}

// TestTriageOtherToolsUnchecked: an entry of a tool no input is a report
// of is not checked by them: check does not call it stale and prune keeps
// it, each saying so; a report of its tool that no longer has the finding
// (a clean run) makes it stale.
func TestTriageOtherToolsUnchecked(t *testing.T) {
	g := triageRepo(t)
	root := reportstest.RepoRoot(t)
	g.Commit("checkstyle", map[string]string{"build/reports/checkstyle.xml": readFile(t, filepath.Join(root, "testdata", "reports", "checkstyle.xml"))})
	f := findingAt(t, findingsOf(t, g.Dir), "com.puppycrawl.tools.checkstyle.checks.coding.EqualsHashCodeCheck", "Order.java", 44)
	steps := []struct {
		args []string
		code int
		want string // a line of the output
	}{
		{[]string{"triage", f["id"].(string), "--as", "false-positive", "--reason", "hashCode inherited", "build/reports"}, 0, ".recap/triage.yml: 1 decision written, 0 unchanged"},
		{[]string{"triage", "check", "build/reports/pmd.sarif"}, 0, ".recap/triage.yml: no stale or expired entry (1 entry not checked: no input is a report of its tool)"},
		{[]string{"triage", "list", "build/reports/pmd.sarif"}, 0, ".recap/triage.yml: 1 entry, 0 stale, 0 expired (1 entry not checked: no input is a report of its tool)"},
		{[]string{"triage", "prune", "build/reports/pmd.sarif"}, 0, ".recap/triage.yml: 0 stale entries removed; 1 entry kept: no input is a report of its tool"},
		{[]string{"triage", "check", "build/reports"}, 0, ".recap/triage.yml: no stale or expired entry"},
		// Checkstyle ran clean: the entry is stale.
		{[]string{"triage", "check", "clean/checkstyle.xml"}, 1, ".recap/triage.yml: 1 stale entry, 0 expired entries"},
	}
	g.Write(map[string]string{"clean/checkstyle.xml": `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<checkstyle version="8.36.1"></checkstyle>` + "\n"})
	for _, s := range steps {
		out, stderr, code := recap(t, g.Dir, nil, s.args...)
		if code != s.code || !strings.Contains(out, s.want+"\n") {
			t.Errorf("recap %s: exit %d, want %d and the line %q:\n%s%s", strings.Join(s.args, " "), code, s.code, s.want, out, stderr)
		}
	}
	if file := readFile(t, filepath.Join(g.Dir, ".recap", "triage.yml")); !strings.Contains(file, "EqualsHashCodeCheck") {
		t.Errorf("prune of PMD's report removed Checkstyle's decision:\n%s", file)
	}
	out, _, _ := recap(t, g.Dir, nil, "triage", "list", "--format", "json", "build/reports/pmd.sarif")
	if !strings.Contains(out, `"unchecked": true`) || !strings.Contains(out, `"unchecked": 1`) {
		t.Errorf("list as JSON does not mark the entry not checked:\n%s", out)
	}
}

// pmdDateSARIF is a PMD report of ReplaceJavaUtilDate at each path:line
// given.
func pmdDateSARIF(at ...string) string {
	var results []string
	for _, a := range at {
		path, line, _ := strings.Cut(a, ":")
		results = append(results, fmt.Sprintf(`{"ruleId":"ReplaceJavaUtilDate","ruleIndex":0,"level":"warning",`+
			`"message":{"text":"Usage of java.util.Date should be replaced with classes from java.time"},`+
			`"locations":[{"physicalLocation":{"artifactLocation":{"uri":%q},"region":{"startLine":%s,"startColumn":18}}}]}`, path, line))
	}
	return `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD","version":"7.28.0","rules":[{"id":"ReplaceJavaUtilDate",` +
		`"properties":{"ruleset":"Error Prone","priority":3}}]}},"results":[` + strings.Join(results, ",") + `]}]}`
}

// TestTriageRenamedNotElsewhere: a decision whose file was renamed since
// its commit follows the file where git says it went, in every command
// (summary, findings, check), and so does not cover a copy of its line
// that another file got: before, the commands that show findings did
// not ask git, and the entry matched its line in any file.
func TestTriageRenamedNotElsewhere(t *testing.T) {
	g := gittest.New(t)
	g.Git("config", "user.name", "Ana")
	g.Git("config", "user.email", "ana@example.com")
	g.Commit("one", map[string]string{
		"src/A.java":      "import java.util.Date;\n\npublic class A {\n    private Date created;\n    private int n;\n}\n",
		"src/B.java":      "public class B {\n    private int m;\n}\n",
		"build/pmd.sarif": pmdDateSARIF("src/A.java:4"),
	})
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "--rule", "ReplaceJavaUtilDate", "--as", "false-positive", "--reason", "kept for the wire format", "build"); code != 0 {
		t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
	}
	g.Commit("triage", nil)
	g.Git("mv", "src/A.java", "src/Renamed.java")
	g.Commit("rename and copy", map[string]string{
		"src/Renamed.java": "import java.util.Date;\n\npublic class Renamed {\n    private Date created;\n    private int n;\n}\n",
		"src/B.java":       "import java.util.Date;\n\npublic class B {\n    private int m;\n    private Date created;\n}\n",
		"build/pmd.sarif":  pmdDateSARIF("src/B.java:5", "src/Renamed.java:4"),
	})
	covered, all := coveredFindings(t, g.Dir, "build")
	if want := []string{"src/Renamed.java:4"}; !slices.Equal(covered, want) || all != 2 {
		t.Errorf("covered %v of %d findings, want %v", covered, all, want)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "summary", "build"); code != 0 || !strings.Contains(out, "1 problem triaged: 1 false positive") || !strings.HasPrefix(out, "1 finding") {
		t.Errorf("summary: exit %d\n%s%s", code, out, stderr)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "list", "build"); code != 0 || !strings.Contains(out, "matches 1") || !regexp.MustCompile(`src/Renamed.java:\d+ \(was src/A.java\)`).MatchString(out) {
		t.Errorf("list: exit %d\n%s%s", code, out, stderr)
	}
}

// pmdLoopSARIF is a PMD report of ForLoopCanBeForeach at each line of
// src/P.java given.
func pmdLoopSARIF(lines ...int) string {
	var results []string
	for _, l := range lines {
		results = append(results, fmt.Sprintf(`{"ruleId":"ForLoopCanBeForeach","ruleIndex":0,"level":"warning",`+
			`"message":{"text":"This for loop can be replaced by a foreach loop"},`+
			`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/P.java"},"region":{"startLine":%d,"startColumn":9}}}]}`, l))
	}
	return `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD","version":"7.28.0","rules":[{"id":"ForLoopCanBeForeach",` +
		`"properties":{"ruleset":"Best Practices","priority":3}}]}},"results":[` + strings.Join(results, ",") + `]}]}`
}

// TestTriageFollowsTheLineInGit: where the location fingerprint cannot
// tell which line was decided, git's diff from the entry's commit does:
// a copy of the decided block pasted above it is not covered (it took
// the occurrence the location counts), and a decided line that repeats
// once a neighbour of it changed stays decided, not stale.
func TestTriageFollowsTheLineInGit(t *testing.T) {
	const method = "    public static long %s(long[] p) {\n        long s = 0;\n        for (int i = 0; i < p.length; i++) s += p[i];\n        return %s;\n    }\n"
	const other = "    public static int other() {\n        return 1;\n    }\n"
	avg := fmt.Sprintf(method, "avg", "s")
	for _, tc := range []struct {
		name    string
		was     []string // the methods of P decided on (nil: avg alone)
		now     []string // the methods of P now, committed after the decision
		lines   []int    // the report's findings now
		covered int      // the line covered
	}{
		{"a copy pasted above", nil, []string{fmt.Sprintf(method, "mean", "s"), avg}, []int{5, 11}, 11},
		{"a neighbour changed, then a copy below", nil, []string{fmt.Sprintf(method, "avg", "s / p.length"), fmt.Sprintf(method, "twice", "2 * s")}, []int{5, 11}, 5},
		{"moved below another method, a copy of its line between", []string{avg, other}, []string{other, fmt.Sprintf(method, "mean", "s / 2"), avg}, []int{9, 15}, 15},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gittest.New(t)
			g.Git("config", "user.name", "Ana")
			g.Git("config", "user.email", "ana@example.com")
			was := tc.was
			if was == nil {
				was = []string{avg}
			}
			g.Commit("one", map[string]string{"src/P.java": "public class P {\n\n" + strings.Join(was, "\n") + "}\n", "build/pmd.sarif": pmdLoopSARIF(5)})
			if out, stderr, code := recap(t, g.Dir, nil, "triage", "--rule", "ForLoopCanBeForeach", "--as", "wont-fix", "--reason", "arrays of primitives", "build"); code != 0 {
				t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
			}
			g.Commit("triage", nil)
			g.Commit("change", map[string]string{"src/P.java": "public class P {\n\n" + strings.Join(tc.now, "\n") + "}\n", "build/pmd.sarif": pmdLoopSARIF(tc.lines...)})
			covered, all := coveredFindings(t, g.Dir, "build")
			if want := []string{fmt.Sprintf("src/P.java:%d", tc.covered)}; !slices.Equal(covered, want) || all != 2 {
				t.Errorf("covered %v of %d findings, want %v", covered, all, want)
			}
			if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build"); code != 0 || !strings.Contains(out, "no stale or expired entry") {
				t.Errorf("check: exit %d\n%s%s", code, out, stderr)
			}
		})
	}
}

// TestTriageAmbiguousCopy: a copy of the decided block pasted above it,
// and a neighbour of the decided line changed: the copy has the decided
// line's location, whole, and git's line diff from the decision's commit
// says the decided line is the other. In two commits, git tells step by
// step: the copy was added with the decided line's neighbours, then the
// decided one's changed; the decided loop is covered, not the copy. In one
// commit, the files cannot tell this from the decided block moved below a
// changed copy left in its place (TestTriageFollowsTheLineInGit): the
// location wins, and every door says the decision may cover a copy,
// naming the line git says.
func TestTriageAmbiguousCopy(t *testing.T) {
	const method = "    public static long %s(long[] p) {\n        long s = %d;\n        for (int i = 0; i < p.length; i++) s += p[i];\n        return %s;\n    }\n"
	const told = "1 decision covers a finding by its location while git's history says the decided line is another of the same text (first: src/P.java:5 by its location, :11 by git's)"
	class := func(methods ...string) string { return "public class P {\n\n" + strings.Join(methods, "\n") + "}\n" }
	copyAbove := class(fmt.Sprintf(method, "mean", 1, "s"), fmt.Sprintf(method, "avg", 0, "s"))
	changed := class(fmt.Sprintf(method, "mean", 1, "s"), fmt.Sprintf(method, "avg", 0, "s / p.length"))
	exactAbove := class(fmt.Sprintf(method, "mean", 0, "s"), fmt.Sprintf(method, "avg", 0, "s"))
	exactChanged := class(fmt.Sprintf(method, "mean", 0, "s"), fmt.Sprintf(method, "avg", 0, "s / p.length"))
	const other = "    public static int other() {\n        return 1;\n    }\n"
	for _, tc := range []struct {
		name    string
		commits []string // P.java, a commit each
		covered string
		told    bool // the warning
	}{
		{"two commits", []string{copyAbove, changed}, "src/P.java:11", false},
		{"one commit", []string{changed}, "src/P.java:5", true},
		// One diff from the decision pairs the decided line with the
		// copy, as the location does: the steps tell.
		{"an exact copy, two commits", []string{exactAbove, exactChanged}, "src/P.java:11", false},
		// Moved below another method, then a changed copy left in its
		// place: the move is followed by the line's neighbours.
		{"moved, then a changed copy in its place", []string{class(other, fmt.Sprintf(method, "avg", 0, "s")),
			class(fmt.Sprintf(method, "mean", 1, "s / 2"), other, fmt.Sprintf(method, "avg", 0, "s"))}, "src/P.java:15", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gittest.New(t)
			g.Git("config", "user.name", "Ana")
			g.Git("config", "user.email", "ana@example.com")
			g.Commit("one", map[string]string{"src/P.java": "public class P {\n\n" + fmt.Sprintf(method, "avg", 0, "s") + "}\n", "build/pmd.sarif": pmdLoopSARIF(5)})
			if out, stderr, code := recap(t, g.Dir, nil, "triage", "--rule", "ForLoopCanBeForeach", "--as", "wont-fix", "--reason", "hot loop", "build"); code != 0 {
				t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
			}
			g.Commit("triage", nil)
			for k, p := range tc.commits {
				lines := []int{5, 11}
				if strings.Contains(p, "other()") {
					lines = []int{5, 9}
					if strings.Contains(p, "mean") {
						lines = []int{5, 15}
					}
				}
				g.Commit(fmt.Sprintf("change %d", k), map[string]string{"src/P.java": p, "build/pmd.sarif": pmdLoopSARIF(lines...)})
			}
			if covered, all := coveredFindings(t, g.Dir, "build"); !slices.Equal(covered, []string{tc.covered}) || all != 2 {
				t.Errorf("covered %v of %d, want %s", covered, all, tc.covered)
			}
			ambiguous := tc.told
			for _, args := range [][]string{{"summary", "build"}, {"findings", "build"}, {"review", "--base", "HEAD~" + strconv.Itoa(len(tc.commits)), "build"}} {
				_, stderr, code := recap(t, g.Dir, nil, args...)
				if code != 0 || strings.Contains(stderr, "recap: warning: triage: "+told) != ambiguous || ambiguous && !strings.Contains(stderr, "it may cover the copy") {
					t.Errorf("%v: exit %d, want the warning %v\n%s", args, code, ambiguous, stderr)
				}
			}
			if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build"); code != 0 || !strings.Contains(out, "no stale or expired entry") || strings.Contains(stderr, told) != ambiguous {
				t.Errorf("check: exit %d, want the warning %v\n%s%s", code, ambiguous, out, stderr)
			}
			if !ambiguous {
				return
			}
			suggestsOverStdio(t, g.Dir, "triage: 1 decision covers a finding by location while git's history says the decided line is another of the same text (first: src/P.java:5 by its location, :11 by git's)")
		})
	}
}

// TestTriagePastedCopyKeepsTheDecidedLine: a copy of the decided method
// pasted right below it, in one commit, takes the decided line's
// location whole (the line, the method's end, the next method's first
// line), and the decided line's window changes. Git's line diff carries
// the decided line and every line of its window then onto the file now,
// only parted by the lines added: the decided code is all still there,
// and the copy is new code. The decided line stays covered, the copy is
// shown and gated, and nothing is told ambiguous.
func TestTriagePastedCopyKeepsTheDecidedLine(t *testing.T) {
	const method = "    public static void %s(long[] p) {\n        for (int i = 0; i < p.length; i++) p[i]++;\n    }\n"
	const other = "    public static int other() {\n        return 1;\n    }\n"
	class := func(methods ...string) string { return "public class P {\n\n" + strings.Join(methods, "") + "}\n" }
	g := gittest.New(t)
	g.Git("config", "user.name", "Ana")
	g.Git("config", "user.email", "ana@example.com")
	g.Commit("one", map[string]string{"src/P.java": class(fmt.Sprintf(method, "inc"), other), "build/pmd.sarif": pmdLoopSARIF(4)})
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "--rule", "ForLoopCanBeForeach", "--as", "wont-fix", "--reason", "in place", "build"); code != 0 {
		t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
	}
	g.Commit("triage", nil)
	g.Commit("copy", map[string]string{"src/P.java": class(fmt.Sprintf(method, "inc"), fmt.Sprintf(method, "twice"), other), "build/pmd.sarif": pmdLoopSARIF(4, 7)})
	if covered, all := coveredFindings(t, g.Dir, "build"); !slices.Equal(covered, []string{"src/P.java:4"}) || all != 2 {
		t.Errorf("covered %v of %d findings, want the decided line, src/P.java:4", covered, all)
	}
	for _, args := range [][]string{{"summary", "--fail-on", "note", "build"}, {"review", "--base", "HEAD~1", "--fail-on", "note", "build"}} {
		_, stderr, code := recap(t, g.Dir, nil, args...)
		if code != 1 || strings.Contains(stderr, "may cover the copy") {
			t.Errorf("%v: exit %d, want 1 (the copy gated) and no warning\n%s", args, code, stderr)
		}
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build"); code != 0 || !strings.Contains(out, "no stale or expired entry") || strings.Contains(stderr, "may cover the copy") {
		t.Errorf("check: exit %d\n%s%s", code, out, stderr)
	}
}

// TestTriageDecidingAPastedCopy: a copy of the decided method pasted
// above it takes the occurrence the entry's location counts, and git says
// the decided loop is the one below (covered). Deciding the copy then
// writes its own entry, under the key the old entry had, and keeps the
// old decision, anchored where its finding is now: both loops are
// decided, each by its own entry, the old one's reason kept.
func TestTriageDecidingAPastedCopy(t *testing.T) {
	const method = "    public static long %s(long[] p) {\n        long s = 0;\n        for (int i = 0; i < p.length; i++) s += p[i];\n        return s;\n    }\n"
	class := func(methods ...string) string { return "public class P {\n\n" + strings.Join(methods, "\n") + "}\n" }
	g := gittest.New(t)
	g.Git("config", "user.name", "Ana")
	g.Git("config", "user.email", "ana@example.com")
	g.Commit("one", map[string]string{"src/P.java": class(fmt.Sprintf(method, "avg")), "build/pmd.sarif": pmdLoopSARIF(5)})
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "--rule", "ForLoopCanBeForeach", "--as", "wont-fix", "--reason", "arrays of primitives", "build"); code != 0 {
		t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
	}
	g.Commit("triage", nil)
	g.Commit("copy", map[string]string{"src/P.java": class(fmt.Sprintf(method, "mean"), fmt.Sprintf(method, "avg")), "build/pmd.sarif": pmdLoopSARIF(5, 11)})
	if covered, _ := coveredFindings(t, g.Dir, "build"); !slices.Equal(covered, []string{"src/P.java:11"}) {
		t.Fatalf("before: covered %v, want the decided loop, src/P.java:11", covered)
	}
	out, stderr, code := recap(t, g.Dir, nil, "findings", "--format", "json", "--path", "src/P.java", "build")
	var v struct{ Findings []struct{ ID string } }
	if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil || len(v.Findings) != 1 {
		t.Fatalf("findings: exit %d, %v\n%s%s", code, err, out, stderr)
	}
	out, stderr, code = recap(t, g.Dir, nil, "triage", v.Findings[0].ID, "--as", "false-positive", "--reason", "the copy sums nothing", "build")
	if code != 0 || !strings.Contains(out, "kept ") || strings.Contains(out, "replaced") {
		t.Errorf("triage of the copy: exit %d\n%s%s", code, out, stderr)
	}
	if covered, all := coveredFindings(t, g.Dir, "build"); !slices.Equal(covered, []string{"src/P.java:11", "src/P.java:5"}) || all != 2 {
		t.Errorf("after: covered %v of %d, want both loops", covered, all)
	}
	f, err := triage.LoadFile(filepath.Join(g.Dir, ".recap", "triage.yml"))
	if err != nil || len(f.Entries) != 2 {
		t.Fatalf("the file: %v, %d entries, want 2", err, len(f.Entries))
	}
	reasons := []string{f.Entries[0].Reason, f.Entries[1].Reason}
	slices.Sort(reasons)
	if !slices.Equal(reasons, []string{"arrays of primitives", "the copy sums nothing"}) {
		t.Errorf("reasons %q, want both decisions", reasons)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build"); code != 0 || !strings.Contains(out, "no stale or expired entry") {
		t.Errorf("check: exit %d\n%s%s", code, out, stderr)
	}
}

// pmdCatchSARIF is PMD's report of empty catch blocks in src/A.java at
// the given lines.
func pmdCatchSARIF(lines ...int) string {
	var results []string
	for _, l := range lines {
		results = append(results, fmt.Sprintf(`{"ruleId":"EmptyCatchBlock","ruleIndex":0,"level":"warning","message":{"text":"Avoid empty catch blocks"},`+
			`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/A.java"},"region":{"startLine":%d,"startColumn":11}}}]}`, l))
	}
	return `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD","version":"7.28.0","rules":[{"id":"EmptyCatchBlock",` +
		`"properties":{"ruleset":"Error Prone","priority":3}}]}},"results":[` + strings.Join(results, ",") + `]}]}`
}

// TestTriageFollowsAcrossCopies: where the decided line's text repeats,
// git's history says which line is decided, as git diff places its
// changes. A method copied right below the last one, the decided one: git
// adds the copy after it (by the lines' indentation), so the decided
// catch stays decided and the copy is shown. A decided method deleted in
// one commit, then a copy of another method pasted in its place in the
// next: the decided line is gone at the first step, so the copy, whose
// catch git's one diff since the decision would pair with it, is shown,
// and the decision is stale.
func TestTriageFollowsAcrossCopies(t *testing.T) {
	method := func(n int, more string) string {
		return fmt.Sprintf("    void m%d() {\n        try {\n            work(%d);\n        } catch (Exception e) { }\n        after%d();\n%s    }\n", n, n, n, more)
	}
	class := func(methods ...string) string {
		return "package p;\n\nclass A {\n" + strings.Join(methods, "\n") + "}\n"
	}
	// m9 is a copy of m1 under another name: its catch and the two lines
	// below it, the decided location, read as m1's.
	m9 := "    void m9() {\n        try {\n            work(9);\n        } catch (Exception e) { }\n        after1();\n    }\n"
	m1edited := strings.Replace(method(1, ""), "catch (Exception e)", "catch (RuntimeException e)", 1)
	// last ends with its catch: the two lines below it are the method's
	// end and what follows it, so that a copy pasted right below changes
	// the decided line's window, and takes it.
	last := func(n int, catch string) string {
		return fmt.Sprintf("    void m%d() {\n        int k = %d;\n        try { work(k); }\n        catch (%s e) { }\n    }\n", n, n, catch)
	}
	for _, tc := range []struct {
		name    string
		first   string   // A.java decided on (its line 14, m1's catch)
		commits []string // A.java, a commit each, after the decision
		lines   [][]int  // the report's findings at each commit
		covered []string
		stale   bool
	}{
		{"a copy below the last method", class(method(0, ""), method(1, "")),
			[]string{class(method(0, ""), method(1, ""), method(1, ""))}, [][]int{{7, 14, 21}}, []string{"src/A.java:14"}, false},
		{"deleted, then a copy of another method", class(method(0, ""), method(1, "        step1();\n")),
			[]string{class(method(0, "")), class(method(0, ""), method(0, ""))}, [][]int{{7}, {7, 14}}, nil, true},
		// A copy of the decided code, shown undecided while the decided
		// code is there, does not take the decision once that is gone:
		// git, step by step, says the decided line was deleted, or
		// changed, and the copy was written apart.
		{"a copy below, then the decided method deleted", class(method(0, ""), method(1, "")),
			[]string{class(method(0, ""), method(1, ""), m9), class(method(0, ""), m9)}, [][]int{{7, 14, 21}, {7, 14}}, nil, true},
		{"a copy below, then the decided line edited", class(method(0, ""), method(1, "")),
			[]string{class(method(0, ""), method(1, ""), m9), class(method(0, ""), m1edited, m9)}, [][]int{{7, 14, 21}, {7, 14, 21}}, nil, true},
		// The copy right below took the decided line's window; the step
		// that added it carried the decided code whole: the copy is new
		// code, and the decided line, edited next, is gone.
		{"a copy right below with the decided window, then the decided line edited", class(method(0, ""), last(1, "Exception")),
			[]string{class(method(0, ""), last(1, "Exception"), last(9, "Exception")), class(method(0, ""), last(1, "RuntimeException"), last(9, "Exception"))},
			[][]int{{7, 14, 20}, {7, 14, 20}}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gittest.New(t)
			g.Git("config", "user.name", "Ana")
			g.Git("config", "user.email", "ana@example.com")
			first := []int{7, 14}
			g.Commit("one", map[string]string{"src/A.java": tc.first, "build/pmd.sarif": pmdCatchSARIF(first...)})
			out, stderr, code := recap(t, g.Dir, nil, "findings", "--format", "json", "--no-context", "build")
			var v struct {
				Findings []struct {
					ID   string
					Line int
				}
			}
			if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil {
				t.Fatalf("findings: exit %d, %v\n%s", code, err, stderr)
			}
			for _, f := range v.Findings {
				if f.Line == 14 {
					if out, stderr, code := recap(t, g.Dir, nil, "triage", f.ID, "--as", "false-positive", "--reason", "m1 swallows on purpose", "build"); code != 0 {
						t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
					}
				}
			}
			g.Commit("triage", nil)
			for k, c := range tc.commits {
				g.Commit(fmt.Sprintf("change %d", k), map[string]string{"src/A.java": c, "build/pmd.sarif": pmdCatchSARIF(tc.lines[k]...)})
			}
			if covered, _ := coveredFindings(t, g.Dir, "build"); !slices.Equal(covered, tc.covered) {
				t.Errorf("covered %v, want %v", covered, tc.covered)
			}
			out, stderr, code = recap(t, g.Dir, nil, "triage", "check", "build")
			if stale := code == 1 && strings.Contains(out, "1 stale entry"); stale != tc.stale {
				t.Errorf("check: exit %d, want stale %v\n%s%s", code, tc.stale, out, stderr)
			}
		})
	}
}

// TestTriageFollowsPastIdleCommits: a copy of the decided method pasted
// above it, then, many commits later, a line next to the decided catch
// changed. The location, which hashes the catch and its neighbours, now
// names the copy's catch; the file's versions tell that the decided
// catch is the one below. The commits that leave the file alone (empty,
// or changing another file) do not count toward the versions followed,
// however many there are: the decision stays on its catch, and the copy
// is shown, not hidden.
func TestTriageFollowsPastIdleCommits(t *testing.T) {
	method := func(name, arg, ret string) string {
		return fmt.Sprintf("    int %s {\n        int n = 0;\n        try {\n            n = Integer.parseInt(%s);\n        } catch (RuntimeException e) {\n        }\n        return %s;\n    }\n", name, arg, ret)
	}
	class := func(methods ...string) string {
		return "package p;\n\npublic class A {\n" + strings.Join(methods, "\n") + "}\n"
	}
	for _, tc := range []struct {
		name  string
		idle  int  // commits between the copy and the change
		other bool // the idle commits change another file (else empty)
	}{
		{"next commit", 0, false},
		{"30 empty commits", 30, false},
		{"30 commits of another file", 30, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gittest.New(t)
			g.Git("config", "user.name", "Ana")
			g.Git("config", "user.email", "ana@example.com")
			// The decided catch is line 8 at first, line 17 once the copy
			// is above it.
			g.Commit("one", map[string]string{"src/A.java": class(method("a()", `"1"`, "n")), "build/pmd.sarif": pmdCatchSARIF(8)})
			if out, stderr, code := recap(t, g.Dir, nil, "triage", "--rule", "EmptyCatchBlock", "--as", "false-positive", "--reason", "parse of a constant", "build"); code != 0 {
				t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
			}
			g.Commit("triage", nil)
			g.Commit("a copy above", map[string]string{"src/A.java": class(method("b(String s)", "s", "n"), method("a()", `"1"`, "n")), "build/pmd.sarif": pmdCatchSARIF(8, 17)})
			for k := range tc.idle {
				if tc.other {
					g.Commit(fmt.Sprintf("other %d", k), map[string]string{"README": strings.Repeat("x\n", k+1)})
				} else {
					g.Git("commit", "--allow-empty", "-q", "-m", fmt.Sprintf("idle %d", k))
				}
			}
			g.Commit("a neighbour changed", map[string]string{"src/A.java": class(method("b(String s)", "s", "n"), method("a()", `"1"`, "n + 0"))})
			if covered, _ := coveredFindings(t, g.Dir, "build"); !slices.Equal(covered, []string{"src/A.java:17"}) {
				t.Errorf("covered %v, want [src/A.java:17]", covered)
			}
			if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build"); code != 0 {
				t.Errorf("check: exit %d\n%s%s", code, out, stderr)
			}
		})
	}
}

// TestTriageUnmatchedTold: a run of every finding says how many decisions
// of its tools matched none (what was decided and is no longer there, or
// no longer followed), where a user reads first; a run of some findings
// (a filter) cannot tell and says nothing, nor is a decision of a tool
// the run has no report of counted. Nor can a run of recap's own SARIF,
// which writes the decided findings as suppressed results: check matches
// the entries on them, and the summary does not send the user to it.
func TestTriageUnmatchedTold(t *testing.T) {
	g := unmatchedRepo(t)
	dir := g.Dir
	const told = "1 decision matches no finding (fixed, edited, or the reports are older than the code): recap triage check says which"
	out, stderr, code := recap(t, dir, nil, "summary", "build")
	if code != 0 || !strings.Contains(out, "1 problem triaged: 1 false positive, not counted; "+told) {
		t.Errorf("summary: exit %d\n%s%s", code, out, stderr)
	}
	out, _, _ = recap(t, dir, nil, "summary", "--format", "json", "build")
	if !strings.Contains(out, `"unmatched":1`) {
		t.Errorf("summary JSON without triaged.unmatched 1:\n%s", out)
	}
	out, stderr, code = recap(t, dir, nil, "summary", "--tool", "PMD", "build")
	if code != 0 || strings.Contains(out, "no finding") || !strings.Contains(out, "1 problem triaged") {
		t.Errorf("summary --tool PMD: exit %d\n%s%s", code, out, stderr)
	}
	// On the changed lines (the review of the commit that fixed the
	// decided code), the findings off them are decided too: the body
	// says so, where a reviewer may decide again, of the decisions of the
	// files changed; a change of other files says nothing of them (told
	// before it, not this change's doing).
	const toldChanged = "1 decision in the files changed matches no finding (fixed, edited, or the reports are older than the code): recap triage check says which"
	for _, args := range [][]string{{"review", "--base", "HEAD~1", "--format", "markdown", "build"}, {"summary", "--changed-only", "--base", "HEAD~1", "build"}} {
		if out, stderr, code := recap(t, dir, nil, args...); code != 0 || !strings.Contains(out, toldChanged) {
			t.Errorf("%v: exit %d, no %q\n%s%s", args, code, toldChanged, out, stderr)
		}
	}
	out, _, _ = recap(t, dir, nil, "summary", "--changed-only", "--base", "HEAD~1", "--format", "json", "build")
	if !strings.Contains(out, `"unmatched":1,"unmatchedChanged":true`) {
		t.Errorf("summary --changed-only JSON without triaged.unmatched 1 of the files changed:\n%s", out)
	}
	g.Commit("another file", map[string]string{"src/B.java": "public class B {\n}\n"})
	for _, args := range [][]string{{"review", "--base", "HEAD~1", "--format", "markdown", "build"}, {"summary", "--changed-only", "--base", "HEAD~1", "build"}} {
		if out, stderr, code := recap(t, dir, nil, args...); code != 0 || strings.Contains(out, "no finding") {
			t.Errorf("%v of a change of another file: exit %d, told of a decision that matches no finding\n%s%s", args, code, out, stderr)
		}
	}
	if out, stderr, code := recap(t, dir, nil, "summary", "--changed-only", "--base", "HEAD~2", "build"); code != 0 || !strings.Contains(out, toldChanged) {
		t.Errorf("summary --changed-only of both commits: exit %d, no %q\n%s%s", code, toldChanged, out, stderr)
	}
	// Recap's own SARIF, of a run with a new finding: the decided one
	// suppressed, the new one not.
	g.Commit("a new field", map[string]string{
		"src/A.java":      "import java.util.Date;\n\npublic class A {\n    private java.time.Instant created;\n    private Date updated;\n    private Date removed;\n}\n",
		"build/pmd.sarif": pmdDateSARIF("src/A.java:5", "src/A.java:6"),
	})
	sarif, stderr, code := recap(t, dir, nil, "findings", "--format", "sarif", "build")
	if code != 0 || !strings.Contains(sarif, `"suppressions"`) {
		t.Fatalf("findings --format sarif: exit %d\n%s", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "recap.sarif"), []byte(sarif), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code = recap(t, dir, nil, "summary", "recap.sarif")
	if code != 0 || strings.Contains(out, "no finding") || !strings.Contains(out, "1 finding in 1 file from 1 input (1 result suppressed in the reports") {
		t.Errorf("summary of recap's SARIF: exit %d\n%s%s", code, out, stderr)
	}
	// check matches the decided finding's entry on its suppressed result:
	// the fixed one alone is stale, as with the tool's report.
	if out, stderr, code = recap(t, dir, nil, "triage", "check", "recap.sarif"); code != 1 || !strings.Contains(out, "1 stale entry, 0 expired entries") {
		t.Errorf("check of recap's SARIF: exit %d\n%s%s", code, out, stderr)
	}
}

// TestTriageUnmatchedInspector: an MCP client that is not recap's (the
// Inspector CLI, over stdio) reads in analysis.getReports' headline and
// summary that a decision matches no finding.
func TestTriageUnmatchedInspector(t *testing.T) {
	nodeClients(t)
	dir := unmatchedRepo(t).Dir
	for _, in := range inspectors {
		t.Run(in.version, func(t *testing.T) {
			r := inspect(t, in.entry, bin, "mcp", "--root", dir, "--method", "tools/call", "--tool-name", "analysis.getReports", "--tool-arg", "summaryOnly=true")
			if r.IsError || !strings.Contains(r.text(), "1 decision of the triage file matches no finding (recap triage check says which)") {
				t.Errorf("headline: %.600s", r.text())
			}
			var v struct {
				Summary struct {
					Triaged struct{ Total, Unmatched int }
				}
			}
			if err := json.Unmarshal(r.StructuredContent, &v); err != nil || v.Summary.Triaged.Unmatched != 1 || v.Summary.Triaged.Total != 1 {
				t.Errorf("summary.triaged: %v %.600s", err, r.StructuredContent)
			}
		})
	}
}

// unmatchedRepo makes a repository whose triage file has three
// decisions: one that covers the only finding of its PMD report, one on
// a finding fixed since, one of a tool it has no report of.
func unmatchedRepo(t *testing.T) *gittest.Repo {
	g := gittest.New(t)
	g.Git("config", "user.name", "Ana")
	g.Git("config", "user.email", "ana@example.com")
	g.Commit("one", map[string]string{
		"src/A.java":      "import java.util.Date;\n\npublic class A {\n    private Date created;\n    private Date updated;\n}\n",
		"build/pmd.sarif": pmdDateSARIF("src/A.java:4", "src/A.java:5"),
	})
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "--rule", "ReplaceJavaUtilDate", "--as", "false-positive", "--reason", "kept for the wire format", "build"); code != 0 || !strings.Contains(out, "2 decisions written") {
		t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
	}
	// A decision of a tool the runs below have no report of.
	f, err := triage.LoadFile(filepath.Join(g.Dir, ".recap", "triage.yml"))
	if err != nil {
		t.Fatal(err)
	}
	other := f.Entries[0]
	other.Tool, other.Rule = "Checkstyle", "MagicNumber"
	f.Put(other)
	if err := triage.WriteFile(filepath.Join(g.Dir, ".recap", "triage.yml"), f); err != nil {
		t.Fatal(err)
	}
	g.Commit("triage", nil)
	g.Commit("one fixed", map[string]string{
		"src/A.java":      "import java.util.Date;\n\npublic class A {\n    private java.time.Instant created;\n    private Date updated;\n}\n",
		"build/pmd.sarif": pmdDateSARIF("src/A.java:5"),
	})
	return g
}

// TestTriageDecidedBeforeCommitted: a decision taken on code not committed
// yet (the entry's commit is the one before it) is followed from the
// first commit after it that has the code: a copy pasted above it and a
// rename are told as for code decided once committed.
func TestTriageDecidedBeforeCommitted(t *testing.T) {
	const method = "    public static long %s(long[] p) {\n        long s = 0;\n        for (int i = 0; i < p.length; i++) s += p[i];\n        return %s;\n    }\n"
	avg := fmt.Sprintf(method, "avg", "s")
	g := gittest.New(t)
	g.Git("config", "user.name", "Ana")
	g.Git("config", "user.email", "ana@example.com")
	g.Commit("one", map[string]string{"src/B.java": "public class B {\n    private int m;\n}\n"})
	// Not committed when decided: P.java and A.java.
	g.Write(map[string]string{
		"src/P.java":       "public class P {\n\n" + avg + "}\n",
		"src/A.java":       "import java.util.Date;\n\npublic class A {\n    private Date created;\n    private int n;\n}\n",
		"build/pmd.sarif":  pmdLoopSARIF(5),
		"build/date.sarif": pmdDateSARIF("src/A.java:4"),
	})
	for _, rule := range []string{"ForLoopCanBeForeach", "ReplaceJavaUtilDate"} {
		if out, stderr, code := recap(t, g.Dir, nil, "triage", "--rule", rule, "--as", "wont-fix", "--reason", "decided before the commit", "build"); code != 0 {
			t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
		}
	}
	g.Commit("the code and its decisions", nil)
	g.Git("mv", "src/A.java", "src/Renamed.java")
	g.Commit("a copy above, a rename, the line copied", map[string]string{
		"src/P.java":       "public class P {\n\n" + fmt.Sprintf(method, "mean", "s") + "\n" + avg + "}\n",
		"src/B.java":       "import java.util.Date;\n\npublic class B {\n    private int m;\n    private Date created;\n}\n",
		"build/pmd.sarif":  pmdLoopSARIF(5, 11),
		"build/date.sarif": pmdDateSARIF("src/B.java:5", "src/Renamed.java:4"),
	})
	covered, all := coveredFindings(t, g.Dir, "build")
	if want := []string{"src/P.java:11", "src/Renamed.java:4"}; !slices.Equal(covered, want) || all != 4 {
		t.Errorf("covered %v of %d findings, want %v", covered, all, want)
	}
}

// TestTriageSquashedBranch: decisions taken on a branch that was then
// squashed into main and deleted have a commit no clone of main has (as
// the review's replies have a pull request's merge commit). In a full
// clone that is no shallow clone's: the decided line and its file's
// rename are followed from the commits since the day it was decided, and
// nothing says "git fetch --unshallow".
func TestTriageSquashedBranch(t *testing.T) {
	const method = "    public static long %s(long[] p) {\n        long s = 0;\n        for (int i = 0; i < p.length; i++) s += p[i];\n        return %s;\n    }\n"
	avg := fmt.Sprintf(method, "avg", "s")
	g := gittest.New(t)
	g.Git("config", "user.name", "Ana")
	g.Git("config", "user.email", "ana@example.com")
	// Dated as they would be: the first commit days before the decisions,
	// the squash and the later ones after.
	commit := func(msg string, files map[string]string, at time.Time) { datedCommit(t, g, msg, files, at) }
	commit("one", map[string]string{"src/B.java": "public class B {\n    private int m;\n}\n"}, time.Now().Add(-72*time.Hour))
	g.Git("checkout", "-q", "-b", "feature")
	commit("the code", map[string]string{
		"src/P.java":       "public class P {\n\n" + avg + "}\n",
		"src/A.java":       "import java.util.Date;\n\npublic class A {\n    private Date created;\n    private int n;\n}\n",
		"build/pmd.sarif":  pmdLoopSARIF(5),
		"build/date.sarif": pmdDateSARIF("src/A.java:4"),
	}, time.Now().Add(-time.Minute))
	branchCommit := strings.TrimSpace(g.Git("rev-parse", "HEAD"))
	for _, rule := range []string{"ForLoopCanBeForeach", "ReplaceJavaUtilDate"} {
		if out, stderr, code := recap(t, g.Dir, nil, "triage", "--rule", rule, "--as", "wont-fix", "--reason", "decided on the branch", "build"); code != 0 {
			t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
		}
	}
	commit("the decisions", nil, time.Now())
	g.Git("checkout", "-q", "main")
	g.Git("merge", "-q", "--squash", "feature")
	commit("the feature, squashed", nil, time.Now())
	dropBranch(t, g, "feature", branchCommit)
	g.Git("mv", "src/A.java", "src/Renamed.java")
	commit("a copy above, a rename, the line copied", map[string]string{
		"src/P.java":       "public class P {\n\n" + fmt.Sprintf(method, "mean", "s") + "\n" + avg + "}\n",
		"src/B.java":       "import java.util.Date;\n\npublic class B {\n    private int m;\n    private Date created;\n}\n",
		"build/pmd.sarif":  pmdLoopSARIF(5, 11),
		"build/date.sarif": pmdDateSARIF("src/B.java:5", "src/Renamed.java:4"),
	}, time.Now())
	covered, all := coveredFindings(t, g.Dir, "build")
	if want := []string{"src/P.java:11", "src/Renamed.java:4"}; !slices.Equal(covered, want) || all != 4 {
		t.Errorf("covered %v of %d findings, want %v", covered, all, want)
	}
	out, stderr, code := recap(t, g.Dir, nil, "summary", "build")
	if code != 0 || strings.Contains(stderr, "warning: triage") || !strings.Contains(out, "2 problems triaged") {
		t.Errorf("summary: exit %d\n%s%s", code, out, stderr)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build"); code != 0 || !strings.Contains(out, "no stale or expired entry") {
		t.Errorf("check: exit %d\n%s%s", code, out, stderr)
	}
}

// TestTriageReindentedThenCopied: a decided block re-indented, then a
// copy of it pasted above: git's diff, white space aside (as the
// location), pairs the decided line with the original, not the copy.
func TestTriageReindentedThenCopied(t *testing.T) {
	const method = "    public static long %s(long[] p) {\n        long s = 0;\n        for (int i = 0; i < p.length; i++) s += p[i];\n        return s;\n    }\n"
	const wrapped = "    public static long %s(long[] p) {\n        if (p != null) {\n            long s = 0;\n            for (int i = 0; i < p.length; i++) s += p[i];\n            return s;\n        }\n        return 0;\n    }\n"
	g := gittest.New(t)
	g.Git("config", "user.name", "Ana")
	g.Git("config", "user.email", "ana@example.com")
	g.Commit("one", map[string]string{"src/P.java": "public class P {\n\n" + fmt.Sprintf(method, "avg") + "}\n", "build/pmd.sarif": pmdLoopSARIF(5)})
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "--rule", "ForLoopCanBeForeach", "--as", "wont-fix", "--reason", "hot loop", "build"); code != 0 {
		t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
	}
	g.Commit("triage", nil)
	g.Commit("re-indented", map[string]string{"src/P.java": "public class P {\n\n" + fmt.Sprintf(wrapped, "avg") + "}\n", "build/pmd.sarif": pmdLoopSARIF(6)})
	if covered, _ := coveredFindings(t, g.Dir, "build"); !slices.Equal(covered, []string{"src/P.java:6"}) {
		t.Fatalf("re-indented: covered %v", covered)
	}
	g.Commit("a copy above", map[string]string{
		"src/P.java":      "public class P {\n\n" + fmt.Sprintf(wrapped, "copy") + "\n" + fmt.Sprintf(wrapped, "avg") + "}\n",
		"build/pmd.sarif": pmdLoopSARIF(6, 15),
	})
	if covered, all := coveredFindings(t, g.Dir, "build"); !slices.Equal(covered, []string{"src/P.java:15"}) || all != 2 {
		t.Errorf("a copy above: covered %v of %d findings, want the original, src/P.java:15", covered, all)
	}
}

// TestTriageCopyDecidedBefore: two copies of a block; the second is
// decided, then a neighbour of its line changes. The first copy now has
// the decided code's location (another occurrence), but git says the
// decided line is the second's: the first is not covered, the second
// stays decided.
func TestTriageCopyDecidedBefore(t *testing.T) {
	const method = "    public static long %s(long[] p) {\n        long s = 0;\n        for (int i = 0; i < p.length; i++) s += p[i];\n        return %s;\n    }\n"
	g := gittest.New(t)
	g.Git("config", "user.name", "Ana")
	g.Git("config", "user.email", "ana@example.com")
	g.Commit("one", map[string]string{
		"src/P.java":      "public class P {\n\n" + fmt.Sprintf(method, "avg", "s") + "\n" + fmt.Sprintf(method, "sum", "s") + "}\n",
		"build/pmd.sarif": pmdLoopSARIF(5, 11),
	})
	decideLoop(t, g.Dir, "sum is rare")
	g.Commit("triage", nil)
	g.Commit("a neighbour of the decided line changed", map[string]string{
		"src/P.java": "public class P {\n\n" + fmt.Sprintf(method, "avg", "s") + "\n" + fmt.Sprintf(method, "sum", "s + 0") + "}\n",
	})
	if covered, all := coveredFindings(t, g.Dir, "build"); !slices.Equal(covered, []string{"src/P.java:11"}) || all != 2 {
		t.Errorf("covered %v of %d findings, want the decided one, src/P.java:11", covered, all)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build"); code != 0 || !strings.Contains(out, "no stale or expired entry") {
		t.Errorf("check: exit %d\n%s%s", code, out, stderr)
	}
}

// TestTriageSquashedChanged: a decision taken on a branch whose decided
// line's neighbour changed on the branch before it was squashed: no
// commit of main has the code as decided, so that its line cannot be
// followed. The decision covers no other finding (the same line of
// another method, which its text alone would name), recap says so, check
// calls it stale? and prune keeps it.
func TestTriageSquashedChanged(t *testing.T) {
	const method = "    public static long %s(long[] p) {\n        long s = 0;\n        for (int i = 0; i < p.length; i++) s += p[i];\n        return %s;\n    }\n"
	g := gittest.New(t)
	g.Git("config", "user.name", "Ana")
	g.Git("config", "user.email", "ana@example.com")
	datedCommit(t, g, "one", map[string]string{"src/P.java": "public class P {\n\n" + fmt.Sprintf(method, "avg", "s") + "}\n", "build/pmd.sarif": pmdLoopSARIF(5)}, time.Now().Add(-72*time.Hour))
	g.Git("checkout", "-q", "-b", "feature")
	datedCommit(t, g, "twice", map[string]string{
		"src/P.java":      "public class P {\n\n" + fmt.Sprintf(method, "avg", "s") + "\n" + fmt.Sprintf(method, "twice", "2 * s") + "}\n",
		"build/pmd.sarif": pmdLoopSARIF(5, 11),
	}, time.Now().Add(-time.Minute))
	branchCommit := strings.TrimSpace(g.Git("rev-parse", "HEAD"))
	decideLoop(t, g.Dir, "twice is rare")
	datedCommit(t, g, "the decision", nil, time.Now())
	datedCommit(t, g, "a neighbour changed", map[string]string{
		"src/P.java": "public class P {\n\n" + fmt.Sprintf(method, "avg", "s") + "\n" + fmt.Sprintf(method, "twice", "s + s") + "}\n",
	}, time.Now())
	if covered, _ := coveredFindings(t, g.Dir, "build"); !slices.Equal(covered, []string{"src/P.java:11"}) {
		t.Fatalf("on the branch: covered %v", covered)
	}
	g.Git("checkout", "-q", "main")
	g.Git("merge", "-q", "--squash", "feature")
	datedCommit(t, g, "the feature, squashed", nil, time.Now())
	dropBranch(t, g, "feature", branchCommit)
	if covered, all := coveredFindings(t, g.Dir, "build"); len(covered) != 0 || all != 2 {
		t.Errorf("after the squash: covered %v of %d findings, want none", covered, all)
	}
	out, stderr, code := recap(t, g.Dir, nil, "summary", "build")
	if code != 0 || !strings.Contains(stderr, "recap: warning: triage: the commit of 1 decision is in no branch of this repository") || strings.Contains(stderr, "shallow") {
		t.Errorf("summary: exit %d\n%s%s", code, out, stderr)
	}
	// In one log (2>&1, CI), where the view shows the inputs' warnings
	// and standard error leaves them out, the triage's is still there.
	log, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	cmd := exec.Command(bin, "summary", "build")
	cmd.Dir, cmd.Stdout, cmd.Stderr = g.Dir, log, log
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(log.Name()); !strings.Contains(string(b), "recap: warning: triage: the commit of 1 decision is in no branch") {
		t.Errorf("summary 2>&1 without the triage's warning:\n%s", b)
	}
	// The agent reads it too: analysis.getReports over stdio, recap mcp.
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "claude-code"}, nil).Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--root", g.Dir)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, args := range []map[string]any{{}, {"summaryOnly": true}} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "analysis.getReports", Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("getReports %v: %v %+v", args, err, res)
		}
		var v struct{ Suggestions []string }
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &v); err != nil || !slices.ContainsFunc(v.Suggestions, func(s string) bool {
			return strings.HasPrefix(s, "triage: the commit of 1 decision is in no branch")
		}) {
			t.Errorf("getReports %v: suggestions %q (%v)", args, v.Suggestions, err)
		}
	}
	out, stderr, code = recap(t, g.Dir, nil, "triage", "check", "build")
	if code != 1 || !strings.Contains(out, "1 stale entry (1 whose commit is in no branch)") || !strings.Contains(out, "Where its finding is shown, decide it again, then delete this entry (recap triage prune --force removes it)") ||
		strings.Contains(out, "older than the code") || !strings.Contains(stderr, "1 stale entry whose commit is in no branch") {
		t.Errorf("check: exit %d\n%s%s", code, out, stderr)
	}
	out, stderr, code = recap(t, g.Dir, nil, "triage", "prune", "--dry-run", "build")
	if code != 0 || !strings.Contains(out, "1 stale entry kept: its commit is in no branch") {
		t.Errorf("prune: exit %d\n%s%s", code, out, stderr)
	}
	// Decided again, as check says. Two lines of the file read as the
	// entry's: which one it was cannot be told, so that the new decision
	// replaces nothing (deciding the other copy would have lost it), and
	// prune --force removes the old entry.
	if out := decideLoop(t, g.Dir, "twice is rare"); strings.Contains(out, "replaced") || !strings.Contains(out, "1 decision written") {
		t.Errorf("decided again:\n%s", out)
	}
	if covered, _ := coveredFindings(t, g.Dir, "build"); !slices.Equal(covered, []string{"src/P.java:11"}) {
		t.Errorf("decided again: covered %v", covered)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "prune", "--force", "build"); code != 0 || !strings.Contains(out, "1 stale entry removed") {
		t.Errorf("prune --force: exit %d\n%s%s", code, out, stderr)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build"); code != 0 || !strings.Contains(out, "no stale or expired entry") {
		t.Errorf("check after deciding again: exit %d\n%s%s", code, out, stderr)
	}
}

// decideLoop decides, won't fix, the finding at src/P.java:11 of the
// reports in dir/build, by its id; it returns what recap triage wrote.
func decideLoop(t *testing.T, dir, reason string) string {
	t.Helper()
	out, stderr, code := recap(t, dir, nil, "findings", "--no-context", "build")
	id := regexp.MustCompile(`src/P\.java:11:9 .*\(id ([^)]+)\)`).FindStringSubmatch(out)
	if code != 0 || id == nil {
		t.Fatalf("findings: exit %d\n%s%s", code, out, stderr)
	}
	out, stderr, code = recap(t, dir, nil, "triage", id[1], "--as", "wont-fix", "--reason", reason, "build")
	if code != 0 {
		t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
	}
	return out
}

// datedCommit commits files (added to the index with what else changed)
// as made at at.
func datedCommit(t *testing.T, g *gittest.Repo, msg string, files map[string]string, at time.Time) {
	t.Helper()
	g.Write(files)
	g.Git("add", "-A")
	date := at.UTC().Format(time.RFC3339)
	cmd := exec.Command("git", "-C", g.Dir, "commit", "-qm", msg)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, out)
	}
}

// dropBranch deletes a branch and every object only it held, as a
// squashed or rebased branch deleted since is gone from every clone.
func dropBranch(t *testing.T, g *gittest.Repo, branch, commit string) {
	t.Helper()
	g.Git("branch", "-q", "-D", branch)
	g.Git("reflog", "expire", "--expire=now", "--all")
	g.Git("gc", "-q", "--prune=now")
	if out, err := exec.Command("git", "-C", g.Dir, "cat-file", "-e", commit+"^{commit}").CombinedOutput(); err == nil {
		t.Fatalf("the branch's commit is still there: %s", out)
	}
}

// TestTriageShallowClone: in a shallow clone (actions/checkout's default)
// the commit of a decision is not there: where its code was copied, the
// decided line cannot be followed, and recap says so (a warning; check
// calls the entry stale?, prune keeps it) rather than losing it silently.
func TestTriageShallowClone(t *testing.T) {
	const method = "    public static long %s(long[] p) {\n        long s = 0;\n        for (int i = 0; i < p.length; i++) s += p[i];\n        return %s;\n    }\n"
	g := gittest.New(t)
	g.Git("config", "user.name", "Ana")
	g.Git("config", "user.email", "ana@example.com")
	g.Commit("one", map[string]string{"src/P.java": "public class P {\n\n" + fmt.Sprintf(method, "avg", "s") + "}\n", "build/pmd.sarif": pmdLoopSARIF(5)})
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "--rule", "ForLoopCanBeForeach", "--as", "wont-fix", "--reason", "hot loop", "build"); code != 0 {
		t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
	}
	g.Commit("triage", nil)
	g.Commit("a neighbour changed", map[string]string{"src/P.java": "public class P {\n\n" + fmt.Sprintf(method, "avg", "s / p.length") + "}\n"})
	g.Commit("a copy below", map[string]string{
		"src/P.java":      "public class P {\n\n" + fmt.Sprintf(method, "avg", "s / p.length") + "\n" + fmt.Sprintf(method, "twice", "2 * s") + "}\n",
		"build/pmd.sarif": pmdLoopSARIF(5, 11),
	})
	clone := filepath.Join(t.TempDir(), "clone")
	if out, err := exec.Command("git", "clone", "-q", "--depth", "1", "file://"+g.Dir, clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	_, stderr, code := recap(t, clone, nil, "summary", "build")
	if code != 0 || !strings.Contains(stderr, "recap: warning: triage: the commit of 1 decision is not in this clone (a shallow one: git fetch --unshallow)") {
		t.Errorf("summary: exit %d\n%s", code, stderr)
	}
	out, stderr, code := recap(t, clone, nil, "triage", "prune", "--dry-run", "build")
	if code != 0 || !strings.Contains(out, "kept     PMD ForLoopCanBeForeach") || !strings.Contains(out, "its commit is not in this shallow clone") ||
		!strings.Contains(out, "1 stale entry kept: this clone is shallow and cannot follow it (git fetch --unshallow, or --force removes it)") ||
		strings.Contains(out, "older than the code") {
		t.Errorf("prune: exit %d\n%s%s", code, out, stderr)
	}
	// check says why, and that running the tools again would not tell.
	out, stderr, code = recap(t, clone, nil, "triage", "check", "build")
	if code != 1 || !strings.Contains(out, "1 stale entry (1 this shallow clone cannot follow)") || !strings.Contains(out, "stale?: PMD ForLoopCanBeForeach") ||
		!strings.Contains(out, "fetch the whole history to know") || strings.Contains(out, "older than the code") ||
		!strings.Contains(stderr, "1 stale entry this shallow clone cannot follow (git fetch --unshallow)") {
		t.Errorf("check: exit %d\n%s%s", code, out, stderr)
	}
	out, _, _ = recap(t, clone, nil, "triage", "check", "--format", "json", "build")
	if !strings.Contains(out, `"shallow": 1`) || !strings.Contains(out, `"outdated": 0`) || !strings.Contains(out, `"shallow": true`) {
		t.Errorf("check --format json:\n%s", out)
	}
	// With the whole history, the decision holds.
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build"); code != 0 || !strings.Contains(out, "no stale or expired entry") {
		t.Errorf("check in the full clone: exit %d\n%s%s", code, out, stderr)
	}
}

// TestTriagePartialClone: a clone made with --filter=blob:none (as
// actions/checkout's filter makes it) has the entry's commit but not its
// files' contents; git fetches the one the decided line is followed from,
// and the decision covers what it covers in the full repository: the
// decided loop, not the copy below it, though a neighbour changed.
func TestTriagePartialClone(t *testing.T) {
	const method = "    public static long %s(long[] p) {\n        long s = 0;\n        for (int i = 0; i < p.length; i++) s += p[i];\n        return %s;\n    }\n"
	g := gittest.New(t)
	g.Git("config", "user.name", "Ana")
	g.Git("config", "user.email", "ana@example.com")
	g.Git("config", "uploadpack.allowFilter", "true")
	g.Commit("one", map[string]string{"src/P.java": "public class P {\n\n" + fmt.Sprintf(method, "avg", "s") + "}\n", "build/pmd.sarif": pmdLoopSARIF(5)})
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "--rule", "ForLoopCanBeForeach", "--as", "wont-fix", "--reason", "hot loop", "build"); code != 0 {
		t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
	}
	g.Commit("triage", nil)
	g.Commit("a neighbour changed", map[string]string{"src/P.java": "public class P {\n\n" + fmt.Sprintf(method, "avg", "s / p.length") + "}\n"})
	g.Commit("a copy above", map[string]string{
		"src/P.java":      "public class P {\n\n" + fmt.Sprintf(method, "twice", "2 * s") + "\n" + fmt.Sprintf(method, "avg", "s / p.length") + "}\n",
		"build/pmd.sarif": pmdLoopSARIF(5, 11),
	})
	want, all := coveredFindings(t, g.Dir, "build")
	if !slices.Equal(want, []string{"src/P.java:11"}) || all != 2 {
		t.Fatalf("the full repository: %v covered of %d, want the decided loop alone", want, all)
	}
	clone := filepath.Join(t.TempDir(), "clone")
	if out, err := exec.Command("git", "clone", "-q", "--filter=blob:none", "file://"+g.Dir, clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone --filter=blob:none: %v\n%s", err, out)
	}
	if got, n := coveredFindings(t, clone, "build"); !slices.Equal(got, want) || n != all {
		t.Errorf("the partial clone: %v covered of %d, want %v of %d", got, n, want, all)
	}
	if out, stderr, code := recap(t, clone, nil, "triage", "check", "build"); code != 0 || !strings.Contains(out, "no stale or expired entry") {
		t.Errorf("check in the partial clone: exit %d\n%s%s", code, out, stderr)
	}
	// Its remote out of reach, git cannot fetch the file: recap says that
	// the decision is matched by location alone.
	unreachable := filepath.Join(t.TempDir(), "clone")
	if out, err := exec.Command("git", "clone", "-q", "--filter=blob:none", "file://"+g.Dir, unreachable).CombinedOutput(); err != nil {
		t.Fatalf("git clone --filter=blob:none: %v\n%s", err, out)
	}
	if out, err := exec.Command("git", "-C", unreachable, "remote", "set-url", "origin", "file://"+filepath.Join(t.TempDir(), "gone")).CombinedOutput(); err != nil {
		t.Fatalf("git remote set-url: %v\n%s", err, out)
	}
	_, stderr, code := recap(t, unreachable, nil, "summary", "build")
	if code != 0 || !strings.Contains(stderr, "recap: warning: triage: the decided code of 1 decision is not in this partial clone, and git could not fetch it (src/P.java at ") ||
		!strings.Contains(stderr, "git fetch origin failed: fatal: ") || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "matched by location alone and may cover a copy") {
		t.Errorf("summary in a partial clone whose remote is gone: exit %d\n%s", code, stderr)
	}
	// The agent is told so too: analysis.getReports over stdio, recap mcp.
	suggestsOverStdio(t, unreachable, "triage: the decided code of 1 decision is not in this partial clone, and git could not fetch it (src/P.java at ")
	// An entry that matches nothing there (its code copied, a neighbour
	// changed) may only look stale: check says so, prune keeps it.
	g.Commit("the loop changed", map[string]string{"build/pmd.sarif": pmdLoopSARIF(5)})
	if out, err := exec.Command("git", "-C", unreachable, "pull", "-q", "--ff-only", "file://"+g.Dir, "main").CombinedOutput(); err != nil {
		t.Fatalf("git pull: %v\n%s", err, out)
	}
	out, stderr, code := recap(t, unreachable, nil, "triage", "check", "build")
	if code != 1 || !strings.Contains(out, "1 stale entry (1 whose code this partial clone could not fetch)") ||
		!strings.Contains(out, "stale?: PMD ForLoopCanBeForeach") || !strings.Contains(out, "its code at its commit is not in this partial clone, and git could not fetch it") ||
		!strings.Contains(stderr, "1 stale entry whose code this partial clone could not fetch (give git access to the remote)") ||
		!strings.Contains(stderr, "recap: warning: triage: the decided code of 1 decision is not in this partial clone, and git could not fetch it (src/P.java at ") {
		t.Errorf("check in a partial clone whose remote is gone: exit %d\n%s%s", code, out, stderr)
	}
	out, _, _ = recap(t, unreachable, nil, "triage", "check", "--format", "json", "build")
	if !strings.Contains(out, `"unfetched": 1`) || !strings.Contains(out, `"unfetched": true`) || !strings.Contains(out, `"shallow": 0`) {
		t.Errorf("check --format json:\n%s", out)
	}
	out, stderr, code = recap(t, unreachable, nil, "triage", "prune", "--dry-run", "build")
	if code != 0 || !strings.Contains(out, "kept     PMD ForLoopCanBeForeach") ||
		!strings.Contains(out, "1 stale entry kept: this partial clone could not fetch its code (give git access to the remote, or --force removes it)") ||
		!strings.Contains(stderr, "recap: warning: triage: the decided code of 1 decision is not in this partial clone, and git could not fetch it (src/P.java at ") || !strings.Contains(stderr, "git fetch origin failed: fatal: ") {
		t.Errorf("prune: exit %d\n%s%s", code, out, stderr)
	}
}

// suggestsOverStdio calls analysis.getReports (summaryOnly) of recap mcp
// at root, over stdio through the go-sdk client, and fails the test unless
// a suggestion begins with prefix.
func suggestsOverStdio(t *testing.T, root, prefix string) {
	t.Helper()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "claude-code"}, nil).Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--root", root)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "analysis.getReports", Arguments: map[string]any{"summaryOnly": true}})
	if err != nil || res.IsError {
		t.Fatalf("getReports: %v %+v", err, res)
	}
	var v struct{ Suggestions []string }
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &v); err != nil || !slices.ContainsFunc(v.Suggestions, func(s string) bool { return strings.HasPrefix(s, prefix) }) {
		t.Errorf("getReports: suggestions %q (%v), want one beginning %q", v.Suggestions, err, prefix)
	}
}

// coveredFindings returns the places (path:line, in order) of the
// findings of the reports a decision covers, and the count of findings.
func coveredFindings(t *testing.T, dir string, reports ...string) (covered []string, all int) {
	t.Helper()
	out, stderr, code := recap(t, dir, nil, append([]string{"findings", "--format", "json", "--triaged", "include", "--no-context", "--limit", "200"}, reports...)...)
	if code != 0 {
		t.Fatalf("findings: exit %d\n%s", code, stderr)
	}
	var v struct {
		Findings []struct {
			Path   string
			Line   int
			Triage *struct{ State string }
		}
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	for _, f := range v.Findings {
		if f.Triage != nil {
			covered = append(covered, fmt.Sprintf("%s:%d", f.Path, f.Line))
		}
	}
	slices.Sort(covered)
	return covered, len(v.Findings)
}

// TestTriageDecidedCodeGone: a decision whose code git says is gone does
// not move to another finding that nobody decided. The decided line was
// one of two of its text, and its method was deleted since: the other,
// now the only line of that text, is shown, not covered, and the entry
// is stale. The decided file deleted, and another file with the decided
// line added (git sees no rename: too little alike; the line's
// neighbours others): the decision does not follow it either. Committed,
// a file is git's to pair; a file not committed yet (moved by hand) is
// still matched by its code. The same
// with the project in a directory of a larger repository (--repo app):
// git names its files from the top level.
func TestTriageDecidedCodeGone(t *testing.T) {
	const loop = "    public static long %s(long[] p) {\n        long s = 0;\n        for (int i = 0; i < p.length; i++) s += p[i];\n        return %s;\n    }\n"
	class := func(name string, methods ...string) string {
		return "public class " + name + " {\n\n" + strings.Join(methods, "\n") + "}\n"
	}
	mean, avg := fmt.Sprintf(loop, "mean", "s / 2"), fmt.Sprintf(loop, "avg", "s")
	loopSARIF := func(path string, lines ...int) string {
		return strings.ReplaceAll(pmdLoopSARIF(lines...), `"uri":"src/P.java"`, fmt.Sprintf(`"uri":%q`, path))
	}
	other := "import java.util.List;\n\n/** Other things. */\npublic class Q {\n    private int count;\n\n    public int count() {\n        return count;\n    }\n\n" +
		"    public static long total(long[] p) {\n        long s = 0;\n        for (int i = 0; i < p.length; i++) s += p[i];\n        return s + count;\n    }\n}\n"
	for _, sub := range []string{"", "app"} {
		at := func(p string) string { return path.Join(sub, p) } // a path in the repository
		repoArgs := []string{"--repo", cmp.Or(sub, ".")}
		for _, tc := range []struct {
			name     string
			also     map[string]string // other files of the first commit
			change   func(g *gittest.Repo)
			commit   bool     // the change committed
			covered  []string // the findings covered after it
			stale    bool
			findings int
		}{
			{"its file deleted, another file there then with the same code", map[string]string{at("src/S.java"): class("S", avg)}, func(g *gittest.Repo) {
				g.Git("rm", "-q", at("src/P.java"))
				g.Write(map[string]string{at("build/pmd.sarif"): loopSARIF("src/S.java", 5)})
			}, true, nil, true, 1},
			{"the decided one of two copies deleted", nil, func(g *gittest.Repo) {
				g.Write(map[string]string{at("src/P.java"): class("P", mean), at("build/pmd.sarif"): loopSARIF("src/P.java", 5)})
			}, true, nil, true, 1},
			{"its file deleted, a file of the same code added", nil, func(g *gittest.Repo) {
				g.Git("rm", "-q", at("src/P.java"))
				g.Write(map[string]string{at("src/Q.java"): other, at("build/pmd.sarif"): loopSARIF("src/Q.java", 13)})
			}, true, nil, true, 1},
			{"its file moved by hand, not committed", nil, func(g *gittest.Repo) {
				g.Git("rm", "-q", "--cached", at("src/P.java"))
				g.Git("commit", "-qm", "untrack")
				data, err := os.ReadFile(filepath.Join(g.Dir, at("src/P.java")))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.Remove(filepath.Join(g.Dir, at("src/P.java"))); err != nil {
					t.Fatal(err)
				}
				g.Write(map[string]string{at("src/R.java"): strings.Replace(string(data), "class P", "class R", 1), at("build/pmd.sarif"): loopSARIF("src/R.java", 5, 11)})
			}, false, []string{"src/R.java:11"}, false, 2},
		} {
			t.Run(path.Join(cmp.Or(sub, "top"), tc.name), func(t *testing.T) {
				g := gittest.New(t)
				g.Git("config", "user.name", "Ana")
				g.Git("config", "user.email", "ana@example.com")
				first := map[string]string{at("src/P.java"): class("P", mean, avg), at("build/pmd.sarif"): loopSARIF("src/P.java", 11)}
				maps.Copy(first, tc.also)
				g.Commit("one", first)
				if out, stderr, code := recap(t, g.Dir, nil, append([]string{"triage", "--rule", "ForLoopCanBeForeach", "--as", "wont-fix", "--reason", "arrays of primitives", at("build")}, repoArgs...)...); code != 0 {
					t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
				}
				g.Commit("triage", nil)
				tc.change(g)
				if tc.commit {
					g.Git("add", "-A")
					g.Git("commit", "-qm", "change")
				}
				covered, all := coveredFindings(t, g.Dir, append([]string{at("build")}, repoArgs...)...)
				if !slices.Equal(covered, tc.covered) || all != tc.findings {
					t.Errorf("covered %v of %d findings, want %v of %d", covered, all, tc.covered, tc.findings)
				}
				out, stderr, code := recap(t, g.Dir, nil, append([]string{"triage", "check", at("build")}, repoArgs...)...)
				if stale := code == 1 && strings.Contains(out, "stale"); stale != tc.stale {
					t.Errorf("check: exit %d, want it stale %v\n%s%s", code, tc.stale, out, stderr)
				}
			})
		}
	}
}

// TestTriageFileNamed: --triage FILE names the triage file to every
// triage command, as it does to summary: a decision is written there
// (made when there is none), and list, check and prune read it there;
// the repository's own is neither read nor written.
func TestTriageFileNamed(t *testing.T) {
	g := triageRepo(t)
	file := filepath.Join(t.TempDir(), "decided.yml")
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "--rule", "SystemPrintln", "--as", "wont-fix", "--reason", "kept", "--triage", file, "build/reports"); code != 0 || !strings.Contains(out, file+": 1 decision written") {
		t.Fatalf("decide: exit %d\n%s%s", code, out, stderr)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "summary", "--triage", file, "build/reports"); code != 0 || !strings.Contains(out, "1 problem triaged: 1 won't fix") {
		t.Errorf("summary: exit %d\n%s%s", code, out, stderr)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "list", "--triage", file, "build/reports"); code != 0 || !strings.Contains(out, "matches 1") {
		t.Errorf("list: exit %d\n%s%s", code, out, stderr)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "--triage", file, "build/reports"); code != 0 || !strings.Contains(out, file+": no stale or expired entry") {
		t.Errorf("check: exit %d\n%s%s", code, out, stderr)
	}
	// The finding gone from the report: stale in the file named, and pruned there.
	g.Write(map[string]string{"build/reports/pmd.sarif": `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD","version":"7.28.0","rules":[]}},"results":[]}]}`})
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "--triage", file, "build/reports"); code != 1 || !strings.Contains(out, file+": 1 stale entry") {
		t.Errorf("check, the finding gone: exit %d\n%s%s", code, out, stderr)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "prune", "--force", "--triage", file, "build/reports"); code != 0 || !strings.Contains(out, file+": 1 stale entry removed") {
		t.Errorf("prune: exit %d\n%s%s", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(g.Dir, ".recap", "triage.yml")); err == nil {
		t.Error("the repository's triage file was written")
	}
}

// TestTriageDecidedCodeMoved: git's word on the decided code is taken
// only where it says something. A decided block moved and its neighbours
// edited in one commit (git shows a deletion and an addition) stays
// decided; so does one decided on code not committed yet while a line of
// its text was in the file already (the decision is on the new code, not
// the older line), and one whose file was renamed, then grew past git's
// rename similarity. A copy of the decided method that shares lines
// around it is not taken for the decided code moved once that is deleted:
// git carries the copy's line from where it was.
func TestTriageDecidedCodeMoved(t *testing.T) {
	const loop = "    public static long %s(long[] p) {\n        long s = 0;\n        int k = 1;\n        for (int i = 0; i < p.length; i++) s += p[i];\n        return %s;\n    }\n"
	class := func(methods ...string) string { return "public class P {\n\n" + strings.Join(methods, "\n") + "}\n" }
	avg, half := fmt.Sprintf(loop, "avg", "s"), fmt.Sprintf(loop, "half", "s / 2")
	// other is longer than avg: moving avg below it, git keeps other's
	// lines and shows avg's deleted and added.
	other := "    public static int other(int[] q) {\n        int a = q[0];\n        int b = q[1];\n        int c = a * b;\n        int d = c - a;\n        int e = d + b;\n        int f = e * 2;\n        int g = f / 3;\n        return g;\n    }\n"
	var grown []string
	for i := range 15 {
		grown = append(grown, fmt.Sprintf("    public static int f%d() {\n        return %d;\n    }\n", i, i))
	}
	for _, tc := range []struct {
		name    string
		was     string // P.java when decided (committed)
		decided int    // the line decided
		work    string // P.java when decided, not committed ("": was)
		steps   []map[string]string
		now     map[string][]int // the report's findings at the end
		covered []string
	}{
		{"moved below and its neighbours edited in one commit", class(avg, other), 6, "",
			[]map[string]string{{"src/P.java": class(other, strings.NewReplacer("int k = 1;", "int k = 2;\n        k++;", "return s;", "return s + k;").Replace(avg))}},
			map[string][]int{"src/P.java": {18}}, []string{"src/P.java:18"}},
		{"decided before committed, an older line of its text in the file", class(avg), 13, class(avg, half),
			nil, map[string][]int{"src/P.java": {6, 13}}, []string{"src/P.java:13"}},
		{"a copy sharing its neighbours left, the decided method deleted", class(half, avg), 13, "",
			[]map[string]string{{"src/P.java": class(half)}}, map[string][]int{"src/P.java": {6}}, nil},
		{"renamed, then grown past git's similarity", class(avg), 6, "",
			[]map[string]string{{"rename": "src/R.java"}, {"src/R.java": class(append([]string{avg}, grown...)...)}},
			map[string][]int{"src/R.java": {6}}, []string{"src/R.java:6"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gittest.New(t)
			g.Git("config", "user.name", "Ana")
			g.Git("config", "user.email", "ana@example.com")
			report := func(at map[string][]int) string {
				var runs []string
				for p, lines := range at {
					runs = append(runs, strings.ReplaceAll(pmdLoopSARIF(lines...), `"uri":"src/P.java"`, fmt.Sprintf(`"uri":%q`, p)))
				}
				return runs[0]
			}
			decided := map[string][]int{"src/P.java": {tc.decided}}
			g.Commit("one", map[string]string{"src/P.java": tc.was})
			if tc.work != "" {
				g.Write(map[string]string{"src/P.java": tc.work})
			}
			g.Write(map[string]string{"build/pmd.sarif": report(decided)})
			if out, stderr, code := recap(t, g.Dir, nil, "triage", "--rule", "ForLoopCanBeForeach", "--as", "wont-fix", "--reason", "arrays of primitives", "build"); code != 0 {
				t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
			}
			g.Git("add", "-A")
			g.Git("commit", "-qm", "triage")
			for _, step := range tc.steps {
				if to, ok := step["rename"]; ok {
					g.Git("mv", "src/P.java", to)
					g.Git("commit", "-qm", "rename")
					continue
				}
				g.Commit("change", step)
			}
			g.Commit("report", map[string]string{"build/pmd.sarif": report(tc.now)})
			covered, _ := coveredFindings(t, g.Dir, "build")
			if !slices.Equal(covered, tc.covered) {
				t.Errorf("covered %v, want %v", covered, tc.covered)
			}
		})
	}
}

// TestTriageDecidedUncommittedCopy: a decision on code not committed yet,
// whose line's neighbours were edited before the code was committed (its
// location in no commit). When a line of its text was in the file at the
// entry's commit already, that line may be the decided one or not (the
// decision may be on the new copy): it is not taken for it, the older
// line is not covered, and the entry is stale. When no line of its text
// was there, the first commit that has one line of it has the decided
// one, followed from there: a copy pasted above it later is not covered.
func TestTriageDecidedUncommittedCopy(t *testing.T) {
	const loop = "    public static long %s(long[] p) {\n        long %s = 0;\n        for (int i = 0; i < p.length; i++) s += p[i];\n        return %s;\n    }\n"
	class := func(methods ...string) string { return "public class P {\n\n" + strings.Join(methods, "\n") + "}\n" }
	avg := fmt.Sprintf(loop, "avg", "s", "s")
	sum, sumEdited := fmt.Sprintf(loop, "sum", "t", "t"), fmt.Sprintf(loop, "sum", "t", "t + 1")
	copyAbove := fmt.Sprintf(loop, "first", "u", "u * 2")
	other := "    public static int other() {\n        return 1;\n    }\n"
	loops := func(src string) []int {
		var at []int
		for i, l := range strings.Split(src, "\n") {
			if strings.Contains(l, "for (int i") {
				at = append(at, i+1)
			}
		}
		return at
	}
	for _, tc := range []struct {
		name              string
		was, work, before string // committed; when decided (the last loop decided); edited, then committed with the triage file
		later             string // a later commit ("": none)
		covered           int    // which loop of the file at the end is covered (1-based; 0: none)
	}{
		{"a line of its text there before", class(avg), class(avg, sum), class(avg, sumEdited), "", 0},
		{"none there before, a copy pasted above later", class(other), class(other, sum), class(other, sumEdited), class(copyAbove, other, sumEdited), 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gittest.New(t)
			g.Git("config", "user.name", "Ana")
			g.Git("config", "user.email", "ana@example.com")
			g.Commit("one", map[string]string{"src/P.java": tc.was})
			at := loops(tc.work)
			g.Write(map[string]string{"src/P.java": tc.work, "build/pmd.sarif": pmdLoopSARIF(at[len(at)-1])})
			if out, stderr, code := recap(t, g.Dir, nil, "triage", "--rule", "ForLoopCanBeForeach", "--as", "wont-fix", "--reason", "arrays of primitives", "build"); code != 0 {
				t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
			}
			end := tc.before
			g.Write(map[string]string{"src/P.java": tc.before})
			g.Git("add", "-A")
			g.Git("commit", "-qm", "code and triage")
			if tc.later != "" {
				end = tc.later
				g.Commit("later", map[string]string{"src/P.java": tc.later})
			}
			at = loops(end)
			g.Commit("report", map[string]string{"build/pmd.sarif": pmdLoopSARIF(at...)})
			covered, all := coveredFindings(t, g.Dir, "build")
			var want []string
			if tc.covered > 0 {
				want = []string{fmt.Sprintf("src/P.java:%d", at[tc.covered-1])}
			}
			if !slices.Equal(covered, want) || all != len(at) {
				t.Errorf("covered %v of %d findings, want %v of %d", covered, all, want, len(at))
			}
		})
	}
}

// TestTriageFileLinkedInside: a triage file that is a link to a file
// inside the repository is written where the link leads (the link kept),
// as it is read; one out of the repository is refused, and nothing is
// written out of it.
func TestTriageFileLinkedInside(t *testing.T) {
	g := triageRepo(t)
	fs := findingsOf(t, g.Dir)
	if _, stderr, code := recap(t, g.Dir, nil, "triage", fs[0]["id"].(string), "--as", "wont-fix", "--reason", "first", "--triage", "quality/triage.yml", "build/reports"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if err := os.MkdirAll(filepath.Join(g.Dir, ".recap"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(g.Dir, ".recap", "triage.yml")
	if err := os.Symlink(filepath.Join("..", "quality", "triage.yml"), link); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"triage", fs[1]["id"].(string), "--as", "false-positive", "--reason", "second", "build/reports"},
		{"triage", "import", "--sarif", "build/reports/pmd.sarif", "build/reports"}, // nothing suppressed: nothing written
		{"triage", "prune", "build/reports"},
	} {
		if out, stderr, code := recap(t, g.Dir, nil, args...); code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", args[1], code, out, stderr)
		}
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi, err)
	}
	if f, err := triage.LoadFile(filepath.Join(g.Dir, "quality", "triage.yml")); err != nil || len(f.Entries) != 2 {
		t.Fatalf("the file the link leads to: %v %+v", err, f)
	}
	// A link out of the repository: refused, naming the file.
	outside := filepath.Join(t.TempDir(), "triage.yml")
	if err := os.WriteFile(outside, []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := recap(t, g.Dir, nil, "triage", fs[2]["id"].(string), "--as", "wont-fix", "--reason", "third", "build/reports")
	if code != 2 || !strings.Contains(stderr, "triage.yml") {
		t.Errorf("a link out of the repository: exit %d\n%s", code, stderr)
	}
	if b, _ := os.ReadFile(outside); string(b) != "version: 1\n" {
		t.Errorf("written out of the repository:\n%s", b)
	}
}

// TestTriageImportOlderLog: a log made of older code (its file changed
// since the commit the log describes) is imported with a warning that
// its entries may be on other lines; a log written after the change is
// not warned of.
func TestTriageImportOlderLog(t *testing.T) {
	g := triageRepo(t)
	var log map[string]any
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(g.Dir, "build", "reports", "pmd.sarif"))), &log); err != nil {
		t.Fatal(err)
	}
	res := log["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)
	res["suppressions"] = []any{map[string]any{"kind": "external", "status": "accepted", "justification": "kept"}}
	uri := res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["artifactLocation"].(map[string]any)["uri"].(string)
	src := uri[strings.Index(uri, "src/"):]
	// The code changes an hour after the log (not committed) was written.
	written := time.Now()
	g.Write(map[string]string{src: "// a line above\n" + readFile(t, filepath.Join(g.Dir, src))})
	commitDated(t, g, "a line above", written.Add(time.Hour))
	b, _ := json.Marshal(log)
	g.Write(map[string]string{"old.sarif": string(b)})
	future := written.Add(time.Hour)
	if err := os.Chtimes(filepath.Join(g.Dir, src), future, future); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(filepath.Join(g.Dir, "old.sarif"), written, written); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := recap(t, g.Dir, nil, "triage", "import", "--sarif", "old.sarif", "--triage", "a.yml")
	if code != 0 || !strings.Contains(stderr, "recap: warning: 1 entry imported may be on other lines than the log's results ("+src+" changed since the commit old.sarif describes") {
		t.Errorf("an older log: exit %d\n%s", code, stderr)
	}
	// Written after the change: it describes the code as it is.
	later := time.Now().Add(2 * time.Hour)
	if err := os.Chtimes(filepath.Join(g.Dir, "old.sarif"), later, later); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = recap(t, g.Dir, nil, "triage", "import", "--sarif", "old.sarif", "--triage", "b.yml")
	if code != 0 || strings.Contains(stderr, "other lines") {
		t.Errorf("a log of the code as it is: exit %d\n%s", code, stderr)
	}
}

// TestTriageImportRecapSARIFVia: a decision on a finding of a problem
// several tools report, carried by recap's SARIF of a grouped run on the
// problem's first finding (via), comes back on the finding decided: the
// same entry, which holds under --no-group too.
func TestTriageImportRecapSARIFVia(t *testing.T) {
	root := reportstest.RepoRoot(t)
	g := gittest.Sample(t, root)
	g.Git("config", "user.name", "Ana")
	g.Git("config", "user.email", "ana@example.com")
	files := map[string]string{}
	for _, n := range []string{"checkstyle.xml", "pmd.sarif", "spotbugs.xml"} {
		files["build/reports/"+n] = readFile(t, filepath.Join(root, "testdata", "reports", n))
	}
	g.Commit("reports", files)
	// A problem of several findings: decide one that is not its first.
	out, stderr, code := recap(t, g.Dir, nil, "findings", "--format", "json", "--limit", "200", "--no-context", "--max-tokens", "25000", "build/reports")
	var v struct {
		Findings []struct {
			ID             string
			AlsoReportedBy []struct{ Tool, Rule, ID string }
		}
	}
	if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil {
		t.Fatalf("findings: exit %d, %v\n%s", code, err, stderr)
	}
	decided := ""
	for _, f := range v.Findings {
		if len(f.AlsoReportedBy) > 0 {
			decided = f.AlsoReportedBy[0].ID
			break
		}
	}
	if decided == "" {
		t.Fatal("no problem of several findings")
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", decided, "--as", "wont-fix", "--reason", "kept", "build/reports"); code != 0 {
		t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
	}
	tf := filepath.Join(g.Dir, ".recap", "triage.yml")
	made, err := triage.LoadFile(tf)
	if err != nil || len(made.Entries) != 1 {
		t.Fatalf("%v, %+v", err, made)
	}
	sarif, stderr, code := recap(t, g.Dir, nil, "findings", "--format", "sarif", "build/reports")
	if code != 0 || !strings.Contains(sarif, `"via":"`+decided+`"`) {
		t.Fatalf("findings --format sarif: exit %d, no result suppressed via %s\n%s", code, decided, stderr)
	}
	g.Write(map[string]string{"recap.sarif": sarif})
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "import", "--sarif", "recap.sarif", "--triage", "back.yml"); code != 0 || !strings.Contains(out, "1 decision imported") {
		t.Fatalf("import: exit %d\n%s%s", code, out, stderr)
	}
	back, err := triage.LoadFile(filepath.Join(g.Dir, "back.yml"))
	if err != nil || len(back.Entries) != 1 {
		t.Fatalf("%v, %+v", err, back)
	}
	w := made.Entries[0]
	if e := back.Entries[0]; e.Key() != w.Key() || e.Line != w.Line || e.State != w.State || e.Reason != w.Reason {
		t.Errorf("imported\n%+v\nwant the finding decided\n%+v", e, w)
	}
	// Under --no-group, the finding decided is triaged by the imported file.
	out, stderr, code = recap(t, g.Dir, nil, "findings", "--format", "json", "--no-group", "--triaged", "only", "--triage", "back.yml", "--limit", "200", "--no-context", "build/reports")
	if code != 0 || !strings.Contains(out, `"id": "`+decided+`"`) && !strings.Contains(out, `"id":"`+decided+`"`) {
		t.Errorf("--no-group with the imported file: %s not triaged (exit %d)\n%s%s", decided, code, out, stderr)
	}
}

// TestTriageBaselineOfRecapSARIF: recap's SARIF, as a baseline, holds the
// findings a decision left out (written suppressed): a finding of this
// run that matches one is unchanged, with the decision, without it (its
// until day come, its entry removed), and against the log itself;
// nothing is new, nothing fixed.
func TestTriageBaselineOfRecapSARIF(t *testing.T) {
	g := triageRepo(t)
	decideDate(t, g)
	sarif, stderr, code := recap(t, g.Dir, nil, "findings", "--format", "sarif", "build/reports")
	if code != 0 || !strings.Contains(sarif, `"suppressions"`) {
		t.Fatalf("findings --format sarif: exit %d\n%s", code, stderr)
	}
	g.Write(map[string]string{"base.sarif": sarif})
	counts := regexp.MustCompile(`against the baseline: 0 new, \d+ unchanged, 0 fixed`)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"decided", []string{"summary", "--baseline", "base.sarif", "--max-new", "0", "build/reports"}},
		{"decided, shown", []string{"summary", "--baseline", "base.sarif", "--max-new", "0", "--triaged", "include", "build/reports"}},
		{"the log against itself", []string{"summary", "--baseline", "base.sarif", "--max-new", "0", "base.sarif"}},
		{"the decision gone", []string{"summary", "--baseline", "base.sarif", "--max-new", "0", "--triage", "none.yml", "build/reports"}},
	} {
		if tc.name == "the decision gone" {
			g.Write(map[string]string{"none.yml": "version: 1\nentries: []\n"})
		}
		out, stderr, code := recap(t, g.Dir, nil, tc.args...)
		if code != 0 || !counts.MatchString(out) {
			t.Errorf("%s: exit %d\n%s%s", tc.name, code, out, stderr)
		}
	}
}

// TestTriageImportAfterRename: importing recap's SARIF of a finding whose
// file was renamed since its decision: the same decision is unchanged
// (the entry that follows the rename stays, nothing stale), another one
// replaces it, as recap triage does.
func TestTriageImportAfterRename(t *testing.T) {
	g := decidedRepo(t)
	renameOrder(t, g)
	sarif, stderr, code := recap(t, g.Dir, nil, "findings", "--format", "sarif", "build/reports")
	if code != 0 {
		t.Fatalf("findings --format sarif: exit %d\n%s", code, stderr)
	}
	g.Write(map[string]string{"recap.sarif": sarif})
	tf := filepath.Join(g.Dir, ".recap", "triage.yml")
	before := readFile(t, tf)
	out, stderr, code := recap(t, g.Dir, nil, "triage", "import", "--sarif", "recap.sarif")
	if code != 0 || !strings.Contains(out, "0 decisions imported, 1 unchanged") || readFile(t, tf) != before {
		t.Fatalf("the same decision: exit %d\n%s%s", code, out, stderr)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build/reports"); code != 0 {
		t.Errorf("check: exit %d\n%s%s", code, out, stderr)
	}
	// Another decision replaces the entry.
	out, stderr, code = recap(t, g.Dir, nil, "triage", "import", "--sarif", "recap.sarif", "--as", "wont-fix")
	if code != 0 || !strings.Contains(out, "1 decision imported, 0 unchanged") {
		t.Fatalf("another decision: exit %d\n%s%s", code, out, stderr)
	}
	f, err := triage.LoadFile(tf)
	// The entry as decided, its state replaced: it follows the rename.
	if err != nil || len(f.Entries) != 1 || f.Entries[0].Path != shop+"Order.java" || f.Entries[0].State != triage.WontFix {
		t.Fatalf("the file after: %v %+v", err, f)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build/reports"); code != 0 {
		t.Errorf("check after: exit %d\n%s%s", code, out, stderr)
	}
}

// TestTriageImportGitHubAfterRename: an alert dismissed at a file's new
// path, whose finding the triage file decided under the old one: the same
// decision is unchanged, another replaces the entry, saying what it was
// (nothing left stale).
func TestTriageImportGitHubAfterRename(t *testing.T) {
	g := triageRepo(t)
	decideDate(t, g) // false-positive, "the API takes a Date", by Ana
	g.Git("add", "-A")
	g.Git("commit", "-qm", "the decision")
	renameOrder(t, g)
	tf := filepath.Join(g.Dir, ".recap", "triage.yml")
	for _, tc := range []struct {
		reason, comment, out string
		state                triage.State
	}{
		{"false positive", "the API takes a Date", ".recap/triage.yml: 0 decisions imported, 1 unchanged", triage.FalsePositive},
		{"won't fix", "kept for the API", "(was false-positive at " + shop + "Order.java)\n.recap/triage.yml: 1 decision imported, 0 unchanged", triage.WontFix},
	} {
		srv := githubtest.New(t, "octo", "shop", 1, nil)
		srv.Alerts = []githubtest.Alert{{Number: 1, Tool: "PMD", Rule: "ReplaceJavaUtilDate", Path: shop + "Purchase.java", Line: 13, State: "dismissed",
			Reason: tc.reason, Comment: tc.comment, Dismisser: "Ana <ana@example.com>", At: "2026-11-02T10:00:00Z"}}
		env := []string{"GITHUB_TOKEN=" + srv.Token, "GITHUB_API_URL=" + srv.URL}
		out, stderr, code := recap(t, g.Dir, env, "triage", "import", "--github", "--github-repo", "octo/shop", "build/reports")
		if code != 0 || !strings.Contains(out, tc.out) {
			t.Fatalf("%s: exit %d\n%s%s", tc.reason, code, out, stderr)
		}
		f, err := triage.LoadFile(tf)
		if err != nil || len(f.Entries) != 1 || f.Entries[0].State != tc.state {
			t.Fatalf("%s: the file: %v %+v", tc.reason, err, f)
		}
		if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build/reports"); code != 0 {
			t.Errorf("%s: check: exit %d\n%s%s", tc.reason, code, out, stderr)
		}
	}
}

// TestTriageImportLogBeforeRename: a log made before a decided file was
// renamed. recap's SARIF names the finding decided with the commit it was
// decided on: the decision is the entry the triage file holds (unchanged),
// and imported into another file it follows the rename as that one does.
// Another tool's log (no such name): its results at the old path are left
// out, and said.
func TestTriageImportLogBeforeRename(t *testing.T) {
	g, sarif, made := decidedLog(t)
	renameOrder(t, g)
	// A tool's log says nothing of the decision but its suppression.
	plain := regexp.MustCompile(`,"properties":\{"by":[^}]*\}`).ReplaceAllString(sarif, "")
	if plain == sarif {
		t.Fatal("no suppression properties in recap's SARIF")
	}
	g.Write(map[string]string{"old.sarif": sarif, "plain.sarif": plain})
	out, stderr, code := recap(t, g.Dir, nil, "triage", "import", "--sarif", "old.sarif")
	if code != 0 || !strings.Contains(out, "0 decisions imported, 1 unchanged") {
		t.Fatalf("import into the file: exit %d\n%s%s", code, out, stderr)
	}
	out, stderr, code = recap(t, g.Dir, nil, "triage", "import", "--sarif", "old.sarif", "--triage", "fresh.yml")
	if code != 0 || !strings.Contains(out, "1 decision imported") {
		t.Fatalf("import into another file: exit %d\n%s%s", code, out, stderr)
	}
	fresh, err := triage.LoadFile(filepath.Join(g.Dir, "fresh.yml"))
	if w := made.Entries[0]; err != nil || len(fresh.Entries) != 1 || fresh.Entries[0].Key() != w.Key() || fresh.Entries[0].Commit != w.Commit {
		t.Fatalf("imported %v %+v\nwant %+v", err, fresh, w)
	}
	for _, file := range []string{".recap/triage.yml", "fresh.yml"} {
		if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "--triage", file, "build/reports"); code != 0 {
			t.Errorf("check of %s: exit %d\n%s%s", file, code, out, stderr)
		}
	}
	out, stderr, code = recap(t, g.Dir, nil, "triage", "import", "--sarif", "plain.sarif", "--triage", "plain.yml")
	if code != 0 || !strings.Contains(out, "0 decisions imported, 0 unchanged") ||
		!strings.Contains(stderr, "recap: warning: 1 suppressed result in files this checkout does not have ("+shop+"Order.java: renamed or deleted since the log was made) left out") {
		t.Errorf("a tool's log: exit %d\n%s%s", code, out, stderr)
	}
}

// TestTriageImportRecapSARIFLinesMoved: recap's SARIF names the finding
// decided by its location, which follows its code: imported after lines
// were added above it (the log's line numbers old), the decision is the
// same entry, matched where the line is now.
func TestTriageImportRecapSARIFLinesMoved(t *testing.T) {
	g, sarif, made := decidedLog(t)
	// Three lines above the class; the tools run again.
	order := readFile(t, filepath.Join(g.Dir, shop+"Order.java"))
	g.Write(map[string]string{shop + "Order.java": "// one\n// two\n// three\n" + order, "old.sarif": sarif})
	g.Git("add", "-A")
	g.Git("commit", "-qm", "three lines above")
	moveResults(t, g, "Order.java", 0, 3, "", 0)
	out, stderr, code := recap(t, g.Dir, nil, "triage", "import", "--sarif", "old.sarif", "--triage", "back.yml")
	if code != 0 || !strings.Contains(out, "1 decision imported") || strings.Contains(stderr, "other lines") {
		t.Fatalf("import: exit %d\n%s%s", code, out, stderr)
	}
	back, err := triage.LoadFile(filepath.Join(g.Dir, "back.yml"))
	if err != nil || len(back.Entries) != 1 {
		t.Fatalf("%v %+v", err, back)
	}
	if e, w := back.Entries[0], made.Entries[0]; e.Key() != w.Key() || e.Line != w.Line {
		t.Errorf("imported %+v\nwant the entry decided %+v", e, w)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "--triage", "back.yml", "build/reports"); code != 0 {
		t.Errorf("check of the imported file: exit %d\n%s%s", code, out, stderr)
	}
	// Into the file that holds the decision: unchanged.
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "import", "--sarif", "old.sarif"); code != 0 || !strings.Contains(out, "0 decisions imported, 1 unchanged") {
		t.Errorf("import into the file: exit %d\n%s%s", code, out, stderr)
	}
}

// decidedRepo is triageRepo with PMD's ReplaceJavaUtilDate at Order.java:13
// decided (decideDate), committed.
func decidedRepo(t *testing.T) *gittest.Repo {
	t.Helper()
	g := triageRepo(t)
	decideDate(t, g)
	g.Git("add", "-A")
	g.Git("commit", "-qm", "the decision")
	return g
}

// renameOrder renames Order.java to Purchase.java (committed) and moves
// the report's results with it, as the tools run again would.
func renameOrder(t *testing.T, g *gittest.Repo) {
	t.Helper()
	g.Git("mv", shop+"Order.java", shop+"Purchase.java")
	g.Git("commit", "-qm", "rename")
	moveResults(t, g, "Order.java", 0, 0, "Purchase.java", 0)
}

// decidedLog is decidedRepo, recap's SARIF of its reports then, and its
// triage file's one entry.
func decidedLog(t *testing.T) (g *gittest.Repo, sarif string, made *triage.File) {
	t.Helper()
	g = decidedRepo(t)
	sarif, stderr, code := recap(t, g.Dir, nil, "findings", "--format", "sarif", "build/reports")
	if code != 0 {
		t.Fatalf("findings --format sarif: exit %d\n%s", code, stderr)
	}
	made, err := triage.LoadFile(filepath.Join(g.Dir, ".recap", "triage.yml"))
	if err != nil || len(made.Entries) != 1 {
		t.Fatalf("%v %+v", err, made)
	}
	return g, sarif, made
}

// TestTriageImportLineEdited: recap's SARIF of a decision whose line was
// edited since (on this branch): the entry is imported as decided, and a
// warning says its line is not in the file now.
func TestTriageImportLineEdited(t *testing.T) {
	g, sarif, made := decidedLog(t)
	order := readFile(t, filepath.Join(g.Dir, shop+"Order.java"))
	edited := strings.Replace(order, made.Entries[0].Line, "private Date createdAt;", 1)
	if edited == order {
		t.Fatalf("no line %q in Order.java", made.Entries[0].Line)
	}
	g.Write(map[string]string{shop + "Order.java": edited, "old.sarif": sarif})
	out, stderr, code := recap(t, g.Dir, nil, "triage", "import", "--sarif", "old.sarif", "--triage", "back.yml")
	if code != 0 || !strings.Contains(out, "1 decision imported") ||
		!strings.Contains(stderr, "recap: warning: 1 entry imported whose decided line is not in its file now (PMD ReplaceJavaUtilDate "+shop+"Order.java \"private Date created;\": edited or removed since the log was made)") {
		t.Errorf("import: exit %d\n%s%s", code, out, stderr)
	}
	// The line as it was: no warning.
	g.Write(map[string]string{shop + "Order.java": order})
	if _, stderr, code := recap(t, g.Dir, nil, "triage", "import", "--sarif", "old.sarif", "--triage", "again.yml"); code != 0 || strings.Contains(stderr, "decided line") {
		t.Errorf("the line as it was: exit %d\n%s", code, stderr)
	}
}

// TestTriageEditedSinceReport: a finding whose file was edited after its
// report was written, and not committed, is not decided: the report's
// line may hold other code now (lines added above), and the entry would
// name that code. The file as committed is decided, whatever its time
// (a checkout writes reports and code in no set order).
func TestTriageEditedSinceReport(t *testing.T) {
	g := triageRepo(t)
	f := findingAt(t, findingsOf(t, g.Dir), "ReplaceJavaUtilDate", "Order.java", 13)
	report := filepath.Join(g.Dir, "build", "reports", "pmd.sarif")
	past := time.Now().Add(-time.Hour)
	if err := os.Chtimes(report, past, past); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(g.Dir, filepath.FromSlash(f["path"].(string)))
	text := readFile(t, src)
	if err := os.WriteFile(src, []byte("// a\n// b\n// c\n"+text), 0o644); err != nil {
		t.Fatal(err)
	}
	// A newer report of the same tool, of other files, does not make the
	// finding's own report newer.
	g.Write(map[string]string{"build/reports/z-other.sarif": `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD"}},"results":[]}]}`})
	_, stderr, code := recap(t, g.Dir, nil, "triage", f["id"].(string), "--as", "false-positive", "--reason", "r", "build/reports")
	if code != 2 || !strings.Contains(stderr, "Order.java changed after build/reports/pmd.sarif was written, not committed") || !strings.Contains(stderr, "run the tools again, then decide (nothing was written)") {
		t.Errorf("deciding on a report older than the edited code: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(g.Dir, ".recap")); err == nil {
		t.Errorf("a refused decision made .recap")
	}
	// As committed, newer than the report: decided, on the code the
	// report describes.
	if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := recap(t, g.Dir, nil, "triage", f["id"].(string), "--as", "false-positive", "--reason", "r", "build/reports")
	if code != 0 || !strings.Contains(out, "1 decision written") {
		t.Errorf("deciding on the committed code: exit %d\n%s%s", code, out, stderr)
	}
	// The edit committed after the report was written (HEAD then, by its
	// reflog, holds the file otherwise): refused too, the report's line
	// holding other code now.
	if err := os.WriteFile(src, []byte("// a\n// b\n// c\n"+text), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Minute).UTC().Format(time.RFC3339)
	commit := exec.Command("git", "commit", "-q", "-m", "an edit after the report", "--", f["path"].(string))
	commit.Dir = g.Dir
	commit.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_DATE="+later, "GIT_COMMITTER_DATE="+later)
	if out, err := commit.CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, out)
	}
	before := readFile(t, filepath.Join(g.Dir, ".recap", "triage.yml"))
	_, stderr, code = recap(t, g.Dir, nil, "triage", f["id"].(string), "--as", "wont-fix", "--reason", "r", "build/reports")
	if code != 2 || !strings.Contains(stderr, "Order.java changed after build/reports/pmd.sarif was written (committed since): the line the report names may hold other code now") {
		t.Errorf("deciding on a report older than a commit of the code: exit %d\n%s", code, stderr)
	}
	if after := readFile(t, filepath.Join(g.Dir, ".recap", "triage.yml")); after != before {
		t.Errorf("a refused decision changed the triage file:\n%s", after)
	}
}

// TestTriageCommittedSoonAfter: a commit that changed a finding's file
// seconds after the tools wrote its report (a pull right after them) is
// refused as any commit since: the report's line may hold other code. A
// report in HEAD as it is may have been written by a checkout, with the
// code, in no set order: a file must then have changed 30 seconds after
// it to be judged so.
func TestTriageCommittedSoonAfter(t *testing.T) {
	for _, c := range []struct {
		name    string
		written bool // the report written by the tools: not in HEAD as it is
		refused bool
	}{
		{"a report the tools wrote", true, true},
		{"a report as HEAD has it", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := triageRepo(t)
			f := findingAt(t, findingsOf(t, g.Dir), "ReplaceJavaUtilDate", "Order.java", 13)
			report := filepath.Join(g.Dir, "build", "reports", "pmd.sarif")
			if c.written {
				g.Write(map[string]string{"build/reports/pmd.sarif": readFile(t, report) + "\n"})
			}
			// The tools run now; the pull two seconds after them (HEAD's
			// reflog counts seconds).
			now := time.Now()
			if err := os.Chtimes(report, now, now); err != nil {
				t.Fatal(err)
			}
			src := filepath.Join(g.Dir, filepath.FromSlash(f["path"].(string)))
			g.Write(map[string]string{f["path"].(string): "// a\n// b\n// c\n" + readFile(t, src)})
			at := now.Add(2 * time.Second).UTC().Format(time.RFC3339)
			commit := exec.Command("git", "commit", "-q", "-m", "a pull: lines added above", "--", f["path"].(string))
			commit.Dir = g.Dir
			commit.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_DATE="+at, "GIT_COMMITTER_DATE="+at)
			if out, err := commit.CombinedOutput(); err != nil {
				t.Fatalf("git commit: %v\n%s", err, out)
			}
			_, stderr, code := recap(t, g.Dir, nil, "triage", f["id"].(string), "--as", "false-positive", "--reason", "r", "build/reports")
			refused := code == 2 && strings.Contains(stderr, "Order.java changed after build/reports/pmd.sarif was written (committed since)")
			if refused != c.refused || !refused && code != 0 {
				t.Errorf("exit %d, refused %v, want %v\n%s", code, refused, c.refused, stderr)
			}
		})
	}
}

// TestTriageUnmatchedOlder: a decision made, then a commit (a pull)
// adds lines above its finding and the tools are not run again: the
// report's line holds other code, the decision matches no finding, and
// the summary says why, and what to do, rather than its three guesses.
func TestTriageUnmatchedOlder(t *testing.T) {
	g := triageRepo(t)
	f := findingAt(t, findingsOf(t, g.Dir), "ReplaceJavaUtilDate", "Order.java", 13)
	path := f["path"].(string)
	if out, stderr, code := recap(t, g.Dir, nil, "triage", f["id"].(string), "--as", "false-positive", "--reason", "the API takes a Date", "build/reports"); code != 0 {
		t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
	}
	g.Commit("triage", nil)
	report := filepath.Join(g.Dir, "build", "reports", "pmd.sarif")
	g.Write(map[string]string{"build/reports/pmd.sarif": readFile(t, report) + "\n"}) // the tools' run
	now := time.Now()
	if err := os.Chtimes(report, now, now); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(g.Dir, filepath.FromSlash(path))
	// Two lines: the report's other finding of the rule, on line 16, is
	// not on the decided line then.
	g.Write(map[string]string{path: "// a\n// b\n" + readFile(t, src)})
	at := now.Add(2 * time.Second).UTC().Format(time.RFC3339)
	commit := exec.Command("git", "commit", "-q", "-m", "a pull: lines added above", "--", path)
	commit.Dir = g.Dir
	commit.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_DATE="+at, "GIT_COMMITTER_DATE="+at)
	if out, err := commit.CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, out)
	}
	want := "1 decision matches no finding, the reports older than the code: " + path + " changed after build/reports/pmd.sarif was written (committed since): run the tools again (recap triage check says which)"
	out, stderr, code := recap(t, g.Dir, nil, "summary", "build/reports")
	if code != 0 || !strings.Contains(out, want) {
		t.Errorf("summary: exit %d, no %q in\n%s%s", code, want, out, stderr)
	}
	out, _, _ = recap(t, g.Dir, nil, "summary", "--format", "json", "build/reports")
	if !strings.Contains(out, `"unmatchedOlder":"`+path+` changed after build/reports/pmd.sarif was written (committed since)"`) {
		t.Errorf("summary --format json: no unmatchedOlder\n%s", out)
	}
	out, _, _ = recap(t, g.Dir, nil, "summary", "--format", "markdown", "build/reports")
	if !strings.Contains(out, "run the tools again (recap triage check says which)._") {
		t.Errorf("summary --format markdown: no line of the reports older\n%s", out)
	}
	// The HTML report's headline, in a browser.
	if testing.Short() {
		return
	}
	page := filepath.Join(t.TempDir(), "report.html")
	if _, stderr, code := recap(t, g.Dir, nil, "summary", "--format", "html", "--output", page, "build/reports"); code != 0 {
		t.Fatalf("summary --format html: exit %d\n%s", code, stderr)
	}
	b := newBrowser(t, false)
	b.open(t, page)
	var note string
	b.eval(t, `document.querySelector('#count-triaged + dd.note').textContent`, &note)
	if !strings.Contains(note, want) {
		t.Errorf("the page's headline note %q, want %q", note, want)
	}
	b.quiet(t, page)
}

// TestTriageStashedSinceReport: the tools run on work not committed
// (lines added above a finding), then the work stashed: the file is as
// HEAD has it, HEAD never moved, but the report describes the stashed
// code, and the decision would be on other code: refused, saying so;
// once the stash is back, the file is edited since as before.
func TestTriageStashedSinceReport(t *testing.T) {
	g := triageRepo(t)
	f := findingAt(t, findingsOf(t, g.Dir), "ReplaceJavaUtilDate", "Order.java", 13)
	path := f["path"].(string)
	src := filepath.Join(g.Dir, filepath.FromSlash(path))
	g.Write(map[string]string{path: "// a\n// b\n// c\n" + readFile(t, src)})
	// The report of the work, as the tools write it (its line 13 the
	// stashed code's).
	report := filepath.Join(g.Dir, "build", "reports", "pmd.sarif")
	g.Write(map[string]string{"build/reports/pmd.sarif": readFile(t, report) + "\n"})
	ago := time.Now().Add(-5 * time.Second)
	if err := os.Chtimes(report, ago, ago); err != nil {
		t.Fatal(err)
	}
	stash := exec.Command("git", "stash", "push", "-q", "--", path) // dated now, not as gittest dates commits
	stash.Dir = g.Dir
	stash.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
	if out, err := stash.CombinedOutput(); err != nil {
		t.Fatalf("git stash: %v\n%s", err, out)
	}
	_, stderr, code := recap(t, g.Dir, nil, "triage", f["id"].(string), "--as", "false-positive", "--reason", "r", "build/reports")
	if code != 2 || !strings.Contains(stderr, "Order.java changed after build/reports/pmd.sarif was written (stashed since): the line the report names may hold other code now") {
		t.Errorf("deciding on a report of stashed work: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(g.Dir, ".recap")); err == nil {
		t.Errorf("a refused decision made .recap")
	}
	g.Git("stash", "pop", "-q")
	_, stderr, code = recap(t, g.Dir, nil, "triage", f["id"].(string), "--as", "false-positive", "--reason", "r", "build/reports")
	if code != 2 || !strings.Contains(stderr, "Order.java changed after build/reports/pmd.sarif was written, not committed") {
		t.Errorf("deciding with the stash back: exit %d\n%s", code, stderr)
	}
}

// TestTriageRefusesWhatCannotBeKept: a finding whose line is past the end
// of its file (an entry there would have neither location nor line, and
// cover every finding of its rule and message in the file) and one whose
// rule the triage file cannot hold (on two lines) are not decided, nothing
// written; an import leaves such results out, saying so, and keeps the
// others. The file stays one recap reads.
func TestTriageRefusesWhatCannotBeKept(t *testing.T) {
	g := triageRepo(t)
	result := func(rule string, line int, suppressed bool) string {
		s, file := "", "Order.java"
		if suppressed {
			s = `,"suppressions":[{"kind":"external","status":"accepted","justification":"checked"}]`
		}
		if rule == "Gone" {
			file = "Later.java"
		}
		return fmt.Sprintf(`{"ruleId":%q,"level":"warning","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":%q},"region":{"startLine":%d}}}]%s}`,
			rule, shop+file, line, s)
	}
	log := func(results ...string) string {
		return `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Odd"}},"results":[` + strings.Join(results, ",") + `]}]}`
	}
	g.Commit("odd report", map[string]string{"build/odd/odd.sarif": log(result("Past", 99999, false), result("a\nb", 13, false), result("Fine", 13, false), result("Gone", 3, false))})
	out, stderr, code := recap(t, g.Dir, nil, "findings", "--format", "json", "--no-group", "--no-context", "build/odd")
	if code != 0 {
		t.Fatalf("findings: exit %d\n%s", code, stderr)
	}
	var v struct{ Findings []struct{ ID, Rule string } }
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, f := range v.Findings {
		ids[f.Rule] = f.ID
	}
	for _, tc := range []struct{ rule, says string }{
		{"Past", "its line 99999 is not in " + shop + "Order.java, of "},
		{"a\nb", "its entry cannot be kept in the triage file (rule: \"a\\nb\": want a name on one line)"},
		{"Gone", "its file " + shop + "Later.java is not in the checkout (renamed or deleted since the report?)"},
	} {
		_, stderr, code := recap(t, g.Dir, nil, "triage", ids[tc.rule], "--as", "false-positive", "--reason", "r", "build/odd")
		if code != 2 || !strings.Contains(stderr, tc.says) || !strings.Contains(stderr, "nothing was written") {
			t.Errorf("deciding %q: exit %d\n%s", tc.rule, code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(g.Dir, ".recap")); err == nil {
		t.Errorf("a refused decision made .recap")
	}
	g.Commit("suppressed", map[string]string{"build/odd/odd.sarif": log(result("Past", 99999, true), result("a\nb", 13, true), result("Fine", 13, true))})
	out, stderr, code = recap(t, g.Dir, nil, "triage", "import", "--sarif", "build/odd/odd.sarif")
	if code != 0 || !strings.Contains(out, "1 decision imported") || !strings.Contains(stderr, "recap: warning: 2 results left out, whose entry the triage file could not hold rightly (Past at "+shop+"Order.java:99999: its line 99999 is not in") {
		t.Errorf("import: exit %d\n%s%s", code, out, stderr)
	}
	if _, stderr, code := recap(t, g.Dir, nil, "triage", "list", "build/odd"); code != 0 {
		t.Errorf("the file written does not read: exit %d\n%s", code, stderr)
	}
}

// TestTriageNeverWritesInGit: a triage file whose place leads into .git
// (a directory on the way a link to .git/hooks, so that the file would be
// a hook git runs) is refused, nothing written there.
func TestTriageNeverWritesInGit(t *testing.T) {
	g := triageRepo(t)
	if err := os.Symlink(".git/hooks", filepath.Join(g.Dir, "hooks")); err != nil {
		t.Fatal(err)
	}
	g.Write(map[string]string{".recap.yml": "triage: hooks/pre-commit\n"})
	f := findingAt(t, findingsOf(t, g.Dir), "ReplaceJavaUtilDate", "Order.java", 13)
	_, stderr, code := recap(t, g.Dir, nil, "triage", f["id"].(string), "--as", "false-positive", "--reason", "$(touch pwned)", "build/reports")
	if code != 2 || !strings.Contains(stderr, "hooks/pre-commit: its place is in the version control's own directory (.git/hooks), which recap does not write") {
		t.Errorf("a triage file in .git/hooks: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(g.Dir, ".git", "hooks", "pre-commit")); err == nil {
		t.Errorf("written in .git/hooks")
	}
	// --triage naming a link into .git/hooks (a pull request may add one).
	if err := os.MkdirAll(filepath.Join(g.Dir, "quality"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../.git/hooks/pre-push", filepath.Join(g.Dir, "quality", "triage.yml")); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = recap(t, g.Dir, nil, "triage", f["id"].(string), "--as", "false-positive", "--reason", "r", "--triage", "quality/triage.yml", "build/reports")
	if code != 2 || !strings.Contains(stderr, "quality/triage.yml: its place is in a version control's own directory") {
		t.Errorf("--triage a link into .git/hooks: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(g.Dir, ".git", "hooks", "pre-push")); err == nil {
		t.Errorf("written in .git/hooks through --triage")
	}
}

// TestTriageFileNotRegular: a triage file at the repository's place that
// is a FIFO is refused at once, saying what it is (standard input is no
// triage file: no advice to give -).
func TestTriageFileNotRegular(t *testing.T) {
	g := triageRepo(t)
	if err := os.MkdirAll(filepath.Join(g.Dir, ".recap"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(g.Dir, ".recap", "triage.yml"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := recap(t, g.Dir, nil, "summary", "build/reports")
	if code != 2 || !strings.Contains(stderr, ".recap/triage.yml: not a regular file (a FIFO): a triage file is a file") || strings.Contains(stderr, "standard input") {
		t.Errorf("a FIFO as the triage file: exit %d\n%s", code, stderr)
	}
}

// TestTriageSameLineWarns: two findings of one rule and message on one
// line (two SQL sinks) are one line to an entry: a decision on one covers
// the other, and recap triage says so; deciding both says nothing.
func TestTriageSameLineWarns(t *testing.T) {
	g := gittest.New(t)
	g.Git("config", "user.name", "Ana")
	g.Git("config", "user.email", "ana@example.com")
	result := func(col int) string {
		return fmt.Sprintf(`{"ruleId":"sqli","level":"error","message":{"text":"SQL injection"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"App.java"},"region":{"startLine":2,"startColumn":%d}}}]}`, col)
	}
	g.Commit("one", map[string]string{
		"App.java":            "class App {\n  void a(String id) { db.execute(\"q\" + K); db.query(\"q\" + id); }\n}\n",
		"build/semgrep.sarif": `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Semgrep","rules":[{"id":"sqli"}]}},"results":[` + result(23) + "," + result(46) + `]}]}`,
	})
	out, stderr, code := recap(t, g.Dir, nil, "findings", "--format", "json", "--no-group", "--no-context", "build")
	var v struct{ Findings []struct{ ID string } }
	if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil || len(v.Findings) != 2 {
		t.Fatalf("findings: exit %d, %v\n%s%s", code, err, out, stderr)
	}
	const warning = "its decision covers 1 other finding of its rule and message on that line too"
	for _, ids := range [][]string{{v.Findings[0].ID}, {v.Findings[0].ID, v.Findings[1].ID}} {
		os.RemoveAll(filepath.Join(g.Dir, ".recap"))
		out, stderr, code := recap(t, g.Dir, nil, append(append([]string{"triage"}, ids...), "--as", "false-positive", "--reason", "K is a constant", "build")...)
		if code != 0 || strings.Contains(stderr, warning) != (len(ids) == 1) {
			t.Errorf("triage %v: exit %d, warned %v\n%s%s", ids, code, strings.Contains(stderr, warning), out, stderr)
		}
	}
}

// TestTriageSARIFOverridesRejected: a result the tool's SARIF says a
// suppression of was rejected, decided since in the triage file, is
// written by recap's SARIF suppressed: recap's accepted suppression, not
// the rejected one beside it (which would leave it unsuppressed to every
// reader, code scanning too).
func TestTriageSARIFOverridesRejected(t *testing.T) {
	g := triageRepo(t)
	p := filepath.Join(g.Dir, "build", "reports", "pmd.sarif")
	var log map[string]any
	if err := json.Unmarshal([]byte(readFile(t, p)), &log); err != nil {
		t.Fatal(err)
	}
	rejected := 0
	for _, r := range log["runs"].([]any)[0].(map[string]any)["results"].([]any) {
		r := r.(map[string]any)
		if r["ruleId"] == "ReplaceJavaUtilDate" {
			r["suppressions"] = []any{map[string]any{"kind": "external", "status": "rejected", "justification": "not a false positive"}}
			rejected++
		}
	}
	b, _ := json.Marshal(log)
	g.Commit("a suppression rejected", map[string]string{"build/reports/pmd.sarif": string(b)})
	decideDate(t, g)
	out, stderr, code := recap(t, g.Dir, nil, "findings", "--format", "sarif", "build/reports")
	if code != 0 {
		t.Fatalf("findings --format sarif: exit %d\n%s", code, stderr)
	}
	var sarif struct {
		Runs []struct {
			Results []struct {
				RuleID       string
				Suppressions []struct{ Kind, Status string }
			}
		}
	}
	mustJSON(t, out, &sarif)
	decided, withRejected := 0, 0
	for _, run := range sarif.Runs {
		for _, r := range run.Results {
			if r.RuleID != "ReplaceJavaUtilDate" {
				continue
			}
			for _, s := range r.Suppressions {
				switch {
				case s.Status == "rejected":
					withRejected++
				case s.Kind == "external" && s.Status == "accepted":
					decided++
				}
			}
		}
	}
	if rejected == 0 || decided != 1 || withRejected != rejected-1 {
		t.Errorf("%d results rejected in the report; recap's SARIF: %d decided, %d still rejected (want 1 and %d)", rejected, decided, withRejected, rejected-1)
	}
}

// TestTriageFollowsRenameByCommits: a small file whose decided catch a
// pasted copy doubled, renamed with its class, then edited below and
// next to the decided catch: git's one diff since the decision finds no
// rename (the file grew past its similarity), while the commit that
// renamed it does, as git log --follow finds it. The decision stays on
// its catch in the renamed file, and the copy is shown.
func TestTriageFollowsRenameByCommits(t *testing.T) {
	method := func(name string, ignored bool) string {
		body := ""
		if ignored {
			body = "            // ignored\n"
		}
		return fmt.Sprintf("    void %s() {\n        try {\n            g();\n        } catch (Exception e) {\n%s        }\n    }\n", name, body)
	}
	class := func(name, g string, methods ...string) string {
		return "package p;\n\npublic class " + name + " {\n" + strings.Join(methods, "\n") + "\n    void g() throws Exception {\n" + g + "    }\n}\n"
	}
	sarif := func(path string, lines ...int) string {
		var results []string
		for _, l := range lines {
			results = append(results, fmt.Sprintf(`{"ruleId":"EmptyCatchBlock","level":"warning","message":{"text":"Avoid empty catch blocks"},`+
				`"locations":[{"physicalLocation":{"artifactLocation":{"uri":%q},"region":{"startLine":%d,"startColumn":11}}}]}`, path, l))
		}
		return `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD","version":"7.28.0","rules":[{"id":"EmptyCatchBlock",` +
			`"properties":{"ruleset":"Error Prone","priority":3}}]}},"results":[` + strings.Join(results, ",") + `]}]}`
	}
	g := gittest.New(t)
	g.Git("config", "user.name", "Ana")
	g.Git("config", "user.email", "ana@example.com")
	g.Commit("one", map[string]string{"src/A.java": class("A", "", method("f", false)), "build/pmd.sarif": sarif("src/A.java", 7)})
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "--rule", "EmptyCatchBlock", "--as", "false-positive", "--reason", "g cannot fail", "build"); code != 0 {
		t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
	}
	g.Commit("triage", nil)
	g.Commit("a copy above", map[string]string{"src/A.java": class("A", "", method("f0", false), method("f", false))})
	g.Git("mv", "src/A.java", "src/B.java")
	g.Commit("renamed", map[string]string{"src/B.java": class("B", "", method("f0", false), method("f", false))})
	g.Commit("g", map[string]string{"src/B.java": class("B", "        int x = 3;\n", method("f0", false), method("f", false))})
	g.Commit("a neighbour", map[string]string{"src/B.java": class("B", "        int x = 3;\n", method("f0", false), method("f", true)),
		"build/pmd.sarif": sarif("src/B.java", 7, 14)})
	if out := g.Git("diff", "-M", "--name-status", "HEAD~4", "HEAD", "--", "src"); strings.Contains(out, "R") {
		t.Fatalf("git's one diff since the decision finds the rename; the test wants it not to:\n%s", out)
	}
	if covered, _ := coveredFindings(t, g.Dir, "build"); !slices.Equal(covered, []string{"src/B.java:14"}) {
		t.Errorf("covered %v, want [src/B.java:14]", covered)
	}
	if out, stderr, code := recap(t, g.Dir, nil, "triage", "check", "build"); code != 0 {
		t.Errorf("check: exit %d\n%s%s", code, out, stderr)
	}
}

// TestTriageEntryOfNoFile: an entry whose file was in no commit since its
// own (written by hand, or its path named wrong) covers no finding of a
// file that was there at its commit, whatever its line: a decision on
// src/Gone.java does not hide src/A.java's finding, and check says it is
// stale; a commit the repository has not is judged by the commits since
// the entry's day. A decision on a file not committed yet still follows
// it when it is committed under another name.
func TestTriageEntryOfNoFile(t *testing.T) {
	const src = "package p;\n\npublic class A {\n    void f() {\n        try {\n            g();\n        } catch (Exception e) {\n        }\n    }\n\n    void g() throws Exception {\n    }\n}\n"
	sarif := func(paths ...string) string {
		var results []string
		for _, p := range paths {
			results = append(results, fmt.Sprintf(`{"ruleId":"EmptyCatchBlock","level":"warning","message":{"text":"Avoid empty catch blocks"},`+
				`"locations":[{"physicalLocation":{"artifactLocation":{"uri":%q},"region":{"startLine":7,"startColumn":11}}}]}`, p))
		}
		return `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD","version":"7.28.0","rules":[{"id":"EmptyCatchBlock",` +
			`"properties":{"ruleset":"Error Prone","priority":3}}]}},"results":[` + strings.Join(results, ",") + `]}]}`
	}
	entry := func(commit string) string {
		return "version: 1\nentries:\n  - tool: PMD\n    rule: EmptyCatchBlock\n    path: src/Gone.java\n    line: '} catch (Exception e) {'\n" +
			"    message: Avoid empty catch blocks\n    state: false-positive\n    reason: a helper never run\n    date: " + time.Now().Format("2006-01-02") + "\n" + commit
	}
	for _, tc := range []struct{ name, commit string }{
		{"its commit", "HEAD"},
		{"a commit the repository has not", "0123456789abcdef0123456789abcdef01234567"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gittest.New(t)
			g.Commit("one", map[string]string{"src/A.java": src, "build/pmd.sarif": sarif("src/A.java")})
			commit := tc.commit
			if commit == "HEAD" {
				commit = strings.TrimSpace(g.Git("rev-parse", "HEAD"))
			}
			if err := os.MkdirAll(filepath.Join(g.Dir, ".recap"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(g.Dir, ".recap", "triage.yml"), []byte(entry("    commit: "+commit+"\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			if covered, all := coveredFindings(t, g.Dir, "build"); len(covered) != 0 || all != 1 {
				t.Errorf("covered %v of %d findings, want none of 1", covered, all)
			}
			if out, _, code := recap(t, g.Dir, nil, "triage", "check", "build"); code != 1 || !strings.Contains(out, "src/Gone.java") {
				t.Errorf("check: exit %d, want 1 naming src/Gone.java\n%s", code, out)
			}
		})
	}
	t.Run("decided before its commit, committed renamed", func(t *testing.T) {
		g := gittest.New(t)
		g.Git("config", "user.name", "Ana")
		g.Git("config", "user.email", "ana@example.com")
		g.Commit("one", map[string]string{"src/A.java": src, "build/pmd.sarif": sarif("src/A.java")})
		b := strings.ReplaceAll(src, "class A", "class B")
		if err := os.WriteFile(filepath.Join(g.Dir, "src", "New.java"), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-time.Hour)
		if err := os.Chtimes(filepath.Join(g.Dir, "src", "New.java"), old, old); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(g.Dir, "build", "pmd.sarif"), []byte(sarif("src/A.java", "src/New.java")), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, stderr, code := recap(t, g.Dir, nil, "triage", "--path", "src/New.java", "--rule", "EmptyCatchBlock", "--as", "false-positive", "--reason", "g cannot fail", "build"); code != 0 {
			t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
		}
		if err := os.Rename(filepath.Join(g.Dir, "src", "New.java"), filepath.Join(g.Dir, "src", "Renamed.java")); err != nil {
			t.Fatal(err)
		}
		g.Commit("renamed", map[string]string{"build/pmd.sarif": sarif("src/A.java", "src/Renamed.java")})
		if covered, _ := coveredFindings(t, g.Dir, "build"); !slices.Equal(covered, []string{"src/Renamed.java:7"}) {
			t.Errorf("covered %v, want [src/Renamed.java:7]", covered)
		}
	})
}

// TestTriageUnreadFileWarns: a decision made at a line, in a file grown
// past what recap reads (triage.MaxSourceSize), covers every finding of
// its rule and message there by the message alone: findings and list
// say so on stderr.
func TestTriageUnreadFileWarns(t *testing.T) {
	const src = "package p;\n\npublic class A {\n    void f() throws Exception {\n        java.io.InputStream a = new java.io.FileInputStream(\"a\");\n        a.read();\n" +
		"        a.read();\n        a.read();\n        java.io.InputStream b = new java.io.FileInputStream(\"b\");\n        b.read();\n    }\n}\n"
	result := func(line int) string {
		return fmt.Sprintf(`{"ruleId":"CloseResource","level":"warning","message":{"text":"Ensure that resources like this InputStream object are closed after use"},`+
			`"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/A.java"},"region":{"startLine":%d}}}]}`, line)
	}
	sarif := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"PMD","rules":[]}},"results":[` + result(5) + "," + result(9) + `]}]}`
	g := gittest.New(t)
	g.Git("config", "user.name", "Ana")
	g.Git("config", "user.email", "ana@example.com")
	g.Commit("one", map[string]string{"src/A.java": src, "build/pmd.sarif": sarif})
	out, stderr, code := recap(t, g.Dir, nil, "findings", "--format", "json", "--no-context", "build")
	if code != 0 {
		t.Fatalf("findings: exit %d\n%s", code, stderr)
	}
	var v struct{ Findings []map[string]any }
	mustJSON(t, out, &v)
	id := findingAt(t, v.Findings, "CloseResource", "A.java", 9)["id"].(string)
	if out, stderr, code := recap(t, g.Dir, nil, "triage", id, "--as", "false-positive", "--reason", "closed by the caller", "build"); code != 0 {
		t.Fatalf("triage: exit %d\n%s%s", code, out, stderr)
	}
	if covered, _ := coveredFindings(t, g.Dir, "build"); !slices.Equal(covered, []string{"src/A.java:9"}) {
		t.Fatalf("covered %v, want [src/A.java:9]", covered)
	}
	big := src + "//" + strings.Repeat("x", triage.MaxSourceSize) + "\n"
	g.Commit("a generated comment", map[string]string{"src/A.java": big})
	for _, args := range [][]string{{"findings", "build"}, {"triage", "list", "build"}} {
		_, stderr, _ := recap(t, g.Dir, nil, args...)
		if !strings.Contains(stderr, "1 decision made at a line covers 2 findings by their message alone in files recap does not read (larger than 16 MiB, or no regular file; first: src/A.java)") {
			t.Errorf("recap %s: no warning of the decision that covers both findings:\n%s", strings.Join(args, " "), stderr)
		}
	}
}
