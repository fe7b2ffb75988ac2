package diff

import (
	"bytes"
	"context"
	"io"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/recap-dev/recap/internal/content"
)

// Renames, as git diff -M finds them between two trees: a deleted file and
// an added one are a rename when they hold the same content (git's exact
// renames, first), or content similar enough (50%, scored as go-git scores
// it), within bounds (see renameLimit, maxRenameBytes).

// Bounds of the renames of similar content, past which a deletion and an
// addition stay what they are (git's diff.renameLimit is 1000 too).
const (
	// renameLimit bounds the files compared: the deleted ones times the
	// added ones left after the exact renames, at most renameLimit².
	renameLimit = 1000
	// maxRenameFile bounds a file compared (larger ones are renamed
	// when their content is the same only).
	maxRenameFile = MaxDiffBytes
	// maxRenameBytes bounds the content of the files compared, all
	// together; maxRenameIndex the memory of their similarity indexes;
	// maxRenameWork the slots of indexes compared, pair after pair.
	maxRenameBytes = 128 << 20
	maxRenameIndex = 64 << 20
	maxRenameWork  = 2_000_000_000
)

// sides are the additions (or the deletions) of a diff of two trees, in
// the walk's order, kept compactly: their paths one after another.
type sides struct {
	names []byte
	recs  []sideRec
}

type sideRec struct {
	end  int // the path's end in names; it starts where the previous ends
	hash plumbing.Hash
	mode filemode.FileMode
	// pair is, for an addition, the deletion it is renamed from (-1:
	// none); for a deletion, whether it is renamed (0 or 1).
	pair int32
}

func (s *sides) add(e entry) {
	s.names = append(s.names, e.path...)
	s.recs = append(s.recs, sideRec{end: len(s.names), hash: e.hash, mode: e.mode, pair: -1})
}

func (s *sides) path(i int) string {
	start := 0
	if i > 0 {
		start = s.recs[i-1].end
	}
	return string(s.names[start:s.recs[i].end])
}

func (s *sides) entry(i int) entry {
	return entry{path: s.path(i), mode: s.recs[i].mode, hash: s.recs[i].hash}
}

// isRegular is git's S_ISREG: a file, executable or not.
func isRegular(m filemode.FileMode) bool { return m&0o170000 == 0o100000 }

// detectRenames pairs added files with deleted ones: first those of the
// same content, as git pairs them (each addition, in path order, with the
// first unused deletion of its content, one of the same base name
// preferred; a link or a submodule only with one of its own mode), then
// those of similar content, within the bounds above.
func detectRenames(ctx context.Context, s storer.EncodedObjectStorer, added, deleted *sides) error {
	if len(added.recs) == 0 || len(deleted.recs) == 0 {
		return nil
	}
	// the deletions by content, in path order within one content
	byHash := make([]int32, len(deleted.recs))
	for i := range byHash {
		byHash[i] = int32(i)
	}
	sort.SliceStable(byHash, func(i, j int) bool {
		return bytes.Compare(deleted.recs[byHash[i]].hash[:], deleted.recs[byHash[j]].hash[:]) < 0
	})
	for i := range added.recs {
		a := &added.recs[i]
		k := sort.Search(len(byHash), func(j int) bool { return bytes.Compare(deleted.recs[byHash[j]].hash[:], a.hash[:]) >= 0 })
		best, bestScore, tries := -1, -1, 100
		for ; k < len(byHash) && deleted.recs[byHash[k]].hash == a.hash; k++ {
			d := &deleted.recs[byHash[k]]
			if d.pair != -1 {
				continue // renamed already
			}
			score := exactScore(deleted.path(int(byHash[k])), d.mode, added.path(i), a.mode)
			if score == 0 {
				continue
			}
			if score > bestScore {
				best, bestScore = int(byHash[k]), score
				if score == 2 {
					break
				}
			}
			if tries--; tries == 0 {
				break
			}
		}
		if best >= 0 {
			a.pair = int32(best)
			deleted.recs[best].pair = 1
		}
	}
	return similarRenames(ctx, s, added, deleted)
}

