package triage

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// parseFast reads a triage file written as recap writes it (no comment,
// each value on its line, plain, in single quotes, or in double quotes
// without an escape) in one pass
// over its lines, some ten times faster than the YAML parser: a file of
// 10,000 decisions took 0.2 s to parse, which every run that honours it
// paid. Anything else, and anything the full reader would refuse or tell
// about, is not read here (ok false): the full reader reads it, and says
// what is wrong. For a file it reads, it gives the entries the full
// reader gives (FuzzParse compares the two).
func parseFast(name string, data []byte) (f *File, ok bool) {
	if !fastText(data) {
		return nil, false
	}
	rest, ok := bytes.CutPrefix(data, []byte("version: 1\nentries:\n"))
	if !ok || len(rest) == 0 || rest[len(rest)-1] != '\n' {
		return nil, false
	}
	f = &File{Name: name, Version: Version, nodes: map[string]*yaml.Node{}}
	f.Entries = make([]Entry, 0, bytes.Count(rest, []byte("\n  - ")))
	seen := make(map[string]bool, cap(f.Entries))
	var e *Entry
	var keys uint16 // the keys of the entry read so far, by index in entryKeys
	end := func() bool {
		if e == nil {
			return true
		}
		for _, req := range [...]int{0, 1, 6, 7} { // tool, rule, state, reason
			if keys&(1<<req) == 0 {
				return false
			}
		}
		k := e.Key()
		if seen[k] {
			return false
		}
		seen[k] = true
		return true
	}
	for len(rest) > 0 {
		nl := bytes.IndexByte(rest, '\n')
		line := rest[:nl]
		rest = rest[nl+1:]
		switch {
		case bytes.HasPrefix(line, []byte("  - ")):
			if !end() || len(f.Entries) == MaxEntries {
				return nil, false
			}
			f.Entries = append(f.Entries, Entry{})
			e, keys = &f.Entries[len(f.Entries)-1], 0
			line = line[4:]
		case bytes.HasPrefix(line, []byte("    ")) && e != nil:
			line = line[4:]
		default:
			return nil, false
		}
		k, v, ok := bytes.Cut(line, []byte(": "))
		if !ok {
			return nil, false
		}
		i := fastKey(k)
		if i < 0 || keys&(1<<i) != 0 {
			return nil, false
		}
		keys |= 1 << i
		key := entryKeys[i]
		s, ok := fastValue(key, v)
		if !ok || utf8.RuneCountInString(s) > MaxText || entryFields[key](e, s) != nil {
			return nil, false
		}
	}
	if !end() {
		return nil, false
	}
	f.base = seen // the keys of the entries as read
	return f, true
}

// fastText reports whether data is UTF-8 of printable characters and
// newlines only, none that YAML reads as a line break (U+0085, U+2028,
// U+2029) or refuses (controls, U+FEFF, U+FFFE, U+FFFF).
func fastText(data []byte) bool {
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 || r < 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff || r >= 0xd800 && r < 0xe000 || r == 0xfffe || r == 0xffff {
			return false
		}
		i += n
	}
	return true
}

// fastKey is the index of an entry's key in entryKeys, -1 for none.
func fastKey(k []byte) int {
	for i, name := range entryKeys {
		if string(k) == name {
			return i
		}
	}
	return -1
}

var (
	fastDay    = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
	fastCommit = regexp.MustCompile(`^[0-9a-f]*[a-df][0-9a-f]*$`) // a letter other than e: no number of YAML's
	fastTime   = regexp.MustCompile(`^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}[ Tt]`)
)

// fastValue is a value as YAML reads it, when it is surely a string (or a
// day, of date and until) that needs no escape: a plain scalar that
// starts with a letter and is no word YAML reads as something else, or
// with a digit and holds a space (no number does, nor a day without a
// time), a location, a day or a commit of that key, or a scalar in quotes
// on its line.
func fastValue(key string, v []byte) (string, bool) {
	switch {
	case len(v) == 0:
		return "", false
	case v[0] == '\'':
		if len(v) < 2 || v[len(v)-1] != '\'' {
			return "", false
		}
		in := v[1 : len(v)-1]
		for i := 0; i < len(in); i++ {
			if in[i] == '\'' {
				if i+1 == len(in) || in[i+1] != '\'' {
					return "", false
				}
				i++
			}
		}
		return strings.ReplaceAll(string(in), "''", "'"), true
	case v[0] == '"':
		if len(v) < 2 || v[len(v)-1] != '"' || bytes.ContainsAny(v[1:len(v)-1], "\"\\") { // an escape: the YAML parser reads it
			return "", false
		}
		return string(v[1 : len(v)-1]), true
	}
	if v[len(v)-1] == ' ' || v[len(v)-1] == ':' || bytes.Contains(v, []byte(": ")) || bytes.Contains(v, []byte(" #")) {
		return "", false
	}
	switch key {
	case "location":
		if locationSyntax.Match(v) {
			return string(v), true
		}
	case "date", "until":
		if fastDay.Match(v) {
			return string(v), true
		}
	case "commit":
		if fastCommit.Match(v) {
			return string(v), true
		}
	}
	switch c := v[0]; {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		if len(v) <= 5 {
			for _, w := range [...]string{"true", "false", "null"} { // YAML's booleans and null (yes and no are strings)
				if strings.EqualFold(string(v), w) {
					return "", false
				}
			}
		}
		return string(v), true
	case c >= '0' && c <= '9' || c == '+' || c == '.':
		// A number has no space; a time of day after a day has one.
		if bytes.IndexByte(v, ' ') > 0 && !fastTime.Match(v) {
			return string(v), true
		}
	}
	return "", false
}
