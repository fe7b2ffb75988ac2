package config

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/recap-dev/recap/reports"
)

// pair is one key and value of a mapping.
type pair = Pair

// nodes is the reader of the file's values, made once.
func (d *decoder) nodes() *Nodes {
	if d.n == nil {
		d.n = &Nodes{What: "the configuration", Max: MaxValues, Fail: d.fail, Limit: d.limit}
	}
	return d.n
}

// value resolves an alias and counts the value (see [Nodes.Value]).
func (d *decoder) value(n *yaml.Node, key string) *yaml.Node { return d.nodes().Value(n, key) }

// mapping returns the pairs of a mapping (see [Nodes.Mapping]).
func (d *decoder) mapping(n *yaml.Node, key, want string) ([]pair, bool) {
	return d.nodes().Mapping(n, key, want)
}

// list returns the items of a list; null is an empty list when nullOK.
func (d *decoder) list(n *yaml.Node, key, want string, nullOK bool) []*yaml.Node {
	n = d.value(n, key)
	switch {
	case n == nil:
		return nil
	case n.Kind == yaml.SequenceNode:
		return n.Content
	case nullOK && isNull(n):
		return nil
	}
	d.fail(n, key, fmt.Errorf("want %s, got %s", want, Kind(n)))
	return nil
}

// str returns a string value.
func (d *decoder) str(n *yaml.Node, key, want string) (string, bool) {
	if n == nil {
		return "", false
	}
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
		return n.Value, true
	}
	d.fail(n, key, fmt.Errorf("want %s, got %s%s", want, Kind(n), quoteHint(n)))
	return "", false
}

// quoteHint suggests quotes for a scalar that YAML read as something
// other than a string (a number, true, a date).
func quoteHint(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode && n.Value != "" && n.ShortTag() != "!!null" {
		return fmt.Sprintf(" (quote it: %q)", n.Value)
	}
	return ""
}

func (d *decoder) unknownKey(p pair, parent string, keys []string) {
	d.fail(p.Node, parent, reports.UnknownWord("key", p.Key, keys, keys))
}

// fail records a mistake at n's place.
func (d *decoder) fail(n *yaml.Node, key string, err error) {
	d.add(&Error{File: d.file, Line: n.Line, Column: n.Column, Key: key, Err: err})
}

// limit records a bound passed, once for each bound.
func (d *decoder) limit(n *yaml.Node, key string, err error) {
	if !d.limited[err.Error()] {
		d.limited[err.Error()] = true
		d.fail(n, key, err)
	}
}

func (d *decoder) add(e *Error) {
	if len(d.errs) < MaxErrors {
		d.errs = append(d.errs, e)
	}
}

// noun drops the article of "an impact".
func noun(what string) string {
	_, n, _ := strings.Cut(what, " ")
	return n
}

// Kind names a node's kind for messages: "a list", "a string".
func Kind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	switch n.ShortTag() {
	case "!!str":
		return "a string"
	case "!!int", "!!float":
		return "a number"
	case "!!bool":
		return "true or false"
	case "!!null":
		return "nothing"
	case "!!timestamp":
		return "a date"
	}
	return "a value of type " + n.ShortTag()
}

func isNull(n *yaml.Node) bool { return IsNull(n) }

// IsNull reports whether n is YAML's null (nothing, ~ or null).
func IsNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

// NotUTF8 is the mistake of a file (name) whose data is not UTF-8 text, at
// its first byte that is not; nil when data is UTF-8.
func NotUTF8(name string, data []byte) *Error {
	if utf8.Valid(data) {
		return nil
	}
	line, col := offsetPos(data, invalidUTF8(data))
	return &Error{File: name, Line: line, Column: col, Err: errors.New("not UTF-8 text")}
}

// invalidUTF8 is the offset of the first byte of data that is not UTF-8.
func invalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(data)
}

// offsetPos is the 1-based line and column (in characters) of an offset.
func offsetPos(data []byte, off int) (int, int) {
	before := string(data[:off])
	line := strings.Count(before, "\n") + 1
	col := utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:]) + 1
	return line, col
}
