package parsers

import (
	"fmt"
	"testing"
)

func TestDetect(t *testing.T) {
	tests := map[string]struct {
		head   string
		want   Format
		wantOK bool
	}{
		"sarif":                 {`{"version":"2.1.0","runs":[]}`, FormatSARIF, true},
		"sarif with bom":        {"\xef\xbb\xbf\n  {\"runs\":[]}", FormatSARIF, true},
		"spotbugs":              {`<?xml version="1.0"?><BugCollection version="4.8.2">`, FormatSpotBugs, true},
		"findbugs leading line": {"\n<BugCollection>", FormatSpotBugs, true},
		"checkstyle":            {"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"8.36\">", FormatCheckstyle, true},
		"pmd with namespace":    {`<pmd xmlns="http://pmd.sourceforge.net/report/2.0.0" version="7">`, FormatPMD, true},
		"comment before root":   {"<?xml version=\"1.0\"?><!-- made by PMD --><pmd>", FormatPMD, true},
		"latin-1 declaration":   {"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><checkstyle>", FormatCheckstyle, true},
		"other xml":             {`<SomeThing version="1.2.0"/>`, "", false},
		"json array":            {`[1,2]`, FormatCodeClimate, true}, // a weak match: Code Quality's error
		"code quality":          {`[{"description":"x","check_name":"r","location":{"path":"a.js"}}]`, FormatCodeClimate, true},
		"json without marks":    {`{"name":"app","version":"1.0.0"}`, FormatSARIF, true}, // a weak match: SARIF's error
		"sarif schema only":     {`{"$schema":"https://json.schemastore.org/sarif-2.1.0.json"}`, FormatSARIF, true},
		"text":                  {"hello", "", false},
		"empty":                 {"", "", false},
		"spaces":                {" \n\t", "", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, ok := Detect([]byte(tc.head))
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("Detect(%q) = %q, %v; want %q, %v", tc.head, got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

func ExampleDetect() {
	f, ok := Detect([]byte(`<?xml version="1.0"?><BugCollection version="4.8.2">`))
	fmt.Println(f, ok)
	// Output: spotbugs true
}

// TestDetectStrength: a JSON object is SARIF for Detect and a JSON array
// Code Quality, but only one with the format's marks is a strong match, the
// only kind a directory search takes.
func TestDetectStrength(t *testing.T) {
	for _, tc := range []struct {
		head string
		want match
	}{
		{`{"version":"2.1.0","runs":[]}`, strongMatch},
		{`{"$schema" : "https://schemastore.azurewebsites.net/schemas/json/sarif-2.1.0-rtm.5.json"}`, strongMatch},
		{`{"name":"app","scripts":{}}`, weakMatch},
		{`<checkstyle/>`, strongMatch},
		{`<project/>`, noMatch},
		{`[{"runs":[]}]`, weakMatch},
		{`[{"fingerprint":"ab","location":{}}]`, strongMatch},
	} {
		if _, m := formats.detect([]byte(tc.head)); m != tc.want {
			t.Errorf("detect(%q) = %v, want %v", tc.head, m, tc.want)
		}
	}
}
