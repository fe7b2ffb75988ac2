package reportstest

import (
	"bufio"
	"fmt"
	"os"
	"testing"
)

// BigSARIF writes a SARIF 2.1.0 report of n results (about 330 bytes each:
// 100 MB for 300,000) at path, for tests of long parses (progress,
// cancellation). Result i is rule R(i%7) on line i%500+1 of
// src/main/java/Big(i%50).java, warning level, message "finding i".
func BigSARIF(t testing.TB, path string, n int) int64 {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprint(w, `{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"tool":{"driver":{"name":"BigTool","version":"1.0","rules":[`)
	for r := range 7 {
		if r > 0 {
			w.WriteByte(',')
		}
		fmt.Fprintf(w, `{"id":"R%d","shortDescription":{"text":"rule %d"}}`, r, r)
	}
	fmt.Fprint(w, `]}},"results":[`)
	for i := range n {
		if i > 0 {
			w.WriteString(",\n")
		}
		fmt.Fprintf(w, `{"ruleId":"R%d","ruleIndex":%d,"level":"warning","message":{"text":"finding %d: a generated result that only makes the report large"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/main/java/Big%d.java"},"region":{"startLine":%d,"startColumn":5}}}]}`,
			i%7, i%7, i, i%50, i%500+1)
	}
	fmt.Fprint(w, "]}]}\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}
