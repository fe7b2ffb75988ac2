package parsers

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/reports"
)

// One tool's run in two formats (docs/formats.md, "Inputs read once"): PMD's
// XML and its SARIF of one run have different bytes but say the same. Before
// reading, ReadAll looks at the first bytes of each file for the tool that
// wrote it; where one tool wrote files of two formats, it reads those files
// once more, digesting their findings (reports.Run: the path in the
// repository, line, rule, message and severity of each), and leaves out a
// file whose tool, version and findings are those of another one in the
// same directory (a tool writes one run's formats side by side). The kept
// file names the one left out. Files that hold the same findings but lie in
// different directories are both read, each naming the other: a report is
// never left out because a file elsewhere claims to be its run. Only such
// files are read twice: a PMD XML and a CodeQL SARIF are not.

// headTool is how much of a file's start is looked at for the tool that wrote it.
const headTool = 64 << 10

// sarifDriver finds the first tool a SARIF log names: its first run's
// driver, when its name comes first in it (PMD, Checkstyle and SpotBugs
// write it so; a log that does not is not looked at further).
var sarifDriver = regexp.MustCompile(`"driver"\s*:\s*\{\s*"name"\s*:\s*"([^"\\]{1,100})"`)

// sameRuns leaves out of srcs the files that are another one's run in
// another format, with a note on the kept one (notes are by index into
// srcs, and come back by index into out).
func sameRuns(srcs []source, notes map[int][]string, opts ReadOptions) ([]source, map[int][]string) {
	if len(srcs) < 2 || opts.Format != "" || allSARIFNamed(srcs) {
		return srcs, notes
	}
	type cand struct {
		i      int
		format Format
	}
	byTool := map[string][]cand{}
	for i, src := range srcs {
		if src.err != nil || src.name == "-" || src.r != nil {
			continue
		}
		if format, tool := opts.peekTool(src); tool != "" {
			byTool[tool] = append(byTool[tool], cand{i, format})
		}
	}
	drop := map[int]bool{}
	note := func(i int, msg string) {
		if notes == nil {
			notes = map[int][]string{}
		}
		notes[i] = append(notes[i], msg)
	}
	for _, cs := range byTool {
		seen := map[Format]bool{}
		for _, c := range cs {
			seen[c.format] = true
		}
		if len(seen) < 2 {
			continue // one format: files of one tool and format are different runs, or copies (once)
		}
		ins := make([]*reports.Input, len(cs))
		for k, c := range cs {
			in := opts.digest(srcs[c.i])
			if abs, err := filepath.Abs(srcs[c.i].name); err == nil {
				in.Path = abs // where it lies, whatever the spelling of its name
			}
			ins[k] = &in
		}
		for _, p := range SameRuns(ins) {
			c, d := cs[p.Keep], cs[p.Drop]
			a, b := srcs[c.i].name, srcs[d.i].name
			if p.Apart {
				note(c.i, fmt.Sprintf("%s holds the same %s of %s in %s, but lies in another directory: both counted (one run's formats lie side by side)", b, english.Plural(p.Findings, "finding", "findings"), p.Run, opts.formats().about(d.format)))
				note(d.i, fmt.Sprintf("%s holds the same %s of %s in %s, but lies in another directory: both counted (one run's formats lie side by side)", a, english.Plural(p.Findings, "finding", "findings"), p.Run, opts.formats().about(c.format)))
				continue
			}
			drop[d.i] = true
			note(c.i, fmt.Sprintf("%s is the same %s run in %s (%d findings alike): counted once", b, p.Run, opts.formats().about(d.format), p.Findings))
		}
	}
	if len(drop) == 0 {
		return srcs, notes
	}
	out := make([]source, 0, len(srcs)-len(drop))
	kept := map[int][]string{}
	for i, src := range srcs {
		if drop[i] {
			continue
		}
		if len(notes[i]) > 0 {
			kept[len(out)] = notes[i]
		}
		out = append(out, src)
	}
	return out, kept
}

// sameRun reports whether two digested inputs hold one run: read whole,
// one tool in two formats and (where both say) one version, the same
// findings.
func sameRun(a, b *reports.Input) bool {
	if a.Error != "" || b.Error != "" || a.Format == b.Format || !strings.EqualFold(a.Tool, b.Tool) {
		return false
	}
	if a.ToolVersion != "" && b.ToolVersion != "" && a.ToolVersion != b.ToolVersion {
		return false
	}
	return a.Run.Same(b.Run)
}

// runName names a run: its tool and version (a version one of its
// inputs gives is the run's).
func runName(tool, version string) string {
	if version == "" {
		return tool
	}
	return tool + " " + version
}

// A RunPair is two inputs that hold one tool's run in two formats.
type RunPair struct {
	Keep, Drop int    // the indexes of the inputs: the first, and the later one
	Run        string // the run: its tool and version
	Findings   int    // the findings of each
	// Apart is set when the two lie in different directories: both are
	// read (Drop is not left out), each naming the other. A tool writes one
	// run's formats side by side; a file elsewhere that says the same may
	// be a copy, or made to look like the report.
	Apart bool
}

