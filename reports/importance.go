package reports

import (
	"fmt"
	"strings"
)

// Impact is how much a finding matters, on one scale across tools, as
// SonarQube's impact severities are: [ImpactBlocker] > [ImpactHigh] >
// [ImpactMedium] > [ImpactLow] > [ImpactInfo]. It comes from what the tool
// says about the rule (a bug rank, a priority, a rule family, a security
// severity), not from a report's configurable severity (docs/formats.md,
// "Importance"). The zero value means "not set".
type Impact uint8

// The impacts, in increasing order so that comparisons read naturally
// (i >= ImpactHigh means "high or worse").
const (
	ImpactInfo Impact = iota + 1
	ImpactLow
	ImpactMedium
	ImpactHigh
	ImpactBlocker
)

// Impacts lists the impacts from the most to the least important, the order
// in which views present them.
var Impacts = []Impact{ImpactBlocker, ImpactHigh, ImpactMedium, ImpactLow, ImpactInfo}

var impactNames = [...]string{ImpactInfo: "info", ImpactLow: "low", ImpactMedium: "medium", ImpactHigh: "high", ImpactBlocker: "blocker"}

// String returns the impact's name, "invalid" for anything else.
func (i Impact) String() string {
	if i.Valid() {
		return impactNames[i]
	}
	return "invalid"
}

// Valid reports whether i is one of the five impacts.
func (i Impact) Valid() bool { return i >= ImpactInfo && i <= ImpactBlocker }

// MarshalText encodes i as its name; an invalid impact is an error.
func (i Impact) MarshalText() ([]byte, error) {
	if !i.Valid() {
		return nil, fmt.Errorf("invalid impact %d", uint8(i))
	}
	return []byte(i.String()), nil
}

// UnmarshalText decodes a name accepted by [ParseImpact].
func (i *Impact) UnmarshalText(b []byte) error {
	v, err := ParseImpact(string(b))
	if err != nil {
		return err
	}
	*i = v
	return nil
}

// ParseImpact reads an impact's name, case-insensitively.
func ParseImpact(name string) (Impact, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for i, s := range impactNames {
		if s != "" && s == n {
			return Impact(i), nil
		}
	}
	return 0, fmt.Errorf("unknown impact %q (want blocker, high, medium, low or info)", name)
}

// Quality is the software quality a finding is about, as SonarQube's
// software qualities are: [QualitySecurity], [QualityReliability] (the
// program does what it should: bugs, crashes, leaks, races) and
// [QualityMaintainability] (the code is easy to read and change). Views
// order them in that order. The zero value means "not set".
type Quality uint8

// The qualities, in increasing order of precedence.
const (
	QualityMaintainability Quality = iota + 1
	QualityReliability
	QualitySecurity
)

// Qualities lists the qualities in the order views present them.
var Qualities = []Quality{QualitySecurity, QualityReliability, QualityMaintainability}

var qualityNames = [...]string{QualityMaintainability: "maintainability", QualityReliability: "reliability", QualitySecurity: "security"}

// String returns the quality's name, "invalid" for anything else.
func (q Quality) String() string {
	if q.Valid() {
		return qualityNames[q]
	}
	return "invalid"
}

// Valid reports whether q is one of the three qualities.
func (q Quality) Valid() bool { return q >= QualityMaintainability && q <= QualitySecurity }

// MarshalText encodes q as its name; an invalid quality is an error.
func (q Quality) MarshalText() ([]byte, error) {
	if !q.Valid() {
		return nil, fmt.Errorf("invalid quality %d", uint8(q))
	}
	return []byte(q.String()), nil
}

// UnmarshalText decodes a name accepted by [ParseQuality].
func (q *Quality) UnmarshalText(b []byte) error {
	v, err := ParseQuality(string(b))
	if err != nil {
		return err
	}
	*q = v
	return nil
}

// ParseQuality reads a quality's name, case-insensitively.
func ParseQuality(name string) (Quality, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for q, s := range qualityNames {
		if s != "" && s == n {
			return Quality(q), nil
		}
	}
	return 0, fmt.Errorf("unknown quality %q (want security, reliability or maintainability)", name)
}

// ShortRule is the name users write for a rule in `Tool:Rule` patterns
// and views show: the rule id, except for Checkstyle, whose ids are class
// names (com.puppycrawl.tools.checkstyle.checks.naming.FinalParametersCheck
// is "FinalParameters", a module id suffix "#id" dropped).
func ShortRule(tool, rule string) string {
	if !strings.EqualFold(tool, "checkstyle") {
		return rule
	}
	rule, _, _ = strings.Cut(rule, "#")
	if i := strings.LastIndexByte(rule, '.'); i >= 0 {
		rule = rule[i+1:]
	}
	return strings.TrimSuffix(rule, "Check")
}
