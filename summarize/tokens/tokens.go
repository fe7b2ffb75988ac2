// Package tokens counts the tokens of text the way language models read it,
// so that recap's responses fit a context window. Counters: chars4
// (ceil(characters/4), fast, under-counts JSON by about 8%), o200k_base and
// cl100k_base (exact BPE counts; vocabularies compiled into the binary, no
// network), and the default, max: the larger of chars4 and o200k_base.
//
//	c, _ := tokens.New(tokens.Default)
//	n := c.Count(`{"summary":{"total":3}}`)
package tokens

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/recap-dev/recap/summarize/budget"
	"github.com/tiktoken-go/tokenizer"
)

// A Counter counts the tokens of a text; its Name is the counter's name as
// --tokenizer takes it.
type Counter = budget.Counter

// Names of the counters.
const (
	Chars4  = "chars4"
	O200k   = "o200k_base"
	Cl100k  = "cl100k_base"
	Max     = "max"
	Default = Max
)

// Names lists the counters --tokenizer accepts.
func Names() []string { return []string{Max, O200k, Cl100k, Chars4} }

// New returns the counter of a name.
func New(name string) (Counter, error) {
	switch name {
	case Chars4:
		return chars4{}, nil
	case O200k, Cl100k:
		return bpe(name)
	case Max, "":
		exact, err := bpe(O200k)
		if err != nil {
			return nil, err
		}
		return maxCounter{exact: exact}, nil
	}
	return nil, Check(name)
}

// Check refuses a name that is no counter's, without loading a
// vocabulary (tens of MB): a command that may need no counter checks its
// flag with it, and calls New only when it counts.
func Check(name string) error {
	if name == "" || slices.Contains(Names(), name) {
		return nil
	}
	return fmt.Errorf("unknown tokenizer %q (want one of %s)", name, strings.Join(Names(), ", "))
}

type chars4 struct{}

func (chars4) Name() string { return Chars4 }

// Count is ceil(runes/budget.CharsPerToken), the floor of every count.
func (chars4) Count(s string) int { return budget.Floor(s) }

type bpeCounter struct {
	name  string
	codec tokenizer.Codec
	memo  *memo
}

var (
	codecMu sync.Mutex
	codecs  = map[string]*bpeCounter{}
)

// bpe loads a vocabulary once per process (10–55 ms) and shares it.
func bpe(name string) (Counter, error) {
	codecMu.Lock()
	defer codecMu.Unlock()
	if c, ok := codecs[name]; ok {
		return *c, nil
	}
	c, err := tokenizer.Get(tokenizer.Encoding(name))
	if err != nil {
		return nil, fmt.Errorf("tokenizer %s: %w", name, err)
	}
	b := &bpeCounter{name: name, codec: c, memo: &memo{counts: map[string]int{}}}
	codecs[name] = b
	return *b, nil
}

func (b bpeCounter) Name() string { return b.name }

// Count returns the exact token count; special tokens count as text.
//
// A text is counted as the sum of its lines (see nextChunk), and the count
// of a short line is kept: the lines of recap's JSON repeat ("severity":
// "warning", a rule, a path), and a count kept costs a map lookup where the
// BPE costs microseconds.
func (b bpeCounter) Count(s string) int {
	if len(s) < minChunk {
		return b.count(s)
	}
	n := 0
	for len(s) > 0 {
		end := nextChunk(s)
		n += b.countChunk(s[:end])
		s = s[end:]
	}
	return n
}

// countChunk counts a chunk, one that starts with two spaces or more and
// then a printable character as two: its indentation but one space, and
// the rest. The patterns make that split themselves (white space not
// followed by white space ends before the last space, which goes with
// what follows), and so the same line counted at two depths of JSON (a
// finding priced alone, then inside the view) is counted once.
func (b bpeCounter) countChunk(c string) int {
	k := 0
	for k < len(c) && c[k] == ' ' {
		k++
	}
	if k >= 2 && k < len(c) && c[k] > ' ' && c[k] < 0x7f {
		return b.memo.count(c[:k-1], b.count) + b.memo.count(c[k-1:], b.count)
	}
	return b.memo.count(c, b.count)
}

// count is the codec's count. Should the codec fail (it accepts invalid
// UTF-8, so it does not in practice), the chars4 estimate stands in.
func (b bpeCounter) count(s string) int {
	n, err := b.codec.Count(s)
	if err != nil {
		return chars4{}.Count(s)
	}
	return n
}

// minChunk is the size under which a text is counted whole.
const minChunk = 16

// nextChunk returns the end of s's first chunk: the first place where no
// pre-token of o200k_base or cl100k_base can go on. There are two kinds.
//
// After a run of ASCII letters, before an ASCII character that is neither
// a letter nor an apostrophe: the patterns' letter pieces take letters and
// marks only (and "'s", "'ll", … after them), and no other piece takes a
// letter, so the letters' piece ends there and the next one starts.
//
// After a line break: the patterns let a piece cross one only as white
// space that ends in another line break, or as punctuation followed by
// line breaks and slashes; so the break must be followed by a line that
// starts with neither a line break nor a slash, and that holds a printable
// ASCII character, which is white space in no definition.
func nextChunk(s string) int {
	for i := 1; i < len(s); i++ {
		prev, c := s[i-1], s[i]
		switch {
		case asciiLetter(prev):
			if c < utf8.RuneSelf && !asciiLetter(c) && c != '\'' {
				return i
			}
		case prev == '\n':
			if c == '\r' || c == '\n' || c == '/' {
				continue
			}
			line := s[i:]
			if j := strings.IndexByte(line, '\n'); j >= 0 {
				line = line[:j]
			}
			if printable(line) {
				return i
			}
		}
	}
	return len(s)
}

func asciiLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// printable reports whether s holds a printable ASCII character (not space).
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] > ' ' && s[i] < 0x7f {
			return true
		}
	}
	return false
}

// memo keeps the counts of short chunks, at most memoBytes of them: when
// full it starts again.
type memo struct {
	mu     sync.Mutex
	counts map[string]int
	bytes  int
}

const (
	memoChunk = 512     // longer chunks are counted, not kept
	memoBytes = 8 << 20 // bytes of chunks kept
)

func (m *memo) count(s string, count func(string) int) int {
	if len(s) > memoChunk {
		return count(s)
	}
	m.mu.Lock()
	n, ok := m.counts[s]
	m.mu.Unlock()
	if ok {
		return n
	}
	n = count(s)
	m.mu.Lock()
	if m.bytes+len(s) > memoBytes {
		clear(m.counts)
		m.bytes = 0
	}
	if _, dup := m.counts[s]; !dup {
		m.counts[strings.Clone(s)] = n
		m.bytes += len(s)
	}
	m.mu.Unlock()
	return n
}

// BPE and Combine make the BPE counters split counters (see
// budget.SplitCounter): their count is the BPE count alone.
func (b bpeCounter) BPE(s string) int { return b.Count(s) }

func (bpeCounter) Combine(bpe, _ int) int { return bpe }

type maxCounter struct{ exact Counter }

// BPE is the o200k_base count; Combine takes the larger of it and the
// chars4 count of the runes, as Count does.
func (m maxCounter) BPE(s string) int { return m.exact.Count(s) }

func (maxCounter) Combine(bpe, runes int) int { return max(budget.FloorRunes(runes), bpe) }

func (maxCounter) Name() string { return Max }

// Count is the larger of chars4 and the exact o200k_base count, so that a
// budget holds both in real tokens and in characters.
func (m maxCounter) Count(s string) int {
	return max(chars4{}.Count(s), m.exact.Count(s))
}
