//go:build !linux

package content

import (
	"io/fs"
	"os"
	"sync/atomic"
)

// openBeneath is Linux's (openat2): elsewhere every path is walked by
// os.Root.
func (r *Root) openBeneath(string, int) (*os.File, bool) { return nil, false }

// dirHandle is openBeneath's, none here.
func dirHandle(*os.Root) *os.File { return nil }

// oPath is Linux's.
const oPath = 0

// noOpenat2 is Linux's: never set here.
var noOpenat2 atomic.Bool

// beneathDir is Linux's: every name is asked of Stat here.
type beneathDir struct{}

func (r *Root) openDirBeneath(string) *beneathDir { return nil }

// fdInfo is Linux's.
type fdInfo = fs.FileInfo

func (d *beneathDir) stat(string) (st fdInfo, told bool) { return nil, false }

func (d *beneathDir) close() {}

// openFSBeneath is Linux's: the usual way here.
func (r *Root) openFSBeneath(string) (fs.File, bool, error) { return nil, false, nil }
