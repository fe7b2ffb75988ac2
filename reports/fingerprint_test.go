package reports

import (
	"bytes"
	"fmt"
	"math/rand"
	"strconv"
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
	if got := ID(tag, 12).String(); got != tag+"-12" {
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

// TestCodeQualityFingerprint: recap's Code Quality fingerprints carry the
// finding's identity and own occurrence, and how many of the set came
// before with them; read back, the finding's own fingerprint, and nothing
// from another tool's fingerprint.
func TestCodeQualityFingerprint(t *testing.T) {
	tests := []struct {
		fp    string
		copy  int
		write string
		back  string
	}{
		{"7b473f4670c92020", 0, "7b473f4670c920200000000000000001", "7b473f4670c92020:1"},
		{"7b473f4670c92020:1", 0, "7b473f4670c920200000000000000001", "7b473f4670c92020:1"},
		{"7B473F4670C92020:12", 3, "7b473f4670c92020000000030000000c", "7b473f4670c92020:12"},
		{"not-recap:1", 0, "", ""},                 // not 16 hex digits: the MD5 is written instead
		{"7b473f4670c9202z:1", 0, "", ""},          // not hex
		{"7b473f4670c92020:2147483649", 0, "", ""}, // an occurrence past 2³¹
	}
	for _, tc := range tests {
		got := CodeQualityFingerprint(tc.fp, tc.copy)
		if got != tc.write {
			t.Errorf("CodeQualityFingerprint(%q, %d) = %q, want %q", tc.fp, tc.copy, got, tc.write)
		}
		if got == "" {
			continue
		}
		if back, ok := ParseCodeQualityFingerprint(got); !ok || back != tc.back {
			t.Errorf("ParseCodeQualityFingerprint(%q) = %q, %v; want %q", got, back, ok, tc.back)
		}
	}
	for _, s := range []string{
		"d41d8cd98f00b204e9800998ecf8427e", // an MD5 (another tool's): its occurrence would be past 2³¹
		"7b473f4670c920200000000000000000", // occurrence 0
		"7B473F4670C920200000000000000001", // upper case: not recap's
		"7b473f4670c92020000000000000001",  // 31 digits
		"",
	} {
		if back, ok := ParseCodeQualityFingerprint(s); ok {
			t.Errorf("ParseCodeQualityFingerprint(%q) = %q: taken as recap's", s, back)
		}
	}
	var o Occurrences
	for i, want := range []struct {
		fp   string
		copy int
	}{{"7b473f4670c92020:1", 0}, {"7b473f4670c92020:1", 1}, {"7b473f4670c92020:2", 0}, {"7b473f4670c92020:1", 2}} {
		if fp, c := o.Copy(want.fp); fp != want.fp || c != want.copy {
			t.Errorf("Copy %d = %q, %d; want %q, %d", i, fp, c, want.fp, want.copy)
		}
	}
}

// BenchmarkFingerprintSum: a finding's identity as the readers work it
// out for each finding of a report (messages as PMD and Checkstyle write
// them).
func BenchmarkFingerprintSum(b *testing.B) {
	fs := []Finding{
		{Tool: "PMD", Rule: "MethodArgumentCouldBeFinal", Path: "spring-core/src/main/java/org/springframework/core/io/support/PathMatchingResourcePatternResolver.java", Message: "Parameter 'location' is not assigned and could be declared final"},
		{Tool: "Checkstyle", Rule: "com.puppycrawl.tools.checkstyle.checks.whitespace.FileTabCharacterCheck", Path: "spring-web/src/main/java/org/springframework/web/util/UriComponentsBuilder.java", Message: "Line contains a tab character."},
		{Tool: "PMD", Rule: "CommentRequired", Path: "spring-beans/src/main/java/org/springframework/beans/factory/support/DefaultListableBeanFactory.java", Message: "Public method and constructor comments are required"},
		{Tool: "Checkstyle", Rule: "com.puppycrawl.tools.checkstyle.checks.sizes.LineLengthCheck", Path: "spring-context/src/main/java/org/springframework/context/annotation/ConfigurationClassParser.java", Message: "Line is longer than 80 characters (found 121)."},
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		FingerprintSum(fs[i%len(fs)], nil)
	}
}

// parsedAsBefore is how the MCP server's store took a fingerprint apart
// before ParseFingerprint: the identity parsed as hex, 16 lower-case
// digits, and the whole written again as it was.
func parsedAsBefore(fp string) (uint64, int, bool) {
	id, occ := SplitFingerprint(fp)
	sum, err := strconv.ParseUint(id, 16, 64)
	if err == nil && len(id) == 16 && id == strings.ToLower(id) && Occurrence(id, occ) == fp {
		return sum, occ, true
	}
	return 0, 0, false
}

func TestParseFingerprint(t *testing.T) {
	for _, fp := range []string{
		"", "7b473f4670c92020", "7b473f4670c92020:2", "7b473f4670c92020:1", "7b473f4670c92020:0",
		"7b473f4670c92020:02", "7b473f4670c92020:+2", "7b473f4670c92020:-2", "7b473f4670c92020:",
		"7B473F4670C92020", "7b473f4670c9202", "7b473f4670c920200", "7b473f4670c92020:9223372036854775807",
		"7b473f4670c92020:9223372036854775808", "7b473f4670c92020:99999999999999999999", "0x73f4670c92020",
		"7b473f4670c92020:2:3", "7b473f4670c9202g", "ffffffffffffffff:10", "0000000000000000", "7b473f4670c92020 :2",
		"7b473f4670c92020:1_0", "७b473f4670c92020",
	} {
		if err := parsedAsBeforeErr(fp); err != nil {
			t.Error(err)
		}
	}
}

// parsedAsBeforeErr says how ParseFingerprint differs from the former
// expression on fp, or FingerprintOf from fp.
func parsedAsBeforeErr(fp string) error {
	sum, n, ok := ParseFingerprint(fp)
	wsum, wn, wok := parsedAsBefore(fp)
	if sum != wsum || n != wn || ok != wok {
		return fmt.Errorf("ParseFingerprint(%q) = %x, %d, %v; before: %x, %d, %v", fp, sum, n, ok, wsum, wn, wok)
	}
	if ok && FingerprintOf(sum, n) != fp {
		return fmt.Errorf("FingerprintOf(%x, %d) = %q, want %q", sum, n, FingerprintOf(sum, n), fp)
	}
	return nil
}

func FuzzParseFingerprint(f *testing.F) {
	for _, fp := range []string{"7b473f4670c92020:12", "ffffffffffffffff", "7b473f4670c92020:1", "7B473F4670C92020:02", "7b473f4670c92020:9223372036854775808"} {
		f.Add(fp)
	}
	f.Fuzz(func(t *testing.T, fp string) {
		if err := parsedAsBeforeErr(fp); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzFingerprintOf(f *testing.F) {
	f.Add(uint64(0x7b473f4670c92020), 2)
	f.Add(uint64(0), -5)
	f.Add(uint64(1<<64-1), 1<<62)
	f.Fuzz(func(t *testing.T, sum uint64, n int) {
		if got, want := FingerprintOf(sum, n), Occurrence(FingerprintHex(sum), n); got != want {
			t.Fatalf("FingerprintOf(%x, %d) = %q, want %q", sum, n, got, want)
		}
	})
}
