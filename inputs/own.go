package inputs

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"strings"
)

// recapMark is the tool of the conversion of each run of recap's SARIF
// (recap as the tool that wrote the run from another tool's report). A
// run begins with it (recapRunHead); earlier versions wrote it at the end
// of each run, so that a search looks for it in a file's last bytes too.
const recapMark = `"informationUri":"https://github.com/recap-dev/recap","name":"recap"`

// recapRunHead is how each run of recap's SARIF begins.
const recapRunHead = `{"conversion":{"tool":{"driver":{` + recapMark

// tailLen is how much of a file's end a search reads for recapMark.
const tailLen = 4 << 10

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// Own is an output of recap that a search for reports found: made from
// other reports, it is not read.
type Own struct {
	// Format is the format it would be read as when named: SARIF, Code
	// Quality; "" for recap's JSON views, which are no report.
	Format string
	// Warning is what the input says of it.
	Warning string
}

// BesideWarning is what the input says of it when it is named beside
// other reports, and so not read.
func (o Own) BesideWarning() string {
	what := "output"
	switch o.Format {
	case "sarif":
		what = "SARIF"
	case "codeclimate":
		what = "Code Quality report"
	}
	return "recap's own " + what + ", named beside other reports: not read, as its findings came from reports and would count twice (name it alone to read it)"
}

// The outputs of recap a search leaves out.
var (
	ownSARIF       = Own{"sarif", "recap's own SARIF, made from other reports: not read (name it alone to read it)"}
	ownCodeQuality = Own{"codeclimate", "recap's own Code Quality report, made from other reports: not read (name it alone to read it)"}
	ownJSON        = Own{"", "recap's own JSON output: no report, not read"}
)

// owns are recap's outputs, as a door keeps them (by index).
var owns = []Own{ownSARIF, ownCodeQuality, ownJSON}

// recapJSON is how recap's JSON views begin (summarize.View).
const recapJSON = `{"summary":{"total":`

// recapIssue is how recap's Code Quality report begins each issue.
const recapIssue = `{"type":"issue","check_name":"`

// RecapOutput reports whether the file name, of size bytes read through r,
// is an output of recap, and which: its SARIF (named .sarif or .json, its
// first run beginning with recap as the conversion's tool, or its last
// bytes naming it so), its Code Quality report (named .json, a JSON array
// whose first issue is written as recap writes them: type, then
// check_name "Tool/rule", and engine_name Tool), or its JSON view (named
// .json, beginning {"summary":{"total":). Each may be gzip'd (named .gz
// after that: its first bytes are undone and looked at). A search for
// reports leaves them out, with Own.Warning; named, the SARIF and the Code
// Quality report are read.
func RecapOutput(name string, r io.ReaderAt, size int64) (Own, bool) {
	lower := strings.ToLower(name)
	if gz, ok := strings.CutSuffix(lower, ".gz"); ok {
		if !ownNamed(gz) {
			return Own{}, false
		}
		head, err := gunzipHead(r, size)
		if err != nil {
			return Own{}, false
		}
		return ownHead(gz, head)
	}
	if !ownNamed(lower) {
		return Own{}, false
	}
	n := min(size, tailLen)
	buf := make([]byte, n)
	if _, err := r.ReadAt(buf, size-n); err != nil && err != io.EOF {
		return Own{}, false
	}
	if bytes.Contains(buf, []byte(recapMark)) {
		return ownSARIF, true
	}
	head := make([]byte, min(size, headLen))
	k, err := r.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return Own{}, false
	}
	return ownHead(lower, head[:k])
}

// gunzipHead undoes the first bytes of a gzip file, at most headLen of its
// content.
func gunzipHead(r io.ReaderAt, size int64) ([]byte, error) {
	zr, err := gzip.NewReader(io.NewSectionReader(r, 0, size))
	if err != nil {
		return nil, err
	}
	head := make([]byte, headLen)
	n, err := io.ReadFull(zr, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	return head[:n], nil
}

// ownHead tells an output of recap named lower (in lower case, without
// .gz) by its first bytes, head: its SARIF by its first run's beginning,
// its Code Quality report and its JSON view as RecapOutput says.
func ownHead(lower string, head []byte) (Own, bool) {
	head = bytes.TrimLeft(bytes.TrimPrefix(head, utf8BOM), " \t\r\n")
	if _, run, ok := bytes.Cut(head, []byte(`"runs":[`)); ok && bytes.HasPrefix(bytes.TrimLeft(run, " \t\r\n"), []byte(recapRunHead)) {
		return ownSARIF, true
	}
	if !strings.HasSuffix(lower, ".json") {
		return Own{}, false // recap writes its Code Quality report and JSON as .json
	}
	if bytes.HasPrefix(head, []byte(recapJSON)) {
		return ownJSON, true
	}
	if rest, ok := bytes.CutPrefix(head, []byte("[")); ok {
		rest = bytes.TrimLeft(rest, " \t\r\n")
		if !bytes.HasPrefix(rest, []byte(recapIssue)) {
			return Own{}, false
		}
		var issue struct {
			CheckName string `json:"check_name"`
			Engine    string `json:"engine_name"`
		}
		// The first issue, whole within the head (else it is read).
		if err := json.NewDecoder(bytes.NewReader(rest)).Decode(&issue); err == nil &&
			issue.Engine != "" && strings.HasPrefix(issue.CheckName, issue.Engine+"/") {
			return ownCodeQuality, true
		}
	}
	return Own{}, false
}

// headLen is how much of a file's beginning a search reads for the marks
// of recap's outputs.
const headLen = 16 << 10
