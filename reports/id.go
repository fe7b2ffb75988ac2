package reports

import (
	"bytes"
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"strconv"
)

// The id of a finding is "tag-n": the tag of its input, a hyphen and the
// finding's ordinal in the input (1-based), such as "kq3x-12". Findings
// carry it as a [FindingID], made by [ID]; [ParseID] reads the written form
// back, and every reader of ids goes through it.

// tagAlphabet is the alphabet of input tags: base32's letters in lower case.
const tagAlphabet = "abcdefghijklmnopqrstuvwxyz234567"

var idEncoding = base32.NewEncoding(tagAlphabet).WithPadding(base32.NoPadding)

// MaxTagLen is the longest input tag: the whole hash of the input's path.
const MaxTagLen = 52

// InputTag returns a short tag for an input path (n base32 characters of its
// hash, at most [MaxTagLen]); [ID] joins it with a finding's ordinal.
// Callers that read several inputs lengthen the tag when two inputs' tags
// collide.
func InputTag(path string, n int) string {
	sum := sha256.Sum256([]byte(path))
	// Each 8 characters encode 5 bytes: only the bytes of the characters
	// kept are encoded, so that the tag holds no more than its own (a run
	// of 200,000 inputs keeps a tag each).
	b := sum[:min((n+7)/8*5, len(sum))]
	s := idEncoding.EncodeToString(b)
	if n > len(s) {
		n = len(s)
	}
	return s[:n]
}

// ID returns the id of the n-th finding (1-based) of the input tagged tag,
// written "tag-n". It is unique within a run and stable while the inputs are
// unchanged.
func ID(tag string, n int) FindingID { return FindingID{Tag: tag, N: uint32(n)} }

// FindingID is a finding's id in its parts: the tag of its input and its
// ordinal there (1-based). The zero FindingID is no id: it is written "".
type FindingID struct {
	Tag string
	N   uint32
}

// IsZero reports whether id is no id.
func (id FindingID) IsZero() bool { return id.Tag == "" && id.N == 0 }

// String writes the id as findings carry it, "tag-n"; "" for no id.
func (id FindingID) String() string {
	if id.IsZero() {
		return ""
	}
	var b [MaxTagLen + 16]byte
	return string(id.Append(b[:0]))
}

// Append appends the id as [FindingID.String] writes it to b.
func (id FindingID) Append(b []byte) []byte {
	if id.IsZero() {
		return b
	}
	return strconv.AppendUint(append(append(b, id.Tag...), '-'), uint64(id.N), 10)
}

// MarshalText writes the id as [FindingID.String] does: findings' JSON
// carries "tag-n".
func (id FindingID) MarshalText() ([]byte, error) { return id.Append(nil), nil }

// UnmarshalText reads an id as [ParseID] does; "" is no id.
func (id *FindingID) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*id = FindingID{}
		return nil
	}
	p, ok := ParseID(string(b))
	if !ok {
		return fmt.Errorf("finding id %q: not tag-n (tag: a-z and 2-7, n: 1 or more)", b)
	}
	*id = p
	return nil
}

// Compare compares two ids as their strings compare (the views' last
// tie-break, [Order]), without writing them: "x-10" before "x-9".
func (id FindingID) Compare(o FindingID) int {
	var ba, bb [MaxTagLen + 16]byte
	if len(id.Tag) > MaxTagLen || len(o.Tag) > MaxTagLen {
		return bytes.Compare(id.Append(nil), o.Append(nil)) // not one ParseID gives
	}
	return bytes.Compare(id.Append(ba[:0]), o.Append(bb[:0]))
}

// ParseID reads an id as [ID] writes it, "tag-n": a tag of 1 to
// [MaxTagLen] characters of the tags' alphabet (a–z, 2–7), a hyphen, and
// the ordinal 1 to 2³²−1 in decimal without sign or leading zero. Only
// what ID writes is read (ParseID(s).String() is s), so that one finding
// has one id; false for anything else.
func ParseID(s string) (FindingID, bool) {
	i := len(s) - 1
	for i >= 0 && '0' <= s[i] && s[i] <= '9' {
		i--
	}
	digits := s[i+1:]
	if i < 1 || s[i] != '-' || digits == "" || digits[0] == '0' || len(digits) > 10 {
		return FindingID{}, false
	}
	tag := s[:i]
	if len(tag) > MaxTagLen {
		return FindingID{}, false
	}
	for j := 0; j < len(tag); j++ {
		if c := tag[j]; !('a' <= c && c <= 'z' || '2' <= c && c <= '7') {
			return FindingID{}, false
		}
	}
	n, err := strconv.ParseUint(digits, 10, 32)
	if err != nil {
		return FindingID{}, false
	}
	return FindingID{Tag: tag, N: uint32(n)}, true
}
