package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// GitHub's annotation limits: a step shows at most 10 annotations of each
// level (error, warning, notice); more are dropped by GitHub.
const AnnotationsPerLevel = 10

// GitHub writes GitHub Actions workflow commands: an ::error for each input
// that could not be read, then one annotation per finding, most severe first
// and at most [AnnotationsPerLevel] of each level (the inputs' errors count
// among the errors, the closing notice among the notices), then a ::notice
// with the totals that says how many were not annotated. A finding's level
// is its impact's ([reports.ImpactLevel]), the tool's severity only for a
// finding without one. As a [Selector] it is given the first findings of
// each level.
type GitHub struct{}

// Render implements [Renderer].
func (GitHub) Render(w io.Writer, v *summarize.View) error {
	ew := &errWriter{w: w}
	room := map[reports.Severity]int{
		reports.SeverityError:   AnnotationsPerLevel,
		reports.SeverityWarning: AnnotationsPerLevel,
		reports.SeverityNote:    AnnotationsPerLevel - 1, // the closing notice is one
	}
	for _, in := range v.Inputs {
		if in.Error != "" && room[reports.SeverityError] > 0 {
			room[reports.SeverityError]--
			ew.printf("::error title=%s::%s\n", ghProperty("recap: cannot read "+in.Path), ghData(in.Error))
		}
	}
	shown := map[reports.Severity]int{}
	for i := range v.Findings {
		f := &v.Findings[i]
		level := f.Level()
		if room[level] == 0 || f.Triage.Suppressed() { // triaged: no annotation
			continue
		}
		room[level]--
		shown[level]++
		ew.printf("%s", ghAnnotation(f))
	}
	ew.printf("%s", ghNotice(v, shown))
	return ew.err
}

// ghAnnotation is one finding as a workflow command.
func ghAnnotation(f *summarize.FindingView) string {
	var props []string
	if f.Path != "" {
		props = append(props, "file="+ghProperty(f.Path))
		if f.Line > 0 {
			props = append(props, "line="+strconv.Itoa(f.Line))
			if f.EndLine > f.Line {
				props = append(props, "endLine="+strconv.Itoa(f.EndLine))
			}
			if f.Column > 0 {
				props = append(props, "col="+strconv.Itoa(f.Column))
				if f.EndColumn >= f.Column && f.EndLine <= f.Line {
					props = append(props, "endColumn="+strconv.Itoa(f.EndColumn))
				}
			}
		}
	}
	title := PlainText(f.Tool + " " + DisplayRule(f.Rule, f.RuleName))
	if f.Baseline == reports.BaselineNew {
		title += " (new)"
	}
	props = append(props, "title="+ghProperty(title))
	// A message's line breaks are folded: an annotation is a line of a log.
	msg := text.CutBytes(OneLine(f.Message), MaxAnnotationMessage)
	if also := AlsoReportedBy(f.AlsoReportedBy); also != "" {
		msg += " (" + also + ")"
	}
	if f.Triage != nil {
		msg += " (" + TriageNote(f.Triage) + ")"
	}
	return fmt.Sprintf("::%s %s::%s\n", ghLevel(f.Level()), strings.Join(props, ","), ghData(msg))
}

// MaxAnnotationMessage bounds the text of a finding's message an
// annotation carries (GitHub takes 64 KB for a check run's annotation and
// folds a longer workflow command's message); the note that names the
// other tools of the problem comes after it, bounded too ([AlsoReportedBy]).
const MaxAnnotationMessage = 4000

// The most other findings of a problem an annotation or a comment names,
// and the most characters of each name: a problem that dozens of rules
// report says how many more.
const (
	maxAlsoNamed   = 8
	maxAlsoNameLen = 120
)

