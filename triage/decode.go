package triage

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/recap-dev/recap/config"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/reports"
)

// Bounds of a triage file. A real one holds a few hundred decisions; the
// bounds keep a hostile one (in a pull request that CI runs recap on) to
// a few seconds and a few hundred MiB of parsing.
const (
	// MaxSize is the largest file read, in bytes.
	MaxSize = 8 << 20
	// MaxEntries bounds the entries of a file.
	MaxEntries = 50_000
	// MaxText bounds each value, in characters (a reason, a message).
	MaxText = 4096
	// MaxValues bounds the values read, aliases counted each time they
	// are used, so that a few anchors used many times cannot multiply the
	// work: 14 keys and values of each of MaxEntries entries, and more.
	MaxValues = 3_000_000
	// MaxErrors is how many mistakes of one file are told at most.
	MaxErrors = 20
)

// Version is the version of the format this package reads and writes.
const Version = 1

// The keys of each mapping of the format, in the order the file writes
// them.
var (
	topKeys   = []string{"version", "entries"}
	entryKeys = []string{"tool", "rule", "path", "location", "line", "message", "state", "reason", "by", "date", "until", "link", "commit"}
)

// decoder collects the mistakes of one file while walking its tree, as
// package config reads .recap.yml: every mistake an [*config.Error] with
// the file, line, column and key.
type decoder struct {
	file    string
	errs    []*config.Error
	n       *config.Nodes // the reader of its values (nodes)
	limited map[string]bool
}

// parse reads data into f; the document node is kept for the comments.
func (d *decoder) parse(data []byte, f *File) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if e := config.NotUTF8(d.file, data); e != nil {
		d.add(e)
		return
	}
	if line, marker := firstMarker(data); line > 0 {
		// Two branches merged without recap's merge driver: the YAML
		// parser would say "could not find expected ':'".
		d.add(&config.Error{File: d.file, Line: line, Err: fmt.Errorf("an unresolved merge conflict (git's %s line): run recap triage merge --resolve, which merges both sides' decisions (keep one of an entry each side decided otherwise, left between the markers), then git add the file", marker)})
		return
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	switch err := dec.Decode(&doc); {
	case errors.Is(err, io.EOF):
		f.doc = commentsOnly(data)
		return
	case err != nil:
		d.add(config.SyntaxError(d.file, data, err))
		return
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		d.add(config.SyntaxError(d.file, data, err))
		return
	default:
		d.fail(&next, "", errors.New("a second YAML document: a triage file is one"))
		return
	}
	f.doc = commentsOf(&doc)
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return
	}
	n := d.value(doc.Content[0], "")
	if n == nil || config.IsNull(n) {
		return
	}
	pairs, ok := d.mapping(n, "", "a mapping of "+text.List(topKeys, "or"))
	if !ok {
		return
	}
	for _, p := range pairs {
		switch p.Key {
		case "version":
			v := d.value(p.Value, "version")
			if v == nil {
				continue
			}
			if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!int" || v.Value != "1" {
				d.fail(v, "version", fmt.Errorf("want the number %d, got %s %s", Version, config.Kind(v), v.Value))
			}
		case "entries":
			d.entries(p.Value, f)
		default:
			d.unknownKey(p, "", topKeys)
		}
	}
}

func (d *decoder) entries(n *yaml.Node, f *File) {
	n = d.value(n, "entries")
	switch {
	case n == nil || config.IsNull(n):
		return
	case n.Kind != yaml.SequenceNode:
		d.fail(n, "entries", fmt.Errorf("want a list of entries, got %s", config.Kind(n)))
		return
	case len(n.Content) > MaxEntries:
		d.fail(n, "entries", fmt.Errorf("%d entries, more than %d", len(n.Content), MaxEntries))
		return
	}
	if len(n.Content) > 0 {
		f.Entries = make([]Entry, 0, len(n.Content))
	}
	lines := make(map[string]int, len(n.Content))
	for i, item := range n.Content {
		key := fmt.Sprintf("entries[%d]", i)
		if e, ok := d.entry(item, key); ok {
			k := e.Key()
			if first, dup := lines[k]; dup {
				d.fail(item, key, fmt.Errorf("decides the same finding as the entry on line %d: keep one", first))
				continue
			}
			lines[k] = item.Line
			f.Entries = append(f.Entries, e)
			if c := commentsOf(item); c != nil {
				f.nodes[k] = c
			}
		}
		if len(d.errs) >= MaxErrors {
			return
		}
	}
}

