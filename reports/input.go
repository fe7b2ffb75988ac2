package reports

import (
	"encoding/binary"
	"hash/maphash"
	"strings"
)

// An Input is what recap learned about one input file: its detected format,
// the producing tool, how many findings it gave, and what went wrong.
// A parser that fails still returns the Input it filled so far.
type Input struct {
	// Path names the input as the user gave it ("-" for standard input).
	Path        string `json:"path"`
	Format      string `json:"format"`
	Tool        string `json:"tool"`
	ToolVersion string `json:"toolVersion,omitempty"`
	// Findings counts the findings emitted, after suppressed ones are left out.
	Findings int `json:"findings"`
	// Suppressed counts results the report marks as suppressed (SARIF
	// suppressions, PMD suppressedviolation); they are not findings.
	Suppressed int `json:"suppressed,omitempty"`
	// Kinds counts the results whose kind is not fail (SARIF §3.27.9:
	// pass, review, open, informational, notApplicable), by kind; they
	// are not findings.
	Kinds map[string]int `json:"kinds,omitempty"`
	// Error is the reason the input could not be read completely, "" if none.
	Error string `json:"error"`
	// Warnings are one-line notes: failed tool executions, paths that could not
	// be placed in the repository, processing errors the tool reported.
	Warnings []string `json:"warnings,omitempty"`
	// NotAnalysed are the files the tool reports it could not analyse (PMD's
	// processing errors: a file it could not parse), placed in the
	// repository, at most [MaxNotAnalysed]: their findings are missing, not
	// absent.
	NotAnalysed []NotAnalysed `json:"notAnalysed,omitempty"`
	// Rules is what the report says of its rules, once per rule (nil:
	// nothing); views look a finding's rule up there ([RuleOf]).
	Rules *Rules `json:"-"`
	// Run digests the findings, when the reader was asked to
	// (parsers.ReadOptions.Runs): nil otherwise.
	Run *Run `json:"-"`
	// LeftOut marks an output of recap that a search for reports found
	// and did not read (its Warnings say which): listed, not counted as
	// an input read ([CountRead]).
	LeftOut bool `json:"leftOut,omitempty"`
}

// CountRead counts the inputs read: those a search left out as recap's own
// outputs are listed but not read.
func CountRead(inputs []Input) int {
	n := 0
	for i := range inputs {
		if !inputs[i].LeftOut {
			n++
		}
	}
	return n
}

// NotAnalysed is a file a tool could not analyse, and the tool's reason.
type NotAnalysed struct {
	Path   string `json:"path"`
	Reason string `json:"reason,omitempty"`
}

// MaxNotAnalysed bounds the files an input names as not analysed.
const MaxNotAnalysed = 1000

// NoteNotAnalysed adds a file the tool could not analyse, each path once,
// at most [MaxNotAnalysed].
func (in *Input) NoteNotAnalysed(path, reason string) {
	if path == "" || len(in.NotAnalysed) >= MaxNotAnalysed {
		return
	}
	for _, n := range in.NotAnalysed {
		if n.Path == path {
			return
		}
	}
	in.NotAnalysed = append(in.NotAnalysed, NotAnalysed{Path: path, Reason: reason})
}

// MaxWarnings bounds the warnings kept on one input, so that a report with a
// warning per result cannot flood a view; the last one says how many were cut.
const MaxWarnings = 20

// Warn adds a one-line warning, keeping at most [MaxWarnings] and each
// distinct message once.
func (in *Input) Warn(msg string) {
	for _, w := range in.Warnings {
		if w == msg {
			return
		}
	}
	switch {
	case len(in.Warnings) < MaxWarnings-1:
		in.Warnings = append(in.Warnings, msg)
	case len(in.Warnings) == MaxWarnings-1:
		in.Warnings = append(in.Warnings, "further warnings left out")
	}
}

// Run digests the findings of one report, so that one tool's run given in
// two formats (PMD's XML and its SARIF) can be told: two reports whose
// findings are alike in all that both formats carry of them, in any order,
// have equal Runs. What is compared of each finding: its tool, its path
// (as the reader placed it in the repository, whole), its line, its rule
// (by short name), its message (white space around it, and the " (rule)"
// ESLint's Checkstyle formatter adds, left out) and its severity. Columns,
// end lines, rule texts and recap's importance are not: formats differ in
// them for one finding (Checkstyle XML has no end line).
type Run struct {
	Findings int
	// Raise is set by a reader whose format writes severities one step
	// below the tool's own (GitLab Code Quality: ESLint's formatter writes
	// major for an error, minor for a warning, which recap reads as warning
	// and note): its findings are digested one step up, as the tool said.
	Raise bool
	sum   [2]uint64 // two sums of the findings' hashes: equal for the same findings in any order
}

// runSeed is the seed of the findings' hashes: Runs compare within a process.
var runSeed = maphash.MakeSeed()

// Add digests one finding.
func (r *Run) Add(f *Finding) {
	var h maphash.Hash
	h.SetSeed(runSeed)
	var n [4]byte
	field := func(s string) { // its length first: no two lists of fields digest alike
		binary.LittleEndian.PutUint32(n[:], uint32(len(s)))
		h.Write(n[:])
		h.WriteString(s)
	}
	binary.LittleEndian.PutUint32(n[:], uint32(len(f.Tool)))
	h.Write(n[:])
	for i := 0; i < len(f.Tool); i++ {
		c := f.Tool[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		h.WriteByte(c)
	}
	field(f.Path)
	binary.LittleEndian.PutUint32(n[:], uint32(f.Line))
	h.Write(n[:])
	field(ShortRule(f.Tool, f.Rule))
	field(runMessage(f))
	sev := f.Severity
	if r.Raise && sev < SeverityError {
		sev++
	}
	h.WriteByte(byte(sev))
	x := h.Sum64()
	r.Findings++
	r.sum[0] += x
	// A second, mixed sum: two different sets of findings with one sum
	// of hashes do not also share the sum of their mixes.
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	r.sum[1] += x
}

// runMessage is a finding's message as Runs compare it: without the white
// space around it, nor the " (rule)" that ESLint's Checkstyle formatter
// adds to each message.
func runMessage(f *Finding) string {
	m := strings.TrimSpace(f.Message)
	if f.Rule != "" && strings.HasSuffix(m, ")") {
		if s, ok := strings.CutSuffix(m, " ("+f.Rule+")"); ok {
			m = strings.TrimSpace(s)
		}
	}
	return m
}

// Equal reports whether two Runs digest the same findings, or are both nil.
func (r *Run) Equal(o *Run) bool {
	if r == nil || o == nil {
		return r == o
	}
	return r.Findings == o.Findings && r.sum == o.sum
}

// Same reports whether two Runs digest the same findings (at least one).
func (r *Run) Same(o *Run) bool {
	return r != nil && o != nil && r.Findings > 0 && r.Findings == o.Findings && r.sum == o.sum
}

// SameFilesNote is in the warning of an input whose findings name files
// that another report of its tool names too (parsers.WarnSameFiles): both
// are read, and a finding both give counts twice.
const SameFilesNote = " on the same files too ("

// SameFiles counts the inputs warned of another report of their tool on
// the same files ([SameFilesNote]).
func SameFiles(inputs []Input) int {
	n := 0
	for _, in := range inputs {
		for _, w := range in.Warnings {
			if strings.Contains(w, SameFilesNote) {
				n++
				break
			}
		}
	}
	return n
}
