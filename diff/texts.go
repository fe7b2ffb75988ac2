package diff

import (
	"bytes"
	"context"
	"errors"
)

// ErrTooLarge says a text is larger than MaxDiffBytes: LinesOf does not
// diff it.
var ErrTooLarge = errors.New("text too large to diff")

// LinesOf diffs two texts line by line, as git diff diffs two sides of a
// file (the same algorithm and heuristics, no white space ignored), and
// returns what carries a line (1-based) of old onto cur: its number in
// cur when the diff keeps the line, ok false when it deletes or changes
// it. Texts larger than MaxDiffBytes are not diffed (ErrTooLarge); a
// binary text, or a diff too large to hold, carries no line.
func LinesOf(ctx context.Context, old, cur []byte) (func(line int) (int, bool), error) {
	if len(old) > MaxDiffBytes || len(cur) > MaxDiffBytes {
		return nil, ErrTooLarge
	}
	const name = "text"
	f := File{OldPath: name, NewPath: name}
	side := func(b []byte) blob { return blob{present: true, size: int64(len(b)), data: b} }
	if err := diffFile(ctx, &f, side(old), side(cur), false); err != nil {
		return nil, err
	}
	m := NewLineMap([]File{f})
	lines := bytes.Count(old, []byte("\n"))
	if len(old) > 0 && old[len(old)-1] != '\n' {
		lines++
	}
	return func(line int) (int, bool) {
		if line < 1 || line > lines {
			return 0, false
		}
		_, n, ok := m.Map(name, line)
		return n, ok && n >= 1
	}, nil
}
