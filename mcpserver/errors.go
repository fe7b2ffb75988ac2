package mcpserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"reflect"
	"strconv"
	"strings"

	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/summarize/budget"
)

// Error codes of tool errors (docs/mcp.md, "Errors").
const (
	CodeNotFound    = "NOT_FOUND"
	CodeParseError  = "PARSE_ERROR"
	CodeBadArgument = "BAD_ARGUMENT"
	CodeOutsideRoot = "OUTSIDE_ROOT"
	CodeTooLarge    = "TOO_LARGE"
	// CodeBusy: the server reads reports for as many calls as it may at
	// once; this one can be made again in a few seconds.
	CodeBusy     = "BUSY"
	codeInternal = "INTERNAL"
)

// ToolError is the error object of a failed call: a code and a sentence
// that says what went wrong and what to do.
type ToolError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *ToolError) Error() string { return e.Code + ": " + e.Message }

// errorAnswer is the structured content of a failed call.
type errorAnswer struct {
	Error *ToolError `json:"error"`
}

func toolErrorf(code, format string, args ...any) *ToolError {
	return &ToolError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// asToolError gives every error a code; an error without one is internal.
func asToolError(err error) *ToolError {
	var te *ToolError
	if errors.As(err, &te) {
		return te
	}
	return &ToolError{Code: codeInternal, Message: err.Error()}
}

// maxEcho bounds an argument quoted in an error message, in characters.
const maxEcho = 100

// cut shortens an argument quoted in a message to maxEcho characters, the
// last one …, so that an error never echoes a long argument whole.
func cut(s string) string { return text.CutRunes(s, maxEcho) }

// echoes are the strings of a call's arguments longer than maxEcho
// characters (in struct fields, lists, maps and their keys), which an
// error must not quote whole.
func echoes(args any) []string {
	var out []string
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.String:
			if s := v.String(); len(s) > maxEcho {
				out = append(out, s)
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		case reflect.Map:
			for it := v.MapRange(); it.Next(); {
				walk(it.Key())
				walk(it.Value())
			}
		}
	}
	walk(reflect.ValueOf(args))
	return out
}

// scrub cuts each of the long arguments wherever msg quotes it, as is or
// escaped as %q and JSON escape it (an escaped form is looked for only when
// msg holds the escaped form of its first characters).
func scrub(msg string, long []string) string {
	for _, s := range long {
		if len(msg) < maxEcho {
			break
		}
		msg = strings.ReplaceAll(msg, s, cut(s))
		head := s[:len(cut(s))-len("…")]
		for _, esc := range []func(string) string{
			func(x string) string { q := strconv.Quote(x); return q[1 : len(q)-1] },
			func(x string) string { j, _ := json.Marshal(x); return string(j[1 : len(j)-1]) },
		} {
			if e := esc(head); e != head && strings.Contains(msg, e) {
				full := esc(s)
				msg = strings.ReplaceAll(msg, full, cut(full))
			}
		}
	}
	return msg
}

// fitError makes a tool error fit its call's budget (as every answer
// does, through budget.Fit): the long arguments it quotes cut first, then
// its message halved with …, and again, until the text fits. It returns the
// error as sent, its text and its cost.
func fitError(c budget.Counter, te *ToolError, limit int, long []string) (*ToolError, string, int) {
	limit = budget.Clamp(limit)
	msg := scrub(te.Message, long)
	msg = firstRunes(msg, budget.CharsPerToken*limit) // nothing longer fits: count no more
	out := &ToolError{Code: te.Code, Message: msg}
	runes := []rune(msg)
	halves := max(bits.Len(uint(len(runes)))-1, 0)
	render := func() string { return out.Error() }
	n := budget.Fit(c, limit, budget.Plan{
		Parts: []budget.Part{{Kind: 0, Tokens: budget.Cost(c, render())}},
		Apply: func(_ []bool, level int) {
			out.Message = msg
			if level > 0 {
				out.Message = string(runes[:len(runes)>>min(level, halves)]) + "…"
			}
		},
		Levels: halves,
		Render: render,
	})
	return out, render(), n
}

// firstRunes returns the first n characters of s.
func firstRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
