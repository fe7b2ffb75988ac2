package reports

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Fingerprint returns f's identity across runs, 16 hex digits: the
// number [FingerprintSum] gives, written in hex. Findings of one identity
// (the same rule's message twice in a file) share it; the reader tells
// them apart by their occurrence ([Occurrence]).
func Fingerprint(f Finding, partial map[string]string) string {
	return FingerprintHex(FingerprintSum(f, partial))
}

// FingerprintHex writes a fingerprint's number as its 16 hex digits.
func FingerprintHex(sum uint64) string {
	var b [16]byte
	const digits = "0123456789abcdef"
	for i := 15; i >= 0; i-- {
		b[i] = digits[sum&0xf]
		sum >>= 4
	}
	return string(b[:])
}

// FingerprintOf returns the fingerprint of the n-th finding of the
// identity sum: Occurrence(FingerprintHex(sum), n), made in one piece.
func FingerprintOf(sum uint64, n int) string {
	var b [16 + 1 + 20]byte
	const digits = "0123456789abcdef"
	for i := 15; i >= 0; i-- {
		b[i] = digits[sum&0xf]
		sum >>= 4
	}
	if n <= 1 {
		return string(b[:16])
	}
	b[16] = ':'
	return string(strconv.AppendInt(b[:17], int64(n), 10))
}

// ParseFingerprint takes a fingerprint as recap writes it apart (the
// identity's 16 lower-case hex digits, and ":n" for an occurrence n of 2
// or more, written as strconv writes it) and reports whether fp has that
// form: that is, whether FingerprintOf(sum, n) is fp.
func ParseFingerprint(fp string) (sum uint64, n int, ok bool) {
	if len(fp) < 16 || len(fp) == 17 {
		return 0, 0, false
	}
	for i := range 16 {
		c := fp[i]
		switch {
		case '0' <= c && c <= '9':
			sum = sum<<4 | uint64(c-'0')
		case 'a' <= c && c <= 'f':
			sum = sum<<4 | uint64(c-'a'+10)
		default:
			return 0, 0, false
		}
	}
	if len(fp) == 16 {
		return sum, 1, true
	}
	if fp[16] != ':' || fp[17] == '0' || len(fp) > 17+19 {
		return 0, 0, false
	}
	for i := 17; i < len(fp); i++ {
		c := fp[i]
		if c < '0' || c > '9' {
			return 0, 0, false
		}
		d := int(c - '0')
		if n > (math.MaxInt-d)/10 {
			return 0, 0, false
		}
		n = n*10 + d
	}
	if n < 2 {
		return 0, 0, false
	}
	return sum, n, true
}

// FingerprintSum returns f's identity across runs as a number.
//
// Where the report carries SARIF partialFingerprints (§3.27.17), they win: the
// hash covers the tool, the rule and every partial fingerprint, so the value
// follows the tool's own notion of identity. Otherwise the hash covers the
// tool, the rule, the path and the message with its white space folded. Line
// and column are left out on purpose, so that a finding whose code moved keeps
// its fingerprint.
func FingerprintSum(f Finding, partial map[string]string) uint64 {
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
	return binary.BigEndian.Uint64(sum[:8])
}

// Occurrence returns the fingerprint of the n-th finding (1-based, in the
// order of its report) whose identity is fp: fp for the first, fp:n for
// the others ("7b473f4670c92020:2"), so that every finding of a report has
// a fingerprint of its own, which it keeps while the findings of its
// identity before it stay (as GitHub's primaryLocationLineHash counts).
func Occurrence(fp string, n int) string {
	if n <= 1 || fp == "" {
		return fp
	}
	return fp + ":" + strconv.Itoa(n)
}

// SplitFingerprint returns a fingerprint's identity and its occurrence:
// "7b473f4670c92020:2" → "7b473f4670c92020", 2; "7b473f4670c92020" (or
// "…:1") → "7b473f4670c92020", 1.
func SplitFingerprint(fp string) (string, int) {
	i := strings.LastIndexByte(fp, ':')
	if i <= 0 {
		return fp, 1
	}
	n, err := strconv.Atoi(fp[i+1:])
	if err != nil || n < 1 || fp[i+1] == '+' || fp[i+1] == '-' {
		return fp, 1
	}
	return fp[:i], n
}

// NormalFingerprint writes a fingerprint as findings carry it: a first
// occurrence without ":1" ("7b47…:1", as SARIF's partial fingerprint and
// GitHub write it, is "7b47…").
func NormalFingerprint(fp string) string { return Occurrence(SplitFingerprint(fp)) }

