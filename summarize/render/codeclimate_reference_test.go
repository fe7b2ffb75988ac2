package render

// The Code Quality issues as recap wrote them through encoding/json, the
// reference ccEncoder is compared with.

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"

	"github.com/recap-dev/recap/reports"
)

// ccIssue is one issue of a Code Quality report.
type ccIssue struct {
	Type        string     `json:"type"`
	CheckName   string     `json:"check_name"`
	Description string     `json:"description"`
	Severity    string     `json:"severity"`
	Fingerprint string     `json:"fingerprint"`
	Location    ccLocation `json:"location"`
	EngineName  string     `json:"engine_name,omitempty"`
	Categories  []string   `json:"categories,omitempty"`
}

type ccLocation struct {
	Path  string  `json:"path"`
	Lines ccLines `json:"lines"`
}

type ccLines struct {
	Begin int `json:"begin"`
	End   int `json:"end,omitempty"`
}

// codeClimateIssue encodes f as an issue; ok is false when it has no path.
func codeClimateIssue(f *reports.Finding, occ *reports.Occurrences) ([]byte, bool, error) {
	if f.Path == "" {
		return nil, false, nil
	}
	// identity:occurrence, as SARIF's partial fingerprint writes it, and
	// its copy; a fingerprint not of recap's form: an MD5, unique in the set.
	fp := reports.CodeQualityFingerprint(occ.Copy(f.Fingerprint))
	if fp == "" {
		id := occ.Value(f.Fingerprint)
		if id == "" {
			id = occ.Value(f.Tool + "\x00" + f.ID.String())
		}
		sum := md5.Sum([]byte(id))
		fp = hex.EncodeToString(sum[:])
	}
	line := max(f.Line, 1)
	is := ccIssue{
		Type:        "issue",
		CheckName:   f.Tool + "/" + reports.ShortRule(f.Tool, f.Rule),
		Description: ccDescription(f),
		Severity:    CodeClimateSeverity(f.Severity, f.Impact),
		Fingerprint: fp,
		Location:    ccLocation{Path: f.Path, Lines: ccLines{Begin: line}},
		EngineName:  f.Tool,
		Categories:  ccCategories[f.Category],
	}
	if f.EndLine > line {
		is.Location.Lines.End = f.EndLine
	}
	b, err := json.Marshal(is)
	return EscapeJSON(b), true, err
}
