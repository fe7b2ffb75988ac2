package parsers

import "github.com/go-json-experiment/json/jsontext"

// The SARIF 2.1.0 structs recap reads: only the fields the model needs, with
// int indexes (SARIF's default index is -1, which go-sarif's uint fields reject)
// and raw fingerprint values (not always strings in real files). Results and
// rules are filled token by token (sarif_result.go); the run's smaller members
// (originalUriBaseIds, artifacts, invocations) through their json tags.
// Everything else in a log is skipped. The json tags of results and rules
// serve sarif_oracle_test.go, which decodes them with go-json-experiment's
// Unmarshal to check the token decoder.

// sarifTool is the tool object (§3.18), filled by sarifStream.tool one
// rule at a time: PMD 7 writes one descriptor per (rule, message) pair, 82 MB
// of them in a large report, and none of that may be held whole.
type sarifTool struct {
	Driver     sarifComponent
	Extensions []sarifComponent
}

type sarifComponent struct {
	Name            string
	Version         string
	SemanticVersion string
	Rules           []*sarifRule
}

// sarifRule is what recap keeps of a reportingDescriptor (§3.49): a log may hold tens of
// thousands (PMD 7 writes one per rule and message), so its strings are
// interned and its properties parsed once.
type sarifRule struct {
	ID                string `json:"id"`
	Name              string `json:"name"`
	HelpURI           string `json:"helpUri"`
	level             string // defaultConfiguration.level
	messageStrings    map[string]string
	ruleset, category string
	priority          int
	tags              []string
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
	PhysicalLocation *sarifPhysicalLocation `json:"physicalLocation"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation *sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion           `json:"region"`
	ContextRegion    *sarifRegion           `json:"contextRegion"`
}

// sarifRuleRef is a reportingDescriptorReference (§3.52).
type sarifRuleRef struct {
	ID            string             `json:"id"`
	Index         *int               `json:"index"`
	ToolComponent *sarifComponentRef `json:"toolComponent"`
}

// sarifComponentRef is a toolComponentReference (§3.54).
type sarifComponentRef struct {
	Name  string `json:"name"`
	Index *int   `json:"index"`
}

type sarifMessage struct {
	Text      string   `json:"text"`
	Markdown  string   `json:"markdown"`
	ID        string   `json:"id"`
	Arguments []string `json:"arguments"`
}

// sarifResult is a result (§3.27).
type sarifResult struct {
	RuleID              string                    `json:"ruleId"`
	RuleIndex           *int                      `json:"ruleIndex"`
	Rule                *sarifRuleRef             `json:"rule"`
	Kind                string                    `json:"kind"`
	Level               string                    `json:"level"`
	Message             sarifMessage              `json:"message"`
	Locations           []sarifLocation           `json:"locations"`
	PartialFingerprints map[string]jsontext.Value `json:"partialFingerprints"`
	// SuppressionStatuses holds each suppression's status ("" when absent).
	SuppressionStatuses []string `json:"-"`
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
