package parsers

import "encoding/json"

// The SARIF 2.1.0 structs recap decodes: only the fields the model needs, with
// int indexes (SARIF's default index is -1, which go-sarif's uint fields reject)
// and raw fingerprint values (not always strings in real files). Everything
// else in a log is skipped by the decoder.

type sarifTool struct {
	Driver     sarifComponent   `json:"driver"`
	Extensions []sarifComponent `json:"extensions"`
}

type sarifComponent struct {
	Name            string      `json:"name"`
	Version         string      `json:"version"`
	SemanticVersion string      `json:"semanticVersion"`
	Rules           []sarifRule `json:"rules"`
}

// sarifRule is a reportingDescriptor (§3.49).
type sarifRule struct {
	ID                   string            `json:"id"`
	Name                 string            `json:"name"`
	HelpURI              string            `json:"helpUri"`
	ShortDescription     *sarifMultiformat `json:"shortDescription"`
	DefaultConfiguration *struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
	MessageStrings map[string]sarifMultiformat `json:"messageStrings"`
	Properties     map[string]json.RawMessage  `json:"properties"`
}

type sarifMultiformat struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
	Index     *int   `json:"index"`
}

type sarifArtifact struct {
	Location *sarifArtifactLocation `json:"location"`
}

type sarifRegion struct {
	StartLine   int               `json:"startLine"`
	StartColumn int               `json:"startColumn"`
	EndLine     int               `json:"endLine"`
	EndColumn   int               `json:"endColumn"`
	Snippet     *sarifMultiformat `json:"snippet"`
}

type sarifLocation struct {
	PhysicalLocation *struct {
		ArtifactLocation *sarifArtifactLocation `json:"artifactLocation"`
		Region           *sarifRegion           `json:"region"`
		ContextRegion    *sarifRegion           `json:"contextRegion"`
	} `json:"physicalLocation"`
}

type sarifMessage struct {
	Text      string   `json:"text"`
	Markdown  string   `json:"markdown"`
	ID        string   `json:"id"`
	Arguments []string `json:"arguments"`
}

// sarifResult is a result (§3.27).
type sarifResult struct {
	RuleID    string `json:"ruleId"`
	RuleIndex *int   `json:"ruleIndex"`
	Rule      *struct {
		ID            string `json:"id"`
		Index         *int   `json:"index"`
		ToolComponent *struct {
			Name  string `json:"name"`
			Index *int   `json:"index"`
		} `json:"toolComponent"`
	} `json:"rule"`
	Kind                string                     `json:"kind"`
	Level               string                     `json:"level"`
	Message             sarifMessage               `json:"message"`
	Locations           []sarifLocation            `json:"locations"`
	PartialFingerprints map[string]json.RawMessage `json:"partialFingerprints"`
	Suppressions        []struct {
		Status string `json:"status"`
	} `json:"suppressions"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}

type sarifInvocation struct {
	ExecutionSuccessful            *bool               `json:"executionSuccessful"`
	ExitCode                       *int                `json:"exitCode"`
	ToolExecutionNotifications     []sarifNotification `json:"toolExecutionNotifications"`
	ToolConfigurationNotifications []sarifNotification `json:"toolConfigurationNotifications"`
}
