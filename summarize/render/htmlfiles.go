package render

import (
	"slices"
	"strconv"
	"unicode/utf8"
)

// Bounds of the page's file view: the lines around each finding of a file,
// read from the source when it is at hand, never a whole large file.
const (
	// fileViewRadius is the lines shown before and after a finding's.
	fileViewRadius = 3
	// maxViewFiles bounds the files the view has; maxViewMarks the
	// findings' lines it remembers in all.
	maxViewFiles = 1 << 13
	maxViewMarks = 1 << 20
	// maxFileViewLines bounds the lines shown of one file (a file of
	// 100,000 lines with a finding on every other one shows its first
	// windows), maxViewLines those of every file.
	maxFileViewLines = 2000
	maxViewLines     = 200_000
	// maxViewBytes bounds the view's data, in bytes: past it, no more
	// files.
	maxViewBytes = 16 << 20
	// maxViewLineChars bounds a line shown, in bytes; longer ones are cut
	// with ….
	maxViewLineChars = 400
)

// fileMarks are the lines of each file's findings, for the file view.
type fileMarks struct {
	index map[string]int // each file's place in order and lines
	order []string
	lines [][]int32
	n     int
	last  int // the place of the last file marked (a report lists a file's findings together)
}

// mark remembers a finding's lines, within the bounds.
func (m *fileMarks) mark(path string, line, end int) {
	if path == "" || line <= 0 || m.n >= maxViewMarks {
		return
	}
	i := m.last
	if i >= len(m.order) || m.order[i] != path {
		if m.index == nil {
			m.index = map[string]int{}
		}
		var ok bool
		if i, ok = m.index[path]; !ok {
			if len(m.order) >= maxViewFiles {
				return
			}
			i = len(m.order)
			m.index[path] = i
			m.order = append(m.order, path)
			m.lines = append(m.lines, nil)
		}
		m.last = i
	}
	end = min(max(end, line), line+2*fileViewRadius) // a long range: its start
	m.lines[i] = append(m.lines[i], int32(line), int32(end))
	m.n++
}

// appendFiles appends the file view's data: [[path, flags, [from, line,
// …], …], …], each file's windows of lines around its findings, as the
// source gives them; a file the source cannot give is left out. flags: 1,
// lines of the file's windows were left out by the bounds; 2, the file
// changed after its findings' report was written (a mark may be on other
// code than the tool read).
func (s *HTMLStream) appendFiles(b []byte) []byte {
	b = append(b, '[')
	src := s.src
	if k, ok := src.(*knownMissing); ok {
		// Its memory holds files whose later lines could not be read
		// (past MaxSourceBytes): their first lines can.
		src = k.src
	}
	left := maxViewLines
	first := true
	for i, p := range s.marks.order {
		if left <= 0 || len(b) > maxViewBytes {
			break
		}
		spans := windows(s.marks.lines[i])
		var fb []byte
		shown, cut := 0, false
		for _, w := range spans {
			room := min(maxFileViewLines-shown, left-shown)
			if room <= 0 {
				cut = true
				break
			}
			to := w[1]
			if to-w[0]+1 > room {
				to, cut = w[0]+room-1, true
			}
			lines, err := src.Lines(p, w[0], to)
			if err != nil || len(lines) == 0 {
				// Not at hand, or past the lines read of it: the
				// windows after this one are too.
				cut = cut || shown > 0
				break
			}
			fb = append(fb, ",["...)
			fb = strconv.AppendInt(fb, int64(w[0]), 10)
			for _, l := range lines {
				fb = append(fb, ",\n"...) // short lines, as the rows
				fb = appendJSONString(fb, cutLine(l))
			}
			fb = append(fb, ']')
			shown += len(lines)
		}
		if shown == 0 {
			continue
		}
		left -= shown
		if !first {
			b = append(b, ",\n"...)
		}
		first = false
		b = append(b, '[')
		b = s.ref(b, p)
		flags := 0
		if cut {
			flags |= 1
		}
		if s.changed[p] {
			flags |= 2
		}
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(flags), 10)
		b = append(b, fb...)
		b = append(b, ']')
	}
	return append(b, ']')
}

// windows merges the findings' lines ([line, end] pairs) and the lines
// around them into spans [from, to], in order.
func windows(marks []int32) [][2]int {
	type span = [2]int
	var spans []span
	for i := 0; i+1 < len(marks); i += 2 {
		spans = append(spans, span{max(int(marks[i])-fileViewRadius, 1), int(marks[i+1]) + fileViewRadius})
	}
	slices.SortFunc(spans, func(a, b span) int { return a[0] - b[0] })
	var out []span
	for _, sp := range spans {
		if n := len(out); n > 0 && sp[0] <= out[n-1][1]+1 {
			out[n-1][1] = max(out[n-1][1], sp[1])
			continue
		}
		out = append(out, sp)
	}
	return out
}

// cutLine cuts a line past maxViewLineChars bytes, on a rune's start.
func cutLine(l string) string {
	if len(l) <= maxViewLineChars {
		return l
	}
	k := maxViewLineChars
	for k > 0 && !utf8.RuneStart(l[k]) {
		k--
	}
	return l[:k] + "…"
}
