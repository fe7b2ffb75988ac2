package reports

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Filter selects findings. The zero value matches everything; each non-empty
// field narrows the selection, and they combine with AND. Within a list field
// the values combine with OR. Names compare case-insensitively.
type Filter struct {
	// Categories keeps findings in any of these categories, named on the
	// scale ("Error Prone") or in the tool's words ("BAD_PRACTICE").
	Categories []string
	// MinSeverity keeps findings at or above it (0: all).
	MinSeverity Severity
	// MinImpact keeps findings at or above it (0: all).
	MinImpact Impact
	// Qualities keeps findings about any of these qualities.
	Qualities []Quality
	// Tools keeps findings of any of these tools.
	Tools []string
	// Rules keeps findings whose rule id or rule name is any of these.
	Rules []string
	// Paths keeps findings whose path matches any of these globs: * and ?
	// within a path segment, ** across segments ("src/**/*.java").
	Paths []string
	// Grep keeps findings whose message contains this text (case-insensitive).
	Grep string
	// CWE keeps findings with any of these CWE ids.
	CWE []int
	// Security keeps only the findings about security ([Finding.Security]).
	Security bool

	globs Globs
	cats  []string  // Categories as words compare (foldWord)
	rules []string  // Rules folded (foldKey)
	paths *verdicts // what the globs say of each path seen
	names *verdicts // whether each rule id or name seen is one of Rules
}

// Empty reports whether f keeps every finding.
func (f *Filter) Empty() bool {
	return len(f.Categories) == 0 && f.MinSeverity == 0 && f.MinImpact == 0 && len(f.Qualities) == 0 && len(f.Tools) == 0 &&
		len(f.Rules) == 0 && len(f.Paths) == 0 && f.Grep == "" && len(f.CWE) == 0 && !f.Security
}

// Compile checks the path globs; Match calls it when it has not been called.
func (f *Filter) Compile() error {
	globs, err := CompileGlobs(f.Paths)
	if err != nil {
		return err
	}
	f.globs = globs
	f.paths, f.names = newVerdicts(), newVerdicts()
	f.rules = make([]string, len(f.Rules))
	for i, r := range f.Rules {
		f.rules[i] = foldKey(r)
	}
	f.Grep = strings.ToLower(f.Grep)
	f.cats = make([]string, len(f.Categories))
	for i, c := range f.Categories {
		f.cats[i] = foldWord(c)
	}
	return nil
}

// Match reports whether the finding passes every step of the filter. The
// steps run cheapest first; the path step needs the finding's path to be
// normalized already (parsers do that).
func (f *Filter) Match(x Finding) bool {
	if len(f.globs) != len(f.Paths) || len(f.cats) != len(f.Categories) || len(f.rules) != len(f.Rules) || f.paths == nil {
		if err := f.Compile(); err != nil {
			return false
		}
	}
	switch {
	case f.MinSeverity.Valid() && x.Severity < f.MinSeverity:
		return false
	case f.MinImpact.Valid() && x.Impact < f.MinImpact:
		return false
	case len(f.Qualities) > 0 && !slices.Contains(f.Qualities, x.Quality):
		return false
	case len(f.Tools) > 0 && !anyEqualFold(f.Tools, x.Tool):
		return false
	case len(f.Categories) > 0 && !f.matchCategory(&x):
		return false
	case f.Security && !x.Security():
		return false
	case len(f.CWE) > 0 && !anyCWE(f.CWE, x.CWE):
		return false
	case len(f.Rules) > 0 && !f.matchRule(x.Rule) && (x.RuleName == "" || !f.matchRule(x.RuleName)):
		return false
	case f.Grep != "" && !strings.Contains(strings.ToLower(x.Message), f.Grep):
		return false
	case len(f.globs) > 0 && !f.matchPath(x.Path):
		return false
	}
	return true
}

// matchPath matches a path against the globs once, then looks its
// verdict up: a report names few distinct paths, many times each.
func (f *Filter) matchPath(p string) bool { return f.paths.get(p, f.globs.Match) }

// matchRule reports whether a rule id or name is one of Rules, compared
// as strings.EqualFold compares, worked out once per distinct string.
func (f *Filter) matchRule(s string) bool {
	return f.names.get(s, func(s string) bool {
		k := foldKey(s)
		return slices.Contains(f.rules, k)
	})
}

// matchCategory reports whether x's category or the tool's word for it is
// one of the filter's, compared as the category table compares words
// ("best-practices" is "Best Practices").
func (f *Filter) matchCategory(x *Finding) bool {
	if anyEqualFold(f.Categories, x.Category) || x.ToolCategory != "" && anyEqualFold(f.Categories, x.ToolCategory) {
		return true
	}
	var buf [64]byte
	for _, c := range []string{x.Category, x.ToolCategory} {
		if c == "" {
			continue
		}
		w := appendFoldWord(buf[:0], c)
		for _, want := range f.cats {
			if string(w) == want {
				return true
			}
		}
	}
	return false
}

