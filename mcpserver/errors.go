package mcpserver

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// Error codes of tool errors (docs/mcp.md, "Errors").
const (
	CodeNotFound    = "NOT_FOUND"
	CodeParseError  = "PARSE_ERROR"
	CodeBadArgument = "BAD_ARGUMENT"
	CodeOutsideRoot = "OUTSIDE_ROOT"
	CodeTooLarge    = "TOO_LARGE"
	codeInternal    = "INTERNAL"
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
func cut(s string) string {
	n := 0
	for i := range s {
		if n == maxEcho-1 { // s[i:] is the 100th character on
			if _, size := utf8.DecodeRuneInString(s[i:]); i+size < len(s) {
				return s[:i] + "…"
			}
			return s
		}
		n++
	}
	return s
}
