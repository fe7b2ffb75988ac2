package config

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Nodes reads the values of a YAML node tree as recap's files are read
// key by key (.recap.yml here, the triage file in package triage): an
// alias resolved to its anchored value at most a few hops deep, every value
// visited (an alias each time it is used) counted against Max, no tag of
// the file's own, no merge key, every key a string given once. Its
// mistakes go to Fail, and the bound's to Limit.
type Nodes struct {
	// What names the file in messages ("the configuration").
	What string
	// Max bounds the values visited; Count is how many were.
	Max, Count int
	// Fail records a mistake at n under key; Limit a bound reached.
	Fail, Limit func(n *yaml.Node, key string, err error)
}

// A Pair is one key and value of a mapping.
type Pair struct {
	Key   string
	Node  *yaml.Node // the key, for its place
	Value *yaml.Node
}

// maxAliasHops bounds a chain of aliases (an alias of an anchored alias…).
const maxAliasHops = 8

// Value resolves an alias to its anchored value and counts the value
// against Max; nil when it cannot be read (the mistake recorded).
func (r *Nodes) Value(n *yaml.Node, key string) *yaml.Node {
	for hops := 0; n != nil; hops++ {
		if r.Count++; r.Count > r.Max {
			r.Limit(n, key, fmt.Errorf("more than %d values (an alias counts each time it is used)", r.Max))
			return nil
		}
		switch {
		case n.Kind == yaml.AliasNode && n.Alias != nil && hops < maxAliasHops:
			n = n.Alias
		case n.Kind == yaml.AliasNode:
			r.Fail(n, key, fmt.Errorf("an alias (*%s) that leads nowhere", n.Value))
			return nil
		case n.Style&yaml.TaggedStyle != 0 && !strings.HasPrefix(n.ShortTag(), "!!"):
			r.Fail(n, key, fmt.Errorf("a tag (%s): %s has none", n.Tag, r.What))
			return nil
		default:
			return n
		}
	}
	return nil
}

// Mapping returns the pairs of a mapping, each key a string given once;
// want says what was expected when n is not a mapping.
func (r *Nodes) Mapping(n *yaml.Node, key, want string) ([]Pair, bool) {
	if n.Kind != yaml.MappingNode {
		r.Fail(n, key, fmt.Errorf("want %s, got %s", want, Kind(n)))
		return nil, false
	}
	pairs := make([]Pair, 0, len(n.Content)/2)
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case k.ShortTag() == "!!merge":
			r.Fail(k, key, errors.New("a merge key (<<): write the values themselves"))
			continue
		case k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str":
			r.Fail(k, key, fmt.Errorf("a key that is %s (want %s)", Kind(k), want))
			continue
		}
		if first, dup := seen[k.Value]; dup {
			r.Fail(k, JoinKey(key, k.Value), fmt.Errorf("given twice (first on line %d)", first.Line))
			continue
		}
		seen[k.Value] = k
		pairs = append(pairs, Pair{Key: k.Value, Node: k, Value: v})
	}
	return pairs, true
}

// Resolve follows an alias to its anchored value, a few hops at most, and
// returns n itself otherwise (comments are read where they were written).
func Resolve(n *yaml.Node) *yaml.Node {
	for hops := 0; n.Kind == yaml.AliasNode && n.Alias != nil && hops < maxAliasHops; hops++ {
		n = n.Alias
	}
	return n
}

// JoinKey names a key under its parent ("exclude.paths").
func JoinKey(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}
