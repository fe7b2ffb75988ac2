package render

// What the HTML page held of a finding's detail as recap wrote it through
// encoding/json, the reference appendDetail is compared with.

import (
	"encoding/json"
	"strings"

	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// refValue is a string as a detail holds it: nil for "", its index, or the
// string past the bounds.
func (s *HTMLStream) refValue(str string) any {
	if str == "" {
		return nil
	}
	if i, ok := s.index(str); ok {
		return i
	}
	return str
}

// htmlDetail is what the page shows of a finding when it is opened,
// beyond its row.
type htmlDetail struct {
	Context     [][2]any     `json:"c,omitempty"`
	ContextNote any          `json:"cn,omitempty"` // refValue's
	ToolCat     any          `json:"tc,omitempty"`
	HelpURI     any          `json:"h,omitempty"`
	CWE         []int        `json:"cwe,omitempty"`
	Fix         string       `json:"fx,omitempty"`
	FixText     string       `json:"fd,omitempty"`
	FixNotes    []string     `json:"fn,omitempty"`
	Flows       []htmlFlow   `json:"fl,omitempty"`
	Related     []htmlPlace  `json:"rl,omitempty"`
	Locations   []htmlPlace  `json:"lo,omitempty"`
	Logical     []string     `json:"lg,omitempty"`
	Also        [][3]string  `json:"al,omitempty"`
	Suppressed  []string     `json:"sp,omitempty"`
	Counts      *htmlCounted `json:"n,omitempty"`
}

// htmlCounted is what the report gave beyond what the detail keeps.
type htmlCounted struct {
	FlowSteps int `json:"fs,omitempty"`
	Related   int `json:"rl,omitempty"`
}

type htmlFlow struct {
	Message string      `json:"m,omitempty"`
	Steps   []htmlPlace `json:"s"`
}

// htmlPlace is [path, line, message].
type htmlPlace [3]any

func places(ls []reports.Location) []htmlPlace {
	out := make([]htmlPlace, len(ls))
	for i, l := range ls {
		out[i] = htmlPlace{l.Path, l.Line, l.Message}
	}
	return out
}

// detail encodes what the finding says beyond its row; nil when nothing.
func (s *HTMLStream) detail(fv *summarize.FindingView) ([]byte, error) {
	f := &fv.Finding
	var d htmlDetail
	for _, c := range fv.Context {
		d.Context = append(d.Context, [2]any{c.Line, c.Text})
	}
	if note := fv.ContextNote; !(s.src == nil && strings.HasPrefix(note, "no context: ")) { // else the page says the source was not at hand
		d.ContextNote = s.refValue(note)
	}
	if f.ToolCategory != "" && f.ToolCategory != f.Category {
		d.ToolCat = s.refValue(f.ToolCategory)
	}
	d.HelpURI = s.refValue(f.HelpURI)
	d.CWE = f.CWE
	for _, a := range fv.AlsoReportedBy {
		d.Also = append(d.Also, [3]string{a.Tool, a.Rule, a.ID.String()})
	}
	if det := f.Detail; det != nil {
		if det.Fix != nil {
			d.FixText = det.Fix.Description
			if len(det.Fix.Replacements) > 0 {
				src := s.src
				if src == nil {
					src = noSource{}
				}
				d.Fix, d.FixNotes = summarize.FixDiff(det.Fix, src)
			}
		}
		for _, fl := range det.Flows {
			d.Flows = append(d.Flows, htmlFlow{Message: fl.Message, Steps: places(fl.Steps)})
		}
		if len(det.Related) > 0 {
			d.Related = places(det.Related)
		}
		if len(det.Locations) > 0 {
			d.Locations = places(det.Locations)
		}
		for _, l := range det.Logical {
			name := l.FullyQualifiedName
			if name == "" {
				name = l.Name
			}
			if name != "" {
				d.Logical = append(d.Logical, name)
			}
		}
		for _, sp := range det.Suppressions {
			d.Suppressed = append(d.Suppressed, strings.TrimSpace(sp.Kind+" "+sp.Status+" "+sp.Justification))
		}
		if int(f.FlowSteps) > det.FlowSteps() || int(f.Related) > len(det.Related) {
			d.Counts = &htmlCounted{FlowSteps: int(f.FlowSteps), Related: int(f.Related)}
		}
	}
	if d.isZero() {
		return nil, nil
	}
	return json.Marshal(&d) // escapes <, >, &, U+2028 and U+2029
}

func (d *htmlDetail) isZero() bool {
	return d.Context == nil && d.ContextNote == nil && d.ToolCat == nil && d.HelpURI == nil && d.CWE == nil &&
		d.Fix == "" && d.FixText == "" && d.FixNotes == nil && d.Flows == nil && d.Related == nil &&
		d.Locations == nil && d.Logical == nil && d.Also == nil && d.Suppressed == nil && d.Counts == nil
}
