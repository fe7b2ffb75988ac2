package config

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"errors"
)

// The YAML library says where a syntax error is by a line only, and not
// always the line a reader would look at: libyaml's marks are 0-based,
// and go.yaml.in/yaml/v3 adds 1 to them for the scanner's errors (bad
// characters, quotes, escapes, aliases), which point at the token, but
// not for the parser's (a missing ']', an entry out of place), which point
// at the line before the collection in trouble, and it leaves the line out
// when it is 0. syntaxError puts that right, and finds the exact place of
// the two commonest mistakes itself: a tab in the indentation, and a value
// that begins with * unquoted (a glob read as an alias).

// parserProblems are the problems go.yaml.in/yaml/v3's parser (not its
// scanner) reports (parserc.go).
var parserProblems = []string{
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"did not find expected '-' indicator",
	"did not find expected <document start>",
	"did not find expected <stream-start>",
	"did not find expected key",
	"did not find expected node content",
	"found duplicate %TAG directive",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found undefined tag handle",
}

var (
	yamlLine      = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)
	unknownAnchor = regexp.MustCompile(`^unknown anchor '(.*)' referenced$`)
)

// syntaxError makes the YAML library's error an Error with the best place
// that can be known.
func syntaxError(file string, data []byte, err error) *Error {
	m := yamlLine.FindStringSubmatch(err.Error())
	if m == nil {
		return &Error{File: file, Err: err}
	}
	line, _ := strconv.Atoi(m[1])
	msg := m[2]
	if slices.Contains(parserProblems, msg) {
		line++
	}
	lines := strings.Split(string(data), "\n")
	if len(lines) > 1 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // the end of the last line
	}
	line = min(max(line, 1), len(lines)) // an error at the end is on the last line
	switch {
	case strings.Contains(msg, "tab character") || msg == "found character that cannot start any token":
		if l, c, ok := tabIndent(lines); ok {
			return &Error{File: file, Line: l, Column: c, Err: errors.New("a tab in the indentation (YAML indents with spaces)")}
		}
	case msg == "did not find expected alphabetic or numeric character" && line <= len(lines):
		if c, v, ok := starValue(lines[line-1]); ok {
			return &Error{File: file, Line: line, Column: c, Err: starError(v)}
		}
	}
	if a := unknownAnchor.FindStringSubmatch(msg); a != nil {
		for i, l := range lines {
			if c, v, ok := starValue(l); ok && v == "*"+a[1] {
				return &Error{File: file, Line: i + 1, Column: c, Err: starError(v)}
			}
		}
	}
	return &Error{File: file, Line: line, Err: errors.New(msg)}
}

func starError(v string) error {
	return errors.New("YAML reads a value that begins with * as an alias: quote it, \"" + v + "\"")
}

// tabIndent finds the first line whose indentation holds a tab, and the
// tab's column.
func tabIndent(lines []string) (line, col int, ok bool) {
	for i, l := range lines {
		indent := len(l) - len(strings.TrimLeft(l, " \t"))
		if j := strings.IndexByte(l[:indent], '\t'); j >= 0 && indent < len(l) {
			return i + 1, j + 1, true
		}
	}
	return 0, 0, false
}

// starValue finds, in a line, a value that begins with * (after the
// indentation, a "- ", ": ", "[" or ","), and returns its column and text.
func starValue(line string) (int, string, bool) {
	for i := 0; i < len(line); i++ {
		if line[i] != '*' {
			continue
		}
		before := strings.TrimRight(line[:i], " ")
		if before != "" && !strings.HasSuffix(before, "-") && !strings.HasSuffix(before, ":") && !strings.HasSuffix(before, "[") && !strings.HasSuffix(before, ",") && !strings.HasSuffix(before, "{") {
			continue
		}
		end := strings.IndexAny(line[i:], " ,]}#")
		if end < 0 {
			end = len(line) - i
		}
		return utf8.RuneCountInString(line[:i]) + 1, line[i : i+end], true
	}
	return 0, "", false
}

// SyntaxError makes a YAML syntax error of file (whose content is data) an
// [*Error] placed as this package places its own: other YAML files of the
// repository (the triage file) read with go.yaml.in/yaml/v3 use it.
func SyntaxError(file string, data []byte, err error) *Error {
	return syntaxError(file, data, err)
}
