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
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// A Counter counts the tokens of a text.
type Counter interface {
	Count(text string) int
	// Name is the counter's name as --tokenizer takes it.
	Name() string
}

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
	return nil, fmt.Errorf("unknown tokenizer %q (want one of %s)", name, strings.Join(Names(), ", "))
}

type chars4 struct{}

func (chars4) Name() string { return Chars4 }

// Count is ceil(runes/4).
func (chars4) Count(s string) int { return (utf8.RuneCountInString(s) + 3) / 4 }

// CharsPerToken is the ratio chars4 assumes; a text of n tokens by any
// counter here stays within 4n characters only under chars4 or max.
const CharsPerToken = 4

type bpeCounter struct {
	name  string
	codec tokenizer.Codec
}

var (
	codecMu sync.Mutex
	codecs  = map[string]tokenizer.Codec{}
)

// bpe loads a vocabulary once per process (10–55 ms) and shares it.
func bpe(name string) (Counter, error) {
	codecMu.Lock()
	defer codecMu.Unlock()
	if c, ok := codecs[name]; ok {
		return bpeCounter{name: name, codec: c}, nil
	}
	c, err := tokenizer.Get(tokenizer.Encoding(name))
	if err != nil {
		return nil, fmt.Errorf("tokenizer %s: %w", name, err)
	}
	codecs[name] = c
	return bpeCounter{name: name, codec: c}, nil
}

func (b bpeCounter) Name() string { return b.name }

// Count returns the exact token count; special tokens count as text. Should
// the codec fail (it accepts invalid UTF-8, so it does not in practice), the
// chars4 estimate stands in.
func (b bpeCounter) Count(s string) int {
	n, err := b.codec.Count(s)
	if err != nil {
		return chars4{}.Count(s)
	}
	return n
}

type maxCounter struct{ exact Counter }

func (maxCounter) Name() string { return Max }

// Count is the larger of chars4 and the exact o200k_base count, so that a
// budget holds both in real tokens and in characters.
func (m maxCounter) Count(s string) int {
	return max(chars4{}.Count(s), m.exact.Count(s))
}
