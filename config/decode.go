package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/reports"
)

// The file is read in two steps: go.yaml.in/yaml/v3 parses it into a tree
// of nodes (each with its line and column; aliases left as references to
// their anchor), and the decoder below walks that tree along the format's
// fixed shape, checking each key and value itself. Walking by the shape
// rather than decoding into structs is what lets each message name the
// key path, say what was wanted and suggest the nearest word; it also
// bounds the work: the walk never goes deeper than the format, and every
// value visited, an alias each time it is used, counts against MaxValues.

// decoder collects the mistakes of one file while walking its tree.
type decoder struct {
	file    string
	errs    []*Error
	n       *Nodes          // the reader of its values (nodes)
	rules   int             // rule patterns read
	paths   int             // path globs read
	limited map[string]bool // bounds already reported
}

// The keys of each mapping of the format, in the order messages list them.
var (
	topKeys      = []string{"version", "exclude", "overrides", "same", "triage"}
	excludeKeys  = []string{"paths", "rules"}
	overrideKeys = []string{"rules", "impact", "quality", "severity", "category"}
)

func decode(name string, data []byte) (*Config, []*Error) {
	d := &decoder{file: name, limited: map[string]bool{}}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if e := NotUTF8(name, data); e != nil {
		d.add(e)
		return nil, d.errs
	}
	root, ok := d.parse(data)
	if !ok {
		return nil, d.errs
	}
	c := &Config{Name: name, Version: Version}
	d.config(root, c)
	if len(d.errs) > 0 {
		slices.SortStableFunc(d.errs, func(a, b *Error) int {
			if a.Line != b.Line {
				return a.Line - b.Line
			}
			return a.Column - b.Column
		})
		return nil, d.errs
	}
	return c, nil
}

// parse parses data into the root node of its one document (nil for an
// empty file).
func (d *decoder) parse(data []byte) (*yaml.Node, bool) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	switch err := dec.Decode(&doc); {
	case errors.Is(err, io.EOF):
		return nil, true
	case err != nil:
		d.add(syntaxError(d.file, data, err))
		return nil, false
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		d.add(syntaxError(d.file, data, err))
		return nil, false
	default:
		d.fail(&next, "", errors.New("a second YAML document: a configuration is one"))
		return nil, false
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		return doc.Content[0], true
	}
	return nil, true
}

// config reads the top mapping.
func (d *decoder) config(root *yaml.Node, c *Config) {
	n := d.value(root, "")
	if n == nil || isNull(n) {
		return
	}
	pairs, ok := d.mapping(n, "", "a mapping of "+text.List(topKeys, "or"))
	if !ok {
		return
	}
	for _, p := range pairs {
		switch p.Key {
		case "version":
			d.version(p.Value)
		case "exclude":
			d.exclude(p.Value, &c.Exclude)
		case "overrides":
			d.overrides(p.Value, c)
		case "same":
			d.same(p.Value, c)
		case "triage":
			d.triage(p.Value, c)
		default:
			d.unknownKey(p, "", topKeys)
		}
	}
}

func (d *decoder) version(n *yaml.Node) {
	n = d.value(n, "version")
	if n == nil {
		return
	}
	var v float64
	if tag := n.ShortTag(); n.Kind != yaml.ScalarNode || tag != "!!int" && tag != "!!float" || n.Decode(&v) != nil {
		d.fail(n, "version", fmt.Errorf("want the number %d, got %s", Version, Kind(n)))
		return
	}
	if v != Version {
		d.fail(n, "version", fmt.Errorf("version %s is not one this recap reads (want %d)", n.Value, Version))
	}
}

func (d *decoder) exclude(n *yaml.Node, e *Exclude) {
	n = d.value(n, "exclude")
	if n == nil || isNull(n) {
		return
	}
	pairs, ok := d.mapping(n, "exclude", "a mapping of "+text.List(excludeKeys, "or"))
	if !ok {
		return
	}
	for _, p := range pairs {
		key := "exclude." + p.Key
		switch p.Key {
		case "paths":
			for i, item := range d.list(p.Value, key, "a list of path globs", true) {
				if g, ok := d.pathGlob(item, fmt.Sprintf("%s[%d]", key, i)); ok {
					e.Paths = append(e.Paths, g)
				}
			}
		case "rules":
			e.Rules = append(e.Rules, d.rulePatterns(p.Value, key, true)...)
		default:
			d.unknownKey(p, "exclude", excludeKeys)
		}
	}
}

