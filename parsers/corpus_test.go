package parsers

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
	"github.com/recap-dev/recap/reports"
)

// corpusFormats maps the corpus directories to the format each must be detected as.
var corpusFormats = map[string]Format{
	"spotbugs-xml":     FormatSpotBugs,
	"spotbugs-sarif":   FormatSARIF,
	"pmd-sarif":        FormatSARIF,
	"checkstyle-sarif": FormatSARIF,
	"sarif-other":      FormatSARIF,
	"checkstyle-xml":   FormatCheckstyle,
	"pmd-xml":          FormatPMD,
}

// multiLocation lists the corpus files written in PMD 6.31–6.42's layout, which
// puts every violation of a rule into one result with many locations. recap
// makes each location a finding (docs/formats.md), so the count differs from the manifest's
// result count. Checked by hand: 2 results with 2 and 4 locations.
var multiLocation = map[string]int{
	"pmd-sarif/pmd-7-docs-report-example.sarif.json": 6,
}

// TestCorpus parses every report of the shared corpus and checks the count
// against the manifest: findings less suppressed SARIF results, suppressed
// counts, detection, and a valid model for every finding.
func TestCorpus(t *testing.T) {
	dir, files := reportstest.Corpus(t)
	n := 0
	for _, cf := range files {
		want, ok := corpusFormats[cf.Dir()]
		if !ok {
			continue
		}
		n++
		t.Run(cf.Path, func(t *testing.T) {
			path := filepath.Join(dir, cf.Path)
			head := readHead(t, path)
			if got, ok := Detect(head); !ok || got != want {
				t.Errorf("Detect = %q, %v; want %q", got, ok, want)
			}
			findings, in := parseFile(t, path, dir)
			if in.Error != "" {
				t.Fatalf("unexpected error: %s", in.Error)
			}
			wantN := cf.Expected["findings"] - cf.Expected["suppressed"]
			if n, ok := multiLocation[cf.Path]; ok {
				wantN = n
			}
			if len(findings) != wantN || in.Findings != wantN {
				t.Errorf("findings = %d (input says %d), want %d", len(findings), in.Findings, wantN)
			}
			wantSupp := cf.Expected["suppressed"] + cf.Expected["suppressedviolation"]
			if in.Suppressed != wantSupp {
				t.Errorf("suppressed = %d, want %d", in.Suppressed, wantSupp)
			}
			if in.Format != string(want) || in.Tool == "" {
				t.Errorf("input format %q tool %q", in.Format, in.Tool)
			}
			checkFindings(t, findings)
		})
	}
	if n < 60 {
		t.Errorf("only %d corpus reports tested; the manifest lists more", n)
	}
}

// TestCorpusInvalid checks the files in invalid/ behave as the manifest says:
// "must fail" gives an error naming the file and the place; an edge case is
// read without an error, with the lenient count.
func TestCorpusInvalid(t *testing.T) {
	dir, files := reportstest.Corpus(t)
	place := regexp.MustCompile(`(\$[.\w\[\]]*|line \d+|byte \d+)`)
	for _, cf := range files {
		if cf.Dir() != "invalid" || strings.HasSuffix(cf.Path, ".diff") {
			continue
		}
		t.Run(cf.Path, func(t *testing.T) {
			path := filepath.Join(dir, cf.Path)
			findings, in := parseFile(t, path, dir)
			mustFail := strings.HasPrefix(cf.ExpectedBehaviour, "must fail")
			switch {
			case mustFail && in.Error == "":
				t.Fatalf("no error; want one (%s)", cf.ExpectedBehaviour)
			case mustFail:
				if !strings.HasPrefix(in.Error, path+": ") {
					t.Errorf("error %q does not start with the input's name", in.Error)
				}
				if !place.MatchString(in.Error) && !strings.Contains(in.Error, ErrUnknownFormat.Error()) {
					t.Errorf("error %q names no place", in.Error)
				}
			case in.Error != "":
				t.Fatalf("edge case gave an error: %s", in.Error)
			default:
				lenient, _ := cf.LenientCount["findings"].(float64)
				if len(findings) != int(lenient) {
					t.Errorf("findings = %d, want the lenient count %d", len(findings), int(lenient))
				}
			}
			checkFindings(t, findings)
			t.Logf("%s → %d findings, error %q", cf.Path, len(findings), in.Error)
		})
	}
}

func readHead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > SniffLen {
		b = b[:SniffLen]
	}
	return b
}

func parseFile(t *testing.T, path, root string) ([]reports.Finding, reports.Input) {
	t.Helper()
	var out []reports.Finding
	inputs, err := ReadAll([]string{path}, ReadOptions{Root: root}, func(f reports.Finding) error {
		out = append(out, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) != 1 {
		t.Fatalf("%d inputs, want 1", len(inputs))
	}
	return out, inputs[0]
}

// checkFindings asserts the model's invariants on every finding.
func checkFindings(t *testing.T, findings []reports.Finding) {
	t.Helper()
	ids, fps := map[string]bool{}, map[string]bool{}
	for i, f := range findings {
		bad := func(why string) { t.Errorf("finding %d (%s %s %s:%d): %s", i, f.Tool, f.Rule, f.Path, f.Line, why) }
		switch {
		case !f.Severity.Valid():
			bad("invalid severity")
		case f.Line < 0 || f.EndLine < 0 || f.Column < 0 || f.EndColumn < 0:
			bad("negative position")
		case f.EndLine != 0 && f.EndLine < f.Line:
			bad("endLine before line")
		case strings.Contains(f.Path, `\`):
			bad("backslash in path")
		case f.ID.IsZero() || ids[f.ID.String()]:
			bad("missing or duplicate id " + f.ID.String())
		case !validFingerprint(f.Fingerprint) || reports.NormalFingerprint(f.Fingerprint) != f.Fingerprint || fps[f.Fingerprint]:
			bad("missing, malformed or duplicate fingerprint " + f.Fingerprint)
		case f.Tool == "" || f.Category == "" || f.Message == "":
			bad("empty tool, category or message")
		case strings.Contains(f.Message, "\r") || strings.Contains(f.Message, "\n\n\n") || strings.TrimSpace(f.Message) != f.Message:
			bad("message with a CR, blank lines or space around it")
		}
		ids[f.ID.String()], fps[f.Fingerprint] = true, true
	}
}
