package tokens

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/recap-dev/recap/internal/content"
)

// ExactLimit is the size up to which a file is counted exactly. A larger one
// is counted exactly on its first SampleSize bytes and the rest scaled by
// that sample's tokens per byte (exact counting runs at about 7 MB/s), and is
// marked Estimated.
const (
	ExactLimit = 8 << 20
	SampleSize = 1 << 20
)

// File is the count of one file. A gzip file is counted decompressed.
type File struct {
	Path      string `json:"path"`
	Bytes     int64  `json:"bytes"`
	Lines     int64  `json:"lines"`
	Tokens    int    `json:"tokens"`
	Estimated bool   `json:"estimated,omitempty"`
	Error     string `json:"error,omitempty"`
}

// Report is the count of several files against a budget.
type Report struct {
	Files          []File `json:"files"`
	Total          File   `json:"total"`
	Tokenizer      string `json:"tokenizer"`
	Budget         int    `json:"budget"`
	Recommendation string `json:"recommendation,omitempty"`
}

// CountFiles counts each file with c and totals them; a file that cannot be
// read has its Error set and the others are still counted.
func CountFiles(c Counter, paths []string, budget int) Report {
	files := make([]File, len(paths))
	for i, p := range paths {
		files[i] = CountFile(c, p)
	}
	return Total(c, files, budget)
}

// Total totals files counted by c (with [CountFile]) against budget, with a
// recommendation when they are over it.
func Total(c Counter, files []File, budget int) Report {
	r := Report{Files: files, Tokenizer: c.Name(), Budget: budget, Total: File{Path: "total"}}
	for _, f := range files {
		r.Total.Bytes += f.Bytes
		r.Total.Lines += f.Lines
		r.Total.Tokens += f.Tokens
		r.Total.Estimated = r.Total.Estimated || f.Estimated
	}
	if budget > 0 && r.Total.Tokens > budget {
		r.Recommendation = fmt.Sprintf("%d tokens is %.1f× the budget of %d: for reports, read `recap summary` or `recap findings` "+
			"(analysis.getReports) instead of the files; for other files, read only the lines you need",
			r.Total.Tokens, float64(r.Total.Tokens)/float64(budget), budget)
	}
	return r
}

// CountFile counts one file with c; a file that cannot be read has its
// Error set.
func CountFile(c Counter, path string) File { return CountOpened(c, path, content.Open) }

// CountOpened counts the file that open gives for path (a confined
// root's, say), as [CountFile] does.
func CountOpened(c Counter, path string, open func(string) (*os.File, fs.FileInfo, error)) File {
	f := File{Path: path}
	fh, _, err := open(path)
	if err != nil {
		f.Error = content.PathErr(err).Error()
		return f
	}
	defer fh.Close()
	br := bufio.NewReaderSize(fh, 64<<10)
	r, err := content.Decompress(br)
	if err != nil {
		f.Error = err.Error()
		return f
	}
	var sample bytes.Buffer
	buf := make([]byte, 256<<10)
	for {
		n, err := r.Read(buf)
		chunk := buf[:n]
		f.Bytes += int64(n)
		f.Lines += int64(bytes.Count(chunk, []byte{'\n'}))
		if sample.Len() < ExactLimit {
			sample.Write(chunk)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			f.Error = err.Error()
			return f
		}
	}
	if f.Bytes > 0 && !bytes.HasSuffix(sample.Bytes(), []byte{'\n'}) && f.Bytes <= ExactLimit {
		f.Lines++
	}
	if f.Bytes <= ExactLimit {
		f.Tokens = c.Count(sample.String())
		return f
	}
	head := sample.Bytes()[:SampleSize]
	n := c.Count(string(head))
	f.Tokens = int(float64(n) / float64(len(head)) * float64(f.Bytes))
	f.Estimated = true
	return f
}
