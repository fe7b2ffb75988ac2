//go:build !unix

package diff

import (
	"errors"

	"github.com/go-git/go-billy/v5"
)

// mapFile maps nothing here: go-git reads the packs.
func mapFile(billy.File) ([]byte, func() error, error) {
	return nil, nil, errors.ErrUnsupported
}

func releasePages([]byte) {}
