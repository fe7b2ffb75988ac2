package parsers

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/reports"
)

// Two reports of one tool on the same files (docs/formats.md, "Inputs
// read once"): an old run left beside the new one in a directory read
// whole, or one tool run twice with two configurations. Both are read: they
// are different runs, and recap cannot tell which one the user means. As
// every finding both give counts twice, in the headline, the gate and the
// review, the later input of such a pair says so, naming the other and
// the files they share.

// maxFileSet bounds the files noted of one input: past it, a sample of
// them, the same one for every input (by their paths' hash), so that a
// report of hundreds of thousands of files holds no more than this.
const maxFileSet = 4096

// fileSets notes, per input, the files its findings name.
type fileSets struct {
	files []map[string]struct{}
	level []uint // of each input: the paths noted are those whose hash has level low bits 0
	last  string // the last path noted of the input being read
}

// note notes f's path for input i (inputs are read one after the other,
// and a report gives a file's findings together: most findings cost a
// comparison with the last path).
func (s *fileSets) note(i int, f *reports.Finding) {
	for len(s.files) <= i {
		s.files = append(s.files, nil)
		s.level = append(s.level, 0)
		s.last = "\x00"
	}
	if f.Path == "" || f.Path == s.last {
		return
	}
	s.last = f.Path
	m := s.files[i]
	if m == nil {
		m = map[string]struct{}{}
		s.files[i] = m
	}
	if !sampled(f.Path, s.level[i]) {
		return
	}
	if _, ok := m[f.Path]; ok {
		return
	}
	m[f.Path] = struct{}{}
	for len(m) > maxFileSet {
		s.level[i]++
		for p := range m {
			if !sampled(p, s.level[i]) {
				delete(m, p)
			}
		}
	}
}

// sampled reports whether path is among the files noted at level.
func sampled(path string, level uint) bool {
	if level == 0 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(path))
	return h.Sum64()&(1<<level-1) == 0
}

// warn is WarnSameFiles of the files noted: a sample of them for an input
// of many files, the same for all (the files in common counted among it).
func (s *fileSets) warn(inputs []reports.Input) {
	level := uint(0)
	for _, l := range s.level {
		level = max(level, l)
	}
	WarnSameFiles(inputs, func(i int) ([]string, bool) {
		if i >= len(s.files) {
			return nil, false
		}
		out := make([]string, 0, len(s.files[i]))
		for p := range s.files[i] {
			if sampled(p, level) {
				out = append(out, p)
			}
		}
		return out, level > 0
	})
}

// WarnSameFiles adds to the later input of each pair of inputs of one
// tool whose findings name some of the same files a warning naming the
// other (files gives the distinct paths an input's findings name, nil
// when not known, or a sample of them, saying so; it is asked only of
// inputs whose tool another has). A
// pair already named in a warning (one run in two formats, lying apart)
// is not warned of again.
func WarnSameFiles(inputs []reports.Input, files func(i int) (paths []string, sample bool)) {
	byTool := map[string][]int{}
	for i, in := range inputs {
		if in.Tool != "" && in.Error == "" && !in.LeftOut {
			k := strings.ToLower(in.Tool)
			byTool[k] = append(byTool[k], i)
		}
	}
	some := false // a sample: the files in common are at least those counted
	for _, idx := range byTool {
		if len(idx) < 2 {
			continue
		}
		// The inputs before j that name each path (the first few): each
		// input's files looked at once, however many inputs the tool has
		// (a directory of one report a file), not once a pair.
		owners := map[string][]int{}
		for _, j := range idx {
			b := &inputs[j]
			paths, sample := files(j)
			some = some || sample
			common := map[int]int{}
			seen := make(map[string]bool, len(paths))
			for _, p := range paths {
				if p == "" || seen[p] {
					continue
				}
				seen[p] = true
				for _, i := range owners[p] {
					common[i]++
				}
				if len(owners[p]) < maxOwners {
					owners[p] = append(owners[p], j)
				}
			}
			others := make([]int, 0, len(common))
			for i := range common {
				others = append(others, i)
			}
			slices.Sort(others)
			for _, i := range others { // the earliest other input it shares files with
				a := &inputs[i]
				if named(b.Warnings, a.Path) || named(a.Warnings, b.Path) {
					continue
				}
				n := english.Plural(common[i], "file", "files")
				if some {
					n = "at least " + n
				}
				// Its own array: inputs may share theirs with a cache.
				versions := ""
				if a.ToolVersion != "" && b.ToolVersion != "" && a.ToolVersion != b.ToolVersion {
					versions = fmt.Sprintf(" (%s there, %s here)", a.ToolVersion, b.ToolVersion)
				}
				b.Warnings = append(slices.Clip(b.Warnings), fmt.Sprintf("%s is a report of %s%s%s in common): both are read, and a finding both give counts twice; if one is an older run%s, give the newer alone",
					a.Path, a.Tool, reports.SameFilesNote, n, versions))
				break // one other named is enough
			}
		}
	}
}

// maxOwners bounds the inputs remembered of one path: past them, an input
// is told of the first ones.
const maxOwners = 4

// named reports whether a warning names path.
func named(warnings []string, path string) bool {
	for _, w := range warnings {
		if strings.Contains(w, path) {
			return true
		}
	}
	return false
}
