package diff

// A LineMap carries line numbers of one revision onto another through the
// diff between them: a line the diff keeps (unchanged, or outside every
// hunk) maps to its number on the new side; a line the diff deletes, or a
// file it deletes, maps to nothing. Files the diff does not name map to
// themselves.
//
// recap uses it when the reports were made on a pull request's merge
// commit (what actions/checkout checks out for a pull_request event) and
// the review is anchored on the pull request's head, as GitHub's diff is.
type LineMap struct {
	files map[string]*File // by old path
}

// NewLineMap indexes the diff from the old revision to the new one.
func NewLineMap(files []File) *LineMap {
	m := &LineMap{files: map[string]*File{}}
	for i := range files {
		if files[i].OldPath != "" {
			m.files[files[i].OldPath] = &files[i]
		}
	}
	return m
}

// Map returns the path and line on the new side of line of path on the old
// side (line 0, a file-level position, maps to 0); ok is false when the
// new side does not have it.
func (m *LineMap) Map(path string, line int) (newPath string, newLine int, ok bool) {
	f := m.files[path]
	if f == nil {
		return path, line, true
	}
	if f.NewPath == "" {
		return "", 0, false
	}
	if line <= 0 || f.Binary || f.Large != nil {
		// a large file's hunks are not kept: its lines cannot be carried
		return f.NewPath, line, line <= 0 || !f.Binary && f.Large == nil
	}
	delta := 0 // new minus old, after the hunks before line
	for _, h := range f.Hunks {
		first, last := 0, 0 // the old lines the hunk shows
		for _, l := range h.Lines {
			if l.Kind != Add {
				if first == 0 {
					first = l.Old
				}
				last = l.Old
			}
		}
		if first == 0 { // insertions alone, after old line OldStart
			first, last = h.OldStart+1, h.OldStart
		}
		if line < first {
			break
		}
		if line <= last {
			for _, l := range h.Lines {
				if l.Kind != Add && l.Old == line {
					if l.Kind == Context {
						return f.NewPath, l.New, true
					}
					break
				}
			}
			return "", 0, false
		}
		added, deleted := h.Counts()
		delta += added - deleted
	}
	return f.NewPath, line + delta, true
}
