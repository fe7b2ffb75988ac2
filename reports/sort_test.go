package reports_test

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
)

var orders = []reports.Order{reports.OrderImportance, reports.OrderSeverity, reports.OrderLocation}

// rankedOrder sorts keys by CompareRanked, their kinds ranked by RankKinds
// and their paths by byte order, as a sort of many findings does, and
// returns their ids in that order.
func rankedOrder(o reports.Order, keys []reports.SortKey) []string {
	kinds := o.RankKinds(keys)
	paths := make([]string, len(keys))
	for i := range keys {
		paths[i] = keys[i].Path
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	ranked := make([]reports.Ranked, len(keys))
	for i, k := range keys {
		at, _ := slices.BinarySearch(paths, k.Path)
		id, ok := reports.ParseID(k.ID.String())
		if !ok {
			panic("not an id: " + k.ID.String())
		}
		ranked[i] = reports.Ranked{Kind: kinds[i], Path: uint32(at), Line: int32(k.Line), Column: int32(k.Column), ID: id}
	}
	slices.SortFunc(ranked, func(a, b reports.Ranked) int { return reports.CompareRanked(&a, &b) })
	ids := make([]string, len(ranked))
	for i := range ranked {
		ids[i] = ranked[i].ID.String()
	}
	return ids
}

// keyOrder sorts keys by the order's Compare and returns their ids.
func keyOrder(o reports.Order, keys []reports.SortKey) []string {
	keys = slices.Clone(keys)
	slices.SortFunc(keys, func(a, b reports.SortKey) int { return o.Compare(&a, &b) })
	ids := make([]string, len(keys))
	for i := range keys {
		ids[i] = keys[i].ID.String()
	}
	return ids
}

func checkSameOrder(t *testing.T, name string, keys []reports.SortKey) {
	t.Helper()
	for _, o := range orders {
		want, got := keyOrder(o, keys), rankedOrder(o, keys)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s, %s order: finding %d is %s, want %s", name, o, i, got[i], want[i])
				break
			}
		}
	}
}

// TestCompareRankedTies: findings compared by ranks (a sort of many
// findings, the MCP server's pages) come in the order of their keys, in
// every order, with ties of every field up to the id (ids compare as
// strings: x-10 before x-9).
func TestCompareRankedTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 8))
	pick := func(s ...string) string { return s[rng.IntN(len(s))] }
	for round := range 50 {
		keys := make([]reports.SortKey, 400)
		for i := range keys {
			keys[i] = reports.SortKey{
				Impact: reports.Impact(rng.IntN(3)), Quality: reports.Quality(rng.IntN(3)), SecuritySeverity: []float64{0, 5, 9.8}[rng.IntN(3)],
				Severity: reports.Severity(rng.IntN(4)), Category: pick("", "bug-risk", "style"), Tool: pick("PMD", "Checkstyle"), Rule: pick("R1", "R2", "R10"),
				Path: pick("a.go", "a/b.go", "b.go"), Line: rng.IntN(3), Column: rng.IntN(3) - 1,
				ID: reports.ID(pick("x", "xa", "ab"), i+1),
			}
		}
		checkSameOrder(t, "round "+string(rune('0'+round%10)), keys)
	}
}

// TestCompareRankedCorpus: the findings of every report of the corpus
// together compared by ranks come in the order of their keys.
func TestCompareRankedCorpus(t *testing.T) {
	dir, files := reportstest.Corpus(t)
	var names []string
	for _, f := range files {
		if f.Dir() != "invalid" && f.Dir() != "diffs" {
			names = append(names, filepath.Join(dir, f.Path))
		}
	}
	var keys []reports.SortKey
	inputs, err := parsers.ReadAll(names, parsers.ReadOptions{NoFingerprints: true}, func(f reports.Finding) error {
		keys = append(keys, reports.KeyOf(&f))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range inputs {
		if in.Error != "" {
			t.Fatalf("%s: %s", in.Path, in.Error)
		}
	}
	if len(inputs) != len(names) || len(keys) < 1000 {
		t.Fatalf("%d inputs of %d, %d findings", len(inputs), len(names), len(keys))
	}
	checkSameOrder(t, "corpus", keys)
}