// commentsOnly is a file of comments alone (no document: the YAML
// decoder keeps none of them) as a document whose head they are, so that
// the first decision written keeps them above it; nil when there are none.
func commentsOnly(data []byte) *yaml.Node {
	var kept []string
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "#"):
			kept = append(kept, line)
		case line == "" && len(kept) > 0 && kept[len(kept)-1] != "":
			kept = append(kept, "")
		}
	}
	head := strings.TrimSpace(strings.Join(kept, "\n"))
	if head == "" {
		return nil
	}
	return &yaml.Node{Kind: yaml.DocumentNode, HeadComment: head}
}

func (d *decoder) entry(n *yaml.Node, key string) (Entry, bool) {
	var e Entry
	n = d.value(n, key)
	if n == nil {
		return e, false
	}
	pairs, ok := d.mapping(n, key, "an entry: a mapping of "+text.List(entryKeys, "and"))
	if !ok {
		return e, false
	}
	errs := len(d.errs)
	seen := map[string]bool{}
	unknown := len(pairs) < len(n.Content)/2 // a key refused: told already
	for _, p := range pairs {
		k := key + "." + p.Key
		seen[p.Key] = true
		set, known := entryFields[p.Key]
		if !known {
			d.unknownKey(p, key, entryKeys)
			unknown = true
			continue
		}
		s, ok := d.str(d.value(p.Value, k), k, p.Key)
		if !ok {
			continue
		}
		if err := set(&e, s); err != nil {
			d.fail(p.Value, k, err)
		}
	}
	for _, req := range []string{"tool", "rule", "state", "reason"} {
		// A key written wrong is likely the one missing: one message is enough.
		if !seen[req] && !unknown {
			d.fail(n, key, fmt.Errorf("no %s (an entry needs tool, rule, state and reason)", req))
		}
	}
	return e, len(d.errs) == errs
}

// entryFields sets each key of an entry from its string, and says what is
// wrong with it.
var entryFields = map[string]func(e *Entry, s string) error{
	"tool": func(e *Entry, s string) error { e.Tool = s; return checkWord(s) },
	"rule": func(e *Entry, s string) error { e.Rule = s; return checkWord(s) },
	"path": func(e *Entry, s string) error {
		e.Path = s
		if strings.HasPrefix(s, "/") || strings.Contains(s, "\\") || hasDotDot(s) {
			return fmt.Errorf("%q is not a repository-relative path with / (as recap findings shows it)", s)
		}
		if c := path.Clean(s); c != s && s != "" {
			return fmt.Errorf("%q is not written as recap findings shows its path: %q", s, c) // ./a, a//b, a/: no finding's path
		}
		return nil
	},
	"location": func(e *Entry, s string) error {
		e.Location = s
		if !isLocation(s) {
			return fmt.Errorf("%q is not a location fingerprint (16 hex digits, a colon, the occurrence: 0123456789abcdef:1)", s)
		}
		return nil
	},
	"line":    func(e *Entry, s string) error { e.Line = s; return nil },
	"message": func(e *Entry, s string) error { e.Message = s; return nil },
	"state": func(e *Entry, s string) error {
		e.State = State(s)
		if !slices.Contains(States, e.State) { // ParseState(s) is s only for a state as written
			names := make([]string, len(States))
			for i, t := range States {
				names[i] = string(t)
			}
			return reports.UnknownWord("state", s, names, names)
		}
		return nil
	},
	"reason": func(e *Entry, s string) error {
		e.Reason = s
		if strings.TrimSpace(s) == "" {
			return errors.New("an empty reason (say why: the next reader needs it)")
		}
		return checkProse(s)
	},
	"by":    func(e *Entry, s string) error { e.By = s; return nil },
	"date":  func(e *Entry, s string) error { e.Date = s; return checkDay(s) },
	"until": func(e *Entry, s string) error { e.Until = s; return checkDay(s) },
	"link": func(e *Entry, s string) error {
		e.Link = s
		if u, err := url.Parse(s); err != nil || u.Scheme != "https" && u.Scheme != "http" || u.Host == "" {
			return fmt.Errorf("%q is not an http or https URL", s)
		}
		return nil
	},
	"commit": func(e *Entry, s string) error {
		e.Commit = s
		if !isCommit(s) {
			return fmt.Errorf("%q is not a commit id (7 to 64 hex digits, lower case)", s)
		}
		return nil
	},
}