// Globs is a compiled list of path globs (see [Filter.Paths]).
type Globs []*Glob

// CompileGlobs compiles path globs; the error names the first glob that
// is wrong, and what is wrong with it.
func CompileGlobs(globs []string) (Globs, error) {
	out := make(Globs, 0, len(globs))
	for _, g := range globs {
		c, err := CompileGlob(g)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// Match reports whether p matches any of the globs.
func (g Globs) Match(p string) bool {
	for _, c := range g {
		if c.Match(p) {
			return true
		}
	}
	return false
}

func anyCWE(want, have []int) bool {
	for _, c := range have {
		if slices.Contains(want, c) {
			return true
		}
	}
	return false
}

// ParseCWE reads a CWE id as users write it: "89", "CWE-89", "cwe89".
func ParseCWE(s string) (int, error) {
	t := strings.TrimSpace(s)
	if len(t) >= 3 && strings.EqualFold(t[:3], "cwe") {
		t = strings.TrimPrefix(t[3:], "-")
	}
	n, err := strconv.Atoi(t)
	if err != nil || n <= 0 || n > 1_000_000 {
		return 0, fmt.Errorf("%q is not a CWE id (want 89 or CWE-89)", s)
	}
	return n, nil
}

func anyEqualFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

// FilterWords is a filter as the command line's flags and the MCP tools'
// arguments give it: words, which [ParseFilter] reads.
type FilterWords struct {
	Categories, Tools, Rules, Paths, CWE, Qualities []string
	Severity, Impact, Grep                          string
	Security                                        bool
	// Root, when given, is the directory the findings' paths are
	// relative to (absolute): a glob of Paths that begins with it is
	// read relative to it, as the findings name their files.
	Root string
}

// FilterError is a word of a [FilterWords] that names nothing: Field is
// the field it was given in ("categories", "impact", "qualities",
// "severity", "cwe" or "paths").
type FilterError struct {
	Field string
	Err   error
}

func (e *FilterError) Error() string { return e.Field + ": " + e.Err.Error() }

func (e *FilterError) Unwrap() error { return e.Err }

// ParseFilter reads a filter's words into a compiled [Filter]. Its error,
// a [*FilterError], names the first field that is wrong, in the order of
// the fields above, and the nearest word of the scale.
func ParseFilter(w FilterWords) (*Filter, error) {
	f := &Filter{Categories: w.Categories, Tools: w.Tools, Rules: w.Rules, Paths: UnderRoot(w.Root, w.Paths), Grep: w.Grep, Security: w.Security}
	for _, c := range w.Categories {
		if !KnownCategory(c) {
			return nil, &FilterError{"categories", UnknownWord("category", c, CategoryWords(), Categories)}
		}
	}
	var err error
	if w.Impact != "" {
		if f.MinImpact, err = ParseImpact(w.Impact); err != nil {
			return nil, &FilterError{"impact", err}
		}
	}
	for _, name := range w.Qualities {
		q, err := ParseQuality(name)
		if err != nil {
			return nil, &FilterError{"qualities", err}
		}
		f.Qualities = append(f.Qualities, q)
	}
	if w.Severity != "" {
		if f.MinSeverity, err = ParseSeverity(w.Severity); err != nil {
			return nil, &FilterError{"severity", err}
		}
	}
	for _, c := range w.CWE {
		id, err := ParseCWE(c)
		if err != nil {
			return nil, &FilterError{"cwe", err}
		}
		f.CWE = append(f.CWE, id)
	}
	if err := f.Compile(); err != nil {
		return nil, &FilterError{"paths", err}
	}
	return f, nil
}

// UnderRoot returns globs with those that begin with root (an absolute
// directory) made relative to it: an absolute path inside the repository
// matches its findings, whose paths are relative.
func UnderRoot(root string, globs []string) []string {
	root = strings.TrimSuffix(filepath.ToSlash(root), "/")
	if root == "" || !strings.HasPrefix(root, "/") && !(len(root) > 2 && root[1] == ':' && root[2] == '/') {
		return globs
	}
	var out []string
	for i, g := range globs {
		rel, ok := strings.CutPrefix(filepath.ToSlash(g), root+"/")
		if !ok || rel == "" {
			continue
		}
		if out == nil {
			out = slices.Clone(globs)
		}
		out[i] = rel
	}
	if out == nil {
		return globs
	}
	return out
}
