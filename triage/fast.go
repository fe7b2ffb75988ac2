package triage

import (
	"hash/maphash"
	"math/bits"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// parseFast reads a triage file written as recap writes it (no comment,
// each value on its line, plain, in single quotes, or in double quotes
// without an escape) in one pass over its lines, some fifty times faster
// than the YAML parser: a file of 10,000 decisions took 0.2 s to parse by
// it, which every run that honours it paid, 9 ms now. Anything else, and
// anything the full reader would refuse or tell about, is not read here
// (ok false): the full reader reads it, and says what is wrong. For a
// file it reads, it gives the entries the full reader gives (FuzzParse
// compares the two). The values are read as pieces of data, then given
// memory of their own (compact), so that data is not held after.
func parseFast(name string, data string) (f *File, ok bool) {
	const head = "version: 1\nentries:\n"
	if len(data) <= len(head) || data[:len(head)] != head || data[len(data)-1] != '\n' {
		return nil, false
	}
	rest := data[len(head):]
	// A large file is read in two halves, on two goroutines, split where
	// an entry begins: each half's text checked, its entries read into
	// their place, their keys hashed, and the halves' keys compared last.
	parts := []string{rest}
	if len(rest) >= halvesFrom {
		if k := strings.Index(rest[len(rest)/2:], "\n  - "); k >= 0 {
			at := len(rest)/2 + k + 1
			parts = []string{rest[:at], rest[at:]}
		}
	}
	counts := make([]int, len(parts))
	total := 0
	for i, p := range parts {
		counts[i] = strings.Count(p, "\n  - ")
		if strings.HasPrefix(p, "  - ") {
			counts[i]++
		}
		total += counts[i]
	}
	if total > MaxEntries {
		return nil, false
	}
	f = &File{Name: name, Version: Version}
	f.Entries = make([]Entry, total)
	f.read = make([]keyFields, total) // their keys, made when a write needs them
	seed := maphash.MakeSeed()
	seen := make([]map[uint64]struct{}, len(parts))
	oks := make([]bool, len(parts))
	read := func(i, from int) {
		out := f.Entries[from : from+counts[i]]
		seen[i] = make(map[uint64]struct{}, len(out))
		oks[i] = fastText(parts[i]) && parseEntries(parts[i], out, seed, seen[i])
		if oks[i] {
			compact(out)
		}
		for k := range out {
			f.read[from+k] = keyFieldsOf(&out[k])
		}
	}
	if len(parts) == 1 {
		read(0, 0)
	} else {
		done := make(chan struct{})
		go func() {
			defer close(done)
			read(1, counts[0])
		}()
		read(0, 0)
		<-done
	}
	for _, ok := range oks {
		if !ok {
			return nil, false
		}
	}
	for i := 1; i < len(parts); i++ {
		for h := range seen[i] {
			if _, dup := seen[0][h]; dup {
				return nil, false // a duplicate key across the halves: the full reader's
			}
		}
	}
	return f, true
}

// compact gives the entries' strings memory of their own, so that the
// file's bytes are not held as long as the entries are (3.7 MB for
// 10,000 decisions, which a run that honours them held to its end, and
// which the collector's pacing doubled): the values entries share (tool,
// rule, path, message, state, reason, who, the days, link, commit) once
// each, the locations and lines in one piece of memory.
func compact(out []Entry) {
	shared := make(map[string]string, 64)
	intern := func(s *string) {
		if *s == "" {
			return
		}
		if v, ok := shared[*s]; ok {
			*s = v
			return
		}
		v := strings.Clone(*s)
		shared[v] = v
		*s = v
	}
	n := 0
	for i := range out {
		n += len(out[i].Location) + len(out[i].Line)
	}
	own := make([]byte, 0, n)
	piece := func(s *string) {
		if *s == "" {
			return
		}
		at := len(own)
		own = append(own, *s...)
		*s = unsafe.String(&own[at], len(*s))
	}
	for i := range out {
		e := &out[i]
		for _, s := range [...]*string{&e.Tool, &e.Rule, &e.Path, &e.Message, (*string)(&e.State), &e.Reason, &e.By, &e.Date, &e.Until, &e.Link, &e.Commit} {
			intern(s)
		}
		piece(&e.Location)
		piece(&e.Line)
	}
}

// halvesFrom is the size from which parseFast reads a file in two halves.
var halvesFrom = 256 << 10

// parseEntries reads the entries of part, lines as recap writes them,
// into out (one for each line that begins an entry), each key's hash
// into seen; false when part is not so written, or an entry lacks a
// required key or repeats one seen.
func parseEntries(part string, out []Entry, seed maphash.Seed, seen map[uint64]struct{}) bool {
	var e *Entry
	n := 0
	var keys uint16 // the keys of the entry read so far, by index in entryKeys
	end := func() bool {
		if e == nil {
			return true
		}
		const required = 1<<0 | 1<<1 | 1<<6 | 1<<7 // tool, rule, state, reason
		if keys&required != required {
			return false
		}
		// A duplicate key, or two keys of one hash (the full reader tells
		// them apart), is the full reader's.
		h := keyHash(seed, e)
		if _, dup := seen[h]; dup {
			return false
		}
		seen[h] = struct{}{}
		return true
	}
	for len(part) > 0 {
		nl := strings.IndexByte(part, '\n')
		line := part[:nl]
		part = part[nl+1:]
		switch {
		case strings.HasPrefix(line, "  - "):
			if !end() || n == len(out) {
				return false
			}
			e, keys = &out[n], 0
			n++
			line = line[4:]
		case strings.HasPrefix(line, "    ") && e != nil:
			line = line[4:]
		default:
			return false
		}
		c := strings.IndexByte(line, ':') // no key has one
		if c < 0 || c+1 == len(line) || line[c+1] != ' ' {
			return false
		}
		k, v := line[:c], line[c+2:]
		i := fastKey(k)
		if i < 0 || keys&(1<<i) != 0 {
			return false
		}
		keys |= 1 << i
		s, ok := fastValue(i, v)
		if !ok || len(s) > MaxText && utf8.RuneCountInString(s) > MaxText || entrySetters[i](e, s) != nil {
			return false
		}
	}
	return end() && n == len(out)
}

// keyHash is the hash of e's Key, made without it.
func keyHash(seed maphash.Seed, e *Entry) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	for _, s := range [...]string{e.Tool, e.Rule, e.Path, e.Location} {
		h.WriteString(s)
		h.WriteByte(0)
	}
	if folded(e.Message) {
		h.WriteString(e.Message)
	} else {
		h.WriteString(foldSpace(e.Message))
	}
	return h.Sum64()
}

