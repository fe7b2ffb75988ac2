// Package budget keeps every view recap writes within a token budget: the
// limits, how a text is priced (a [Counter], and never less than a token per
// [CharsPerToken] characters), the markers of what was left out, a view's
// statement of its own size, and the one packing loop ([Fit]) that every
// view (findings, diffs, one finding, token counts, statistics) goes
// through. It imports nothing of recap's: the tokenizers (package tokens)
// and the views (package summarize) are built on it.
//
// A view prepares a [Plan]: its parts priced one by one, in order of value,
// and how to show a selection of them. Fit admits the parts by value, renders
// the whole, and packs into less while the whole is over:
//
//	n := budget.Fit(counter, maxTokens, budget.Plan{
//		Parts:  parts,                    // kind 0 always kept; kind 1 next; …
//		Apply:  func(keep []bool, level int) { … }, // show the kept parts, markers for the rest
//		Render: func() string { return layout.View(v) },
//		Tokens: v.Tokens,
//	})
package budget

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Budget limits, in tokens.
const (
	// DefaultMaxTokens is what a response may cost unless asked otherwise:
	// Claude Code warns above 10,000 tokens.
	DefaultMaxTokens = 10000
	// MinMaxTokens is the smallest budget: below it not even a summary fits.
	MinMaxTokens = 256
	// MaxMaxTokens is the largest budget: Claude Code refuses tool results
	// above 25,000 tokens by default.
	MaxMaxTokens = 25000
)

// CharsPerToken is the floor of every count: a text of n characters costs
// at least n/CharsPerToken tokens (rounded up), whatever the tokenizer says,
// so that a budget of n tokens also bounds the characters sent (a default
// answer stays under 40,000 characters).
const CharsPerToken = 4

// PackMargin is the share of the budget the parts are first packed into: it
// keeps room for what pricing parts one by one misses (commas, indentation,
// the tokens block itself); Fit's final measure trims if needed.
const PackMargin = 0.97

// Clamp returns n within [MinMaxTokens, MaxMaxTokens].
func Clamp(n int) int { return min(max(n, MinMaxTokens), MaxMaxTokens) }

// A Counter counts tokens (package tokens provides them).
type Counter interface {
	Count(text string) int
	Name() string
}

// A SplitCounter is a Counter whose count is made of a byte-pair encoding's
// count and the text's length in runes (as the max counter is). A BPE
// count is the sum of its pre-tokens' counts, and a run of digits with no
// digit either side is pre-tokens of its own: so a text that differs from
// another only by such a number is priced without being counted again.
type SplitCounter interface {
	Counter
	// BPE counts s by the byte-pair encoding alone.
	BPE(s string) int
	// Combine returns the count of a text from its BPE count and its runes.
	Combine(bpe, runes int) int
}

// Floor is the fewest tokens a text costs: a token per CharsPerToken
// characters, rounded up.
func Floor(s string) int { return FloorRunes(utf8.RuneCountInString(s)) }

// FloorRunes is Floor of a text of n runes.
func FloorRunes(n int) int { return (n + CharsPerToken - 1) / CharsPerToken }

// Cost is what a text costs: its count, and never less than its [Floor].
func Cost(c Counter, s string) int { return max(c.Count(s), Floor(s)) }

// TokenInfo is a view's size in tokens, its budget and how it was counted.
type TokenInfo struct {
	Estimated int    `json:"estimated"`
	Budget    int    `json:"budget"`
	Tokenizer string `json:"tokenizer"`
}

// Omission is one part left out of a view, with what it would cost and how
// to get it, in its What sentence ("12 findings of the requested page: raise
// maxTokens, …"); Tokens is 0 when the cost is not known.
type Omission struct {
	What   string `json:"what"`
	Tokens int    `json:"tokens"`
}

// Marker is the omission as one line, its cost after its subject:
// "[omitted: 150 findings of the requested page (~31000 tokens): raise maxTokens, …]".
func (o Omission) Marker() string {
	subject, how, ok := strings.Cut(o.What, ": ")
	if o.Tokens <= 0 {
		return "[omitted: " + o.What + "]"
	}
	if !ok {
		return fmt.Sprintf("[omitted: %s (~%d tokens)]", o.What, o.Tokens)
	}
	return fmt.Sprintf("[omitted: %s (~%d tokens): %s]", subject, o.Tokens, how)
}
