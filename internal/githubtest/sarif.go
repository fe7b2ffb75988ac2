package githubtest

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
)

// The limits GitHub's code scanning sets on an uploaded SARIF file
// (docs.github.com, "SARIF results exceed one or more limits" and
// "SARIF support for code scanning"): past them the upload is rejected.
const (
	MaxSARIFGzipBytes = 10 << 20 // the file, gzip-compressed
	MaxRunsPerFile    = 20
	MaxResultsPerRun  = 25000
	MaxRulesPerRun    = 25000
	MaxTagsPerRule    = 20
	MaxLocations      = 1000 // per result
)

// SARIFLimits lists what in a SARIF log GitHub's code scanning would
// reject.
func SARIFLimits(sarif []byte) []string {
	var errs []string
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(sarif)
	w.Close()
	if gz.Len() > MaxSARIFGzipBytes {
		errs = append(errs, fmt.Sprintf("%d bytes gzip-compressed, over %d", gz.Len(), MaxSARIFGzipBytes))
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						Properties struct {
							Tags []string `json:"tags"`
						} `json:"properties"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				Locations []json.RawMessage `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(sarif, &log); err != nil {
		return append(errs, "not JSON: "+err.Error())
	}
	if len(log.Runs) > MaxRunsPerFile {
		errs = append(errs, fmt.Sprintf("%d runs, over %d", len(log.Runs), MaxRunsPerFile))
	}
	for _, r := range log.Runs {
		name := r.Tool.Driver.Name
		if len(r.Results) > MaxResultsPerRun {
			errs = append(errs, fmt.Sprintf("run of %s: %d results, over %d", name, len(r.Results), MaxResultsPerRun))
		}
		if len(r.Tool.Driver.Rules) > MaxRulesPerRun {
			errs = append(errs, fmt.Sprintf("run of %s: %d rules, over %d", name, len(r.Tool.Driver.Rules), MaxRulesPerRun))
		}
		for _, rule := range r.Tool.Driver.Rules {
			if len(rule.Properties.Tags) > MaxTagsPerRule {
				errs = append(errs, fmt.Sprintf("run of %s: a rule with %d tags", name, len(rule.Properties.Tags)))
				break
			}
		}
		for _, res := range r.Results {
			if len(res.Locations) > MaxLocations {
				errs = append(errs, fmt.Sprintf("run of %s: a result with %d locations", name, len(res.Locations)))
				break
			}
		}
	}
	return errs
}
