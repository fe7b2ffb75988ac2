package parsers

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/recap-dev/recap/reports"
)

// sourceResolver places SpotBugs' package-relative source paths
// ("com/example/Foo.java") in the repository: first through the report's
// Project/SrcDir entries (the first one holding the file), then by looking for
// a unique file with that suffix under the repository root. A path found
// twice is ambiguous and stays as given, as does one found nowhere; both are
// counted for one warning each. Results are cached per source path.
type sourceResolver struct {
	root      string
	srcDirs   []string
	placer    *placer
	cache     map[string]string
	byName    map[string][]string // base name → repository-relative paths; built on first need
	ambiguous int
	firstAmb  string
	missing   int
	firstMiss string
}

// maxIndexedFiles bounds the walk of the repository for SpotBugs paths, so a
// root that is not a source tree cannot stall a run.
const maxIndexedFiles = 500_000

func newSourceResolver(root string, srcDirs []string) *sourceResolver {
	return &sourceResolver{root: root, srcDirs: srcDirs, placer: newPlacer(root), cache: map[string]string{}}
}

func (s *sourceResolver) resolve(sourcepath string) string {
	if sourcepath == "" {
		return ""
	}
	if p, ok := s.cache[sourcepath]; ok {
		return p
	}
	p := s.lookup(sourcepath)
	s.cache[sourcepath] = p
	return p
}

func (s *sourceResolver) lookup(sp string) string {
	sp = strings.ReplaceAll(sp, `\`, "/")
	for _, dir := range s.srcDirs {
		cand := filepath.Join(dir, filepath.FromSlash(sp))
		if st, err := os.Stat(cand); err == nil && st.Mode().IsRegular() {
			return s.placer.place(cand)
		}
	}
	if s.root != "" {
		if s.byName == nil {
			s.index()
		}
		var hits []string
		for _, rel := range s.byName[path.Base(sp)] {
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

func (s *sourceResolver) index() {
	s.byName = map[string][]string{}
	n := 0
	_ = filepath.WalkDir(s.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if skipDir(d.Name()) && p != s.root {
				return filepath.SkipDir
			}
			return nil
		}
		if n++; n > maxIndexedFiles {
			return filepath.SkipAll
		}
		if rel, err := filepath.Rel(s.root, p); err == nil {
			rel = filepath.ToSlash(rel)
			s.byName[d.Name()] = append(s.byName[d.Name()], rel)
		}
		return nil
	})
}

// skipDir names the directories never searched: version control and
// dependency trees.
func skipDir(name string) bool {
	switch name {
	case ".git", ".hg", ".svn", "node_modules", "vendor":
		return true
	}
	return false
}

func (s *sourceResolver) finish(in *reports.Input) {
	s.placer.finish(in)
	if s.ambiguous > 0 {
		in.Warn(fmt.Sprintf("%s several files in the repository; kept as given (first: %s)", plural(s.ambiguous, "SpotBugs source path matches", "SpotBugs source paths match"), s.firstAmb))
	}
	if s.missing > 0 {
		in.Warn(fmt.Sprintf("%s not found in the source directories or the repository; kept as given (first: %s)", plural(s.missing, "SpotBugs source path was", "SpotBugs source paths were"), s.firstMiss))
	}
}
