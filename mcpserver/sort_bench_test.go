package mcpserver

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/reports"
)

// BenchmarkSortRefs: a buffer's first page sorts every finding of the
// bench's Spring PMD SARIF (314,926) into view order, then puts the head
// of different rules first.
//
//	go test -bench BenchmarkSortRefs -run '^$' ./mcpserver
func BenchmarkSortRefs(b *testing.B) {
	src := filepath.Join(reportstest.SharedDir(b, "bench"), "spring-framework.pmd7-all.sarif.gz")
	dir := b.TempDir()
	raw, err := os.ReadFile(src)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pmd.sarif.gz"), raw, 0o644); err != nil {
		b.Fatal(err)
	}
	r := parseAll(b, dir, "pmd.sarif.gz")
	reps := []*report{r}
	refs := make([]ref, r.n)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		for i := range refs {
			refs[i] = ref{index: int32(i)}
		}
		rng := rand.New(rand.NewPCG(1, 2))
		rng.Shuffle(len(refs), func(i, j int) { refs[i], refs[j] = refs[j], refs[i] })
		b.StartTimer()
		sortRefs(reps, refs, reports.OrderImportance, nil)
		refs = firstPage(reps, refs, nil)
	}
}
