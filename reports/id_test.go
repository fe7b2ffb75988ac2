package reports

import (
	"crypto/sha256"
	"strings"
	"testing"
)

// TestParseID: ParseID reads what ID writes and nothing else: hostile and
// near-miss ids are refused, never read as another finding's.
func TestParseID(t *testing.T) {
	long := strings.Repeat("a", MaxTagLen)
	for _, tc := range []struct {
		in   string
		want FindingID
		ok   bool
	}{
		{"kq3x-12", FindingID{"kq3x", 12}, true},
		{"a-1", FindingID{"a", 1}, true},
		{"abcd-4294967295", FindingID{"abcd", 1<<32 - 1}, true},
		{long + "-7", FindingID{long, 7}, true},
		{InputTag("reports/pmd.sarif", MaxTagLen+10) + "-3", FindingID{InputTag("reports/pmd.sarif", MaxTagLen), 3}, true},
		{"", FindingID{}, false},
		{"-", FindingID{}, false},
		{"-5", FindingID{}, false},              // no tag
		{"abcd-", FindingID{}, false},           // no ordinal
		{"abcd", FindingID{}, false},            // no hyphen
		{"abcd12", FindingID{}, false},          // no hyphen
		{"abcd-0", FindingID{}, false},          // ordinals start at 1
		{"abcd-05", FindingID{}, false},         // leading zero: "abcd-5" is the id
		{"abcd-+5", FindingID{}, false},         // sign
		{"abcd--5", FindingID{}, false},         // hyphen in the tag
		{"ab-cd-5", FindingID{}, false},         // hyphen in the tag
		{"abcd-4294967296", FindingID{}, false}, // over 2³²−1
		{"abcd-99999999999999999999", FindingID{}, false},
		{"abcd-1 ", FindingID{}, false},
		{" abcd-1", FindingID{}, false},
		{"ABCD-1", FindingID{}, false},  // upper case is not a tag's
		{"ab1d-1", FindingID{}, false},  // 1 is not in base32's alphabet
		{"abcd-1x", FindingID{}, false}, // junk after the ordinal
		{"abcd-١", FindingID{}, false},  // Arabic-Indic digit
		{"abcdé-1", FindingID{}, false},
		{"abcd\x00-1", FindingID{}, false},
		{"abcd-1\n", FindingID{}, false},
		{long + "a-1", FindingID{}, false}, // tag longer than any input's
		{strings.Repeat("a", 1<<20) + "-1", FindingID{}, false},
		{"abcd-" + strings.Repeat("9", 1<<20), FindingID{}, false},
		{"0123456789abcdef", FindingID{}, false},   // a fingerprint
		{"0123456789abcdef:2", FindingID{}, false}, // a fingerprint's occurrence
		{"pmd-sarif-12", FindingID{}, false},
	} {
		got, ok := ParseID(tc.in)
		if ok != tc.ok || got != tc.want {
			name := tc.in
			if len(name) > 80 {
				name = name[:80] + "…"
			}
			t.Errorf("ParseID(%q) = %+v, %v; want %+v, %v", name, got, ok, tc.want, tc.ok)
		}
		if ok && got.String() != tc.in {
			t.Errorf("ParseID(%q).String() = %q", tc.in, got.String())
		}
	}
}

// TestFindingIDCompare: ids compare as their strings do, the last
// tie-break of every order.
func TestFindingIDCompare(t *testing.T) {
	ids := []FindingID{{"x", 9}, {"x", 10}, {"x", 1}, {"xa", 1}, {"x", 1<<32 - 1}, {"a", 5}, {"", 3}, {strings.Repeat("z", 60), 2}, {"abcd", 12}, {"abc", 12}}
	for _, a := range ids {
		for _, b := range ids {
			if got, want := a.Compare(b), strings.Compare(a.String(), b.String()); got != want {
				t.Errorf("%s.Compare(%s) = %d, want %d", a, b, got, want)
			}
		}
	}
}

// FuzzParseID: what ParseID reads, ID writes back the same, and ids
// compare as their strings.
func FuzzParseID(f *testing.F) {
	for _, s := range []string{"kq3x-12", "a-1", "abcd-05", "-5", "ab-cd-5", "abcd-4294967296", "x-10", "x-9"} {
		f.Add(s, "x-9")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		x, ok := ParseID(a)
		if !ok {
			return
		}
		if x.String() != a || ID(x.Tag, int(x.N)).String() != a {
			t.Fatalf("ParseID(%q) = %+v, which writes %q", a, x, x.String())
		}
		if y, ok := ParseID(b); ok {
			if got, want := x.Compare(y), strings.Compare(a, b); got != want {
				t.Fatalf("%q.Compare(%q) = %d, want %d", a, b, got, want)
			}
		}
	})
}

// TestInputTagPrefix: a tag is the start of the whole hash's encoding,
// for every length.
func TestInputTagPrefix(t *testing.T) {
	for _, path := range []string{"", "build/pmd.sarif", "/tmp/r0000001.sarif", "é/ü.xml"} {
		sum := sha256.Sum256([]byte(path))
		whole := idEncoding.EncodeToString(sum[:])
		for n := 1; n <= len(whole)+2; n++ {
			got := InputTag(path, n)
			if want := whole[:min(n, len(whole))]; got != want {
				t.Errorf("InputTag(%q, %d) = %q, want %q", path, n, got, want)
			}
		}
	}
	if n := testing.AllocsPerRun(10, func() { _ = InputTag("build/pmd.sarif", 8) }); n > 2 {
		t.Errorf("%v allocations, want at most 2", n)
	}
}