// exactScore is how git ranks a deleted file for an added one of the same
// content: 0 when they do not pair (a link or a submodule pairs only with
// one of its own mode), 2 when their paths end in the same name, else 1.
func exactScore(deleted string, deletedMode filemode.FileMode, added string, addedMode filemode.FileMode) int {
	if (!isRegular(deletedMode) || !isRegular(addedMode)) && deletedMode != addedMode {
		return 0
	}
	if sameBase(deleted, added) {
		return 2
	}
	return 1
}

// sameBase tells whether two paths end in the same name.
func sameBase(a, b string) bool {
	return a[strings.LastIndexByte(a, '/')+1:] == b[strings.LastIndexByte(b, '/')+1:]
}

// candidate is a file of a rename of similar content.
type candidate struct {
	i    int // its index in its sides
	size int64
	idx  *similarityIndex
}

// similarRenames pairs the files left of similar content, as go-git's
// rename detection does (jgit's similarity index of lines, 99% the share
// of common content and 1% the likeness of the paths, the best pairs
// first), when they are few enough (git's rename limit) and small enough.
func similarRenames(ctx context.Context, s storer.EncodedObjectStorer, added, deleted *sides) error {
	return pairSimilar(&renameLoader{ctx: ctx, s: s}, added, deleted)
}

// pairSimilar is similarRenames, the contents read by l.
func pairSimilar(l *renameLoader, added, deleted *sides) error {
	ctx := l.ctx
	srcs, dsts := unpaired(deleted), unpaired(added)
	ns, nd := len(srcs), len(dsts)
	if ns == 0 || nd == 0 || (ns > renameLimit && nd > renameLimit) || int64(ns)*int64(nd) > renameLimit*renameLimit {
		return nil
	}
	var err error
	if srcs, err = l.keep(deleted, srcs); err == nil {
		dsts, err = l.keep(added, dsts)
	}
	if err == errTooMuch {
		return nil // past the bounds: no renames of similar content
	}
	if err != nil {
		return err
	}
	matrix, err := scoreRenames(ctx, srcs, dsts, added, deleted)
	if err == errTooMuch {
		return nil
	}
	if err != nil {
		return err
	}
	for i := len(matrix) - 1; i >= 0; i-- { // the best first
		p := matrix[i]
		a, d := &added.recs[dsts[p.dst].i], &deleted.recs[srcs[p.src].i]
		if a.pair != -1 || d.pair != -1 {
			continue
		}
		a.pair, d.pair = int32(srcs[p.src].i), 1
	}
	return nil
}

// unpaired are the regular files of side that no exact rename paired.
func unpaired(side *sides) []candidate {
	var cs []candidate
	for i, r := range side.recs {
		if r.pair == -1 && isRegular(r.mode) {
			cs = append(cs, candidate{i: i})
		}
	}
	return cs
}

// renameLoader reads the candidates' contents into their similarity
// indexes, within the bounds of their sizes and of the indexes' memory.
type renameLoader struct {
	ctx context.Context
	s   storer.EncodedObjectStorer
	// work, when set, is the side read by read (the working tree's
	// files) rather than from s.
	work *sides
	read func(path string) ([]byte, error) // nil: not compared

	total, indexes int64 // the bytes read, and the indexes' bytes
}

// keep returns the candidates of side whose index was made (the others
// are too large or too varied to compare); errTooMuch past the bounds.
func (l *renameLoader) keep(side *sides, cs []candidate) ([]candidate, error) {
	out := cs[:0]
	for _, c := range cs {
		ok, err := l.load(side, &c)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, c)
		}
	}
	return out, nil
}

// load makes c's index; false when c is not compared.
func (l *renameLoader) load(side *sides, c *candidate) (bool, error) {
	if err := l.ctx.Err(); err != nil {
		return false, err
	}
	var data []byte
	if side == l.work {
		var err error
		if data, err = l.read(side.path(c.i)); err != nil || data == nil || len(data) > maxRenameFile {
			return false, err
		}
		if l.total += int64(len(data)); l.total > maxRenameBytes {
			return false, errTooMuch
		}
	} else {
		h := side.recs[c.i].hash
		size, err := objectSize(l.s, h)
		if err != nil {
			return false, err
		}
		if size > maxRenameFile {
			return false, nil
		}
		if l.total += size; l.total > maxRenameBytes {
			return false, errTooMuch
		}
		b, err := object.GetBlob(l.s, h)
		if err != nil {
			return false, err
		}
		rd, err := b.Reader()
		if err != nil {
			return false, err
		}
		data, err = io.ReadAll(io.LimitReader(rd, maxRenameFile+1))
		rd.Close()
		if err != nil {
			return false, err
		}
	}
	if !c.index(data) {
		return false, nil // too many distinct lines: not compared
	}
	if l.indexes += int64(len(c.idx.hashes)) * 8; l.indexes > maxRenameIndex {
		return false, errTooMuch
	}
	return true, nil
}

