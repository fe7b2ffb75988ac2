package reports

import (
	"fmt"
	"strings"
)

// Severity is recap's one ordered severity scale: [SeverityError] >
// [SeverityWarning] > [SeverityNote]. The zero value is invalid and means
// "not set"; every finding a parser emits has a valid severity.
type Severity uint8

// The severities, in increasing order so that comparisons read naturally
// (s >= SeverityWarning means "warning or worse").
const (
	SeverityNote Severity = iota + 1
	SeverityWarning
	SeverityError
)

// Severities lists the valid severities from the most to the least severe,
// the order in which views present them.
var Severities = []Severity{SeverityError, SeverityWarning, SeverityNote}

var severityNames = [...]string{SeverityNote: "note", SeverityWarning: "warning", SeverityError: "error"}

// String returns "error", "warning" or "note", and "invalid" for anything else.
func (s Severity) String() string {
	if s.Valid() {
		return severityNames[s]
	}
	return "invalid"
}

// Valid reports whether s is one of the three severities.
func (s Severity) Valid() bool { return s >= SeverityNote && s <= SeverityError }

// MarshalText encodes s as its name; an invalid severity is an error.
func (s Severity) MarshalText() ([]byte, error) {
	if !s.Valid() {
		return nil, fmt.Errorf("invalid severity %d", uint8(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText decodes a name accepted by [ParseSeverity].
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// ParseSeverity reads a severity name, case-insensitively. "info" is accepted
// as a synonym of note, the name Checkstyle uses.
func ParseSeverity(name string) (Severity, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "error":
		return SeverityError, nil
	case "warning":
		return SeverityWarning, nil
	case "note", "info":
		return SeverityNote, nil
	}
	return 0, UnknownWord("severity", name, []string{"error", "warning", "note", "info"}, []string{"error", "warning", "note"})
}
