package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/recap-dev/recap/internal/english"
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
// with the totals that says how many were not annotated. As a [Selector] it
// is given the first findings of each severity.
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
		if room[f.Severity] == 0 {
			continue
		}
		room[f.Severity]--
		shown[f.Severity]++
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
	return fmt.Sprintf("::%s %s::%s\n", ghLevel(f.Severity), strings.Join(props, ","), ghData(OneLine(f.Message)))
}

// ghNotice is the closing notice: the totals, and what was not annotated.
func ghNotice(v *summarize.View, shown map[reports.Severity]int) string {
	s := v.Summary
	msg := fmt.Sprintf("%s in %s: %d error, %d warning, %d note", english.Plural(s.Total, "finding", "findings"),
		s.FilesText(), s.BySeverity.Error, s.BySeverity.Warning, s.BySeverity.Note)
	if b := s.Baseline; b != nil {
		msg += fmt.Sprintf("; against the baseline %d new, %d unchanged, %d fixed", b.New, b.Unchanged, b.Fixed)
	}
	if n := Suppressed(v); n > 0 {
		msg += fmt.Sprintf("; %s suppressed in the reports, not counted", english.Plural(n, "result", "results"))
	}
	if n := shown[reports.SeverityError] + shown[reports.SeverityWarning] + shown[reports.SeverityNote]; v.Page != nil && n < s.Total {
		msg += fmt.Sprintf(". Annotated: the first %d (GitHub shows %d per level and step); the job summary (--format markdown) lists more",
			n, AnnotationsPerLevel)
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
// each level.
func (GitHub) PerSeverity() int { return AnnotationsPerLevel }
