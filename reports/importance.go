package reports

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
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
	return 0, UnknownWord("impact", name, impactWords(), impactWords())
}

// impactWords are the impacts' names, the most important first.
func impactWords() []string {
	out := make([]string, len(Impacts))
	for i, x := range Impacts {
		out[i] = x.String()
	}
	return out
}

// qualityWords are the qualities' names, in the order views show them.
func qualityWords() []string {
	out := make([]string, len(Qualities))
	for i, x := range Qualities {
		out[i] = x.String()
	}
	return out
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
	return 0, UnknownWord("quality", name, qualityWords(), qualityWords())
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

// Signals is what a report says of a finding that places it on the
// importance scale: the tool's rule families, ranks and priorities, and
// what it says of security. A parser fills what its format carries; 0 and
// "" mean "not said".
type Signals struct {
	Tool string
	// Rule is the rule id as the tool writes it.
	Rule string
	// Category is the finding's category on recap's scale, ToolCategory
	// the tool's own word ("SECURITY", "coding", "Error Prone").
	Category, ToolCategory string
	// Rank is SpotBugs' bug rank, 1 (scariest) to 20.
	Rank int
	// Priority is PMD's rule priority (1 high … 5 low), or SpotBugs'
	// priority (its confidence, 1 … 3) when the report has no rank.
	Priority int
	// SecuritySeverity is SARIF's security-severity, 0.1 to 10.0, or for
	// a rule without one its CVSS v3 base score.
	SecuritySeverity float64
	// ToolSeverity is the tool's own word for how grave the finding is,
	// on the scale ([SeverityWordImpact]): a severity property or tag
	// (Trivy's and gosec's HIGH, dependency-check's cvssv2_severity). 0
	// when the tool says none.
	ToolSeverity Impact
	// Tags are the rule's tags and the categories it is filed under
	// (SARIF properties.tags and properties.categories).
	Tags []string
	// CWE are the weakness's CWE ids.
	CWE []int
	// Level is the report's severity of the finding: the last resort,
	// for a tool that says nothing else (a SARIF level, a Code Climate
	// severity read as recap reads it).
	Level Severity
	// Severity is a Code Climate issue's severity word (blocker, critical,
	// major, minor, info), which names an impact.
	ClimateSeverity string
}

// Assess places a finding on the importance scale from what its tool says
// (docs/formats.md, "Importance"; [ImportanceRows] is that table). The
// quality is security when the tool says so, then the tool's rule
// families; the impact comes first from the tool's own word for how grave
// the finding is (a security severity, a CVSS score, a severity word,
// Flawfinder's risk level), then from a bug rank, a priority, a rule
// family, and only for a tool that says nothing else from the report's
// severity. Then recap's floors: a security finding of a weakness of
// MITRE's CWE Top 25, or a secret a secret scanner found, is at least
// high, unless its tool gave its own word, which the floors never
// overrule. A maintainability finding is at most medium, and at most low
// in Code Style and Documentation, so that no configurable style "error"
// outranks a bug.
func Assess(s *Signals) (Quality, Impact) {
	q := assessQuality(s)
	i, own := assessImpact(s, q)
	switch {
	case q == QualitySecurity && !own && i < ImpactHigh && (anyTop25(s.CWE) || secretScanner(s.Tool)):
		i = ImpactHigh
	case q == QualityMaintainability && (s.Category == CategoryCodeStyle || s.Category == CategoryDocumentation):
		i = min(i, ImpactLow)
	case q == QualityMaintainability:
		i = min(i, ImpactMedium)
	}
	return q, i
}

func assessQuality(s *Signals) Quality {
	voc := vocabulary(s.Tool)
	if s.saysSecurity(voc) {
		return QualitySecurity
	}
	if t := eslintType(s); t != "" {
		return eslintClasses[t].quality
	}
	switch voc {
	case VocabularyCheckstyle:
		if checkstyleReliability[ShortRule(s.Tool, s.Rule)] {
			return QualityReliability
		}
		return QualityMaintainability
	case VocabularySpotBugs:
		for _, p := range spotbugsMaintainabilityPrefixes {
			if strings.HasPrefix(s.Rule, p) {
				return QualityMaintainability
			}
		}
		if q, ok := spotbugsQuality[strings.ToUpper(s.ToolCategory)]; ok {
			return q
		}
	}
	best := QualityMaintainability
	var buf [64]byte
	for _, t := range s.Tags {
		if q, ok := tagQuality[string(appendFoldWord(buf[:0], t))]; ok && q > best {
			best = q
		}
	}
	if q := categoryQuality[s.Category]; q > best {
		best = q
	}
	return best
}

// saysSecurity reports whether the tool says the finding is about
// security: a security category or rule set, a security tag or category
// anywhere among the rule's, a security severity, or a tool that only
// looks for security problems. A CWE id alone does not: dead stores and
// ignored exceptions have CWE ids too.
func (s *Signals) saysSecurity(voc string) bool {
	if s.SecuritySeverity > 0 {
		return true
	}
	if voc == VocabularySpotBugs {
		return strings.EqualFold(s.ToolCategory, "SECURITY")
	}
	if s.Category == CategorySecurity {
		return true
	}
	var buf [64]byte
	for _, t := range s.Tags {
		if tagQuality[string(appendFoldWord(buf[:0], t))] == QualitySecurity {
			return true
		}
	}
	return securityTool(s.Tool)
}

// securityTool reports whether tool only looks for security problems.
func securityTool(tool string) bool {
	var buf [64]byte
	t := appendFoldWord(buf[:0], tool)
	for _, p := range securityToolsFolded {
		if bytes.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// securityToolsFolded are securityTools as foldWord gives them.
var securityToolsFolded = func() [][]byte {
	out := make([][]byte, len(securityTools))
	for i, t := range securityTools {
		out[i] = []byte(foldWord(t))
	}
	return out
}()

// assessImpact is the impact before the floors and caps; own says that it
// is the tool's own word for how grave the finding is.
func assessImpact(s *Signals, q Quality) (i Impact, own bool) {
	if s.SecuritySeverity > 0 {
		for _, b := range securityBands {
			if s.SecuritySeverity >= b.min {
				return b.impact, true
			}
		}
	}
	if s.ToolSeverity.Valid() {
		return s.ToolSeverity, true
	}
	if i := tagSeverity(s.Tags); i.Valid() {
		return i, true
	}
	if strings.EqualFold(s.Tool, "Flawfinder") {
		if i, ok := flawfinderImpact[s.Level]; ok {
			return i, true
		}
	}
	if t := eslintType(s); t != "" && q != QualitySecurity {
		return eslintClasses[t].impact, false
	}
	return assessFamily(s, q), false
}

// assessFamily is the impact a tool's rank, priority or rule family
// gives, else the report's severity.
func assessFamily(s *Signals, q Quality) Impact {
	switch vocabulary(s.Tool) {
	case VocabularySpotBugs:
		if s.Rank > 0 {
			for _, b := range rankBands {
				if s.Rank <= b.max {
					return b.impact
				}
			}
			return ImpactLow
		}
		if i, ok := spotbugsPriorityImpact[s.Priority]; ok {
			return i
		}
	case VocabularyPMD:
		if i, ok := pmdPriorityImpact[s.Priority]; ok {
			return i
		}
	case VocabularyCheckstyle:
		// Checkstyle's severity is its configuration's (sun_checks writes
		// every check as an error): the check's family decides.
		if q == QualityReliability {
			return ImpactMedium
		}
		return ImpactLow
	}
	if i, ok := climateImpact[strings.ToLower(s.ClimateSeverity)]; ok {
		return i
	}
	if i, ok := levelImpact[s.Level]; ok {
		return i
	}
	return ImpactMedium
}

// tagSeverity is the impact a severity word among a rule's tags names
// (Trivy's and gosec's "HIGH"); 0 when none does.
func tagSeverity(tags []string) Impact {
	for _, t := range tags {
		if i, ok := tagSeverityWords[strings.ToLower(strings.TrimSpace(t))]; ok {
			return i
		}
	}
	return 0
}

// SeverityWordImpact is the impact a tool's severity word names
// ("CRITICAL", "high", "moderate"), false for a word of no severity
// ("UNKNOWN") or none of them.
func SeverityWordImpact(word string) (Impact, bool) {
	i, ok := severityWordImpact[strings.ToLower(strings.TrimSpace(word))]
	return i, ok && i.Valid()
}

// isTool reports whether tool is name, compared as securityTool compares.
func isTool(tool, name string) bool {
	var a, b [64]byte
	return bytes.Equal(appendFoldWord(a[:0], tool), appendFoldWord(b[:0], name))
}

// secretScanner reports whether tool looks for secrets.
func secretScanner(tool string) bool {
	for _, t := range secretScanners {
		if isTool(tool, t) {
			return true
		}
	}
	return false
}

// eslintType is ESLint's type of the finding's rule (eslintRuleTypes),
// else the type the report gives as the rule's category or a tag
// ("problem", "suggestion", "layout"); "" for a finding of another tool
// or of a rule of unknown type.
func eslintType(s *Signals) string {
	if !strings.EqualFold(s.Tool, "ESLint") {
		return ""
	}
	rule := s.Rule
	if strings.HasPrefix(rule, "@stylistic/") {
		return eslintLayoutType
	}
	if base, ok := strings.CutPrefix(rule, "@typescript-eslint/"); ok && eslintRuleTypes[base] != "" {
		rule = base // an extension of a core rule
	}
	if t := eslintRuleTypes[rule]; t != "" {
		return t
	}
	if t := eslintWordType(s.ToolCategory); t != "" {
		return t
	}
	for _, w := range s.Tags {
		if t := eslintWordType(w); t != "" {
			return t
		}
	}
	return ""
}

// eslintWordType is the rule type a word names, "" for another word.
func eslintWordType(w string) string {
	for _, t := range []string{eslintProblemType, eslintSuggestionType, eslintLayoutType} {
		if strings.EqualFold(strings.TrimSpace(w), t) {
			return t
		}
	}
	return ""
}

// ESLint's rule types, and "recommended" ones: the rules its recommended
// configuration turns on.
const (
	eslintProblemType               = "problem"
	eslintProblemRecommendedType    = "problem, recommended"
	eslintSuggestionType            = "suggestion"
	eslintSuggestionRecommendedType = "suggestion, recommended"
	eslintLayoutType                = "layout"
)

// eslintRuleTypes are ESLint's core rules by type (eslint_rules.go).
var eslintRuleTypes = func() map[string]string {
	m := map[string]string{}
	for t, rules := range map[string][]string{
		eslintProblemRecommendedType: eslintProblemRecommended, eslintProblemType: eslintProblem,
		eslintSuggestionRecommendedType: eslintSuggestionRecommended, eslintSuggestionType: eslintSuggestion,
		eslintLayoutType: eslintLayout,
	} {
		for _, r := range rules {
			m[r] = t
		}
	}
	return m
}()

func anyTop25(ids []int) bool {
	for _, id := range ids {
		if slices.Contains(cweTop25, id) {
			return true
		}
	}
	return false
}

// The tables of the importance scale, which [ImportanceRows] shows as
// docs/formats.md does ("Importance").
var (
	// securityBands are GitHub code scanning's bands of security-severity.
	securityBands = []struct {
		min    float64
		impact Impact
	}{{9.0, ImpactBlocker}, {7.0, ImpactHigh}, {4.0, ImpactMedium}, {0.1, ImpactLow}}

	// rankBands are SpotBugs' bug rank categories: scariest, scary,
	// troubling, of concern.
	rankBands = []struct {
		max    int
		impact Impact
	}{{4, ImpactBlocker}, {9, ImpactHigh}, {14, ImpactMedium}, {20, ImpactLow}}

	// spotbugsPriorityImpact is FindBugs' priority (its confidence), for
	// reports without a rank (FindBugs before 2.0).
	spotbugsPriorityImpact = map[int]Impact{1: ImpactHigh, 2: ImpactMedium, 3: ImpactLow}

	// pmdPriorityImpact is PMD's rule priority as SonarQube's PMD plugin
	// maps it onto Sonar's severities (blocker, critical, major, minor, info).
	pmdPriorityImpact = map[int]Impact{1: ImpactBlocker, 2: ImpactHigh, 3: ImpactMedium, 4: ImpactLow, 5: ImpactInfo}

	// climateImpact is Code Climate's severity.
	climateImpact = map[string]Impact{"blocker": ImpactBlocker, "critical": ImpactHigh, "major": ImpactMedium, "minor": ImpactLow, "info": ImpactInfo}

	// levelImpact is the report's severity, for a tool that says nothing
	// else of the rule (SpotBugs' SARIF writes ranks 1–9 as error, 10–14
	// as warning, 15–20 as note).
	levelImpact = map[Severity]Impact{SeverityError: ImpactHigh, SeverityWarning: ImpactMedium, SeverityNote: ImpactLow}

	// spotbugsQuality is SpotBugs' bug categories (SECURITY is security).
	// MALICIOUS_CODE is code that trusts its callers (a mutable field
	// exposed): SonarQube files its rule (S2384) under maintainability.
	spotbugsQuality = map[string]Quality{
		"CORRECTNESS": QualityReliability, "MT_CORRECTNESS": QualityReliability, "BAD_PRACTICE": QualityReliability,
		"STYLE": QualityReliability, "PERFORMANCE": QualityMaintainability, "I18N": QualityMaintainability,
		"MALICIOUS_CODE": QualityMaintainability, "EXPERIMENTAL": QualityMaintainability, "NOISE": QualityMaintainability,
	}

	// spotbugsMaintainabilityPrefixes are bug patterns of a reliability
	// category that are about names, not behaviour.
	spotbugsMaintainabilityPrefixes = []string{"NM_"}

	// checkstyleReliability are the Checkstyle checks that find code that
	// misbehaves (wrong equality, lost exceptions, missing cases); every
	// other check (names, white space, Javadoc, sizes, style) is about
	// maintainability, whatever severity the configuration wrote.
	checkstyleReliability = map[string]bool{
		"AvoidDoubleBraceInitialization": true, "CovariantEquals": true, "DefaultComesLast": true,
		"EmptyBlock": true, "EmptyCatchBlock": true, "EmptyStatement": true, "EqualsAvoidNull": true,
		"EqualsHashCode": true, "FallThrough": true, "IllegalCatch": true, "IllegalInstantiation": true,
		"IllegalThrows": true, "InnerAssignment": true, "MissingSwitchDefault": true,
		"ModifiedControlVariable": true, "NoFinalizer": true, "StringLiteralEquality": true,
		"SuperClone": true, "SuperFinalize": true,
	}

	// tagQuality are the words of tags and categories that name a quality
	// (CodeQL's, Semgrep's, Snyk's, Roslyn's).
	tagQuality = map[string]Quality{
		"security": QualitySecurity, "vulnerability": QualitySecurity,
		"correctness": QualityReliability, "reliability": QualityReliability, "bug": QualityReliability,
		"bugrisk": QualityReliability, "concurrency": QualityReliability,
		"maintainability": QualityMaintainability,
	}

	// categoryQuality is the quality of a category of the scale; the
	// others are maintainability.
	categoryQuality = map[string]Quality{
		CategorySecurity: QualitySecurity, CategoryErrorProne: QualityReliability, CategoryMultithreading: QualityReliability,
	}

	// flawfinderImpact is Flawfinder's risk level, which its SARIF writes
	// as the level: 4 and 5 as error, 3 as warning, 0 to 2 as note.
	flawfinderImpact = map[Severity]Impact{SeverityError: ImpactHigh, SeverityWarning: ImpactMedium, SeverityNote: ImpactLow}

	// severityWordImpact are the tools' severity words: CVSS's qualitative
	// ratings (critical, high, medium, low, none), GitHub advisories'
	// moderate, Red Hat's important; unknown and none name no impact.
	severityWordImpact = map[string]Impact{
		"critical": ImpactBlocker, "high": ImpactHigh, "important": ImpactHigh, "medium": ImpactMedium, "moderate": ImpactMedium,
		"low": ImpactLow, "info": ImpactInfo, "informational": ImpactInfo, "negligible": ImpactInfo, "none": 0, "unknown": 0,
	}

	// tagSeverityWords are the severity words a tag may be: Trivy's and
	// gosec's rules carry their severity as a tag ("HIGH").
	tagSeverityWords = map[string]Impact{"critical": ImpactBlocker, "high": ImpactHigh, "medium": ImpactMedium, "low": ImpactLow}

	// eslintClasses are ESLint's rule types on the scale, as PMD's
	// categories and priorities are: a problem is a bug ("a high priority
	// to resolve", high when ESLint's recommended configuration turns the
	// rule on), a suggestion or a layout rule is about maintainability.
	eslintClasses = map[string]importanceClass{
		eslintProblemRecommendedType:    {QualityReliability, ImpactHigh},
		eslintProblemType:               {QualityReliability, ImpactMedium},
		eslintSuggestionRecommendedType: {QualityMaintainability, ImpactMedium},
		eslintSuggestionType:            {QualityMaintainability, ImpactLow},
		eslintLayoutType:                {QualityMaintainability, ImpactLow},
	}

	// secretScanners look for secrets (keys, tokens, passwords) in code
	// and history: a secret they find is at least high.
	secretScanners = []string{"gitleaks", "TruffleHog", "detect-secrets", "ggshield", "Nosey Parker", "Kingfisher", "secretlint"}

	// securityTools only look for security problems: every finding of
	// theirs is about security (names compared ignoring case, spaces, -
	// and _, as prefixes).
	securityTools = []string{
		"Bandit", "Brakeman", "Checkov", "dependency-check", "DevSkim", "Dockle", "Flawfinder",
		"gitleaks", "gosec", "govulncheck", "Grype", "Horusec", "KICS", "Mayhem", "mobsfscan",
		"njsscan", "nodejsscan", "OSV-Scanner", "Security Code Scan", "Snyk", "tfsec", "Trivy", "TruffleHog",
		"detect-secrets", "ggshield", "Nosey Parker", "Kingfisher", "secretlint",
	}

	// cweTop25 is MITRE's 2024 CWE Top 25 Most Dangerous Software Weaknesses.
	cweTop25 = []int{79, 787, 89, 352, 22, 125, 78, 416, 862, 434, 94, 20, 77, 287, 269, 502, 200, 863, 918, 119, 476, 798, 190, 400, 306}
)

// importanceClass is a quality and an impact.
type importanceClass struct {
	quality Quality
	impact  Impact
}

// ImportanceRow is one row of the importance table as docs/formats.md
// shows it: what a tool says, and the quality or impact it gives.
type ImportanceRow struct {
	Tool, Says, Quality, Impact string
}

// ImportanceRows is the importance table, made from the tables [Assess]
// reads, in the order it applies them; docs/formats.md shows the same rows
// (a test keeps the two equal).
func ImportanceRows() []ImportanceRow {
	var rows []ImportanceRow
	add := func(tool, says string, q Quality, i Impact) {
		r := ImportanceRow{Tool: tool, Says: says}
		if q.Valid() {
			r.Quality = q.String()
		}
		if i.Valid() {
			r.Impact = i.String()
		}
		rows = append(rows, r)
	}
	for j := len(securityBands) - 1; j >= 0; j-- {
		b := securityBands[j]
		says := fmt.Sprintf("`security-severity` %.1f–%.1f", b.min, hi(securityBands, j))
		if j == 0 {
			says = fmt.Sprintf("`security-severity` ≥ %.1f", b.min)
		}
		add("any", says, QualitySecurity, b.impact)
	}
	add("any", "no `security-severity`: the rule's CVSS v3 base score (`cvssv3_baseScore`), in the bands above", QualitySecurity, 0)
	for _, w := range []string{"critical", "high", "important", "medium", "moderate", "low", "info", "informational", "negligible"} {
		add("any", "no score: the tool's severity word `"+w+"` (a property `severity`, `cvssv3_baseSeverity` or `cvssv2_severity`"+
			map[bool]string{true: ", or a tag", false: ""}[tagSeverityWords[w] != 0]+")", 0, severityWordImpact[w])
	}
	for _, l := range []struct {
		sev    Severity
		levels string
	}{{SeverityError, "4–5"}, {SeverityWarning, "3"}, {SeverityNote, "0–2"}} {
		add("Flawfinder", fmt.Sprintf("risk level %s (its SARIF's `%s`)", l.levels, l.sev), 0, flawfinderImpact[l.sev])
	}
	add("SpotBugs", "category `SECURITY` (find-sec-bugs too)", QualitySecurity, 0)
	add("any", "category `Security` on the scale (PMD's security rules, Roslyn's, Code Climate's)", QualitySecurity, 0)
	add("any", "a tag or category (`properties.tags`, `properties.categories`) `security` or `vulnerability`, anywhere in the list", QualitySecurity, 0)
	add("any", "a tool that only looks for security problems: "+strings.Join(securityTools, ", "), QualitySecurity, 0)
	prev := 0
	for _, b := range rankBands {
		add("SpotBugs", fmt.Sprintf("bug rank %d–%d", prev+1, b.max), 0, b.impact)
		prev = b.max
	}
	for _, p := range []int{1, 2, 3} {
		add("SpotBugs", fmt.Sprintf("no rank (FindBugs before 2.0): priority %d", p), 0, spotbugsPriorityImpact[p])
	}
	for _, p := range []string{"NM_"} {
		add("SpotBugs", "bug patterns `"+p+"*` (names)", QualityMaintainability, 0)
	}
	for _, c := range sortedKeys(spotbugsQuality) {
		add("SpotBugs", "category `"+c+"`", spotbugsQuality[c], 0)
	}
	for _, p := range []int{1, 2, 3, 4, 5} {
		add("PMD", fmt.Sprintf("priority %d", p), 0, pmdPriorityImpact[p])
	}
	add("Checkstyle", "checks "+strings.Join(sortedKeys(checkstyleReliability), ", "), QualityReliability, ImpactMedium)
	add("Checkstyle", "every other check", QualityMaintainability, ImpactLow)
	for _, e := range []struct {
		typ, says string
		rules     []string
	}{
		{eslintProblemRecommendedType, "`problem` rules its recommended configuration turns on: ", eslintProblemRecommended},
		{eslintProblemType, "other `problem` rules: ", eslintProblem},
		{eslintSuggestionRecommendedType, "`suggestion` rules its recommended configuration turns on: ", eslintSuggestionRecommended},
		{eslintSuggestionType, fmt.Sprintf("the %d other `suggestion` rules of its documentation (`no-var`, `eqeqeq`, `camelcase`…)", len(eslintSuggestion)), nil},
		{eslintLayoutType, fmt.Sprintf("the %d `layout` rules of its documentation (`indent`, `semi`…), and `@stylistic/*`", len(eslintLayout)), nil},
	} {
		add("ESLint", e.says+strings.Join(e.rules, ", "), eslintClasses[e.typ].quality, eslintClasses[e.typ].impact)
	}
	add("ESLint", "`@typescript-eslint/X` extending a core rule `X`: as `X`; a rule of none of these: its type as the report gives it (a category or tag `problem`, `suggestion`, `layout`), as above", 0, 0)
	for _, w := range []string{"blocker", "critical", "major", "minor", "info"} {
		add("Code Climate", "severity `"+w+"`", 0, climateImpact[w])
	}
	for _, t := range sortedKeys(tagQuality) {
		if tagQuality[t] != QualitySecurity {
			add("any", "a tag `"+t+"`", tagQuality[t], 0)
		}
	}
	for _, c := range []string{CategoryErrorProne, CategoryMultithreading} {
		add("any", "category `"+c+"` on the scale", categoryQuality[c], 0)
	}
	add("any", "anything else", QualityMaintainability, 0)
	for _, s := range Severities {
		add("any", "nothing of the above: the report's severity `"+s.String()+"`", 0, levelImpact[s])
	}
	add("any", "nothing at all", 0, ImpactMedium)
	top := make([]string, len(cweTop25))
	for i, id := range cweTop25 {
		top[i] = strconv.Itoa(id)
	}
	rows = append(rows,
		ImportanceRow{Tool: "any", Says: "about security, with a CWE of MITRE's 2024 Top 25 (CWE-" + strings.Join(top, ", ") + "), and no score, severity word or risk level of its tool", Impact: "at least " + ImpactHigh.String()},
		ImportanceRow{Tool: "any", Says: "a secret a secret scanner found (" + strings.Join(secretScanners, ", ") + "), and no severity word of its tool", Impact: "at least " + ImpactHigh.String()},
		ImportanceRow{Tool: "any", Says: "about maintainability, in `Code Style` or `Documentation`", Impact: "at most " + ImpactLow.String()},
		ImportanceRow{Tool: "any", Says: "about maintainability, in another category", Impact: "at most " + ImpactMedium.String()})
	return rows
}

// hi is the upper end of security band j: just under the band above it.
func hi(bands []struct {
	min    float64
	impact Impact
}, j int) float64 {
	if j == 0 {
		return 10
	}
	return bands[j-1].min - 0.1
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
