package parsers

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/recap-dev/recap/internal/content"
)

// ownFile is an output of recap a search found.
type ownFile struct {
	name string
	own  Own
}

// Inputs read once (docs/formats.md, "Duplicates"): before reading, ReadAll
// keeps one of the sources that name one file (a path given twice, or a
// directory and a file in it), one of the files whose content is the same
// (a copy, or a report and its gzip), and leaves out recap's own outputs
// found by a directory search (its SARIF, Code Quality report and JSON;
// given by name, as a baseline is, a SARIF or Code Quality report is
// read). Each kept input says what was left out for it, and each left-out
// one is named.

// recapMark is what recap's SARIF writes at the end of each run: the
// conversion's tool. A directory search looks for it in a file's last
// bytes.
const recapMark = `"informationUri":"https://github.com/recap-dev/recap","name":"recap"`

// tailLen is how much of a file's end a search reads for recapMark.
const tailLen = 4 << 10

// once returns the sources to read, by index into them what each kept
// source should say of those left out for it, and recap's own outputs a
// search found, which are not read.
func once(srcs []source) (out []source, notes map[int][]string, skipped []ownFile) {
	if len(srcs) < 2 && (len(srcs) == 0 || !srcs[0].found) {
		return srcs, nil, nil
	}
	notes = map[int][]string{}
	byPath := map[string]int{} // a file's absolute path → its index in out
	// A file's (uncompressed) size → the indexes in out of that size not
	// hashed yet: each file is hashed at most once, when a second of its
	// size comes, and no file is looked at again (200,000 reports of a
	// few sizes are compared in linear time).
	bySize := map[int64][]int{}
	dropped := map[string]bool{} // the absolute paths left out as copies
	byHash := map[[sha256.Size]byte]int{}
	for _, src := range srcs {
		if src.err != nil || src.name == "-" || src.r != nil {
			out = append(out, src)
			continue
		}
		abs, err := filepath.Abs(src.name)
		if err != nil {
			out = append(out, src)
			continue
		}
		if dropped[abs] {
			continue // left out already, as a copy
		}
		if i, ok := byPath[abs]; ok {
			note := fmt.Sprintf("%s names the same file: read once", src.name)
			if src.name == out[i].name {
				note = "given again: read once"
			}
			if !slices.Contains(notes[i], note) {
				notes[i] = append(notes[i], note)
			}
			continue
		}
		if src.found {
			if own, ok := ownOutput(src.name); ok {
				skipped = append(skipped, ownFile{src.name, own})
				continue
			}
		}
		// Files of one size are hashed (once each) and compared by hash;
		// empty files, each an error of its own, are not.
		if size, ok := contentSize(src.name); ok && size > 0 {
			if pending, seen := bySize[size]; seen {
				for _, j := range pending {
					if h, ok := contentHash(out[j].name); ok {
						if _, dup := byHash[h]; !dup {
							byHash[h] = j
						}
					}
				}
				bySize[size] = pending[:0]
				if h, ok := contentHash(src.name); ok {
					if j, dup := byHash[h]; dup {
						notes[j] = append(notes[j], fmt.Sprintf("%s has the same content: counted once", src.name))
						dropped[abs] = true
						continue
					}
					byHash[h] = len(out)
				}
			} else {
				bySize[size] = []int{len(out)}
			}
		}
		byPath[abs] = len(out)
		out = append(out, src)
	}
	return out, notes, skipped
}

// contentSize is the size of a file's content: its size, or for a gzip
// file the size its trailer gives (modulo 4 GiB: a first filter, the
// content is compared before anything is left out).
func contentSize(name string) (int64, bool) {
	f, fi, err := content.Open(name)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	var magic [2]byte
	if _, err := io.ReadFull(f, magic[:]); err != nil {
		return fi.Size(), true
	}
	if magic != [2]byte{0x1f, 0x8b} || fi.Size() < 18 {
		return fi.Size(), true
	}
	var trailer [4]byte
	if _, err := f.ReadAt(trailer[:], fi.Size()-4); err != nil {
		return 0, false
	}
	return int64(binary.LittleEndian.Uint32(trailer[:])), true
}