func (d *decoder) overrides(n *yaml.Node, c *Config) {
	for i, item := range d.list(n, "overrides", "a list of overrides (rules: and what to change)", true) {
		key := fmt.Sprintf("overrides[%d]", i)
		item = d.value(item, key)
		if item == nil {
			continue
		}
		pairs, ok := d.mapping(item, key, "an override: a mapping of "+text.List(overrideKeys, "or"))
		if !ok {
			continue
		}
		o := Override{Pos: Pos{Key: key, Line: item.Line, Column: item.Column}}
		hasRules, changes, unknown := false, 0, 0
		for _, p := range pairs {
			k := key + "." + p.Key
			switch p.Key {
			case "rules":
				hasRules = true
				o.Rules = d.rulePatterns(p.Value, k, false)
				if v := d.value(p.Value, k); v != nil && v.Kind == yaml.SequenceNode && len(v.Content) == 0 {
					d.fail(v, k, errors.New("an empty list (want one Tool:Rule pattern or more)"))
				}
				continue
			case "impact":
				o.Impact = word(d, p.Value, k, "an impact", reports.Impacts, reports.ParseImpact)
			case "quality":
				o.Quality = word(d, p.Value, k, "a quality", reports.Qualities, reports.ParseQuality)
			case "severity":
				o.Severity = word(d, p.Value, k, "a severity", reports.Severities, reports.ParseSeverity)
			case "category":
				o.Category = d.category(p.Value, k)
			default:
				d.unknownKey(p, key, overrideKeys)
				unknown++
				continue
			}
			changes++
		}
		// A key written wrong is likely the one missing: one message is enough.
		if !hasRules && unknown == 0 {
			d.fail(item, key, errors.New("no rules (want rules: [Tool:Rule, ...], the rules to change)"))
		}
		if changes == 0 && unknown == 0 {
			d.fail(item, key, errors.New("nothing to change (want impact, quality, severity or category)"))
		}
		c.Overrides = append(c.Overrides, o)
	}
}

func (d *decoder) same(n *yaml.Node, c *Config) {
	for i, item := range d.list(n, "same", "a list of groups of rules that mean the same", true) {
		key := fmt.Sprintf("same[%d]", i)
		v := d.value(item, key)
		if v == nil {
			continue
		}
		if v.Kind != yaml.SequenceNode {
			d.fail(v, key, fmt.Errorf("want a list of Tool:Rule patterns that mean the same, got %s", Kind(v)))
			continue
		}
		group := d.rulePatterns(v, key, false)
		if len(v.Content) < 2 {
			d.fail(v, key, fmt.Errorf("a group of %d (want two Tool:Rule patterns or more)", len(v.Content)))
		}
		c.Same = append(c.Same, group)
	}
}

// rulePatterns reads a list of Tool:Rule patterns.
func (d *decoder) rulePatterns(n *yaml.Node, key string, nullOK bool) []RulePattern {
	var out []RulePattern
	for i, item := range d.list(n, key, "a list of Tool:Rule patterns", nullOK) {
		k := fmt.Sprintf("%s[%d]", key, i)
		if p, ok := d.rulePattern(item, k); ok {
			out = append(out, p)
		}
	}
	return out
}

func (d *decoder) rulePattern(n *yaml.Node, key string) (RulePattern, bool) {
	n = d.value(n, key)
	if n == nil {
		return RulePattern{}, false
	}
	if n.Kind == yaml.MappingNode && len(n.Content) == 2 {
		// "- Checkstyle: FinalParameters" is a mapping in YAML.
		if k, v := n.Content[0], n.Content[1]; k.Kind == yaml.ScalarNode && v.Kind == yaml.ScalarNode && v.Value != "" {
			d.fail(n, key, fmt.Errorf("want a Tool:Rule pattern, got a mapping (write %s:%s, without a space after the colon)", k.Value, v.Value))
			return RulePattern{}, false
		}
	}
	s, ok := d.str(n, key, "a Tool:Rule pattern")
	if !ok {
		return RulePattern{}, false
	}
	if d.rules++; d.rules > MaxRulePatterns {
		d.limit(n, key, fmt.Errorf("more than %d Tool:Rule patterns in the file", MaxRulePatterns))
		return RulePattern{}, false
	}
	p, err := ParseRulePattern(s)
	if err != nil {
		d.fail(n, key, err)
		return RulePattern{}, false
	}
	p.Pos = Pos{Key: key, Line: n.Line, Column: n.Column}
	return p, true
}