// entrySetters are entryFields by the index of their key in entryKeys.
var entrySetters = func() []func(e *Entry, s string) error {
	s := make([]func(e *Entry, s string) error, len(entryKeys))
	for i, k := range entryKeys {
		s[i] = entryFields[k]
	}
	return s
}()

// hasDotDot reports whether some element of the slash-separated path p
// is "..".
func hasDotDot(p string) bool {
	for p != "" {
		var elem string
		elem, p, _ = strings.Cut(p, "/")
		if elem == ".." {
			return true
		}
	}
	return false
}

// Set sets e's field of that key (as the file names it: "state",
// "date") from s, checked as the file's reader checks it: on an error, e
// is left as it was.
func (e *Entry) Set(key, s string) error {
	set, ok := entryFields[key]
	if !ok {
		return fmt.Errorf("no field %q", key)
	}
	x := *e
	if err := set(&x, s); err != nil {
		return err
	}
	*e = x
	return nil
}

// CheckValue checks s as the file's reader checks the value of an
// entry's key (as the file names it: "reason", "link", "by"): a door that
// writes an entry checks what it was given, so that it never writes a
// file recap then refuses to read.
func CheckValue(key, s string) error {
	if !utf8.ValidString(s) {
		return errors.New("not valid UTF-8")
	}
	if c := utf8.RuneCountInString(s); c > MaxText {
		return fmt.Errorf("%d characters, more than %d", c, MaxText)
	}
	var e Entry
	return e.Set(key, s)
}

// checkProse checks what a person wrote (a reason): no control
// character but a tab and a line break, and none of Unicode's
// bidirectional embeddings, overrides and isolates, which make the text
// a reviewer reads in the file's diff another than the one it holds.
func checkProse(s string) error { return checkText(s, "the reason", true) }

// checkText checks text (what, for the error) for control characters
// (but a tab and, when lines, a line break) and bidirectional controls.
func checkText(s, what string, lines bool) error {
	for i, r := range s {
		switch {
		case r == '\t' || lines && (r == '\n' || r == '\r'):
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			return fmt.Errorf("a control character (U+%04X) at byte %d: write %s as text", r, i, what)
		case r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
			return fmt.Errorf("a bidirectional control (U+%04X) at byte %d, which shows the text in another order than it holds: write %s without it", r, i, what)
		}
	}
	return nil
}

// checkWord checks a tool's or rule's name: one line, without a control
// character (a NUL in a rule read from a hand-edited file would match no
// finding, unseen) or spaces around it (a tool named "PMD " is no tool
// that runs, and its entries are never judged stale).
func checkWord(s string) error {
	if strings.TrimSpace(s) == "" || strings.ContainsAny(s, "\n\r") {
		return fmt.Errorf("%q: want a name on one line", s)
	}
	if t := strings.TrimSpace(s); t != s {
		return fmt.Errorf("%q: spaces around the name (want %q)", s, t)
	}
	return checkText(s, "the name", false)
}

// checkDay checks a day written YYYY-MM-DD.
func checkDay(s string) error {
	if _, err := time.Parse(DateLayout, s); err != nil {
		if isDay(s) {
			return fmt.Errorf("%q is written YYYY-MM-DD but is no day of the calendar", s) // 2026-02-30
		}
		return fmt.Errorf("%q is not a day as YYYY-MM-DD", s)
	}
	return nil
}

// pair is one key and value of a mapping.
type pair = config.Pair

// nodes is the reader of the file's values, as package config reads
// .recap.yml's, made once.
func (d *decoder) nodes() *config.Nodes {
	if d.n == nil {
		d.n = &config.Nodes{What: "the triage file", Max: MaxValues, Fail: d.fail, Limit: d.limit}
	}
	return d.n
}

// value resolves an alias and counts the value (see [config.Nodes.Value]).
func (d *decoder) value(n *yaml.Node, key string) *yaml.Node { return d.nodes().Value(n, key) }

