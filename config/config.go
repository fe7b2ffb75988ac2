package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/recap-dev/recap/reports"
)

// The names of the configuration file at a repository's root, in the
// order Find looks for them.
var Names = []string{".recap.yml", ".recap.yaml"}

// Version is the version of the format this package reads; a file says it
// with `version: 1` (a file without the key is version 1).
const Version = 1

// Bounds of a configuration file. A real one is a few hundred bytes and a
// few dozen patterns; the bounds keep a hostile one (in a pull request
// that CI runs recap on) from costing more than a fraction of a second.
const (
	// MaxSize is the largest file read, in bytes. YAML parses at about
	// 1 MB/s, so this is at most a quarter of a second.
	MaxSize = 256 << 10
	// MaxRulePatterns bounds the Tool:Rule patterns of a file (exclude,
	// overrides and same together): each distinct rule of the reports is
	// matched against every pattern once.
	MaxRulePatterns = 1000
	// MaxPathGlobs bounds exclude.paths: each distinct path of the reports
	// is matched against every glob once.
	MaxPathGlobs = 1000
	// MaxValues bounds the values read, aliases counted each time they are
	// used, so that a few anchors used many times cannot multiply the work.
	MaxValues = 20000
	// MaxFlowDepth bounds the nesting of [ ] and { }, and MaxIndent the
	// column at which a block value starts: the file's structure is four
	// levels deep, and deeper nesting costs the YAML parser quadratic time.
	MaxFlowDepth = 32
	MaxIndent    = 128
)

// Config is what a configuration file says: findings to exclude (by path
// or rule), overrides of what recap says of a rule (impact, quality,
// severity, category), and groups of rules that mean the same. Parse and
// Load make one; its fields are for reading (the matching state is made
// from them once, at the first match, so later changes are not seen).
//
// A nil *Config is no configuration: it excludes nothing, changes nothing
// and groups nothing. Its methods are safe for concurrent use.
type Config struct {
	// Name is the file's name as given to Load or Parse; messages name it.
	Name string
	// Version is the format's version, 1.
	Version int
	// Exclude says which findings are left out.
	Exclude Exclude
	// Overrides change what recap says of rules, in file order.
	Overrides []Override
	// Same lists groups of rules that mean the same, each of two patterns
	// or more, in file order.
	Same [][]RulePattern

	once sync.Once
	m    *matcher
}

// Exclude lists the findings a configuration leaves out: those whose path
// matches one of Paths, and those whose rule matches one of Rules.
type Exclude struct {
	Paths []PathGlob
	Rules []RulePattern
}

// A PathGlob is a glob over a finding's repository-relative path, as
// [reports.CompileGlobs] reads it: * and ? within a path segment, ** across
// segments, [abc] a class; a glob without a slash matches the base name in
// any directory ("*.java").
type PathGlob struct {
	Glob string
	Pos
}

// An Override changes what recap says of the rules its patterns match.
// A zero field changes nothing.
type Override struct {
	Rules    []RulePattern
	Impact   reports.Impact
	Quality  reports.Quality
	Severity reports.Severity
	// Category is a name of recap's scale ([reports.Categories]).
	Category string
	Pos      // where the override begins
}

// Find says which configuration file applies to the repository at root:
// the path of root/.recap.yml or root/.recap.yaml (joined to root as
// given), "" when there is neither. Both, or one that is not a regular
// file (a directory, a link out of root), is an error. It looks inside
// root only ([os.Root]).
func Find(root string) (string, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return "", err
	}
	defer r.Close()
	name, err := find(r)
	if name == "" || err != nil {
		return "", err
	}
	return filepath.Join(root, name), nil
}

// find is Find inside an open root: the name found, relative to it.
func find(r *os.Root) (string, error) {
	var found []string
	for _, name := range Names {
		fi, err := r.Stat(name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return "", err
		case !fi.Mode().IsRegular():
			return "", fmt.Errorf("%s: not a regular file", filepath.Join(r.Name(), name))
		}
		found = append(found, name)
	}
	switch len(found) {
	case 0:
		return "", nil
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("%s: both %s and %s: keep one", r.Name(), found[0], found[1])
}

// LoadDir reads the configuration file of the repository at root (see
// [Find]), opened inside root ([os.Root]): nil and no error when there is
// none. Messages name the file joined to root as given (".recap.yml" for
// root ".").
func LoadDir(root string) (*Config, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	name, err := find(r)
	if name == "" || err != nil {
		return nil, err
	}
	f, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(filepath.Join(root, name), f)
}

// Load reads the configuration file at path (a --config FILE). It must be
// a regular file of at most [MaxSize] bytes.
func Load(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(path, f)
}

func read(name string, f *os.File) (*Config, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &Error{File: name, Err: errors.New("not a regular file")}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, &Error{File: name, Err: err}
	}
	return Parse(name, data)
}

// Parse reads a configuration file's content; name is what messages call
// it. An empty file (or comments only) is a configuration that does
// nothing. Every mistake is an [*Error] naming the file, the line, the
// column and the key; several are joined.
func Parse(name string, data []byte) (*Config, error) {
	if len(data) > MaxSize {
		return nil, &Error{File: name, Err: fmt.Errorf("more than %d KiB: a configuration is smaller", MaxSize>>10)}
	}
	c, errs := decode(name, data)
	if len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	return c, nil
}

func joinErrors(errs []*Error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	list := make([]error, len(errs))
	for i, e := range errs {
		list[i] = e
	}
	return errors.Join(list...)
}
