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
	// SecuritySeverity is SARIF's security-severity, 0.1 to 10.0.
	SecuritySeverity float64
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
// families; the impact comes from a security severity, a bug rank, a
// priority, a rule family, and only for a tool that says nothing else
// from the report's severity. A security finding of a weakness of MITRE's
// CWE Top 25 is at least high; a maintainability finding is at most
// medium, and at most low in Code Style and Documentation, so that no
// configurable style "error" outranks a bug.
func Assess(s *Signals) (Quality, Impact) {
	q := assessQuality(s)
	i := assessImpact(s, q)
	switch {
	case q == QualitySecurity && i < ImpactHigh && anyTop25(s.CWE):
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

func assessImpact(s *Signals, q Quality) Impact {
	if s.SecuritySeverity > 0 {
		for _, b := range securityBands {
			if s.SecuritySeverity >= b.min {
				return b.impact
			}
		}
	}
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

	// securityTools only look for security problems: every finding of
	// theirs is about security (names compared ignoring case, spaces, -
	// and _, as prefixes).
	securityTools = []string{
		"Bandit", "Brakeman", "Checkov", "dependency-check", "DevSkim", "Dockle", "Flawfinder",
		"gitleaks", "gosec", "govulncheck", "Grype", "Horusec", "KICS", "Mayhem", "mobsfscan",
		"njsscan", "nodejsscan", "OSV-Scanner", "Security Code Scan", "Snyk", "tfsec", "Trivy", "TruffleHog",
	}

	// cweTop25 is MITRE's 2024 CWE Top 25 Most Dangerous Software Weaknesses.
	cweTop25 = []int{79, 787, 89, 352, 22, 125, 78, 416, 862, 434, 94, 20, 77, 287, 269, 502, 200, 863, 918, 119, 476, 798, 190, 400, 306}
)

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
		ImportanceRow{Tool: "any", Says: "about security, with a CWE of MITRE's 2024 Top 25 (CWE-" + strings.Join(top, ", ") + ")", Impact: "at least " + ImpactHigh.String()},
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
