package english

import "testing"

func TestPlural(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 files"}, {1, "1 file"}, {2, "2 files"}, {-1, "-1 files"}, {1000000, "1000000 files"}} {
		if got := Plural(tc.n, "file", "files"); got != tc.want {
			t.Errorf("Plural(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestVerb(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "match"}, {1, "matches"}, {2, "match"}} {
		if got := Verb(tc.n, "matches", "match"); got != tc.want {
			t.Errorf("Verb(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
