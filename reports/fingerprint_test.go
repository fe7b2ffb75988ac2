package reports

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
)

func TestFingerprint(t *testing.T) {
	base := Finding{Tool: "PMD", Rule: "UnusedLocalVariable", Path: "src/A.java", Line: 3, Message: "Avoid unused  local variables"}
	moved := base
	moved.Line, moved.Column = 40, 7
	moved.Message = "Avoid unused local\nvariables"
	if Fingerprint(base, nil) != Fingerprint(moved, nil) {
		t.Error("fingerprint changed when only the line, column and white space changed")
	}
	tests := map[string]Finding{
		"other path": {Tool: "PMD", Rule: "UnusedLocalVariable", Path: "src/B.java", Message: base.Message},
		"other rule": {Tool: "PMD", Rule: "UnusedPrivateField", Path: "src/A.java", Message: base.Message},
		"other tool": {Tool: "Checkstyle", Rule: "UnusedLocalVariable", Path: "src/A.java", Message: base.Message},
		"other text": {Tool: "PMD", Rule: "UnusedLocalVariable", Path: "src/A.java", Message: "Avoid unused local variables such as 'y'"},
	}
	for name, f := range tests {
		if Fingerprint(f, nil) == Fingerprint(base, nil) {
			t.Errorf("%s: same fingerprint as the base finding", name)
		}
	}
	p1 := Fingerprint(base, map[string]string{"primaryLocationLineHash": "abc:1"})
	p2 := Fingerprint(moved, map[string]string{"primaryLocationLineHash": "abc:1"})
	p3 := Fingerprint(base, map[string]string{"primaryLocationLineHash": "def:1"})
	if p1 != p2 || p1 == p3 || p1 == Fingerprint(base, nil) {
		t.Errorf("partial fingerprints do not decide identity: %s %s %s", p1, p2, p3)
	}
	if len(p1) != 16 {
		t.Errorf("len(fingerprint) = %d, want 16", len(p1))
	}
}

func TestID(t *testing.T) {
	tag := InputTag("reports/pmd.sarif", 4)
	if tag != InputTag("reports/pmd.sarif", 4) || len(tag) != 4 {
		t.Fatalf("InputTag not stable or wrong length: %q", tag)
	}
	if tag == InputTag("reports/checkstyle.xml", 4) {
		t.Errorf("two inputs share the tag %q", tag)
	}
	if got := ID(tag, 12); got != tag+"-12" {
		t.Errorf("ID = %q", got)
	}
}

// TestAppendFolded: the folded message hashed is exactly the one
// strings.Fields and a join give, whatever the spaces and the length.
func TestAppendFolded(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	parts := []string{"a", "bc", " ", "  ", "\t", "\n", "\u00a0", "é", "日本", "\u2003", "\xff", strings.Repeat("x", 300)}
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for j := r.Intn(40); j > 0; j-- {
			b.WriteString(parts[r.Intn(len(parts))])
		}
		s := b.String()
		if got := appendFolded([]byte("x"), s); !bytes.Equal(got, []byte("x"+strings.Join(strings.Fields(s), " "))) {
			t.Fatalf("appendFolded(%q) differs from the folded text %q", s, strings.Join(strings.Fields(s), " "))
		}
	}
}
