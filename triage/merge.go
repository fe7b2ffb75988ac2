package triage

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/recap-dev/recap/config"
	"github.com/recap-dev/recap/internal/text"
)

// Two branches that each decide a finding both add an entry to the file,
// often next to each other once sorted, and git's line merge then leaves
// conflict markers. Merge merges them by entry instead: it is what
// `recap triage merge BASE OURS THEIRS` does as git's merge driver
// (docs/triage.md, "Merging branches"), and Resolve what it does to a
// file git already left in conflict.

// The lines of git's conflict markers, as Merge writes them.
const (
	markerOurs   = "<<<<<<< ours"
	markerSplit  = "======="
	markerTheirs = ">>>>>>> theirs"
)

// ErrNoConflict is Resolve's error for a file without conflict markers.
var ErrNoConflict = errors.New("no merge conflict in it: nothing to resolve")

// A Conflict is an entry both sides of a merge changed, each its own way
// (or added, deciding its finding otherwise): Merge writes both
// versions, ours first, between git's conflict markers.
type Conflict struct{ Ours, Theirs Entry }

// side is one side's version of an entry, with its comments as read.
type side struct {
	entry Entry
	node  *yaml.Node
}

// Merge merges ours and theirs, two versions of a triage file whose
// merge base is base (an empty File when there is none), entry by entry,
// and returns the file as Marshal writes it, ours' line ends kept. An
// entry added on either side is kept; one changed on one side is taken
// from it; one removed on one side and unchanged on the other is
// removed, but one changed on the other is kept (a decision made again
// is not lost: if its finding is gone, check calls it stale); one both
// sides changed, or added, deciding otherwise (another state, reason,
// until or link) is a conflict, written with both versions between
// git's conflict markers. Comments are taken from the side that changed
// them, ours when both did.
func Merge(base, ours, theirs *File) ([]byte, []Conflict, error) {
	b, o, t := sidesOf(base), sidesOf(ours), sidesOf(theirs)
	out := &File{Name: ours.Name, Version: Version, nodes: map[string]*yaml.Node{}, theirs: map[string]side{}, crlf: ours.crlf}
	out.doc = pickComments(base.doc, ours.doc, theirs.doc)
	var conflicts []Conflict
	seen := make(map[string]bool, len(o)+len(t))
	for _, k := range append(slices.Collect(maps.Keys(o)), slices.Collect(maps.Keys(t))...) {
		if seen[k] {
			continue
		}
		seen[k] = true
		be, inBase := b[k]
		oe, inOurs := o[k]
		te, inTheirs := t[k]
		var e side
		switch {
		case inOurs && inTheirs:
			e = oe
			switch {
			case inBase && oe.entry == be.entry && te.entry != be.entry:
				e = te
			case oe.entry == te.entry, inBase && te.entry == be.entry, oe.entry.sameDecision(&te.entry):
			default:
				out.theirs[k] = te
				conflicts = append(conflicts, Conflict{Ours: oe.entry, Theirs: te.entry})
			}
			e.node = pickComments(be.node, oe.node, te.node)
		case inOurs && !(inBase && oe.entry == be.entry):
			e = oe
		case inTheirs && !(inBase && te.entry == be.entry):
			e = te
		default:
			continue // removed on one side, unchanged on the other
		}
		out.Put(e.entry)
		if e.node != nil {
			out.nodes[k] = e.node
		}
	}
	slices.SortFunc(conflicts, func(a, b Conflict) int { return strings.Compare(a.Ours.sortKey(), b.Ours.sortKey()) })
	data, err := out.Marshal()
	return data, conflicts, err
}

// sidesOf is f's entries by key, with their comments.
func sidesOf(f *File) map[string]side {
	s := make(map[string]side, len(f.Entries))
	for _, e := range f.Entries {
		k := e.Key()
		s[k] = side{entry: e, node: f.nodes[k]}
	}
	return s
}

// pickComments returns the comments of the side that changed them since
// base: theirs when ours did not, else ours.
func pickComments(base, ours, theirs *yaml.Node) *yaml.Node {
	if commentText(ours) == commentText(base) {
		return theirs
	}
	return ours
}

