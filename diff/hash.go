package diff

import (
	"crypto"
	"crypto/sha1"

	"github.com/go-git/go-git/v5/plumbing/hash"
)

// go-git hashes with SHA-1 each object it reads from a pack, delta bases
// included, to key its object cache: with sha1cd (SHA-1 with collision
// detection, in Go) that hashing was a quarter of recap diff's time; the
// standard library's SHA-1 uses the processor's SHA instructions. The
// hashes are the same for every object: git itself checks objects for
// SHA-1 collisions (sha1dc) when they enter a repository, and recap only
// reads a repository git wrote.
func init() {
	if err := hash.RegisterHash(crypto.SHA1, sha1.New); err != nil {
		panic(err)
	}
}
