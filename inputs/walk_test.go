package inputs_test

import (
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/recap-dev/recap/inputs"
)

// TestWalk: a search's bounds (entries, reports, depth), the directories
// it leaves out, and what it says of each.
func TestWalk(t *testing.T) {
	fsys := fstest.MapFS{
		"a.sarif":                {},
		"b/c.sarif":              {},
		"b/d/e.sarif":            {},
		"b/d/f/g.sarif":          {},
		".git/x.sarif":           {},
		"node_modules/y.sarif":   {},
		"vendor/z.sarif":         {},
		"src/node_modules.sarif": {},
		"src/vendored/ok.sarif":  {},
	}
	for _, c := range []struct {
		name   string
		dir    string
		bounds inputs.Bounds
		files  []string
		errs   []string
		why    inputs.Why
	}{
		{"through", ".", inputs.Bounds{}, []string{"a.sarif", "b/c.sarif", "b/d/e.sarif", "b/d/f/g.sarif", "src/node_modules.sarif", "src/vendored/ok.sarif"}, nil, inputs.Through},
		{"entries", ".", inputs.Bounds{Entries: 5}, []string{"a.sarif", "b/c.sarif"}, nil, inputs.Entries},
		{"reports", ".", inputs.Bounds{Reports: 3}, []string{"a.sarif", "b/c.sarif", "b/d/e.sarif"}, nil, inputs.Reports},
		{"depth", ".", inputs.Bounds{Depth: 2}, []string{"a.sarif", "b/c.sarif", "src/node_modules.sarif"}, []string{"b/d: deeper than 2 directories, not searched", "src/vendored: deeper than 2 directories, not searched"}, inputs.Through},
		{"depth under a directory", "b", inputs.Bounds{Depth: 1}, []string{"b/c.sarif"}, []string{"b/d: deeper than 1 directories, not searched"}, inputs.Through},
		{"a skipped name searched itself", "vendor", inputs.Bounds{}, []string{"vendor/z.sarif"}, nil, inputs.Through},
		{"missing", "nope", inputs.Bounds{}, nil, []string{"nope: open nope: file does not exist"}, inputs.Through},
	} {
		t.Run(c.name, func(t *testing.T) {
			var files, errs []string
			stop, err := inputs.Walk{FS: fsys, Dir: c.dir, Bounds: c.bounds,
				File:  func(rel string, d fs.DirEntry) error { files = append(files, rel); return nil },
				Error: func(rel string, err error) error { errs = append(errs, rel+": "+err.Error()); return nil },
				Found: func() int { return len(files) },
			}.Run()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.files, files); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.errs, errs); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if stop.Why != c.why {
				t.Errorf("stopped %v, want %v", stop.Why, c.why)
			}
		})
	}
	// Error's error stops the walk and is its error.
	stopErr := errors.New("stop here")
	if _, err := (inputs.Walk{FS: fsys, Dir: "nope", File: func(string, fs.DirEntry) error { return nil },
		Error: func(string, error) error { return stopErr }}).Run(); !errors.Is(err, stopErr) {
		t.Errorf("error %v, want %v", err, stopErr)
	}
}