// renamePair is a deleted file (src) and an added one (dst) alike enough
// to be a rename, by their places among the candidates.
type renamePair struct{ score, dst, src int }

// scoreRenames returns the pairs alike enough, the worst first (as
// go-git sorts them); errTooMuch past the bound of the work.
func scoreRenames(ctx context.Context, srcs, dsts []candidate, added, deleted *sides) ([]renamePair, error) {
	var matrix []renamePair
	work := int64(0)
	for si, src := range srcs {
		srcPath := deleted.path(src.i)
		for di, dst := range dsts {
			if sizeRatio(src, dst) < renameScore {
				continue // sizes too different
			}
			if work += int64(len(src.idx.hashes) + len(dst.idx.hashes)); work > maxRenameWork {
				return nil, errTooMuch
			}
			if work&0xfffff == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			if score := similarity(src, dst, srcPath, added.path(dst.i)); score >= renameScore {
				matrix = append(matrix, renamePair{score, di, si})
			}
		}
	}
	sort.Slice(matrix, func(i, j int) bool {
		a, b := matrix[i], matrix[j]
		if a.score != b.score {
			return a.score < b.score
		}
		if a.dst != b.dst {
			return a.dst < b.dst
		}
		return a.src < b.src
	})
	return matrix, nil
}

// index makes c's similarity index of data; false when it is full.
func (c *candidate) index(data []byte) bool {
	c.size = int64(len(data)) + 1
	idx := newSimilarityIndex()
	if !idx.hashContent(data, content.IsBinary(data)) {
		return false
	}
	idx.sort()
	c.idx = idx
	return true
}

// sizeRatio is the smaller file's size in percent of the larger's.
func sizeRatio(a, b candidate) int {
	return int(min(a.size, b.size) * 100 / max(a.size, b.size))
}

// similarity is how alike src and dst are, 0 to 100: 99% their common
// content, 1% their paths.
func similarity(src, dst candidate, srcPath, dstPath string) int {
	return (src.idx.score(dst.idx, 10000)*99 + nameScore(srcPath, dstPath)*100) / 10000
}

type tooMuch struct{}

func (tooMuch) Error() string { return "past the bounds of rename detection" }

var errTooMuch error = tooMuch{}

// objectSize is the size of object h, read from its header when the
// storage can.
func objectSize(s storer.EncodedObjectStorer, h plumbing.Hash) (int64, error) {
	if sz, ok := s.(interface {
		EncodedObjectSize(plumbing.Hash) (int64, error)
	}); ok {
		return sz.EncodedObjectSize(h)
	}
	o, err := s.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return 0, err
	}
	return o.Size(), nil
}

// nameScore is how alike two paths are, 0 to 100: their directories
// compared from the left and from the right, a quarter each, and their
// names from the right, half (as go-git and jgit score them).
func nameScore(a, b string) int {
	aDir, bDir := strings.LastIndexByte(a, '/')+1, strings.LastIndexByte(b, '/')+1
	dirMin, dirMax := min(aDir, bDir), max(aDir, bDir)
	ltr, rtl := 100, 100
	if dirMax > 0 {
		n := 0
		for n < dirMin && a[n] == b[n] {
			n++
		}
		ltr = n * 100 / dirMax
		if ltr != 100 {
			n = 0
			for n < dirMin && a[aDir-1-n] == b[bDir-1-n] {
				n++
			}
			rtl = n * 100 / dirMax
		}
	}
	fileMin, fileMax := min(len(a)-aDir, len(b)-bDir), max(len(a)-aDir, len(b)-bDir)
	n := 0
	for n < fileMin && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	file := 0
	if fileMax > 0 {
		file = n * 100 / fileMax
	}
	return ((ltr+rtl)*25 + file*50) / 100
}