// AlsoReportedBy is the note that names the other findings of a problem
// (docs/formats.md, "Duplicates") in plain text: "also reported by PMD
// MethodArgumentCouldBeFinal, SpotBugs DM_CONVERT_CASE"; at most
// maxAlsoNamed of them, then "and 3 more"; "" when none. Its length is
// bounded (about 1 KB).
func AlsoReportedBy(also []reports.Also) string {
	if len(also) == 0 {
		return ""
	}
	return "also reported by " + alsoNames(also, func(tool, rule string) string { return PlainText(strings.TrimSpace(tool + " " + rule)) })
}

// alsoNames names the other findings (each by name), at most
// maxAlsoNamed, then how many more.
func alsoNames(also []reports.Also, name func(tool, rule string) string) string {
	n := min(len(also), maxAlsoNamed)
	parts := make([]string, 0, n+1)
	for _, a := range also[:n] {
		parts = append(parts, name(text.CutBytes(a.Tool, maxAlsoNameLen), text.CutBytes(a.Rule, maxAlsoNameLen)))
	}
	s := strings.Join(parts, ", ")
	if more := len(also) - n; more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

// AlsoMarkdown is [AlsoReportedBy] in Markdown, every name inert, each
// rule as code: "Also reported by PMD <code>MethodArgumentCouldBeFinal</code>, …";
// "" when none.
func AlsoMarkdown(also []reports.Also) string {
	if len(also) == 0 {
		return ""
	}
	return "Also reported by " + alsoNames(also, func(tool, rule string) string {
		if rule == "" {
			return MarkdownText(tool)
		}
		return MarkdownText(tool) + " <code>" + MarkdownText(rule) + "</code>"
	})
}

// ProblemCounts are the counts of the problems of a summary: the findings
// less the duplicates (docs/formats.md, "Duplicates"), by severity and by
// impact; the findings' when none repeats another's.
func ProblemCounts(s *summarize.Summary) (problems int, bySeverity summarize.SeverityCounts, byImpact summarize.ImpactCounts) {
	problems, bySeverity, byImpact = s.Total, s.BySeverity, s.ByImpact
	d := s.Duplicates
	if d == nil || d.Findings == 0 {
		return
	}
	problems = max(s.Problems, 0)
	bySeverity.Error = max(bySeverity.Error-d.BySeverity.Error, 0)
	bySeverity.Warning = max(bySeverity.Warning-d.BySeverity.Warning, 0)
	bySeverity.Note = max(bySeverity.Note-d.BySeverity.Note, 0)
	byImpact.Blocker = max(byImpact.Blocker-d.ByImpact.Blocker, 0)
	byImpact.High = max(byImpact.High-d.ByImpact.High, 0)
	byImpact.Medium = max(byImpact.Medium-d.ByImpact.Medium, 0)
	byImpact.Low = max(byImpact.Low-d.ByImpact.Low, 0)
	byImpact.Info = max(byImpact.Info-d.ByImpact.Info, 0)
	return
}

// ProblemLevels counts the problems of a summary by their levels on the
// hosts (their impact's, [reports.Finding.Level]): the findings' less the
// duplicates' (duplicates without impacts by their severities, the
// level of a finding without one).
func ProblemLevels(s *summarize.Summary) summarize.SeverityCounts {
	l := s.ByLevel
	if d := s.Duplicates; d != nil && d.Findings > 0 {
		dl := d.ByImpact.Levels()
		if d.ByImpact.Total() == 0 {
			dl = d.BySeverity
		}
		l.Error, l.Warning, l.Note = max(l.Error-dl.Error, 0), max(l.Warning-dl.Warning, 0), max(l.Note-dl.Note, 0)
	}
	return l
}

// NewProblemsNote says how many problems are new against the baseline
// when that is not the new findings' count: " (17 new problems)"; ""
// otherwise.
func NewProblemsNote(b *summarize.BaselineCounts) string { return newProblemsNote(b) }

// ProblemsNote is what a headline of findings says of their problems when
// some repeat another's: "118 problems, 41 reported by more than one
// tool"; "" when none does.
func ProblemsNote(s *summarize.Summary) string {
	d := s.Duplicates
	if d == nil || d.Findings == 0 {
		return ""
	}
	return fmt.Sprintf("%s, %d reported more than once", english.Plural(s.Problems, "problem", "problems"), d.Problems)
}

// ghNotice is the closing notice: the totals, and what was not annotated.
func ghNotice(v *summarize.View, shown map[reports.Severity]int) string {
	s := v.Summary
	msg := english.Plural(s.Total, "finding", "findings")
	if note := ProblemsNote(&s); note != "" {
		msg += " (" + note + ")"
	}
	// The levels annotated, the impact's: a problem's, annotated once
	// (the findings' when none repeats another's).
	levels := ProblemLevels(&s)
	msg += fmt.Sprintf(" in %s, annotated as %d error, %d warning, %d note", s.FilesText(), levels.Error, levels.Warning, levels.Note)
	if b := s.Baseline; b != nil {
		msg += fmt.Sprintf("; against the baseline %d new%s, %d unchanged, %d fixed", b.New, newProblemsNote(b), b.Unchanged, b.Fixed)
	}
	if n := Suppressed(v); n > 0 {
		msg += fmt.Sprintf("; %s suppressed in the reports, not counted", english.Plural(n, "result", "results"))
	}
	if s.Excluded > 0 {
		msg += fmt.Sprintf("; %s excluded by the configuration, not counted", english.Plural(s.Excluded, "finding", "findings"))
	}
	if t := TriagedLine(s.Triaged); t != "" {
		msg += "; " + t
	}
	if s.Duplicates != nil && s.Duplicates.Findings > 0 {
		msg += "; each problem annotated once, naming the other tools that reported it"
	}
	problems, _, _ := ProblemCounts(&s)
	triaged := 0 // shown (--triaged include or only), never annotated
	if t := s.Triaged; t != nil && t.Shown {
		triaged = t.Problems
	}
	if n := shown[reports.SeverityError] + shown[reports.SeverityWarning] + shown[reports.SeverityNote]; v.Page != nil && n < problems-triaged {
		msg += fmt.Sprintf(". Annotated: the first %d (GitHub shows %d per level and step); the run's job summary and the SARIF artifact list the others",
			n, AnnotationsPerLevel)
	}
	if triaged > 0 {
		msg += fmt.Sprintf(". The %s not annotated", english.Plural(triaged, "triaged problem is", "triaged problems are"))
	}
	return fmt.Sprintf("::notice title=recap::%s.\n", ghData(msg))
}

func ghLevel(s reports.Severity) string {
	switch s {
	case reports.SeverityError:
		return "error"
	case reports.SeverityWarning:
		return "warning"
	}
	return "notice"
}

// ghData escapes a workflow command's message as GitHub's toolkit does
// (escapeData in @actions/core's command.ts), after taking out the control
// characters that are not line breaks (an escape sequence would colour
// the log).
func ghData(s string) string { return ghDataEsc.Replace(ghClean(s)) }

// ghProperty escapes a workflow command's property value (escapeProperty).
func ghProperty(s string) string { return ghPropertyEsc.Replace(ghClean(s)) }

var (
	ghDataEsc     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghPropertyEsc = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// ghClean drops control characters but line breaks, which are escaped.
func ghClean(s string) string {
	return strings.Map(func(r rune) rune {
		if r != '\n' && r != '\r' && isControl(r) {
			return -1
		}
		return r
	}, s)
}

// PerSeverity implements [Selector]: GitHub shows [AnnotationsPerLevel] of
// each level, and Render writes that many; it asks for more of each
// (selectSlack times as many), so that the findings that repeat another's
// problem (left out of the view, docs/formats.md "Duplicates") do not take
// the places of the problems that follow them.
func (GitHub) PerSeverity() int { return AnnotationsPerLevel * selectSlack }

// selectSlack is how many times GitHub's annotations per level a selection
// keeps of each severity.
const selectSlack = 5
