package mcpserver

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