// similarityIndex is jgit's index of a file's lines (blocks of at most 64
// bytes in a binary file, or a long line): an open-addressing table of
// each block's hash and how many bytes it stands for, sorted to compare.
type similarityIndex struct {
	hashed    uint64 // bytes hashed
	numHashes int
	growAt    int
	hashes    []uint64 // key<<32 | count
	hashBits  int
}

func newSimilarityIndex() *similarityIndex {
	return &similarityIndex{hashBits: 8, hashes: make([]uint64, 1<<8), growAt: growAt(8)}
}

func growAt(bits int) int { return (1 << bits) * (bits - 3) / bits }

// hashContent hashes data's blocks; false when the index is full. A CR
// before a LF is not counted in text, except where the LF starts one of
// the 4,096-byte chunks jgit reads (so that the scores are go-git's).
func (x *similarityIndex) hashContent(data []byte, binary bool) bool {
	ptr := 0
	remaining := len(data)
	for remaining > 0 {
		hash := 5381
		var block uint64
		n := 0
		for ptr < len(data) {
			n++
			c := data[ptr]
			ptr++
			if !binary && c == '\r' && ptr < len(data) && ptr%4096 != 0 && data[ptr] == '\n' {
				continue
			}
			block++
			if c == '\n' {
				break
			}
			hash = (hash << 5) + hash + int(c)
			if n >= 64 || n >= remaining {
				break
			}
		}
		x.hashed += block
		if !x.add(hash, block) {
			return false
		}
		remaining -= n
	}
	return true
}

const maxCount = 1<<32 - 1

func (x *similarityIndex) add(key int, cnt uint64) bool {
	key = int(uint32(key) * 0x9e370001 >> 1)
	j := x.slot(key)
	for {
		v := x.hashes[j]
		switch {
		case v == 0:
			if x.growAt <= x.numHashes {
				if !x.grow() {
					return false
				}
				j = x.slot(key)
				continue
			}
			if cnt > maxCount {
				return false
			}
			x.hashes[j] = uint64(key)<<32 | cnt
			x.numHashes++
			return true
		case int(v>>32) == key:
			if c := v&maxCount + cnt; c <= maxCount {
				x.hashes[j] = uint64(key)<<32 | c
				return true
			}
			return false
		case j+1 >= len(x.hashes):
			j = 0
		default:
			j++
		}
	}
}

func (x *similarityIndex) slot(key int) int { return int(uint32(key) >> uint(31-x.hashBits)) }

func (x *similarityIndex) grow() bool {
	if x.hashBits == 30 {
		return false
	}
	old := x.hashes
	x.hashBits++
	x.growAt = growAt(x.hashBits)
	x.hashes = make([]uint64, 1<<x.hashBits)
	for _, v := range old {
		if v != 0 {
			j := x.slot(int(v >> 32))
			for x.hashes[j] != 0 {
				if j++; j >= len(x.hashes) {
					j = 0
				}
			}
			x.hashes[j] = v
		}
	}
	return true
}

func (x *similarityIndex) sort() {
	sort.Slice(x.hashes, func(i, j int) bool { return x.hashes[i] < x.hashes[j] })
}

// score is the share of common content, 0 to max.
func (x *similarityIndex) score(o *similarityIndex, max int) int {
	most := max64(x.hashed, o.hashed)
	if most == 0 {
		return max
	}
	return int(x.common(o) * uint64(max) / most)
}

func max64(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}

func (x *similarityIndex) common(o *similarityIndex) uint64 {
	if x.numHashes == 0 || o.numHashes == 0 {
		return 0
	}
	var common uint64
	i, j := 0, 0
	for i < len(x.hashes) && j < len(o.hashes) {
		a, b := x.hashes[i]>>32, o.hashes[j]>>32
		switch {
		case a == b:
			common += min(x.hashes[i]&maxCount, o.hashes[j]&maxCount)
			i++
			j++
		case a < b:
			i++
		default:
			j++
		}
	}
	return common
}