// SameRuns finds, among inputs read with [ReadOptions.Runs] (nil ones are
// not looked at), those that hold another input's run in another format:
// the same tool, the same version where both give one, and the same
// findings ([reports.Run]: every finding's path, line, rule, message and
// severity; at least one). Of two in one directory (by their Path), the
// first is kept and the later one paired with it to be left out; two in
// different directories are paired Apart, both kept. An input whose
// findings differ from another's in anything is never paired with it.
func SameRuns(ins []*reports.Input) []RunPair {
	var pairs []RunPair
	dropped := map[int]bool{}
	for k, a := range ins {
		if a == nil || a.Run == nil || dropped[k] {
			continue
		}
		version := a.ToolVersion // the run's, once one of its inputs gives it
		for l := k + 1; l < len(ins); l++ {
			b := ins[l]
			if b == nil || dropped[l] || !sameRun(a, b) || (version != "" && b.ToolVersion != "" && b.ToolVersion != version) {
				continue
			}
			version = cmp.Or(version, b.ToolVersion)
			p := RunPair{Keep: k, Drop: l, Run: runName(a.Tool, version), Findings: a.Run.Findings, Apart: !besides(a.Path, b.Path)}
			if !p.Apart {
				dropped[l] = true
			}
			pairs = append(pairs, p)
		}
	}
	return pairs
}

// besides reports whether two files lie in one directory.
func besides(a, b string) bool {
	da, db := filepath.Dir(filepath.Clean(filepath.FromSlash(a))), filepath.Dir(filepath.Clean(filepath.FromSlash(b)))
	return da == db
}

// about names a format as messages do ("PMD XML", "SARIF 2.1.0").
func (t formatTable) about(f Format) string {
	for _, e := range t {
		if e.name == f {
			return e.about
		}
	}
	return string(f)
}

// digest reads a source for its Run alone.
func (o ReadOptions) digest(src source) reports.Input {
	opts := ReadOptions{Root: o.Root, FS: o.FS, Open: o.Open, Context: o.Context, NoFingerprints: true, Runs: true, Sources: o.Sources, table: o.table}
	in, _ := readOne(src, "", opts, func(reports.Finding) error { return nil })
	return in
}

// allSARIFNamed reports whether every file's name says it is SARIF: then
// none is another format of a run, and no file is looked into for its tool
// (a directory of 10,000 SARIF files is read 8% faster).
func allSARIFNamed(srcs []source) bool {
	for _, src := range srcs {
		if src.err == nil && (src.name == "-" || src.r != nil || !sarifNamed(src.name)) {
			return false
		}
	}
	return true
}

// peekTool gives a file's format and, when its first bytes name it, the
// tool that wrote it, in lower case ("" when they do not).
func (o ReadOptions) peekTool(src source) (Format, string) {
	r, _, closeFn, err := openSource(src, o)
	if err != nil {
		return "", ""
	}
	defer closeFn()
	br, err := decompress(bufio.NewReaderSize(r, SniffLen))
	if err != nil {
		return "", ""
	}
	pastSpace(br)
	head, _ := io.ReadAll(io.LimitReader(br, headTool))
	format, m := o.formats().detect(head)
	if m != strongMatch {
		return "", ""
	}
	tool := ""
	switch format {
	case FormatSARIF:
		if sub := sarifDriver.FindSubmatch(head); sub != nil {
			tool = string(sub[1])
		}
	case FormatPMD, FormatSpotBugs:
		tool = string(format)
	case FormatCheckstyle, FormatCodeClimate:
		tool = o.firstTool(format, head) // written by many tools: ESLint's, Checkstyle's, …
		if tool == "" && format == FormatCheckstyle {
			// No finding in the head (a file element for each file, even
			// clean ones): ESLint's formatter writes the format's version
			// 4.3, Checkstyle its own.
			tool = "checkstyle"
			if bytes.Contains(head, []byte(`<checkstyle version="4.3"`)) {
				tool = "eslint"
			}
		}
	}
	tool = strings.ToLower(tool)
	if tool == "findbugs" {
		tool = string(FormatSpotBugs)
	}
	return format, tool
}

// errPeeked stops a parser at the first finding of a file's head.
var errPeeked = errors.New("the first finding seen")

// firstTool is the tool of the first finding in a file's head, read with
// its format's parser ("" when the head holds none).
func (o ReadOptions) firstTool(format Format, head []byte) string {
	p, err := o.formats().parser(format, Options{Name: "head"})
	if err != nil {
		return ""
	}
	tool := ""
	p.Parse(bytes.NewReader(head), func(f reports.Finding, _ map[string]string) error {
		tool = f.Tool
		return errPeeked
	})
	return tool
}
