package reports

import (
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// verdicts keeps what a costly test said of each string seen (a path
// against globs, a rule id against names), so that each distinct string
// is tested once: the last string asked is kept apart (a report lists a
// file's findings together), the others in a map of at most maxVerdicts;
// past it, strings are tested each time. It is safe for concurrent use.
type verdicts struct {
	last atomic.Pointer[verdict]
	mu   sync.RWMutex
	m    map[string]bool
}

type verdict struct {
	s  string
	ok bool
}

// maxVerdicts bounds a verdicts' map: more distinct paths or rules than
// a real set of reports names.
const maxVerdicts = 1 << 18

func newVerdicts() *verdicts { return &verdicts{m: map[string]bool{}} }

// get gives test(s), tested once.
func (v *verdicts) get(s string, test func(string) bool) bool {
	if l := v.last.Load(); l != nil && l.s == s {
		return l.ok
	}
	v.mu.RLock()
	ok, seen := v.m[s]
	n := len(v.m)
	v.mu.RUnlock()
	if !seen {
		ok = test(s)
		if n < maxVerdicts {
			s = strings.Clone(s) // it may share memory with a whole report
			v.mu.Lock()
			if len(v.m) < maxVerdicts {
				v.m[s] = ok
			}
			v.mu.Unlock()
		}
	}
	v.last.Store(&verdict{s, ok})
	return ok
}

// foldKey is s with each character replaced by the least of its case
// variants (unicode.SimpleFold's orbit), so that two strings are equal
// under strings.EqualFold exactly when their keys are equal.
func foldKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r < utf8.RuneSelf {
			if 'a' <= r && r <= 'z' {
				r -= 'a' - 'A' // the least of a letter's cases is its capital
			}
			b.WriteByte(byte(r))
			continue
		}
		b.WriteRune(leastFold(r))
	}
	return b.String()
}

// leastFold is the least rune of r's case orbit.
func leastFold(r rune) rune {
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return least
}
