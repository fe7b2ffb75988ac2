package config

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/recap-dev/recap/reports"
)

// A pair is one key and value of a mapping.
type pair struct {
	key   string
	node  *yaml.Node // the key, for its place
	value *yaml.Node
}

// maxAliasHops bounds a chain of aliases (an alias of an anchored alias…).
const maxAliasHops = 8

// value resolves an alias to its anchored value and counts the value
// against MaxValues; nil when it cannot be read (the mistake recorded).
func (d *decoder) value(n *yaml.Node, key string) *yaml.Node {
	for hops := 0; n != nil; hops++ {
		if d.values++; d.values > MaxValues {
			d.limit(n, key, fmt.Errorf("more than %d values (an alias counts each time it is used)", MaxValues))
			return nil
		}
		switch {
		case n.Kind == yaml.AliasNode && n.Alias != nil && hops < maxAliasHops:
			n = n.Alias
		case n.Kind == yaml.AliasNode:
			d.fail(n, key, fmt.Errorf("an alias (*%s) that leads nowhere", n.Value))
			return nil
		case n.Style&yaml.TaggedStyle != 0 && !strings.HasPrefix(n.ShortTag(), "!!"):
			d.fail(n, key, fmt.Errorf("a tag (%s): the configuration has none", n.Tag))
			return nil
		default:
			return n
		}
	}
	return nil
}

// mapping returns the pairs of a mapping, each key a string given once;
// want says what was expected when n is not a mapping.
func (d *decoder) mapping(n *yaml.Node, key, want string) ([]pair, bool) {
	if n.Kind != yaml.MappingNode {
		d.fail(n, key, fmt.Errorf("want %s, got %s", want, kind(n)))
		return nil, false
	}
	pairs := make([]pair, 0, len(n.Content)/2)
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case k.ShortTag() == "!!merge":
			d.fail(k, key, errors.New("a merge key (<<): write the values themselves"))
			continue
		case k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str":
			d.fail(k, key, fmt.Errorf("a key that is %s (want %s)", kind(k), want))
			continue
		}
		if first, dup := seen[k.Value]; dup {
			d.fail(k, joinKey(key, k.Value), fmt.Errorf("given twice (first on line %d)", first.Line))
			continue
		}
		seen[k.Value] = k
		pairs = append(pairs, pair{key: k.Value, node: k, value: v})
	}
	return pairs, true
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
	d.fail(n, key, fmt.Errorf("want %s, got %s", want, kind(n)))
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
	d.fail(n, key, fmt.Errorf("want %s, got %s%s", want, kind(n), quoteHint(n)))
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
	d.fail(p.node, parent, reports.UnknownWord("key", p.key, keys, keys))
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

func joinKey(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// noun drops the article of "an impact".
func noun(what string) string {
	_, n, _ := strings.Cut(what, " ")
	return n
}

// kind names a node's kind for messages: "a list", "a string".
func kind(n *yaml.Node) string {
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

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

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
