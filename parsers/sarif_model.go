package parsers

import (
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/recap-dev/recap/reports"
)

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
	InformationURI  string // the tool's home page (§3.19.17)
	Rules           []*sarifRule
}

// sarifRule is what recap keeps of a reportingDescriptor (§3.49): a log may hold tens of
// thousands (PMD 7 writes one per rule and message), so its strings are
// interned, its properties parsed once, and the texts of a rule id read
// once (sarifStream.rule skips them in the id's later descriptors).
type sarifRule struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	HelpURI string `json:"helpUri"`
	level   string // defaultConfiguration.level
	// texts are the descriptor's shortDescription, fullDescription and
	// help, while the rule table has not taken them; nil when it has none.
	texts             *ruleTexts
	textsCut          bool // texts left unread: the descriptors read held too many (see maxHeldRuleText)
	messageStrings    map[string]string
	ruleset, category string
	priority          int
	tags              []string
	props             *ruleProps // nil when the descriptor has none of them
	// noRule marks the descriptor recap's SARIF writes for the results of
	// no rule (its id "(no rule)", property recapNoRule): their rule is "".
	noRule bool
	// shared is what the descriptors of one id share, set by the stream
	// (firstOfID) and the run (describe).
	shared *ruleShared
}

// ruleTexts are a descriptor's texts (§3.49.9, .10, .13).
type ruleTexts struct {
	short, full, help *sarifMultiformat
}

// ruleProps are the properties of a descriptor that few have.
type ruleProps struct {
	securitySeverity float64         // properties.security-severity
	precision        string          // properties.precision
	toolCategory     string          // properties.toolCategory: recap's SARIF read back
	recapCategory    bool            // the descriptor has a toolCategory (recap's SARIF): its category is recap's
	categories       []string        // properties.categories (Snyk Code files its rules under "Security")
	quality          reports.Quality // properties.quality and impact: recap's SARIF read back
	impact           reports.Impact
	cwe              []int // from the tags, properties.cwe and the relationships to a CWE taxonomy
	// cvss is properties.cvssv3_baseScore (Trivy, dependency-check, Snyk),
	// the security severity of a rule without security-severity.
	cvss float64
	// severity is the gravest impact a severity word of the tool names:
	// properties.severity, cvssv3_baseSeverity, cvssv2_severity.
	severity reports.Impact
}

// ruleShared is what the descriptors of one rule id share: PMD 7 writes one
// per rule and message, tens of thousands in a large report.
type ruleShared struct {
	short       string        // the first descriptor's short description
	shortVaries bool          // the descriptors differ in it: PMD 7 writes the message there
	described   bool          // the fields below are set
	info        *reports.Rule // the input's rule table entry
	cat, word   string        // the category and the tool's word for it
	// assessed holds the rule's place on the importance scale for each
	// severity a result of it has (reports.Assess), once worked out.
	assessed [4]importance
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
	Contents *sarifMultiformat      `json:"contents"` // its text, where the log carries it (§3.24.8)
}

type sarifRegion struct {
	StartLine   int               `json:"startLine"`
	StartColumn int               `json:"startColumn"`
	EndLine     int               `json:"endLine"`
	EndColumn   int               `json:"endColumn"`
	Snippet     *sarifMultiformat `json:"snippet"`
	// CharOffset and CharLength give a region by characters (§3.30.10,
	// .11), ByteOffset by bytes (recap keeps no region of bytes); nil when
	// absent.
	CharOffset *int `json:"charOffset"`
	CharLength *int `json:"charLength"`
	ByteOffset *int `json:"byteOffset"`
}

type sarifLocation struct {
	PhysicalLocation *sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifMessage          `json:"message"`
	// Logical holds the first reports.MaxLogical logical locations (§3.28.4).
	Logical []reports.LogicalLocation `json:"logicalLocations"`
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
	// Suppressions holds the first reports.MaxSuppressions suppressions
	// (§3.27.23), one not accepted among them when the result has one;
	// Suppressed says that they suppress the result: each is accepted.
	Suppressions []reports.Suppression `json:"-"`
	Suppressed   bool                  `json:"-"`
	// AnalysisTarget is the artifact the tool scanned (§3.27.13).
	AnalysisTarget *sarifArtifactLocation `json:"analysisTarget"`
	// Priority and Rank are the result's properties of those names
	// (recap's SARIF writes them: the tool's priority and rank), FixFlag
	// and FixWords its fixable and fixDescription (recap's SARIF of a fix
	// SARIF cannot hold: one in words).
	Priority, Rank int `json:"-"`
	// Quality and Impact are recap's SARIF's properties.quality and
	// impact, read back as written (a configuration may have set them).
	Quality reports.Quality `json:"-"`
	Impact  reports.Impact  `json:"-"`
	// ToolLevel is recap's SARIF's properties.toolLevel: the tool's level
	// where the result's level is its impact's; it is the finding's
	// severity read back.
	ToolLevel string `json:"-"`
	FixFlag   bool   `json:"-"`
	FixWords  string `json:"-"`
	// Related holds the first reports.MaxRelated relatedLocations (§3.27.22),
	// RelatedCount counts them all.
	Related      []sarifLocation `json:"-"`
	RelatedCount int             `json:"-"`
	// Flows holds the first reports.MaxFlows thread flows of the code
	// flows (§3.27.18, §3.36, §3.37, §3.38), reports.MaxFlowSteps steps
	// over all; AllFlows counts the thread flows, FlowSteps their steps.
	Flows     []sarifFlow `json:"-"`
	AllFlows  int         `json:"-"`
	FlowSteps int         `json:"-"`
	// Fix is the first fix (§3.27.30), nil when none or when it is larger
	// than reports.MaxFixReplacements and reports.MaxFixText allow.
	Fix *sarifFix `json:"-"`
	// FixProposed says that the result proposes a fix: its first fix has a
	// description or a replacement, kept in Fix or not.
	FixProposed bool `json:"-"`
	// CWE holds the CWE ids of the result's taxa (§3.27.8) that refer to a
	// CWE taxonomy, at most maxCWE.
	CWE []int `json:"-"`
	// more holds the locations past the first spillAfter (sarif_spill.go),
	// nil when there are none.
	more *locSpill
	// inline holds the objects of the first location, so that reading it
	// allocates nothing on the decoding goroutine: the result's slot in
	// its batch is reused once the result is converted. A result kept
	// longer is detached from it first.
	inline inlineLocation
}

