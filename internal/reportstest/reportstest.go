// Package reportstest holds test helpers shared by recap's packages: golden
// files (with the -update flag), the location of the shared corpus and
// benchmark inputs, and finding builders.
package reportstest

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Updating reports whether the tests run with -update: what a test makes
// beside goldens (screenshots) is made again then.
func Updating() bool { return *update }

// Golden compares got with the file at path, or rewrites the file under -update.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run with -update to create it): %v", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got), rerun with -update if intended:\n%s", path, diff)
	}
}

// RepoRoot returns the module root (the directory holding go.mod).
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test's directory")
		}
		dir = parent
	}
}

// SharedEnv names the environment variable that moves ../shared: a
// directory to read instead, or "none" to run as a checkout alone does
// (RECAP_SHARED=none go test ./... runs what a fresh clone runs).
const SharedEnv = "RECAP_SHARED"

// Shared returns ../shared/sub beside the repository (or under
// $RECAP_SHARED) and whether it is there, without skipping: for tests that
// run on the checkout's own inputs and add the shared ones when present.
func Shared(t testing.TB, sub string) (string, bool) {
	t.Helper()
	base := os.Getenv(SharedEnv)
	switch base {
	case "":
		base = filepath.Join(RepoRoot(t), "..", "shared")
	case "none":
		return "", false
	}
	dir := filepath.Join(base, sub)
	_, err := os.Stat(dir)
	return dir, err == nil
}

// SharedDir returns ../shared/sub beside the repository, skipping the test
// when it is absent (it is present in CI and on every development machine).
func SharedDir(t testing.TB, sub string) string {
	t.Helper()
	dir, ok := Shared(t, sub)
	if !ok {
		t.Skipf("shared %s not found (%s=%q)", sub, SharedEnv, os.Getenv(SharedEnv))
	}
	return dir
}

// CorpusFile is one entry of the corpus manifest (../shared/corpus/MANIFEST.json).
type CorpusFile struct {
	Path              string         `json:"path_in_corpus"`
	Tool              string         `json:"tool"`
	Expected          map[string]int `json:"expected"`
	ExpectedBehaviour string         `json:"expected_behaviour"`
	LenientCount      map[string]any `json:"lenient_count"`
}

// Dir is the corpus directory the file sits in ("pmd-sarif", "invalid", …).
func (c CorpusFile) Dir() string { return strings.SplitN(c.Path, "/", 2)[0] }

// Corpus reads the corpus manifest and returns its directory and entries,
// skipping the test without the corpus.
func Corpus(t testing.TB) (string, []CorpusFile) {
	t.Helper()
	SharedDir(t, "corpus")
	return CorpusIfPresent(t)
}

// CorpusIfPresent is Corpus without the skip: no entries when the corpus is
// absent, for fuzz targets that seed from it besides their own seeds.
func CorpusIfPresent(t testing.TB) (string, []CorpusFile) {
	t.Helper()
	dir, ok := Shared(t, "corpus")
	if !ok {
		t.Logf("no shared corpus: only the checkout's seeds")
		return dir, nil
	}
	b, err := os.ReadFile(filepath.Join(dir, "MANIFEST.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Files []CorpusFile `json:"files"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("MANIFEST.json: %v", err)
	}
	return dir, m.Files
}
