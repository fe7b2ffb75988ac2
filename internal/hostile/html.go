package hostile

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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
		{
			// A source file of hundreds of megabytes with a finding on
			// every tenth line: the file view holds windows of its first
			// 2,000 lines around findings, never the file.
			Name: "HTML report: a huge source file", Size: 40 * MiB, Full: 1_000_000_000, Bound: 256 * MiB,
			Make: func(dir string, size int64) ([]string, io.Reader, string, error) {
				if err := os.WriteFile(filepath.Join(dir, "good.xml"), []byte(goodCheckstyle), 0o644); err != nil {
					return nil, nil, "", err
				}
				lines, err := bigSource(filepath.Join(dir, "src", "Big.java"), size)
				if err != nil {
					return nil, nil, "", err
				}
				n := min(lines/10, maxHugeFindings)
				if err := lineFindings(filepath.Join(dir, "big.sarif"), "src/Big.java", n, 10); err != nil {
					return nil, nil, "", err
				}
				return []string{"findings", "--format", "html", "--repo", dir, "big.sarif", "good.xml"}, nil,
					fmt.Sprintf("%s, %d lines, a finding on every tenth (%d), as one page with the source at hand", Size(size), lines, n), nil
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
				shown, cut, err := fileViewLines(r.Stdout)
				if err != nil {
					return err
				}
				if shown == 0 || shown > 2000 || !cut {
					return fmt.Errorf("the file view holds %d lines (cut %v), want at most 2,000 and cut", shown, cut)
				}
				if len(s.Inputs) == 0 {
					return errors.New("no inputs")
				}
				return inputs(&page, 0, s.Inputs[0].Findings, "", "")
			},
		},
	}
}

// maxHugeFindings bounds the findings of the huge source file's case.
const maxHugeFindings = 100_000

// bigSource writes a source file of about size bytes of short lines and
// returns its lines.
func bigSource(path string, size int64) (int, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, err
	}
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	n := 0
	for written := int64(0); written < size; n++ {
		k, _ := fmt.Fprintf(w, "    int x%d = %d;\n", n+1, n)
		written += int64(k)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, err
	}
	return n, f.Close()
}

// lineFindings writes a SARIF log of n findings in file, one on every
// every-th line.
func lineFindings(path, file string, n, every int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Lint","rules":[{"id":"R1"}]}},"results":[`)
	for i := 1; i <= n; i++ {
		if i > 1 {
			w.WriteByte(',')
		}
		fmt.Fprintf(w, `{"ruleId":"R1","level":"warning","message":{"text":"finding %d"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":%q},"region":{"startLine":%d}}}]}`, i, file, i*every)
	}
	w.WriteString("]}]}\n")
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// fileViewLines counts the source lines of the page's file view, and says
// whether a file's were cut by its bounds.
func fileViewLines(page []byte) (int, bool, error) {
	var raw []byte
	if m := regexp.MustCompile(`(?s)id="recap-findings-deflate"[^>]*>(.*?)</script>`).FindSubmatch(page); m != nil {
		z, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(string(m[1]), "\n", ""))
		if err != nil {
			return 0, false, err
		}
		if raw, err = io.ReadAll(flate.NewReader(bytes.NewReader(z))); err != nil {
			return 0, false, err
		}
	} else if m := regexp.MustCompile(`(?s)id="recap-findings">(.*?)</script>`).FindSubmatch(page); m != nil {
		raw = m[1]
	} else {
		return 0, false, errors.New("the page has no findings")
	}
	var data struct {
		F [][]json.RawMessage `json:"f"`
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		return 0, false, err
	}
	shown, cut := 0, false
	for _, f := range data.F {
		cut = cut || len(f) > 1 && string(f[1]) == "1"
		for _, w := range f[2:] {
			var win []json.RawMessage
			if err := json.Unmarshal(w, &win); err != nil {
				return 0, false, err
			}
			shown += len(win) - 1
		}
	}
	return shown, cut, nil
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