// commentText is the comments of n and of the nodes under it, with the
// keys they are on, to compare.
func commentText(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if hasComment(n) {
			fmt.Fprintf(&b, "%q %q %q %q\n", n.Value, n.HeadComment, n.LineComment, n.FootComment)
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// Resolve merges the two sides of the conflicts git left in a triage
// file (data, named name) merged without the driver: each side is the
// file's lines outside the conflicts with that side's lines in each, and
// they are merged as Merge does, against the merge base when the file
// has it (git's diff3 and zdiff3 conflict styles write it, after
// |||||||), else against none: an entry one side removed then comes
// back. A file without conflict markers is [ErrNoConflict].
func Resolve(name string, data []byte) ([]byte, []Conflict, error) {
	base, ours, theirs, hasBase, err := splitConflicts(name, data)
	if err != nil {
		return nil, nil, err
	}
	if !hasBase {
		// Each side rebuilt of the lines outside the conflicts, which
		// hold what git merged of both, can pair one entry's first lines
		// with another's last: without the merge base to tell, an entry
		// may come out wrong, and nothing would say so.
		return nil, nil, &config.Error{File: name, Err: errors.New("the conflicts hold no merge base (|||||||), without which the sides cannot be told apart surely: " +
			"run recap triage merge --resolve during the merge (git's index holds the three versions), or git checkout --conflict=diff3 on the file first")}
	}
	return mergeSides(name, "of its conflicts", base, ours, theirs, true)
}

// mergeSides merges the three versions of the triage file name (its
// merge base, none when hasBase is false; ours; theirs), each read as
// the file is, its mistakes named as name's, the side, and where it
// comes from (from).
func mergeSides(name, from string, base, ours, theirs []byte, hasBase bool) ([]byte, []Conflict, error) {
	var files [3]*File
	for i, s := range []struct {
		what string
		data []byte
	}{{"the merge base", base}, {"our side", ours}, {"their side", theirs}} {
		if i == 0 && !hasBase {
			files[i] = &File{Name: name, Version: Version}
			continue
		}
		var err error
		if files[i], err = Parse(fmt.Sprintf("%s (%s %s)", name, s.what, from), s.data); err != nil {
			return nil, nil, err
		}
	}
	files[1].Name = name
	return Merge(files[0], files[1], files[2])
}

// splitConflicts returns the three versions of a file git left with
// conflict markers: the lines outside the conflicts with, in each, the
// merge base's lines (hasBase false when no conflict has them), ours
// and theirs. A file without markers is ErrNoConflict; markers out of
// place are a [*config.Error] naming name and the line.
func splitConflicts(name string, data []byte) (base, ours, theirs []byte, hasBase bool, err error) {
	const (
		outside = iota
		inOurs
		inBase
		inTheirs
	)
	state, at, n := outside, 0, 0
	var b, o, t bytes.Buffer
	for line := range bytes.Lines(data) {
		n++
		next, want := state, -1
		switch markerOf(line) {
		case "<<<<<<<":
			next, want = inOurs, outside
		case "|||||||":
			next, want, hasBase = inBase, inOurs, true
		case "=======":
			next, want = inTheirs, inOurs
			if state == inBase {
				want = inBase
			}
		case ">>>>>>>":
			next, want = outside, inTheirs
		}
		if want >= 0 {
			if state != want {
				return nil, nil, nil, false, &config.Error{File: name, Line: n, Err: fmt.Errorf("%s out of place (a conflict is <<<<<<<, our lines, ||||||| and the merge base's, =======, their lines, >>>>>>>): mend the markers, or take one side (git checkout --ours FILE)", text.CutRunes(strings.TrimSpace(string(line)), 80))}
			}
			if state == outside {
				at = n
			}
			state = next
			continue
		}
		switch state {
		case outside:
			b.Write(line)
			o.Write(line)
			t.Write(line)
		case inOurs:
			o.Write(line)
		case inBase:
			b.Write(line)
		case inTheirs:
			t.Write(line)
		}
	}
	switch {
	case state != outside:
		return nil, nil, nil, false, &config.Error{File: name, Line: at, Err: errors.New("a conflict without its >>>>>>> line")}
	case at == 0:
		return nil, nil, nil, false, &config.Error{File: name, Err: ErrNoConflict}
	}
	return b.Bytes(), o.Bytes(), t.Bytes(), hasBase, nil
}

// markerOf returns the conflict marker line begins with ("<<<<<<<",
// "|||||||", "=======", ">>>>>>>": git's markers, of 7 characters or of
// the size a conflict-marker-size attribute sets, then a space or the end
// of the line), "" for another line.
func markerOf(line []byte) string {
	if len(line) < 7 {
		return ""
	}
	c := line[0]
	if c != '<' && c != '|' && c != '=' && c != '>' {
		return ""
	}
	n := 0
	for n < len(line) && line[n] == c {
		n++
	}
	if n < 7 {
		return ""
	}
	if rest := line[n:]; len(rest) == 0 || rest[0] == ' ' || rest[0] == '\n' || rest[0] == '\r' {
		return strings.Repeat(string(c), 7)
	}
	return ""
}

// firstMarker returns the line and the marker of the first line of a
// conflict marker in data, 0 when there is none.
func firstMarker(data []byte) (int, string) {
	n := 0
	for line := range bytes.Lines(data) {
		n++
		if m := markerOf(line); m != "" {
			return n, m
		}
	}
	return 0, ""
}

// MergeFiles merges the triage files at ours and theirs, whose merge
// base is the file at base, into ours (as git's merge driver is asked
// to: recap triage merge %O %A %B), written even when there are
// conflicts, which it returns.
func MergeFiles(base, ours, theirs string) ([]Conflict, error) {
	var files [3]*File
	for i, p := range []string{base, ours, theirs} {
		// git gives the driver three files, an empty one for a side
		// without the file: one missing is a path written wrong, which
		// LoadFile would read as no decision (the other side's removed).
		if _, err := os.Stat(p); err != nil {
			side := [...]string{"BASE", "OURS", "THEIRS"}[i]
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%s (%s): no such file (git gives the driver three files: recap triage merge %%O %%A %%B)", p, side)
			}
			return nil, fmt.Errorf("%s (%s): %w", p, side, err)
		}
		var err error
		if files[i], err = LoadFile(p); err != nil {
			return nil, err
		}
	}
	data, conflicts, err := Merge(files[0], files[1], files[2])
	if err != nil {
		return nil, err
	}
	return conflicts, writeMerged(ours, data)
}

// ResolveStages merges the three versions of the triage file at path
// that git's index holds during a merge that left it in conflict (stage
// 1, the merge base, none when both sides added it; 2, ours; 3, theirs),
// as the merge driver would have, and writes the file (even with
// conflicts, which it returns) under its lock. ok false when the index
// holds no such stages (no merge in progress, or no git), or the file
// has no conflict markers (resolved by hand): ResolveFile then reads the
// conflict markers.
func ResolveStages(path string) (conflicts []Conflict, ok bool, err error) {
	if data, err := os.ReadFile(path); err != nil {
		return nil, false, nil
	} else if at, _ := firstMarker(data); at == 0 {
		return nil, false, nil // resolved already (by hand): the file's markers are gone
	}
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	stage := func(n int) ([]byte, bool) {
		cmd := exec.Command("git", "-C", dir, "show", fmt.Sprintf(":%d:./%s", n, name))
		out, err := cmd.Output()
		return out, err == nil
	}
	ours, okOurs := stage(2)
	theirs, okTheirs := stage(3)
	if !okOurs || !okTheirs {
		return nil, false, nil
	}
	base, okBase := stage(1)
	merged, conflicts, err := mergeSides(path, "as git's index holds it", base, ours, theirs, okBase)
	if err != nil {
		return nil, true, err
	}
	return conflicts, true, writeMerged(path, merged)
}

// ResolveFile resolves the conflicts git left in the triage file at
// path, as Resolve does, and writes the file (even with conflicts, which
// it returns) under its lock.
func ResolveFile(path string) ([]Conflict, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	data, err := readBounded(path, file)
	file.Close()
	if err != nil {
		return nil, err
	}
	merged, conflicts, err := Resolve(path, data)
	if err != nil {
		return nil, err
	}
	return conflicts, writeMerged(path, merged)
}

// writeMerged writes data to path as WriteFile writes, without reading
// what is there first.
func writeMerged(path string, data []byte) error {
	return inDir(path, func(r *os.Root, name string) error {
		return withLock(r, name, func() error { return writeBytes(r, name, data) })
	})
}
