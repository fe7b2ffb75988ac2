package diff

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/recap-dev/recap/internal/genrepo"
	"github.com/recap-dev/recap/internal/gittest"
)

// TestPackReaderCorrupt: a pack with bytes changed (one to eight at a
// time, 3,000 times, anywhere in its objects, and an offset of its index
// one time in four) is read without a panic:
// each object is its content, an error that names the pack and the
// object, or left to go-git; a changed byte in a compressed stream is
// caught by its checksum. A pack whose index does not match is not read.
func TestPackReaderCorrupt(t *testing.T) {
	g := gittest.New(t)
	if err := genrepo.Generate(g.Dir, genrepo.Options{Files: 10, Commits: 40, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	g.Git("repack", "-adfq")
	packs, _ := filepath.Glob(filepath.Join(g.Dir, ".git", "objects", "pack", "pack-*.pack"))
	if len(packs) != 1 {
		t.Fatalf("%d packs, want 1", len(packs))
	}
	data, err := os.ReadFile(packs[0])
	if err != nil {
		t.Fatal(err)
	}
	idx, err := os.ReadFile(strings.TrimSuffix(packs[0], ".pack") + ".idx")
	if err != nil {
		t.Fatal(err)
	}
	open := func(data, idx []byte) (*packStore, []plumbing.Hash, error) {
		p := &mappedPack{name: filepath.Base(strings.TrimSuffix(packs[0], ".pack")), idx: idx, data: data}
		if err := p.check(); err != nil {
			return nil, nil, err
		}
		hashes := make([]plumbing.Hash, p.n)
		for k := range hashes {
			copy(hashes[k][:], p.names[20*k:])
		}
		return &packStore{packs: []*mappedPack{p}, bases: newBaseCache(1 << 20)}, hashes, nil
	}
	ps, hashes, err := open(data, idx)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hashes {
		if _, err := ps.packed(plumbing.AnyObject, h); err != nil {
			t.Fatalf("%s: %v", h, err)
		}
	}

	rnd := rand.New(rand.NewSource(1))
	read, failed := 0, 0
	for range 3000 {
		bad, badIdx := append([]byte(nil), data...), idx
		for range 1 + rnd.Intn(8) {
			bad[12+rnd.Intn(len(bad)-12-20)] ^= byte(1 + rnd.Intn(255))
		}
		if rnd.Intn(4) == 0 { // and an offset in the index
			badIdx = append([]byte(nil), idx...)
			offsets := 8 + 256*4 + 24*len(hashes)
			badIdx[offsets+rnd.Intn(4*len(hashes))] ^= byte(1 + rnd.Intn(255))
		}
		ps, _, err := open(bad, badIdx)
		if err != nil {
			t.Fatal(err) // the checksum at the end is not changed
		}
		for range 20 {
			h := hashes[rnd.Intn(len(hashes))]
			o, err := ps.packed(plumbing.AnyObject, h)
			switch {
			case err == errNotPacked:
			case err != nil:
				failed++
				if !strings.Contains(err.Error(), h.String()) || !strings.Contains(err.Error(), ps.packs[0].name+".pack") {
					t.Fatalf("%s: %v does not name the object and the pack", h, err)
				}
			default:
				read++
				if int64(len(o.(*packedObject).data)) != o.Size() {
					t.Fatalf("%s: %d bytes, size %d", h, len(o.(*packedObject).data), o.Size())
				}
			}
		}
	}
	if failed < 1000 || read < 1000 {
		t.Errorf("%d objects read and %d refused: the changes missed the objects", read, failed)
	}

	// an index of another pack
	other := append([]byte(nil), data...)
	other[len(other)-1] ^= 1
	if _, _, err := open(other, idx); err == nil {
		t.Error("a pack whose checksum is not its index's was read")
	}
}
