package hostile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// htmlCases are the cases of the HTML report: a page of every finding.
func htmlCases() []Case {
	return []Case{
		{
			// Millions of distinct paths and messages: the page's string
			// table stops at its bounds and the rows hold the rest; the
			// findings are spilled to disk, never held.
			Name: "HTML report: millions of distinct files", Size: 40 * MiB, Full: 480_000_000, Bound: AnyBound,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				if err := os.WriteFile(filepath.Join(dir, "good.xml"), []byte(goodCheckstyle), 0o644); err != nil {
					return nil, nil, "", err
				}
				n, err := distinctSARIF(filepath.Join(dir, "files.sarif"), size)
				if err != nil {
					return nil, nil, "", err
				}
				return []string{"summary", "--format", "html", "files.sarif", "good.xml"}, nil,
					fmt.Sprintf("%s, %d results in as many files, as one page", Size(size), n), nil
			},
			Check: func(r *Result) error {
				meta := htmlMeta(r.Stdout)
				if meta == nil {
					return errors.New("the page has no data")
				}
				page := *r
				page.Stdout = meta
				var s summary
				if err := json.Unmarshal(meta, &s); err != nil {
					return err
				}
				if len(s.Inputs) == 0 || s.Inputs[0].Findings < 100_000 {
					return errors.New("too few findings read")
				}
				if !bytes.Contains(r.Stdout, []byte(`id="recap-findings-deflate"`)) {
					return errors.New("the page's data is not deflated")
				}
				return inputs(&page, 0, s.Inputs[0].Findings, "", "")
			},
		},
	}
}

// htmlMeta is the JSON of the page's summary and inputs.
func htmlMeta(page []byte) []byte {
	const open = `<script type="application/json" id="recap-meta">`
	i := bytes.Index(page, []byte(open))
	if i < 0 {
		return nil
	}
	rest := page[i+len(open):]
	j := bytes.Index(rest, []byte("</script>"))
	if j < 0 {
		return nil
	}
	return rest[:j]
}
