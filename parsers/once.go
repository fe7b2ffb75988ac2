package parsers

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/recap-dev/recap/inputs"
)

// ownFile is an output of recap a search found.
type ownFile struct {
	name string
	own  Own
}

// once returns the sources to read, by index into them what each kept
// source should say of those left out for it, and recap's own outputs a
// search found, which are not read: the door's choice ([inputs.Door.Once],
// docs/formats.md, "Inputs read once"), in the command line's words.
func once(srcs []source, door *inputs.Door) (out []source, notes map[int][]string, skipped []ownFile) {
	if len(srcs) < 2 && (len(srcs) == 0 || !srcs[0].found) {
		return srcs, nil, nil
	}
	items := make([]inputs.Item, len(srcs))
	for i, src := range srcs {
		items[i] = inputs.Item{Name: src.name, Found: src.found}
		if src.err != nil || src.name == "-" || src.r != nil {
			continue
		}
		abs, err := filepath.Abs(src.name)
		if err != nil {
			continue
		}
		info := src.info
		if info == nil {
			if info, err = os.Stat(src.name); err != nil { // a stat, not an open
				continue
			}
		}
		items[i].Key, items[i].Info = abs, info
	}
	c := door.Once(items)
	for _, i := range c.Own {
		own, _ := door.Own(srcs[i].name, items[i].Info)
		skipped = append(skipped, ownFile{srcs[i].name, own})
	}
	for _, i := range c.Beside {
		own, _ := door.Own(srcs[i].name, items[i].Info)
		skipped = append(skipped, ownFile{srcs[i].name, Own{Format: own.Format, Warning: own.BesideWarning()}})
	}
	notes = map[int][]string{}
	for k, i := range c.Keep {
		out = append(out, srcs[i])
		out[k].info = nil // the door keeps what it needs: no file's information held while the inputs are read
		for _, l := range c.Left[k] {
			name := srcs[l.Item].name
			switch l.Reason {
			case inputs.GivenAgain:
				notes[k] = append(notes[k], "given again: read once")
			case inputs.SameFile:
				notes[k] = append(notes[k], fmt.Sprintf("%s names the same file: read once", name))
			case inputs.SameContent:
				notes[k] = append(notes[k], fmt.Sprintf("%s has the same content: counted once", name))
			}
		}
	}
	return out, notes, skipped
}

// Own is an output of recap that a search for reports found: made from
// other reports, it is not read ([inputs.Own]).
type Own = inputs.Own

// RecapOutput reports whether the file name, of size bytes read through r,
// is an output of recap, and which ([inputs.RecapOutput]).
func RecapOutput(name string, r io.ReaderAt, size int64) (Own, bool) {
	return inputs.RecapOutput(name, r, size)
}
