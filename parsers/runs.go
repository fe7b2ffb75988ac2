package parsers

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/recap-dev/recap/reports"
)

// One tool's run in two formats (docs/formats.md, "Inputs read once"): PMD's
// XML and its SARIF of one run have different bytes but say the same. Before
// reading, ReadAll looks at the first bytes of each file for the tool that
// wrote it; where one tool wrote files of two formats, it reads those files
// once more, digesting their findings (file, line and rule of each), and
// leaves out a file whose tool, version and findings are those of an earlier
// one. The kept file says so. Only such files are read twice: a PMD XML and
// a CodeQL SARIF are not.

// headTool is how much of a file's start is looked at for the tool that wrote it.
const headTool = 64 << 10

// sarifDriver finds the first tool a SARIF log names: its first run's
// driver, when its name comes first in it (PMD, Checkstyle and SpotBugs
// write it so; a log that does not is not looked at further).
var sarifDriver = regexp.MustCompile(`"driver"\s*:\s*\{\s*"name"\s*:\s*"([^"\\]{1,100})"`)

// sameRuns leaves out of srcs the files that are an earlier one's run in
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
			ins[k] = &in
		}
		for _, p := range SameRuns(ins) {
			c, d := cs[p.Keep], cs[p.Drop]
			drop[d.i] = true
			if notes == nil {
				notes = map[int][]string{}
			}
			notes[c.i] = append(notes[c.i], fmt.Sprintf("%s is the same %s run in %s (%d findings alike): counted once",
				srcs[d.i].name, p.Run, opts.formats().about(d.format), ins[p.Keep].Run.Findings))
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

// sameRun reports whether two digested inputs are one run: read whole, one
// tool and (where both say) one version, the same findings.
func sameRun(a, b *reports.Input) bool {
	if a.Error != "" || b.Error != "" || !strings.EqualFold(a.Tool, b.Tool) {
		return false
	}
	if a.ToolVersion != "" && b.ToolVersion != "" && a.ToolVersion != b.ToolVersion {
		return false
	}
	return a.Run.Same(b.Run)
}

// runName names a run: its tool and version.
func runName(in *reports.Input) string {
	if in.ToolVersion == "" {
		return in.Tool
	}
	return in.Tool + " " + in.ToolVersion
}

// A RunPair is an input that repeats an earlier one: one tool's run in
// another format.
type RunPair struct {
	Keep, Drop int    // the indexes of the inputs: the first, and the one left out
	Run        string // the run: its tool and version
}

// SameRuns finds, among inputs read with [ReadOptions.Runs] (nil ones are
// not looked at), those that are an earlier input's run in another format:
// the first of a run is kept, each later one is paired with it.
func SameRuns(ins []*reports.Input) []RunPair {
	var pairs []RunPair
	dropped := map[int]bool{}
	for k, a := range ins {
		if a == nil || a.Run == nil || dropped[k] {
			continue
		}
		for l := k + 1; l < len(ins); l++ {
			b := ins[l]
			if b == nil || dropped[l] || a.Format == b.Format || !sameRun(a, b) {
				continue
			}
			dropped[l] = true
			pairs = append(pairs, RunPair{Keep: k, Drop: l, Run: runName(a)})
		}
	}
	return pairs
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
	case FormatPMD, FormatCheckstyle, FormatSpotBugs:
		tool = string(format)
	}
	tool = strings.ToLower(tool)
	if tool == "findbugs" {
		tool = string(FormatSpotBugs)
	}
	return format, tool
}
