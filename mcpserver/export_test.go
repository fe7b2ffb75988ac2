package mcpserver

// SetEarlyPass turns the early taking of a grouped pass's findings on or
// off, and returns what restores it.
func SetEarlyPass(on bool) (restore func()) {
	was := earlyPass
	earlyPass = on
	return func() { earlyPass = was }
}
