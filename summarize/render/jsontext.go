package render

import (
	"strconv"
	"unicode/utf8"
)

// The writers of every finding (SARIF, Code Quality, the HTML page) append
// their JSON into a reused buffer instead of building values for
// encoding/json: the bytes are the same as encoding/json's Marshal writes
// (then [EscapeJSON], where the writer used it), which the tests compare
// on every corpus report and on hostile strings.

// jsonEscape says how a string is escaped.
type jsonEscape uint8

const (
	// escMarshal is encoding/json's Marshal: ", \ and the C0 controls
	// (\b, \f, \n, \r, \t, else \u00XX), <, > and & (\u003c…), U+2028
	// and U+2029, invalid UTF-8 as \ufffd.
	escMarshal jsonEscape = iota
	// escLog is escMarshal and then [EscapeJSON]: DEL, the C1 controls
	// and the bidirectional overrides and isolates as \u escapes too.
	escLog
)

// jsonPlain marks, for each escaping, the bytes written as they are; a
// byte of 0x80 and over starts a character looked at whole.
var jsonPlain = func() (t [2][256]bool) {
	for c := 0x20; c < 0x80; c++ {
		switch c {
		case '"', '\\', '<', '>', '&':
			continue
		}
		t[escMarshal][c] = true
		t[escLog][c] = c != 0x7f
	}
	return t
}()

const lowerHex = "0123456789abcdef"

// appendJSONText appends s as a JSON string, escaped as esc says.
func appendJSONText(dst []byte, s string, esc jsonEscape) []byte {
	plain := &jsonPlain[esc]
	i := 0
	for i < len(s) && plain[s[i]] {
		i++
	}
	if i == len(s) { // the common case: nothing to escape
		dst = append(dst, '"')
		dst = append(dst, s...)
		return append(dst, '"')
	}
	return appendJSONEscaped(dst, s, i, esc)
}

// appendJSONEscaped is appendJSONText of a string whose first i bytes
// need no escape.
func appendJSONEscaped(dst []byte, s string, i int, esc jsonEscape) []byte {
	plain := &jsonPlain[esc]
	dst = append(dst, '"')
	start := 0
	for i < len(s) {
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default: // the other C0 controls, <, >, &, and DEL for escLog
				dst = append(dst, '\\', 'u', '0', '0', lowerHex[c>>4], lowerHex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029' ||
			esc == escLog && (r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069):
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', lowerHex[r>>12&0xf], lowerHex[r>>8&0xf], lowerHex[r>>4&0xf], lowerHex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendJSONInt appends n as JSON writes an integer.
func appendJSONInt(dst []byte, n int64) []byte { return strconv.AppendInt(dst, n, 10) }
