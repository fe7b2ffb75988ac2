package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/recap-dev/recap/internal/content"
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
	// Triage is the triage file's path relative to the repository root
	// (docs/triage.md), cleaned; "" for the default, .recap/triage.yml.
	Triage string
	// TriagePos is where the file says it.
	TriagePos Pos

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
// file (a directory, a FIFO, a device, a link out of root), is an error.
// It looks inside root only ([content.Root]).
func Find(root string) (string, error) {
	r, err := content.OpenRoot(root)
	if err != nil {
		return "", err
	}
	defer r.Close()
	name, _, err := ReadRoot(r)
	if name == "" || err != nil {
		return "", err
	}
	return filepath.Join(root, filepath.Base(name)), nil
}

// LoadDir reads the configuration file of the repository at root (see
// [Find]), opened inside root: nil and no error when there is none.
// Messages name the file joined to root as given (".recap.yml" for root
// ".").
func LoadDir(root string) (*Config, error) {
	r, err := content.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	name, data, err := ReadRoot(r)
	if name == "" || err != nil {
		return nil, err
	}
	return Parse(filepath.Join(root, filepath.Base(name)), data)
}

// LoadRoot reads the configuration file at the top of r, as LoadDir does.
func LoadRoot(r *content.Root) (*Config, error) {
	name, data, err := ReadRoot(r)
	if name == "" || err != nil {
		return nil, err
	}
	return Parse(name, data)
}

// ReadRoot reads the configuration file at the top of r (.recap.yml or
// .recap.yaml): its name (r's directory joined with the file's) and its
// bytes; "" and no error when there is none. Each name is opened once,
// inside r, without waiting (a FIFO is opened and refused, never read),
// and judged on the file opened: nothing is checked first and opened
// after, so a file swapped for a FIFO, a directory or a link out of the
// root in between is refused, never followed. Both names at once is an
// error; so is a file larger than [MaxSize].
func ReadRoot(r *content.Root) (string, []byte, error) {
	var found []string
	var data []byte
	for _, name := range Names {
		f, _, err := r.Open(name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return "", nil, fileError(filepath.Join(r.Dir(), name), err)
		}
		b, err := readBounded(filepath.Join(r.Dir(), name), f)
		f.Close()
		if err != nil {
			return "", nil, err
		}
		found, data = append(found, name), b
	}
	switch len(found) {
	case 0:
		return "", nil, nil
	case 1:
		return filepath.Join(r.Dir(), found[0]), data, nil
	}
	return "", nil, fmt.Errorf("%s: both %s and %s: keep one", r.Dir(), found[0], found[1])
}

// Load reads the configuration file at path (a --config FILE). It must be
// a regular file of at most [MaxSize] bytes: it is opened once, without
// waiting (a FIFO is refused, never read), and judged on the file opened.
func Load(path string) (*Config, error) {
	f, _, err := content.Open(path)
	if err != nil {
		return nil, fileError(path, err)
	}
	defer f.Close()
	data, err := readBounded(path, f)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// fileError is the error of opening a configuration file: a missing file
// stays a path error (errors.Is finds fs.ErrNotExist), what is not a
// regular file says what it is, naming the file once.
func fileError(name string, err error) error {
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return err
	case errors.Is(err, content.ErrNotRegular):
		return &Error{File: name, Err: fmt.Errorf("not a regular file (%s): a configuration is a file", kindOf(err))}
	case errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "is a directory":
		return &Error{File: name, Err: errors.New("not a regular file (a directory): a configuration is a file")}
	case errors.As(err, &pe):
		return &Error{File: name, Err: pe.Err}
	}
	return &Error{File: name, Err: err}
}

// kindOf is what content's error says the file is ("a FIFO").
func kindOf(err error) string {
	s := err.Error()
	if i := strings.Index(s, "(a "); i >= 0 {
		if j := strings.IndexByte(s[i:], ')'); j > 0 {
			return s[i+1 : i+j]
		}
	}
	return "a special file"
}

// readBounded reads an open configuration file, at most MaxSize bytes
// (one more, to tell a larger file).
func readBounded(name string, f *os.File) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, &Error{File: name, Err: err}
	}
	if len(data) > MaxSize {
		return nil, tooLarge(name)
	}
	return data, nil
}

func tooLarge(name string) error {
	return &Error{File: name, Err: fmt.Errorf("more than %d KiB: a configuration is smaller", MaxSize>>10)}
}

// Parse reads a configuration file's content; name is what messages call
// it. An empty file (or comments only) is a configuration that does
// nothing. Every mistake is an [*Error] naming the file, the line, the
// column and the key; several are joined.
func Parse(name string, data []byte) (*Config, error) {
	if len(data) > MaxSize {
		return nil, tooLarge(name)
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
