package main

import (
	"strings"
	"testing"
)

func TestCount(t *testing.T) {
	in := `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"run","Package":"p","Test":"TestB"}
{"Action":"output","Package":"p","Test":"TestB","Output":"    b_test.go:9: got 1, want 2\n"}
{"Action":"output","Package":"p","Test":"TestB","Output":"--- FAIL: TestB (0.00s)\n"}
{"Action":"fail","Package":"p","Test":"TestB"}
{"Action":"output","Package":"p","Test":"TestC","Output":"    c_test.go:3: checkstyle not found (apt-get install checkstyle)\n"}
{"Action":"output","Package":"p","Test":"TestC","Output":"--- SKIP: TestC (0.00s)\n"}
{"Action":"skip","Package":"p","Test":"TestC"}
{"Action":"output","Package":"p","Output":"FAIL\tp\t0.1s\n"}
{"Action":"fail","Package":"p"}
# q [q.test]
`
	var w strings.Builder
	c, err := count(strings.NewReader(in), &w)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.line(), "tests: 1 passed, 1 failed, 1 skipped (1 packages failed)"; got != want {
		t.Errorf("line: %q, want %q", got, want)
	}
	if len(c.skipped) != 1 || c.skipped[0].reason != "checkstyle not found (apt-get install checkstyle)" {
		t.Errorf("skipped: %+v", c.skipped)
	}
	for _, want := range []string{"got 1, want 2", "FAIL\tp\t0.1s", "# q [q.test]"} {
		if !strings.Contains(w.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, w.String())
		}
	}
	if strings.Contains(w.String(), "=== RUN") {
		t.Errorf("output shows a passing test's lines:\n%s", w.String())
	}
}