// SARIFFingerprintKey names recap's fingerprint in SARIF
// partialFingerprints (§3.27.17). Its value is the finding's identity, a
// colon and its occurrence ("7b473f4670c92020:1"), which recap's reader
// takes back as the finding's fingerprint as it is, so that recap's SARIF
// of a report gives the report's own fingerprints.
const SARIFFingerprintKey = "recapFingerprint/v1"

// CodeQualityFingerprint writes a fingerprint ("7b473f4670c92020:2", the
// finding's own occurrence) and the number of findings of the set written
// with that one before it (copy, [Occurrences.Copy]) as recap's Code
// Quality report writes it: 32 hex digits, the identity's 16, then the
// copy's 8 and the occurrence's 8 ("7b473f4670c920200000000000000002").
// It is unique in the set, as GitLab wants, the same from run to run, and
// [ParseCodeQualityFingerprint] takes the finding's own fingerprint back;
// "" for a fingerprint of another form.
func CodeQualityFingerprint(fp string, copy int) string {
	id, n := SplitFingerprint(fp)
	if len(id) != 16 || n > 1<<31 || copy < 0 || copy > 1<<31 {
		return ""
	}
	if _, err := strconv.ParseUint(id, 16, 64); err != nil {
		return ""
	}
	return strings.ToLower(id) + fmt.Sprintf("%08x%08x", copy, n)
}

// ParseCodeQualityFingerprint takes back the fingerprint that
// [CodeQualityFingerprint] wrote, "identity:n", and whether s has that
// form (32 lowercase hex digits, the occurrence 1 to 2³¹).
func ParseCodeQualityFingerprint(s string) (string, bool) {
	if len(s) != 32 || strings.ToLower(s) != s {
		return "", false
	}
	if _, err := strconv.ParseUint(s[:16], 16, 64); err != nil {
		return "", false
	}
	copy, err := strconv.ParseUint(s[16:24], 16, 32)
	if err != nil || copy > 1<<31 {
		return "", false
	}
	n, err := strconv.ParseUint(s[24:], 16, 32)
	if err != nil || n < 1 || n > 1<<31 {
		return "", false
	}
	return s[:16] + ":" + strconv.FormatUint(n, 10), true
}

// Occurrences keeps the fingerprints written in one set of results unique
// (a Code Quality report, whose fingerprints GitLab wants unique; recap's
// SARIF keeps each report's own): a finding keeps its own occurrence,
// unless another finding of the set took the same (findings of one
// identity from two reports), when it gets the next one free. Its memory
// is a word per finding written.
type Occurrences struct {
	used   map[uint64]struct{}
	copies map[uint64]uint32 // Copy's counts
}

// Copy returns fp with its occurrence, "identity:n" (its own, kept), and
// how many times the set was given that value before (0 the first time):
// findings of one identity from two reports share it. Recap's Code
// Quality report writes both ([CodeQualityFingerprint]).
func (o *Occurrences) Copy(fp string) (string, int) {
	if fp == "" {
		return "", 0
	}
	id, n := SplitFingerprint(fp)
	if o.copies == nil {
		o.copies = map[uint64]uint32{}
	}
	k := occurrenceKey(id) ^ uint64(n)*0x9e3779b97f4a7c15
	c := o.copies[k]
	o.copies[k] = c + 1
	return id + ":" + strconv.Itoa(n), int(c)
}

// Value returns fp with its occurrence, "identity:n", unique in the set.
func (o *Occurrences) Value(fp string) string {
	if fp == "" {
		return ""
	}
	id, n := SplitFingerprint(fp)
	if o.used == nil {
		o.used = map[uint64]struct{}{}
	}
	base := occurrenceKey(id)
	for {
		k := base ^ uint64(n)*0x9e3779b97f4a7c15
		if _, taken := o.used[k]; !taken {
			o.used[k] = struct{}{}
			return id + ":" + strconv.Itoa(n)
		}
		n++
	}
}

// occurrenceKey packs an identity (16 hex digits) in a word; another form
// is hashed.
func occurrenceKey(id string) uint64 {
	if len(id) == 16 {
		if n, err := strconv.ParseUint(id, 16, 64); err == nil {
			return n
		}
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()
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
			// A run of ASCII that is no space, appended at once.
			for i+n < len(s) && s[i+n] < utf8.RuneSelf && !asciiSpace[s[i+n]] {
				n++
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
