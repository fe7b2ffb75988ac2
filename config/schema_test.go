package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"go.yaml.in/yaml/v3"

	"github.com/recap-dev/recap/reports"
)

// resolvedSchema is recap.schema.json, resolved for validation.
func resolvedSchema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal(Schema(), &s); err != nil {
		t.Fatalf("recap.schema.json: %v", err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("recap.schema.json: %v", err)
	}
	return rs
}

// asJSON reads YAML as the JSON value an editor's schema check sees; false
// when YAML alone refuses it.
func asJSON(in string) (any, bool) {
	var v any
	if err := yaml.Unmarshal([]byte(in), &v); err != nil {
		return nil, false
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, false
	}
	return out, true
}

// docExamples returns the YAML blocks of docs/config.md: those after an
// "<!-- invalid -->" line as bad, the others as good. A bad one is
// followed by a text block with the message recap gives for it.
func docExamples(t *testing.T) (good, bad []string, messages map[string]string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", "config.md"))
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?ms)(<!-- invalid -->\\n)?^```yaml\\n(.*?)^```\\n(?:\\n```text\\n(.*?)^```)?")
	messages = map[string]string{}
	for _, m := range block.FindAllStringSubmatch(string(b), -1) {
		if m[1] != "" {
			bad = append(bad, m[2])
			messages[m[2]] = strings.TrimSpace(m[3])
		} else {
			good = append(good, m[2])
		}
	}
	return good, bad, messages
}

// TestSchemaAgrees: every good example (the docs', testdata's, the good
// parse cases) is valid under recap.schema.json and read by Parse; every
// bad one that the schema can judge is refused by both.
func TestSchemaAgrees(t *testing.T) {
	rs := resolvedSchema(t)
	good, _, _ := docExamples(t)
	if len(good) < 4 {
		t.Fatalf("%d YAML examples in docs/config.md, want 4 or more", len(good))
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.yml"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		good = append(good, string(b))
	}
	for _, in := range good {
		if _, err := Parse(".recap.yml", []byte(in)); err != nil {
			t.Errorf("Parse refuses a good example: %v\n%s", err, in)
		}
		v, ok := asJSON(in)
		if !ok {
			t.Errorf("not YAML:\n%s", in)
			continue
		}
		if err := rs.Validate(v); err != nil {
			t.Errorf("the schema refuses a good example: %v\n%s", err, in)
		}
	}
	for name, tc := range badFiles {
		v, ok := asJSON(tc.in)
		if !ok {
			if tc.schema {
				t.Errorf("%s: not YAML, so the schema cannot judge it: mark it schema: false", name)
			}
			continue
		}
		err := rs.Validate(v)
		switch {
		case tc.schema && err == nil:
			t.Errorf("%s: the schema accepts what Parse refuses:\n%s", name, tc.in)
		case !tc.schema && err != nil:
			t.Errorf("%s: the schema refuses it too (%v): mark it schema: true", name, err)
		}
	}
}

// TestDocumentedErrors: each bad example of docs/config.md gets the
// message the docs show, and the schema refuses it.
func TestDocumentedErrors(t *testing.T) {
	rs := resolvedSchema(t)
	_, bad, messages := docExamples(t)
	if len(bad) == 0 {
		t.Fatal("no bad example in docs/config.md")
	}
	for _, in := range bad {
		_, err := Parse(".recap.yml", []byte(in))
		if err == nil {
			t.Errorf("Parse accepts a bad example of the docs:\n%s", in)
			continue
		}
		if got, want := err.Error(), messages[in]; got != want {
			t.Errorf("docs/config.md shows\n%s\nrecap says\n%s", want, got)
		}
		if v, ok := asJSON(in); ok && rs.Validate(v) == nil {
			t.Errorf("the schema accepts a bad example of the docs:\n%s", in)
		}
	}
}

// TestSchemaWords: the schema's words are recap's scales, and its limits
// the package's.
func TestSchemaWords(t *testing.T) {
	var s struct {
		ID         string `json:"$id"`
		Properties struct {
			Exclude struct {
				Properties struct {
					Paths struct {
						MaxItems int `json:"maxItems"`
					} `json:"paths"`
				} `json:"properties"`
			} `json:"exclude"`
		} `json:"properties"`
		Defs struct {
			RulePattern struct {
				MaxLength int `json:"maxLength"`
			} `json:"rulePattern"`
			PathGlob struct {
				MaxLength int `json:"maxLength"`
			} `json:"pathGlob"`
			Override struct {
				Properties map[string]struct {
					Enum []string `json:"enum"`
				} `json:"properties"`
			} `json:"override"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(Schema(), &s); err != nil {
		t.Fatal(err)
	}
	names := func(list []string) []string { return list }
	str := func(vs []interface{ String() string }) []string {
		var out []string
		for _, v := range vs {
			out = append(out, v.String())
		}
		return out
	}
	var impacts, qualities, severities []interface{ String() string }
	for _, v := range reports.Impacts {
		impacts = append(impacts, v)
	}
	for _, v := range reports.Qualities {
		qualities = append(qualities, v)
	}
	for _, v := range reports.Severities {
		severities = append(severities, v)
	}
	want := map[string][]string{
		"impact": str(impacts), "quality": str(qualities), "severity": str(severities), "category": names(reports.Categories),
	}
	for field, words := range want {
		if diff := cmp.Diff(words, s.Defs.Override.Properties[field].Enum); diff != "" {
			t.Errorf("schema's %s words differ from recap's (-recap +schema):\n%s", field, diff)
		}
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range s.Defs.Override.Properties {
			if !yield(k) {
				return
			}
		}
	})
	if diff := cmp.Diff(slices.Sorted(slices.Values(overrideKeys)), keys); diff != "" {
		t.Errorf("schema's override keys differ (-decoder +schema):\n%s", diff)
	}
	if s.ID != SchemaURL {
		t.Errorf("$id = %q, want SchemaURL %q", s.ID, SchemaURL)
	}
	if s.Properties.Exclude.Properties.Paths.MaxItems != MaxPathGlobs || s.Defs.RulePattern.MaxLength != MaxPatternLength || s.Defs.PathGlob.MaxLength != MaxPatternLength {
		t.Errorf("schema bounds %+v differ from MaxPathGlobs %d, MaxPatternLength %d", s, MaxPathGlobs, MaxPatternLength)
	}
}

// TestSchemaPattern: the schema's pattern for Tool:Rule agrees with
// ParseRulePattern on patterns good and bad.
func TestSchemaPattern(t *testing.T) {
	rs := resolvedSchema(t)
	for _, p := range []string{
		"PMD:X", "Checkstyle:FinalParameters", "*:CommentRequired", "SpotBugs:EI_*", "Sonar:java:S1234", "Code Quality:similar code",
		"a:b", "PMD:X\u00a0", "é:ü", "PMD:X Y",
		"X", ":X", "PMD:", " PMD:X", "PMD :X", "PMD: X", "PMD:X ", "PMD:X\tY", "PMD:X\nY", "PMD:\x7f", "", ":",
		"PMD:" + strings.Repeat("x", 996), "PMD:" + strings.Repeat("x", 997), "PMD:" + strings.Repeat("é", 996),
	} {
		_, perr := ParseRulePattern(p)
		serr := rs.Validate(map[string]any{"exclude": map[string]any{"rules": []any{p}}})
		if (perr == nil) != (serr == nil) {
			t.Errorf("%q: ParseRulePattern says %v, the schema %v", p, perr, serr)
		}
	}
}
