//go:build !unix

package cli

import (
	"errors"
	"os"
)

// descriptorDir says whether dir holds a process's descriptors: none
// does on this system.
func descriptorDir(string) (ours, isFD bool) { return false, false }

// dupDescriptor is never called on this system.
func dupDescriptor(int, string) (*os.File, error) { return nil, errors.ErrUnsupported }
