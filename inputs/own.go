package inputs

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
)

// recapMark is what recap's SARIF writes at the end of each run: the
// conversion's tool. A directory search looks for it in a file's last
// bytes.
const recapMark = `"informationUri":"https://github.com/recap-dev/recap","name":"recap"`

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

// The outputs of recap a search leaves out.
var (
	ownSARIF       = Own{"sarif", "recap's own SARIF, made from other reports: not read (name it to read it)"}
	ownCodeQuality = Own{"codeclimate", "recap's own Code Quality report, made from other reports: not read (name it to read it)"}
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
// last bytes name recap as the conversion's tool), its Code Quality report
// (named .json, a JSON array whose first issue is written as recap writes them: type,
// then check_name "Tool/rule", and engine_name Tool), or its JSON view
// (named .json, beginning {"summary":{"total":). A gzip file is not looked
// into. A search for reports leaves them out, with Own.Warning; named, the
// SARIF and the Code Quality report are read.
func RecapOutput(name string, r io.ReaderAt, size int64) (Own, bool) {
	lower := strings.ToLower(name)
	if !strings.HasSuffix(lower, ".sarif") && !strings.HasSuffix(lower, ".json") {
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
	if !strings.HasSuffix(lower, ".json") {
		return Own{}, false // recap writes its Code Quality report and JSON as .json
	}
	head := make([]byte, min(size, headLen))
	k, err := r.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return Own{}, false
	}
	head = head[:k]
	head = bytes.TrimLeft(bytes.TrimPrefix(head, utf8BOM), " \t\r\n")
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
