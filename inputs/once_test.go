package inputs_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/recap-dev/recap/inputs"
	_ "github.com/recap-dev/recap/internal/reportstest" // -update
	"github.com/recap-dev/recap/parsers"
)

// tiny is a report smaller than its gzip: the gzip file's size is larger
// than its content, which a content size taken as the larger of the two
// (as the MCP server's was) never finds equal to the report's.
const tiny = `{"version":"2.1.0","runs":[]}`

func gz(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestOnce: the door's choice of the inputs read once, by name, by
// content (gzip undone, a small report and its larger gzip too), and
// recap's own outputs found by a search.
func TestOnce(t *testing.T) {
	dir := t.TempDir()
	own, err := os.ReadFile(filepath.Join("..", "testdata", "golden", "findings.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"a.sarif":     []byte(tiny),
		"a.sarif.gz":  gz(t, []byte(tiny)),
		"b.sarif":     []byte(tiny + " "),
		"c.sarif":     []byte(tiny),
		"empty.xml":   nil,
		"empty2.xml":  nil,
		"recap.sarif": own,
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if st, _ := os.Stat(filepath.Join(dir, "a.sarif.gz")); st.Size() <= int64(len(tiny)) {
		t.Fatalf("the gzip is %d bytes, not larger than its content", st.Size())
	}
	type left struct {
		Name   string
		Reason inputs.Reason
	}
	for _, c := range []struct {
		name  string
		items []string // a leading "+" marks an input found by a search
		keep  []string
		left  map[string][]left
		own   []string
	}{
		{"a report and its smaller-content gzip", []string{"a.sarif", "a.sarif.gz"}, []string{"a.sarif"},
			map[string][]left{"a.sarif": {{"a.sarif.gz", inputs.SameContent}}}, nil},
		{"gzip first", []string{"a.sarif.gz", "c.sarif", "a.sarif"}, []string{"a.sarif.gz"},
			map[string][]left{"a.sarif.gz": {{"c.sarif", inputs.SameContent}, {"a.sarif", inputs.SameContent}}}, nil},
		{"other bytes", []string{"a.sarif", "b.sarif"}, []string{"a.sarif", "b.sarif"}, nil, nil},
		{"given again", []string{"a.sarif", "b.sarif", "a.sarif", "a.sarif"}, []string{"a.sarif", "b.sarif"},
			map[string][]left{"a.sarif": {{"a.sarif", inputs.GivenAgain}}}, nil},
		{"empty files are not compared", []string{"empty.xml", "empty2.xml"}, []string{"empty.xml", "empty2.xml"}, nil, nil},
		{"recap's SARIF found", []string{"+recap.sarif", "+a.sarif"}, []string{"a.sarif"}, nil, []string{"recap.sarif"}},
		{"recap's SARIF named", []string{"recap.sarif"}, []string{"recap.sarif"}, nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			door := inputs.New(nil, parsers.Look)
			var items []inputs.Item
			for _, n := range c.items {
				found := n[0] == '+'
				if found {
					n = n[1:]
				}
				p := filepath.Join(dir, n)
				st, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				items = append(items, inputs.Item{Name: p, Key: p, Info: st, Found: found})
			}
			got := door.Once(items)
			base := func(i int) string { return filepath.Base(items[i].Name) }
			var keep, own []string
			var lefts map[string][]left
			for k, i := range got.Keep {
				keep = append(keep, base(i))
				for _, l := range got.Left[k] {
					if lefts == nil {
						lefts = map[string][]left{}
					}
					lefts[base(i)] = append(lefts[base(i)], left{base(l.Item), l.Reason})
				}
			}
			for _, i := range got.Own {
				own = append(own, base(i))
			}
			if diff := cmp.Diff(c.keep, keep); diff != "" {
				t.Errorf("kept (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.left, lefts); diff != "" {
				t.Errorf("left out (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.own, own); diff != "" {
				t.Errorf("own outputs (-want +got):\n%s", diff)
			}
		})
	}
}
