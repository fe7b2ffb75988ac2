package config

import (
	"fmt"
	"strconv"
	"strings"
)

// An Error is what is wrong in a configuration file, and where:
//
//	.recap.yml:7:13: overrides[1].impact: unknown impact "hihg" (want blocker, high, medium, low or info; did you mean high?)
//
// A file with several mistakes gives one Error for each (up to
// [MaxErrors]), joined with [errors.Join]; errors.As finds the first.
type Error struct {
	File string // the file's name as given to Load or Parse
	// Line and Column are 1-based; 0 when the mistake has no place (the
	// file is too large, cannot be read).
	Line, Column int
	// Key is the path of the value in the file ("overrides[1].impact",
	// "exclude.rules[0]"); "" for the file as a whole and for YAML syntax.
	Key string
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
		if e.Column > 0 {
			b.WriteString(":" + strconv.Itoa(e.Column))
		}
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// MaxErrors is how many mistakes of one file are told at most: past it,
// the rest are likely one mistake seen many times.
const MaxErrors = 20

// errorf makes an error message; a short helper so that messages read as
// sentences in the decoder.
func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