func (d *decoder) pathGlob(n *yaml.Node, key string) (PathGlob, bool) {
	n = d.value(n, key)
	s, ok := d.str(n, key, "a path glob")
	if !ok {
		return PathGlob{}, false
	}
	if d.paths++; d.paths > MaxPathGlobs {
		d.limit(n, key, fmt.Errorf("more than %d path globs in the file", MaxPathGlobs))
		return PathGlob{}, false
	}
	switch {
	case s == "":
		d.fail(n, key, errors.New("an empty glob (want a path glob, such as src/generated/**)"))
		return PathGlob{}, false
	case utf8.RuneCountInString(s) > MaxPatternLength:
		d.fail(n, key, fmt.Errorf("a glob of %d characters, more than %d", utf8.RuneCountInString(s), MaxPatternLength))
		return PathGlob{}, false
	}
	if _, err := reports.CompileGlobs([]string{s}); err != nil {
		d.fail(n, key, err)
		return PathGlob{}, false
	}
	return PathGlob{Glob: s, Pos: Pos{Key: key, Line: n.Line, Column: n.Column}}, true
}

// word reads a word of one of recap's scales, written as the scale writes
// it (lower case), with the nearest words when it is not one, as the
// command line's filters say it ([reports.UnknownWord]); what is "an
// impact", "a quality".
func word[T fmt.Stringer](d *decoder, n *yaml.Node, key, what string, scale []T, parse func(string) (T, error)) T {
	var zero T
	n = d.value(n, key)
	names := make([]string, len(scale))
	for i, v := range scale {
		names[i] = v.String()
	}
	s, ok := d.str(n, key, what+" ("+text.List(names, "or")+")")
	if !ok {
		return zero
	}
	if !slices.Contains(names, s) {
		d.fail(n, key, reports.UnknownWord(noun(what), s, names, names))
		return zero
	}
	v, _ := parse(s)
	return v
}

func (d *decoder) category(n *yaml.Node, key string) string {
	n = d.value(n, key)
	s, ok := d.str(n, key, "a category of recap's scale")
	if !ok {
		return ""
	}
	if !slices.Contains(reports.Categories, s) {
		d.fail(n, key, reports.UnknownWord("category", s, reports.Categories, reports.Categories))
		return ""
	}
	return s
}

// triage reads the place of the triage file: a path relative to the
// repository root, inside it.
func (d *decoder) triage(n *yaml.Node, c *Config) {
	n = d.value(n, "triage")
	if n == nil || isNull(n) {
		return
	}
	s, ok := d.str(n, "triage", "the triage file's path, relative to the repository root")
	if !ok {
		return
	}
	clean := path.Clean(s)
	switch {
	case s == "":
		d.fail(n, "triage", errors.New("an empty path (want the triage file's path, such as .recap/triage.yml)"))
	case utf8.RuneCountInString(s) > MaxPatternLength:
		d.fail(n, "triage", fmt.Errorf("a path of %d characters, more than %d", utf8.RuneCountInString(s), MaxPatternLength))
	case strings.HasPrefix(s, "/") || strings.Contains(s, "\\") || clean == ".." || strings.HasPrefix(clean, "../") || clean == ".":
		d.fail(n, "triage", fmt.Errorf("%q is not a file inside the repository (want a path relative to its root, with /, such as .recap/triage.yml)", s))
	case strings.ContainsFunc(s, unicode.IsControl):
		d.fail(n, "triage", fmt.Errorf("%q has a control character (want a file's path, such as .recap/triage.yml)", s))
	case strings.HasSuffix(s, "/"):
		d.fail(n, "triage", fmt.Errorf("%q names a directory (want a file's path, such as .recap/triage.yml)", s))
	case InVCSDir(clean):
		d.fail(n, "triage", fmt.Errorf("%q is inside the version control's own directory, which recap does not write (want a file of the work tree, such as .recap/triage.yml)", s))
	default:
		c.Triage = clean
		c.TriagePos = Pos{Key: "triage", Line: n.Line, Column: n.Column}
	}
}

// InVCSDir reports whether the slash-separated path p is in a directory of
// a version control's own (.git, .hg, .svn, in any case): its hooks and
// configuration run code, and recap never writes there.
func InVCSDir(p string) bool {
	for _, elem := range strings.Split(p, "/") {
		switch strings.ToLower(elem) {
		case ".git", ".hg", ".svn":
			return true
		}
	}
	return false
}
