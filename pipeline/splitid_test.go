package pipeline

import (
	"strconv"
	"strings"
	"testing"
)

// splitIDRef is splitID as it was before its shortcut for short numbers.
func splitIDRef(id string) (string, int, bool) {
	i := strings.LastIndexByte(id, '-')
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(id[i+1:])
	if err != nil || n < 0 || strconv.Itoa(n) != id[i+1:] {
		return "", 0, false
	}
	return id[:i], n, true
}

// TestSplitIDAsBefore: splitID takes the ids tag-n as before, and no
// other.
func TestSplitIDAsBefore(t *testing.T) {
	for _, id := range []string{
		"", "a", "a-1", "a-0", "a-00", "a-01", "a-+1", "a--1", "a-", "-5", "x-y-12", "2ibh-76", "a-1x", "a- 1", "a-١",
		"a-123456789012345678", "a-1234567890123456789", "a-9223372036854775807", "a-9223372036854775808", "a-99999999999999999999",
	} {
		tag, n, ok := splitID(id)
		wtag, wn, wok := splitIDRef(id)
		if tag != wtag || n != wn || ok != wok {
			t.Errorf("splitID(%q) = %q, %d, %v; want %q, %d, %v", id, tag, n, ok, wtag, wn, wok)
		}
	}
}

// FuzzSplitID compares splitID with the former code on any id.
func FuzzSplitID(f *testing.F) {
	for _, s := range []string{"a-1", "a-01", "a-123456789012345678", "a-+1", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		tag, n, ok := splitID(id)
		wtag, wn, wok := splitIDRef(id)
		if tag != wtag || n != wn || ok != wok {
			t.Errorf("splitID(%q) = %q, %d, %v; want %q, %d, %v", id, tag, n, ok, wtag, wn, wok)
		}
	})
}
