package render

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/tooltest"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// groupedFindings are the leads of groupedView as the pipeline streams
// them: the other findings of each problem in the detail's Also.
func groupedFindings() []reports.Finding {
	v := groupedView()
	var out []reports.Finding
	for i := range v.Findings {
		out = append(out, *leadFinding(&v.Findings[i]))
	}
	return out
}

// TestSARIFAlsoReportedBy: recap's SARIF of a grouped view and of a
// grouped stream writes one result per problem, the others named in the
// result's properties (alsoReportedBy: tool, rule and id of each, most
// important first); the SARIF Multitool finds nothing against the SARIF
// rules or GitHub's in it; recap reads it back, result by result, message
// and place unchanged (the others are not findings of the log).
func TestSARIFAlsoReportedBy(t *testing.T) {
	v := groupedView()
	var page bytes.Buffer
	if err := (SARIF{}).Render(&page, v); err != nil {
		t.Fatal(err)
	}
	st := NewSARIFStream()
	defer st.Close()
	leads := groupedFindings()
	for i := range leads {
		if err := st.Add(&leads[i]); err != nil {
			t.Fatal(err)
		}
	}
	var stream bytes.Buffer
	if err := st.Write(&stream, v); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var files []string
	for name, b := range map[string][]byte{"page.sarif": page.Bytes(), "stream.sarif": stream.Bytes()} {
		var log struct {
			Runs []struct {
				Results []struct {
					Properties struct {
						Also []reports.Also `json:"alsoReportedBy"`
					} `json:"properties"`
					Message struct{ Text string } `json:"message"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(b, &log); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		byMessage := map[string][]reports.Also{}
		results := 0
		for _, r := range log.Runs {
			for _, res := range r.Results {
				results++
				byMessage[res.Message.Text] = res.Properties.Also
			}
		}
		if results != 3 {
			t.Errorf("%s: %d results, want 3 (one per problem)", name, results)
		}
		for _, f := range v.Findings {
			if got := byMessage[f.Message]; !slices.Equal(got, f.AlsoReportedBy) {
				t.Errorf("%s: %q: alsoReportedBy %v, want %v", name, f.Message, got, f.AlsoReportedBy)
			}
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
		var back []reports.Finding
		inputs, err := parsers.ReadAll([]string{p}, parsers.ReadOptions{}, func(f reports.Finding) error {
			back = append(back, f)
			return nil
		})
		if err != nil || len(inputs) != 1 || inputs[0].Error != "" {
			t.Fatalf("%s read back: %v %+v", name, err, inputs)
		}
		if len(back) != 3 {
			t.Fatalf("%s read back: %d findings, want 3", name, len(back))
		}
		for _, f := range back {
			want := v.Findings[slices.IndexFunc(v.Findings, func(w summarize.FindingView) bool { return w.Message == f.Message })]
			if f.Tool != want.Tool || f.Path != want.Path || f.Line != want.Line || f.Severity != want.Severity {
				t.Errorf("%s read back %+v, want %+v", name, f, want.Finding)
			}
		}
	}
	if testing.Short() {
		return
	}
	if errs := tooltest.ValidateSARIF(t, files...); len(errs) > 0 {
		t.Errorf("Sarif.Multitool validate: %d results, first:\n%s", len(errs), strings.Join(errs[:min(len(errs), 10)], "\n"))
	}
}

// TestCodeClimateAlsoReportedBy: one Code Quality issue per problem, its
// description naming the others (inert for GitLab), fingerprints unique
// and the same as without the note (the note does not change an issue's
// identity from run to run).
func TestCodeClimateAlsoReportedBy(t *testing.T) {
	leads := groupedFindings()
	issues := func(fs []reports.Finding) []map[string]any {
		st := NewCodeClimateStream()
		defer st.Close()
		for i := range fs {
			if err := st.Add(&fs[i]); err != nil {
				t.Fatal(err)
			}
		}
		var b bytes.Buffer
		if err := st.Write(&b, nil); err != nil {
			t.Fatal(err)
		}
		return checkCodeQuality(t, b.Bytes(), nil)
	}
	got := issues(leads)
	var bare []reports.Finding
	for _, f := range leads {
		f.Detail = nil
		bare = append(bare, f)
	}
	plain := issues(bare)
	if len(got) != 3 {
		t.Fatalf("%d issues, want 3", len(got))
	}
	for i, is := range got {
		desc := is["description"].(string)
		if is["fingerprint"] != plain[i]["fingerprint"] {
			t.Errorf("issue %d: fingerprint %v, %v without the others named", i, is["fingerprint"], plain[i]["fingerprint"])
		}
		also := leads[i].Detail
		switch {
		case also == nil || len(also.Also) == 0:
			if strings.Contains(desc, "also reported") {
				t.Errorf("issue %d: %q names others", i, desc)
			}
		case !strings.Contains(desc, "(also reported by PMD ") || strings.Contains(desc, "[x](") || strings.Contains(desc, "@team"):
			t.Errorf("issue %d: description %q does not name the others inertly", i, desc)
		}
	}
	if d := got[1]["description"].(string); !strings.HasSuffix(d, " and 3 more)") {
		t.Errorf("eleven others: %q, want the first eight named and 3 more", d)
	}
}

// TestAnnotationAlsoBounded: the note that names the other findings of a
// problem stays short whatever their number and their names' length, and
// an annotation's message stays within GitHub's bounds.
func TestAnnotationAlsoBounded(t *testing.T) {
	var also []reports.Also
	for i := 0; i < 500; i++ {
		also = append(also, reports.Also{Tool: strings.Repeat("T", 5000), Rule: strings.Repeat("é", 3000), ID: reports.ID("x", 1)})
	}
	note := AlsoReportedBy(also)
	if len(note) > 2500 || !strings.HasSuffix(note, " and 492 more") {
		t.Errorf("note of %d bytes, ends %q", len(note), note[max(len(note)-40, 0):])
	}
	if !utf8Valid(note) {
		t.Error("the note cuts a character")
	}
	f := summarize.FindingView{Finding: reports.Finding{Tool: "PMD", Rule: "R", Severity: reports.SeverityError, Path: "a.java", Line: 1,
		Message: strings.Repeat("long message ", 20000)}, AlsoReportedBy: also}
	a := ghAnnotation(&f)
	if len(a) > MaxAnnotationMessage+4000 {
		t.Errorf("annotation of %d bytes", len(a))
	}
	if !strings.Contains(a, "… (also reported by ") {
		t.Errorf("the message is not cut before the note: %q", a[len(a)-200:])
	}
	if AlsoReportedBy(nil) != "" || AlsoMarkdown(nil) != "" {
		t.Error("a note without others")
	}
	md := AlsoMarkdown([]reports.Also{{Tool: "@team", Rule: "<b>x</b>", ID: reports.ID("n", 1)}})
	if strings.Contains(md, "@team") || strings.Contains(md, "<b>") {
		t.Errorf("markdown note not inert: %q", md)
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }
