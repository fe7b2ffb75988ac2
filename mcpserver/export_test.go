package mcpserver

import "time"

// SetEarlyPass turns the early taking of a grouped pass's findings on or
// off, and returns what restores it.
func SetEarlyPass(on bool) (restore func()) {
	was := earlyPass
	earlyPass = on
	return func() { earlyPass = was }
}

// TriageWork returns how many triage files the servers read and parsed
// and how many matchers of their decisions they made.
func TriageWork() (reads, parses, matchers int64) {
	return triageReads.Load(), triageParses.Load(), triageMatchers.Load()
}

// SetUnchangedAfter sets how old a triage file's times must be for its
// stamp to tell it unchanged, and returns what restores it.
func SetUnchangedAfter(d time.Duration) (restore func()) {
	was := unchangedAfter
	unchangedAfter = d
	return func() { unchangedAfter = was }
}
