package pipeline

// SettleAtResolution turns settling triage at the groups' resolution on or
// off (off: a second run triages the problems decisions cover), and
// returns the setting before.
func SettleAtResolution(on bool) bool {
	was := settleAtResolution
	settleAtResolution = on
	return was
}
