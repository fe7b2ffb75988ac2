//go:build !unix

package cli

import (
	"errors"
	"os"
)

// descriptorName says whether path names one of recap's own descriptors:
// never on this system.
func descriptorName(string) (int, bool) { return 0, false }

// dupDescriptor is never called on this system.
func dupDescriptor(int, string) (*os.File, error) { return nil, errors.ErrUnsupported }
