package reportstest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var (
	fuzzTarget = regexp.MustCompile(`(?m)^func (Fuzz\w*)\(\w+ \*testing\.F\)`)
	seedRun    = regexp.MustCompile(`(?m)^\s*--- (PASS|FAIL|SKIP): (Fuzz\w*)(/\S+)? `)
)

// FuzzTargets lists the fuzz targets (func FuzzX(f *testing.F)) of the
// test files in dir.
func FuzzTargets(t testing.TB, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range fuzzTarget.FindAllSubmatch(b, -1) {
			names = append(names, string(m[1]))
		}
	}
	sort.Strings(names)
	return names
}

// FuzzSeedsAlone runs the fuzz targets of the calling package on their
// seeds as a checkout alone has them: the test binary runs again with
// $RECAP_SHARED set to none, so that no seed comes from ../shared. Each
// target must pass, not skip, on at least min seeds of its own (f.Add, or
// files under testdata/fuzz/TARGET).
func FuzzSeedsAlone(t *testing.T, min int) {
	t.Helper()
	targets := FuzzTargets(t, ".")
	if len(targets) == 0 {
		t.Fatal("no fuzz target in the package's test files")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^("+strings.Join(targets, "|")+")$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), SharedEnv+"=none")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("the fuzz targets without ../shared: %v\n%s", err, out.Bytes())
	}
	passed := map[string]bool{}
	seeds := map[string]int{}
	for _, m := range seedRun.FindAllStringSubmatch(out.String(), -1) {
		switch {
		case m[3] == "" && m[1] == "PASS":
			passed[m[2]] = true
		case m[3] != "" && m[1] == "PASS":
			seeds[m[2]]++
		case m[3] == "":
			t.Errorf("%s: %s without ../shared", m[2], m[1])
		}
	}
	for _, name := range targets {
		switch {
		case !passed[name]:
			t.Errorf("%s did not pass without ../shared:\n%s", name, out.Bytes())
		case seeds[name] < min:
			t.Errorf("%s ran %d seeds without ../shared, want %d at least", name, seeds[name], min)
		default:
			t.Logf("%s: %d seeds without ../shared", name, seeds[name])
		}
	}
}
