package parsers

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/recap-dev/recap/inputs"
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/reports"
)

// sourceResolver places SpotBugs' package-relative source paths
// ("com/example/Foo.java") in the repository: first through the report's
// Project/SrcDir entries (the first one holding the file), then by looking for
// a unique file with that suffix under the repository root. A path found
// twice is ambiguous and stays as given, as does one found nowhere; both are
// counted for one warning each. Results are cached per source path.
//
// A SrcDir is where the sources were on the machine that ran SpotBugs
// (/home/runner/work/shop/shop/src/main/java on CI): its files are looked up
// inside the repository only, through the placer, which learns the report's
// root from the first one found there. The host outside the repository is
// never probed, whatever the report says.
type sourceResolver struct {
	fsys      fs.FS
	srcDirs   []string
	placer    *placer
	cache     map[string]string
	index     *SourceIndex // the repository's files by name; built on first need
	indexed   bool         // the index was asked
	ambiguous int
	firstAmb  string
	missing   int
	firstMiss string
}

// maxIndexedFiles and maxIndexTime bound the walk of the repository for
// SpotBugs paths, so a root that is not a source tree (a server's over /)
// cannot stall a run.
var (
	maxIndexedFiles = 500_000
	maxIndexTime    = 5 * time.Second
)

// A SourceIndex is the repository's files by name, where SpotBugs'
// package-relative source paths are looked for. It is built by the first
// SpotBugs report that needs it and shared by the reports read after it
// with the same [ReadOptions]: ReadAll makes one for its inputs; a server
// that reads reports one at a time gives one to the reads of each call
// (files made after it are not in it). Its walk stops after 500,000 files
// or 5 seconds, and the reports that use it then say so. The zero value is
// ready; it is safe for concurrent use.
type SourceIndex struct {
	once    sync.Once
	byName  map[string][]string // base name → repository-relative paths
	stopped string              // why the walk stopped before its end; "" when it went through
}

func newSourceResolver(root string, fsys fs.FS, srcDirs []string, index *SourceIndex) *sourceResolver {
	pl := newPlacer(root, fsys)
	if index == nil {
		index = &SourceIndex{}
	}
	return &sourceResolver{fsys: pl.fsys, srcDirs: srcDirs, placer: pl, cache: map[string]string{}, index: index}
}

func (s *sourceResolver) resolve(sourcepath string) string {
	if sourcepath == "" {
		return ""
	}
	if p, ok := s.cache[sourcepath]; ok {
		return p
	}
	p := s.lookup(sourcepath)
	if len(s.cache) >= maxPlaced {
		clear(s.cache)
	}
	s.cache[sourcepath] = p
	return p
}

// find places sp as resolve does and says whether it is in the
// repository, counting nothing in the warnings: the source of a class an
// error names, which may not be the project's (a library's).
func (s *sourceResolver) find(sp string) (string, bool) {
	amb, miss, firstAmb, firstMiss := s.ambiguous, s.missing, s.firstAmb, s.firstMiss
	p := s.lookup(sp)
	found := s.ambiguous == amb && s.missing == miss
	s.ambiguous, s.missing, s.firstAmb, s.firstMiss = amb, miss, firstAmb, firstMiss
	return p, found
}

func (s *sourceResolver) lookup(sp string) string {
	sp = strings.ReplaceAll(sp, `\`, "/")
	for _, dir := range s.srcDirs {
		dir = strings.TrimSuffix(strings.ReplaceAll(dir, `\`, "/"), "/")
		if rel, ok := s.placer.locate(dir + "/" + sp); ok {
			return rel
		}
	}
	if s.fsys != nil {
		s.index.build(s.fsys)
		s.indexed = true
		var hits []string
		for _, rel := range s.index.byName[path.Base(sp)] {
			if rel == sp || strings.HasSuffix(rel, "/"+sp) {
				hits = append(hits, rel)
			}
		}
		switch len(hits) {
		case 1:
			return hits[0]
		case 0:
		default:
			s.ambiguous++
			if s.firstAmb == "" {
				s.firstAmb = fmt.Sprintf("%s (%s, %s)", sp, hits[0], hits[1])
			}
			return sp
		}
	}
	s.missing++
	if s.firstMiss == "" {
		s.firstMiss = sp
	}
	return sp
}

// build walks fsys once, whoever asks.
func (x *SourceIndex) build(fsys fs.FS) {
	x.once.Do(func() {
		x.byName = map[string][]string{}
		files, entries, start := 0, 0, time.Now()
		_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if entries++; entries%256 == 0 && time.Since(start) > maxIndexTime {
				x.stopped = fmt.Sprintf("it took %v, its bound", maxIndexTime)
				return fs.SkipAll
			}
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if skipDir(d.Name()) && p != "." {
					return fs.SkipDir
				}
				return nil
			}
			if files++; files > maxIndexedFiles {
				x.stopped = fmt.Sprintf("it listed %d files, its bound", maxIndexedFiles)
				return fs.SkipAll
			}
			x.byName[d.Name()] = append(x.byName[d.Name()], p)
			return nil
		})
	})
}

// skipDir names the directories never searched: version control and
// dependency trees.
func skipDir(name string) bool { return inputs.SkipDir(name) }

func (s *sourceResolver) finish(in *reports.Input) {
	s.placer.finish(in)
	if s.ambiguous > 0 {
		in.Warn(fmt.Sprintf("%s several files in the repository; kept as given (first: %s)", english.Plural(s.ambiguous, "SpotBugs source path matches", "SpotBugs source paths match"), s.firstAmb))
	}
	if s.missing > 0 {
		in.Warn(fmt.Sprintf("%s not found in the source directories or the repository; kept as given (first: %s)", english.Plural(s.missing, "SpotBugs source path was", "SpotBugs source paths were"), s.firstMiss))
	}
	if s.indexed && s.index.stopped != "" {
		in.Warn(fmt.Sprintf("the search of the repository for SpotBugs source paths stopped (%s): files further on were not looked at", s.index.stopped))
	}
}
