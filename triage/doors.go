package triage

import (
	"bytes"
	"fmt"
	"time"

	"go.yaml.in/yaml/v3"
)

// EntriesYAML writes entries as the items of the file's entries list,
// each written as the file writes it ("  - tool: PMD\n    rule: …", the
// day unquoted) and in the file's order: what a person pastes under
// entries: of the file recap wrote to make decisions taken elsewhere (the
// MCP server without writes, a pull request's replies) permanent.
func EntriesYAML(entries ...Entry) (string, error) {
	f := &File{Entries: append([]Entry(nil), entries...)}
	f.Sort()
	var b bytes.Buffer
	for i := range f.Entries {
		item, err := encodeNode(&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{entryNode(&f.Entries[i])}})
		if err != nil {
			return "", err
		}
		for _, line := range bytes.SplitAfter(item, []byte("\n")) {
			if len(line) > 0 && line[0] != '\n' {
				b.WriteString("  ")
			}
			b.Write(line)
		}
	}
	return b.String(), nil
}

// CheckDecision checks what a person decided, as a door takes it: the
// state's word (any form [ParseState] reads), a reason, and an expiry
// (YYYY-MM-DD, after today, or ""). It returns the state.
func CheckDecision(state, reason, until string, now time.Time) (State, error) {
	s, ok := ParseState(state)
	if !ok {
		return "", fmt.Errorf("state %q is none of %s", state, statesText())
	}
	if len(bytes.TrimSpace([]byte(reason))) == 0 {
		return "", fmt.Errorf("a reason is required: say why, for the reviewer who reads the entry")
	}
	if until != "" {
		if err := checkDay(until); err != nil {
			return "", fmt.Errorf("until %w", err) // the file's own check
		}
		u, _ := time.Parse(DateLayout, until)
		if !now.UTC().Before(u) {
			return "", fmt.Errorf("until %s has come already: give a later day, or none", until)
		}
	}
	return s, nil
}

// StatesText lists the states' words: "false-positive, wont-fix,
// accepted-risk, used-in-tests or confirmed".
func StatesText() string { return statesText() }

func statesText() string {
	var b bytes.Buffer
	for i, s := range States {
		switch {
		case i == len(States)-1:
			b.WriteString(" or ")
		case i > 0:
			b.WriteString(", ")
		}
		b.WriteString(string(s))
	}
	return b.String()
}

// With returns a copy of f with more put in it (each replacing the entry
// of the same key): the triage a run honours when decisions taken
// elsewhere (a pull request's replies) join the file's, f itself left as
// it is. A nil f is an empty file.
func With(f *File, more ...Entry) *File {
	out := &File{Version: 1}
	if f != nil {
		out.Name, out.Version = f.Name, f.Version
		out.Entries = append([]Entry(nil), f.Entries...)
	}
	for _, e := range more {
		out.Put(e)
	}
	return out
}
