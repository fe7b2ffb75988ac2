package diff

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/memory"
)

// goGitRenamed tells whether go-git's rename detection, at score min,
// takes the deletion of a (at from) and the addition of b (at to) for a
// rename.
func goGitRenamed(t *testing.T, from, to string, a, b []byte, min uint) bool {
	t.Helper()
	s := memory.NewStorage()
	tree := func(name string, content []byte) *object.Tree {
		blob := s.NewEncodedObject()
		blob.SetType(plumbing.BlobObject)
		w, _ := blob.Writer()
		w.Write(content)
		w.Close()
		h, err := s.SetEncodedObject(blob)
		if err != nil {
			t.Fatal(err)
		}
		o := s.NewEncodedObject()
		if err := (&object.Tree{Entries: []object.TreeEntry{{Name: name, Mode: filemode.Regular, Hash: h}}}).Encode(o); err != nil {
			t.Fatal(err)
		}
		th, err := s.SetEncodedObject(o)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := object.GetTree(s, th)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	changes, err := object.DiffTree(tree(from, a), tree(to, b))
	if err != nil {
		t.Fatal(err)
	}
	renamed, err := object.DetectRenames(changes, &object.DiffTreeOptions{DetectRenames: true, RenameScore: min})
	if err != nil {
		t.Fatal(err)
	}
	return len(renamed) == 1
}

// checkSimilarity checks recap's score of a pair against go-git's: the
// pair is a rename to go-git at recap's score, and not one point above.
func checkSimilarity(t *testing.T, from, to string, a, b []byte) {
	if bytes.Equal(a, b) || from == to {
		return // an exact rename, or no change
	}
	var src, dst candidate
	if !src.index(a) || !dst.index(b) {
		return
	}
	score, ratio := similarity(src, dst, from, to), sizeRatio(src, dst)
	for _, min := range []int{score, score + 1} {
		if min < 1 || min > 100 {
			continue
		}
		want := ratio >= min && score >= min
		if got := goGitRenamed(t, from, to, a, b, uint(min)); got != want {
			t.Fatalf("%s → %s at %d%%: go-git renamed %v, recap's score %d (sizes %d%%)\n%q\n%q", from, to, min, got, score, ratio, a, b)
		}
	}
}

// FuzzSimilarityLikeGoGit: recap's similarity of two files is go-git's
// (jgit's index: lines, blocks of 64 bytes, CR before LF in text, binary
// content, the 4,096-byte chunks it reads, the paths' share).
func FuzzSimilarityLikeGoGit(f *testing.F) {
	long := bytes.Repeat([]byte("0123456789"), 1000)
	f.Add("src/Old.java", "src/New.java", []byte("a\nb\nc\nd\n"), []byte("a\nb\nc\nD\n"))
	f.Add("a/x.txt", "b/y/x.txt", []byte("one\r\ntwo\r\nthree\r\n"), []byte("one\ntwo\nthree\n"))
	f.Add("bin", "bin2", []byte("\x00\x01\x02\x03"), []byte("\x00\x01\x02\x04"))
	f.Add("l", "m", long, append(long[:4095:4095], []byte("\r\nrest\n")...))
	f.Add("p", "q", []byte(""), []byte("x"))
	f.Fuzz(func(t *testing.T, from, to string, a, b []byte) {
		if !validName(from) || !validName(to) || len(a) > 1<<16 || len(b) > 1<<16 {
			return
		}
		checkSimilarity(t, from, to, a, b)
	})
}

// validName is a name go-git writes in a tree.
func validName(s string) bool {
	if s == "" || s == "." || s == ".." || s == ".git" || len(s) > 100 {
		return false
	}
	for _, c := range []byte(s) {
		if c < 0x20 || c == 0x7f || c == '/' || c == '\\' {
			return false
		}
	}
	return true
}

// TestSimilarityLikeGoGit compares the scores of files edited a little
// and a lot, with CRLF and LF, with go-git's.
func TestSimilarityLikeGoGit(t *testing.T) {
	base := func(n int, f string) []byte {
		var b bytes.Buffer
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, f, i)
		}
		return b.Bytes()
	}
	for _, c := range []struct {
		from, to string
		a, b     []byte
	}{
		{"Old.java", "New.java", base(30, "line %d\n"), append(base(30, "line %d\n"), "more\n"...)},
		{"Old.java", "New.java", base(30, "line %d\n"), base(15, "line %d\n")},
		{"Old.java", "New.java", base(30, "line %d\n"), base(30, "line %d\r\n")},
		{"x.txt", "y.txt", base(900, "%d\r\n"), base(900, "%d\n")},
		{"x.txt", "y.txt", base(100, "a long line that goes past sixty-four bytes of text, number %d\n"), base(100, "a long line that goes past sixty-four bytes of text, number %d.\n")},
		// a CR ending one of go-git's 4,096-byte chunks is counted
		{"z.txt", "z2.txt", []byte(strings.Repeat("z", 4095) + "\r\ntail\n"), []byte(strings.Repeat("z", 4095) + "\ntail\n")},
		{"x.bin", "y.bin", append([]byte{0}, base(200, "%d\r\n")...), append([]byte{0}, base(200, "%d\n")...)},
	} {
		checkSimilarity(t, c.from, c.to, c.a, c.b)
	}
}