// folded reports whether foldSpace(s) is s: ASCII, words one space
// apart, none before the first or after the last (a message as recap
// writes it).
func folded(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf:
			return false
		case c == ' ':
			if i == 0 || i == len(s)-1 || s[i+1] == ' ' {
				return false
			}
		case c <= ' ' || c == 0x7f: // a tab, a line break; YAML's controls are not read here
			return false
		}
	}
	return true
}

// fastText reports whether data is UTF-8 of printable characters and
// newlines only, none that YAML reads as a line break (U+0085, U+2028,
// U+2029) or refuses (controls, U+FEFF, U+FFFE, U+FFFF). Eight bytes of
// printable ASCII at a time are let through at once.
func fastText(data string) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	for i := 0; i < len(data); {
		if i+8 <= len(data) {
			// No byte below 0x20 (subtracting 0x20 from each borrows into
			// its high bit), none of 0x7f (adding 1 sets it) nor above.
			// The lowest byte so marked is one (a borrow or a carry
			// marks only bytes above it): those below it are let through.
			w := uint64(data[i]) | uint64(data[i+1])<<8 | uint64(data[i+2])<<16 | uint64(data[i+3])<<24 |
				uint64(data[i+4])<<32 | uint64(data[i+5])<<40 | uint64(data[i+6])<<48 | uint64(data[i+7])<<56
			m := ((w-0x20*lo)&^w | (w + lo) | w) & hi
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) / 8
		}
		n := textChar(data[i:])
		if n == 0 {
			return false
		}
		i += n
	}
	return true
}

// textChar is the length of the character s begins with when fastText
// lets it through, 0 when not.
func textChar(s string) int {
	if c := s[0]; c < utf8.RuneSelf {
		if c < 0x20 && c != '\n' || c == 0x7f {
			return 0
		}
		return 1
	}
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && n == 1 || r < 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff || r >= 0xd800 && r < 0xe000 || r == 0xfffe || r == 0xffff {
		return 0
	}
	return n
}

// fastKey is the index of an entry's key in entryKeys, -1 for none.
func fastKey(k string) int {
	for i, name := range entryKeys {
		if k == name {
			return i
		}
	}
	return -1
}

