package pipeline

// SettleAtResolution turns settling triage at the groups' resolution on or
// off (off: a second run triages the problems decisions cover), and
// returns the setting before.
func SettleAtResolution(on bool) bool {
	was := settleAtResolution
	settleAtResolution = on
	return was
}

// RegroupWhole makes settling group again every finding left of a file
// (on) or only the runs of nearby findings (off), and returns the setting
// before.
func RegroupWhole(on bool) bool {
	was := regroupWhole
	regroupWhole = on
	return was
}

// KeepByClass puts aside, for settling, the findings of the decided
// classes alone (on) or every finding of a decided file (off), and returns
// the setting before.
func KeepByClass(on bool) bool {
	was := keepByClass
	keepByClass = on
	return was
}
