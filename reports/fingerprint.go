package reports

import (
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"sort"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Fingerprint returns f's identity across runs, 16 hex digits.
//
// Where the report carries SARIF partialFingerprints (§3.27.17), they win: the
// hash covers the tool, the rule and every partial fingerprint, so the value
// follows the tool's own notion of identity. Otherwise the hash covers the
// tool, the rule, the path and the message with its white space folded. Line
// and column are left out on purpose, so that a finding whose code moved keeps
// its fingerprint.
func Fingerprint(f Finding, partial map[string]string) string {
	// The parts are joined, each ended by a 0 byte, and hashed at once: many
	// small writes to the hash cost more than the copy.
	var stack [512]byte
	b := stack[:0]
	add := func(s string) { b = append(append(b, s...), 0) }
	add(f.Tool)
	add(f.Rule)
	if len(partial) > 0 {
		keys := make([]string, 0, len(partial))
		for k := range partial {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		add("partial")
		for _, k := range keys {
			add(k)
			add(partial[k])
		}
	} else {
		add(f.Path)
		b = appendFolded(b, f.Message)
		b = append(b, 0)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// appendFolded appends s with its white space folded, as
// strings.Join(strings.Fields(s), " ") would give it, without building it.
func appendFolded(b []byte, s string) []byte {
	started, space := false, false
	for i := 0; i < len(s); {
		n := 1
		if c := s[i]; c < utf8.RuneSelf {
			if asciiSpace[c] {
				space = started
				i++
				continue
			}
		} else {
			var r rune
			r, n = utf8.DecodeRuneInString(s[i:])
			if unicode.IsSpace(r) {
				space = started
				i += n
				continue
			}
		}
		if space {
			b = append(b, ' ')
			space = false
		}
		b = append(b, s[i:i+n]...)
		started = true
		i += n
	}
	return b
}

var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// InputTag returns a short tag for an input path (n base32 characters of its
// hash); [ID] joins it with a finding's ordinal. Callers that read several
// inputs lengthen the tag when two inputs' tags collide.
func InputTag(path string, n int) string {
	sum := sha256.Sum256([]byte(path))
	s := idEncoding.EncodeToString(sum[:])
	if n > len(s) {
		n = len(s)
	}
	return s[:n]
}

// ID returns the id of the n-th finding (1-based) of the input tagged tag:
// "tag-n". It is unique within a run and stable while the inputs are unchanged.
func ID(tag string, n int) string {
	return tag + "-" + strconv.Itoa(n)
}