// contentHash is the SHA-256 of a file's content, gzip undone.
func contentHash(name string) ([sha256.Size]byte, bool) {
	var sum [sha256.Size]byte
	f, _, err := content.Open(name)
	if err != nil {
		return sum, false
	}
	defer f.Close()
	raw := readers.Get().(*bufio.Reader) // one buffer for every file hashed
	raw.Reset(f)
	defer func() { raw.Reset(nil); readers.Put(raw) }()
	r, err := decompress(raw)
	if err != nil {
		return sum, false
	}
	h := sha256.New()
	for {
		b, err := r.Peek(r.Size()) // the reader's own buffer: nothing allocated
		h.Write(b)
		r.Discard(len(b))
		switch {
		case err == io.EOF:
			h.Sum(sum[:0])
			return sum, true
		case err != nil && err != bufio.ErrBufferFull:
			return sum, false
		}
	}
}

// ownOutput reports whether a file is an output of recap
// ([RecapOutput]).
func ownOutput(name string) (Own, bool) {
	f, fi, err := content.Open(name)
	if err != nil {
		return Own{}, false
	}
	defer f.Close()
	return RecapOutput(name, f, fi.Size())
}

// Own is an output of recap that a search for reports found: made from
// other reports, it is not read.
type Own struct {
	// Format is the format it would be read as when named: SARIF, Code
	// Quality; "" for recap's JSON views, which are no report.
	Format Format
	// Warning is what the input says of it.
	Warning string
}

// The outputs of recap a search leaves out.
var (
	ownSARIF       = Own{FormatSARIF, "recap's own SARIF, made from other reports: not read (name it to read it)"}
	ownCodeQuality = Own{FormatCodeClimate, "recap's own Code Quality report, made from other reports: not read (name it to read it)"}
	ownJSON        = Own{"", "recap's own JSON output: no report, not read"}
)

// recapJSON is how recap's JSON views begin (summarize.View).
const recapJSON = `{"summary":{"total":`

// recapIssue is how recap's Code Quality report begins each issue.
const recapIssue = `{"type":"issue","check_name":"`

// RecapOutput reports whether the file name, of size bytes read through r,
// is an output of recap, and which: its SARIF (named .sarif or .json, its
// last bytes name recap as the conversion's tool), its Code Quality report
// (named .json, a JSON array whose first issue is written as recap writes them: type,
// then check_name "Tool/rule", and engine_name Tool), or its JSON view
// (named .json, beginning {"summary":{"total":). A gzip file is not looked
// into. A search for reports leaves them out, with Own.Warning; named, the
// SARIF and the Code Quality report are read.
func RecapOutput(name string, r io.ReaderAt, size int64) (Own, bool) {
	lower := strings.ToLower(name)
	if !strings.HasSuffix(lower, ".sarif") && !strings.HasSuffix(lower, ".json") {
		return Own{}, false
	}
	n := min(size, tailLen)
	buf := make([]byte, n)
	if _, err := r.ReadAt(buf, size-n); err != nil && err != io.EOF {
		return Own{}, false
	}
	if bytes.Contains(buf, []byte(recapMark)) {
		return ownSARIF, true
	}
	if !strings.HasSuffix(lower, ".json") {
		return Own{}, false // recap writes its Code Quality report and JSON as .json
	}
	head := make([]byte, min(size, headLen))
	k, err := r.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return Own{}, false
	}
	head = head[:k]
	head = bytes.TrimLeft(bytes.TrimPrefix(head, utf8BOM), " \t\r\n")
	if bytes.HasPrefix(head, []byte(recapJSON)) {
		return ownJSON, true
	}
	if rest, ok := bytes.CutPrefix(head, []byte("[")); ok {
		rest = bytes.TrimLeft(rest, " \t\r\n")
		if !bytes.HasPrefix(rest, []byte(recapIssue)) {
			return Own{}, false
		}
		var issue struct {
			CheckName string `json:"check_name"`
			Engine    string `json:"engine_name"`
		}
		// The first issue, whole within the head (else it is read).
		if err := json.NewDecoder(bytes.NewReader(rest)).Decode(&issue); err == nil &&
			issue.Engine != "" && strings.HasPrefix(issue.CheckName, issue.Engine+"/") {
			return ownCodeQuality, true
		}
	}
	return Own{}, false
}

// headLen is how much of a file's beginning a search reads for the marks
// of recap's outputs.
const headLen = 16 << 10