// inlineLocation is a result's first location, its physical location,
// artifact location and region, as they are read (see sarifStream.inl).
type inlineLocation struct {
	locs                       [1]sarifLocation
	phys                       sarifPhysicalLocation
	art                        sarifArtifactLocation
	reg                        sarifRegion
	usedPhys, usedArt, usedReg bool
}

// detach moves the objects of res's locations that are in its inline
// storage to ones of their own, so that res may be copied and its slot
// reused.
func (res *sarifResult) detach() {
	in := &res.inline
	if len(res.Locations) > 0 && &res.Locations[0] == &in.locs[0] {
		res.Locations = append([]sarifLocation(nil), res.Locations...)
	}
	for i := range res.Locations {
		l := &res.Locations[i]
		if l.PhysicalLocation == &in.phys {
			p := in.phys
			l.PhysicalLocation = &p
		}
		pl := l.PhysicalLocation
		if pl == nil {
			continue
		}
		if pl.ArtifactLocation == &in.art {
			a := in.art
			pl.ArtifactLocation = &a
		}
		for _, r := range []**sarifRegion{&pl.Region, &pl.ContextRegion} {
			if *r == &in.reg {
				c := in.reg
				*r = &c
			}
		}
	}
}

// sarifFlow is a thread flow (§3.37): the index of its code flow among
// the result's, the code flow's message, its steps kept.
type sarifFlow struct {
	code    int
	message sarifMessage
	steps   []sarifLocation
}

// sarifFix is a fix (§3.55) with its artifactChanges' replacements in one list.
type sarifFix struct {
	Description  string
	Replacements []sarifReplacement
}

// sarifReplacement is a replacement (§3.57) with the artifact it changes.
// NoText marks an insertedContent with no text: an edit the tool did not
// write out.
type sarifReplacement struct {
	Artifact sarifArtifactLocation
	Region   sarifRegion
	Text     string
	NoText   bool
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
	// Locations name the file an execution notification is about (PMD's
	// processing errors: a file it could not parse).
	Locations []sarifLocation `json:"locations"`
	// AssociatedRule names the rule a notification is about (§3.58.7;
	// PMD's configuration notifications): any value, its id read when it
	// is a string (a notification is no reason to refuse a report).
	AssociatedRule jsontext.Value `json:"associatedRule"`
	// rule is AssociatedRule's id, kept when the notification is read
	// (its value let go).
	rule string
}

// ruleID is the id of the rule n is about, "" when none is given as a
// short line of text.
func (n *sarifNotification) ruleID() string {
	if len(n.AssociatedRule) == 0 {
		return ""
	}
	var ref struct {
		ID jsontext.Value `json:"id"`
	}
	var id string
	if jsonv2.Unmarshal(n.AssociatedRule, &ref) != nil || jsonv2.Unmarshal(ref.ID, &id) != nil {
		return ""
	}
	if id = firstLine(id); len(id) > 200 {
		return ""
	}
	return id
}

// sarifFailed is a file an execution notification says the tool could
// not analyse, and why.
type sarifFailed struct {
	at     sarifArtifactLocation
	reason string
}

// sarifOverride is a configurationOverride (§3.51) of an invocation's
// ruleConfigurationOverrides (§3.20.5): the level it gives a rule.
type sarifOverride struct {
	Descriptor    sarifRuleRef `json:"descriptor"`
	Configuration struct {
		Level string `json:"level"`
	} `json:"configuration"`
}

type sarifInvocation struct {
	RuleConfigurationOverrides     []sarifOverride     `json:"ruleConfigurationOverrides"`
	ExecutionSuccessful            *bool               `json:"executionSuccessful"`
	ExitCode                       *int                `json:"exitCode"`
	ExitCodeDescription            string              `json:"exitCodeDescription"`
	ExitSignalName                 string              `json:"exitSignalName"`
	ToolExecutionNotifications     []sarifNotification `json:"toolExecutionNotifications"`
	ToolConfigurationNotifications []sarifNotification `json:"toolConfigurationNotifications"`
	// Failed are the files of the error and warning execution
	// notifications, at most reports.MaxNotAnalysed.
	Failed []sarifFailed `json:"-"`
}