// mapping returns the pairs of a mapping (see [config.Nodes.Mapping]).
func (d *decoder) mapping(n *yaml.Node, key, want string) ([]pair, bool) {
	return d.nodes().Mapping(n, key, want)
}

// str returns a string value: a YAML string, or a date YAML reads as a
// timestamp (date: 2026-11-28 unquoted).
func (d *decoder) str(n *yaml.Node, key, what string) (string, bool) {
	if n == nil {
		return "", false
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" && !(n.ShortTag() == "!!timestamp" && (what == "date" || what == "until")) {
		hint := ""
		if n.Kind == yaml.ScalarNode && n.Value != "" && n.ShortTag() != "!!null" {
			hint = fmt.Sprintf(" (quote it: %q)", n.Value)
		}
		d.fail(n, key, fmt.Errorf("want a string, got %s%s", config.Kind(n), hint))
		return "", false
	}
	if c := utf8.RuneCountInString(n.Value); c > MaxText {
		d.fail(n, key, fmt.Errorf("%d characters, more than %d", c, MaxText))
		return "", false
	}
	return n.Value, true
}

func (d *decoder) unknownKey(p pair, parent string, keys []string) {
	d.fail(p.Node, parent, reports.UnknownWord("key", p.Key, keys, keys))
}

func (d *decoder) fail(n *yaml.Node, key string, err error) {
	d.add(&config.Error{File: d.file, Line: n.Line, Column: n.Column, Key: key, Err: err})
}

func (d *decoder) limit(n *yaml.Node, key string, err error) {
	if !d.limited[err.Error()] {
		d.limited[err.Error()] = true
		d.fail(n, key, err)
	}
}

func (d *decoder) add(e *config.Error) {
	if len(d.errs) < MaxErrors {
		d.errs = append(d.errs, e)
	}
}

// err joins the mistakes in the order of the file, nil for none.
func (d *decoder) err() error {
	if len(d.errs) == 0 {
		return nil
	}
	slices.SortStableFunc(d.errs, func(a, b *config.Error) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Column - b.Column
	})
	if len(d.errs) == 1 {
		return d.errs[0]
	}
	list := make([]error, len(d.errs))
	for i, e := range d.errs {
		list[i] = e
	}
	return errors.Join(list...)
}

// commentsOf returns the comments of n and of its direct keys and values
// (and, for the document, of its top mapping's): a copy of the nodes
// without their content, nil when there is no comment, so that the tree
// read is not kept for the comments of a few entries.
func commentsOf(n *yaml.Node) *yaml.Node {
	n = config.Resolve(n)
	out := shallow(n)
	any := hasComment(n)
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		root := config.Resolve(n.Content[0])
		c := shallow(root)
		any = any || hasComment(root)
		if root.Kind == yaml.MappingNode {
			for _, k := range root.Content {
				k = config.Resolve(k)
				c.Content = append(c.Content, shallow(k))
				any = any || hasComment(k)
			}
		}
		out.Content = []*yaml.Node{c}
	} else if n.Kind == yaml.MappingNode {
		for _, k := range n.Content {
			k = config.Resolve(k)
			out.Content = append(out.Content, shallow(k))
			any = any || hasComment(k)
		}
	}
	if !any && n.Kind != yaml.DocumentNode {
		return nil
	}
	return out
}

func shallow(n *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: n.Kind, Value: n.Value, HeadComment: n.HeadComment, LineComment: n.LineComment, FootComment: n.FootComment}
}

func hasComment(n *yaml.Node) bool {
	return n.HeadComment != "" || n.LineComment != "" || n.FootComment != ""
}

// Check checks e as the file's reader checks an entry (its required keys,
// each value's form and length): a door that writes entries checks them,
// so that it never writes a file recap then refuses to read. The error
// names the key.
func (e *Entry) Check() error {
	values := [...]string{e.Tool, e.Rule, e.Path, e.Location, e.Line, e.Message, string(e.State), e.Reason, e.By, e.Date, e.Until, e.Link, e.Commit}
	for i, k := range entryKeys {
		v := values[i]
		if v == "" {
			switch k {
			case "tool", "rule", "state", "reason":
				return fmt.Errorf("%s: empty (an entry needs tool, rule, state and reason)", k)
			}
			continue
		}
		if err := CheckValue(k, v); err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
	}
	return nil
}
