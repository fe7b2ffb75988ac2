package parsers

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/recap-dev/recap/internal/content"
)

// Inputs read once (docs/formats.md, "Duplicates"): before reading, ReadAll
// keeps one of the sources that name one file (a path given twice, or a
// directory and a file in it), one of the files whose content is the same
// (a copy, or a report and its gzip), and leaves out recap's own SARIF
// found by a directory search (given by name, as a baseline is, it is
// read). Each kept input says what was left out for it, and each left-out
// one is named.

// recapMark is what recap's SARIF writes at the end of each run: the
// conversion's tool. A directory search looks for it in a file's last
// bytes.
const recapMark = `"informationUri":"https://github.com/recap-dev/recap","name":"recap"`

// tailLen is how much of a file's end a search reads for recapMark.
const tailLen = 4 << 10

// once returns the sources to read, by index into them what each kept
// source should say of those left out for it, and recap's own SARIF files
// a search found, which are not read.
func once(srcs []source) (out []source, notes map[int][]string, skipped []string) {
	if len(srcs) < 2 && (len(srcs) == 0 || !srcs[0].found) {
		return srcs, nil, nil
	}
	notes = map[int][]string{}
	byPath := map[string]int{}   // a file's absolute path → its index in out
	bySize := map[int64][]int{}  // a file's (uncompressed) size → indexes in out
	dropped := map[string]bool{} // the absolute paths left out as copies
	byHash := map[[sha256.Size]byte]int{}
	hashed := map[int]bool{} // the indexes in out whose content is in byHash
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
		if src.found && recapOutput(src.name) {
			skipped = append(skipped, src.name)
			continue
		}
		// Files of one size are hashed (once each) and compared by hash;
		// empty files, each an error of its own, are not.
		if size, ok := contentSize(src.name); ok && size > 0 {
			if same := bySize[size]; len(same) > 0 {
				for _, j := range same {
					if !hashed[j] {
						hashed[j] = true
						if h, ok := contentHash(out[j].name); ok {
							if _, dup := byHash[h]; !dup {
								byHash[h] = j
							}
						}
					}
				}
				if h, ok := contentHash(src.name); ok {
					if j, dup := byHash[h]; dup {
						notes[j] = append(notes[j], fmt.Sprintf("%s has the same content: counted once", src.name))
						dropped[abs] = true
						continue
					}
					byHash[h] = len(out)
				}
				hashed[len(out)] = true
			}
			bySize[size] = append(bySize[size], len(out))
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
	r, err := decompress(bufio.NewReaderSize(f, 64<<10))
	if err != nil {
		return sum, false
	}
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return sum, false
	}
	copy(sum[:], h.Sum(nil))
	return sum, true
}

// recapOutput reports whether a file is SARIF that recap wrote: its last
// bytes name recap as the conversion's tool (a gzip file is not looked
// into).
func recapOutput(name string) bool {
	f, fi, err := content.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	return RecapSARIF(name, f, fi.Size())
}

// RecapSARIF reports whether the file name, of size bytes read through r,
// is SARIF that recap wrote: it is named .sarif or .json and its last
// bytes name recap as the conversion's tool (a gzip file is not looked
// into). A search for reports leaves such files out (they are made from
// the others); named, they are read.
func RecapSARIF(name string, r io.ReaderAt, size int64) bool {
	lower := strings.ToLower(name)
	if !strings.HasSuffix(lower, ".sarif") && !strings.HasSuffix(lower, ".json") {
		return false
	}
	n := min(size, tailLen)
	buf := make([]byte, n)
	if _, err := r.ReadAt(buf, size-n); err != nil && err != io.EOF {
		return false
	}
	return bytes.Contains(buf, []byte(recapMark))
}