// hasPair reports whether a is followed by b somewhere in s, b being a
// character values rarely hold (found first).
func hasPair(s string, a, b byte) bool {
	for i := 1; i < len(s); i++ {
		j := strings.IndexByte(s[i:], b)
		if j < 0 {
			return false
		}
		i += j
		if s[i-1] == a {
			return true
		}
	}
	return false
}

// isDay reports whether s is written as a day, YYYY-MM-DD (of the
// calendar or not).
func isDay(s string) bool {
	return len(s) == 10 && s[4] == '-' && s[7] == '-' && digits(s[:4]) && digits(s[5:7]) && digits(s[8:])
}

// digits reports whether s is ASCII digits only (and not empty).
func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// isHex reports whether s is lower-case hex digits only (and not empty).
func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isDigit(c) && (c < 'a' || c > 'f') {
			return false
		}
	}
	return s != ""
}

// isLocation reports whether s is a location fingerprint: 16 hex digits,
// a colon, the occurrence (1 to 999,999,999).
func isLocation(s string) bool {
	return len(s) >= 18 && len(s) <= 26 && s[16] == ':' && isHex(s[:16]) && s[17] != '0' && digits(s[17:])
}

// isCommit reports whether s is a commit id: 7 to 64 lower-case hex digits.
func isCommit(s string) bool { return len(s) >= 7 && len(s) <= 64 && isHex(s) }

// isYAMLCommit reports whether s, hex digits, is one YAML reads as a
// string: with a letter other than e (no number of YAML's).
func isYAMLCommit(s string) bool {
	return isHex(s) && strings.IndexFunc(s, func(r rune) bool { return r >= 'a' && r <= 'f' && r != 'e' }) >= 0
}

// startsWithTime reports whether s starts with a day and time as YAML
// reads a timestamp: YYYY-M-D (one or two digits each), then a space or a T.
func startsWithTime(s string) bool {
	if len(s) < 5 || !digits(s[:4]) || s[4] != '-' {
		return false
	}
	s = s[5:]
	n := leadingDigits(s)
	if n < 1 || n > 2 || n == len(s) || s[n] != '-' {
		return false
	}
	s = s[n+1:]
	n = leadingDigits(s)
	return n >= 1 && n <= 2 && n < len(s) && (s[n] == ' ' || s[n] == 'T' || s[n] == 't')
}

// leadingDigits is how many ASCII digits s starts with.
func leadingDigits(s string) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}

// fastValue is a value as YAML reads it, when it is surely a string (or a
// day, of date and until) that needs no escape: a plain scalar that
// starts with a letter and is no word YAML reads as something else, or
// with a digit and holds a space (no number does, nor a day without a
// time), a location, a day or a commit of that key, or a scalar in quotes
// on its line.
func fastValue(key int, v string) (string, bool) {
	switch {
	case len(v) == 0:
		return "", false
	case v[0] == '\'':
		if len(v) < 2 || v[len(v)-1] != '\'' {
			return "", false
		}
		in := v[1 : len(v)-1]
		quotes := false
		for i := 0; i < len(in); i++ {
			if in[i] == '\'' {
				if i+1 == len(in) || in[i+1] != '\'' {
					return "", false
				}
				i++
				quotes = true
			}
		}
		if quotes {
			return strings.ReplaceAll(in, "''", "'"), true
		}
		return in, true
	case v[0] == '"':
		if len(v) < 2 || v[len(v)-1] != '"' || strings.ContainsAny(v[1:len(v)-1], "\"\\") { // an escape: the YAML parser reads it
			return "", false
		}
		return v[1 : len(v)-1], true
	}
	if v[len(v)-1] == ' ' || v[len(v)-1] == ':' || hasPair(v, ':', ' ') || hasPair(v, ' ', '#') {
		return "", false
	}
	switch entryKeys[key] {
	case "location":
		if isLocation(v) {
			return v, true
		}
	case "date", "until":
		if isDay(v) {
			return v, true
		}
	case "commit":
		if isYAMLCommit(v) {
			return v, true
		}
	}
	switch c := v[0]; {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		if len(v) <= 5 {
			for _, w := range [...]string{"true", "false", "null"} { // YAML's booleans and null (yes and no are strings)
				if strings.EqualFold(v, w) {
					return "", false
				}
			}
		}
		return v, true
	case c >= '0' && c <= '9' || c == '+' || c == '.':
		// A number has no space; a time of day after a day has one.
		if strings.IndexByte(v, ' ') > 0 && !startsWithTime(v) {
			return v, true
		}
	}
	return "", false
}
