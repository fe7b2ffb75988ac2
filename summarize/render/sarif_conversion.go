package render

import "github.com/owenrumney/go-sarif/v2/sarif"

// RecapURI is recap's home, the information URI of its tool component.
const RecapURI = "https://github.com/recap-dev/recap"

// recapConversion says that recap wrote the run from another tool's report
// (SARIF §3.22, run.conversion): its tool is recap, with its version when
// known, while the run's tool stays the analyser that found the results.
func recapConversion(version string) *sarif.Conversion {
	driver := &sarif.ToolComponent{Name: "recap", InformationURI: ptr(RecapURI), Rules: []*sarif.ReportingDescriptor{}}
	if version != "" {
		driver.Version = ptr(version)
	}
	return sarif.NewConversion().WithTool(&sarif.Tool{Driver: driver})
}

func ptr(s string) *string { return &s }
