package inputs

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"
)

// Bounds bound a directory search (docs/reliability.md, "Limits"); a zero
// field bounds nothing.
type Bounds struct {
	Entries int           // files and directories visited
	Reports int           // reports given (Walk.Found)
	Time    time.Duration // time taken
	Depth   int           // directories gone down below the search's
}

// Why a search stopped before its end.
type Why int

const (
	Through Why = iota // it went through
	Entries            // it visited Bounds.Entries files and directories
	Reports            // it gave Bounds.Reports reports
	Took               // it took Bounds.Time
)

// Stop says whether and why a search stopped, and what it had visited.
type Stop struct {
	Why     Why
	Visited int
}

// TooDeep is the error Walk gives Error for a directory deeper than
// Bounds.Depth, not gone down.
type TooDeep int

func (n TooDeep) Error() string {
	return fmt.Sprintf("deeper than %d directories, not searched", int(n))
}

// skipDirs are the directories a search leaves out.
var skipDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, "node_modules": true, "vendor": true}

// SkipDir reports whether a search leaves out a directory of this name
// (.git, .hg, .svn, node_modules, vendor).
func SkipDir(name string) bool { return skipDirs[name] }

// A Walk searches Dir of FS within its Bounds, in lexical order, leaving
// out the directories SkipDir names and not following links to
// directories (they could loop).
type Walk struct {
	FS  fs.FS
	Dir string // slash-separated, "." for FS's root
	Bounds
	// File is called for each entry that is no directory (a link is
	// given as a link), rel being its path in FS.
	File func(rel string, d fs.DirEntry) error
	// Error is called for what could not be read (rel is Dir itself when
	// it could not be listed), and with TooDeep: its error stops the walk.
	Error func(rel string, err error) error
	// Found is the number of reports given so far, for Bounds.Reports.
	Found func() int
}

var errStop = errors.New("stop")

// Run walks, and says whether and why it stopped.
func (w Walk) Run() (Stop, error) {
	start := time.Now()
	var stop Stop
	base := strings.Count(w.Dir, "/")
	if w.Dir == "." {
		base = -1
	}
	err := fs.WalkDir(w.FS, w.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return w.Error(p, err)
		}
		stop.Visited++
		switch {
		case w.Entries > 0 && stop.Visited > w.Entries:
			stop.Why = Entries
		case w.Reports > 0 && w.Found != nil && w.Found() >= w.Reports:
			stop.Why = Reports
		case w.Time > 0 && stop.Visited%256 == 0 && time.Since(start) > w.Time:
			stop.Why = Took
		}
		if stop.Why != Through {
			return errStop
		}
		if !d.IsDir() {
			return w.File(p, d)
		}
		if p == w.Dir {
			return nil
		}
		if SkipDir(d.Name()) {
			return fs.SkipDir
		}
		if w.Depth > 0 && strings.Count(p, "/")-base >= w.Depth {
			if err := w.Error(p, TooDeep(w.Depth)); err != nil {
				return err
			}
			return fs.SkipDir
		}
		return nil
	})
	if err == errStop {
		err = nil
	}
	return stop, err
}
