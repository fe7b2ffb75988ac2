package triage

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"go.yaml.in/yaml/v3"

	"github.com/recap-dev/recap/config"
	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/reports"
)

// A File is a triage file: its version and its entries. Parse and Load
// keep the file's YAML tree beside the entries, so that Marshal writes
// the comments people added by hand back in their places (of the
// document, and of each entry and each of its keys, the entry known by
// its Key).
type File struct {
	// Name is the file's name as given; messages name it.
	Name    string  `yaml:"-"`
	Version int     `yaml:"version"`
	Entries []Entry `yaml:"entries"`

	doc   *yaml.Node            // the document as read, for its comments; nil for a new file
	nodes map[string]*yaml.Node // entry key → its mapping as read
	base  map[string]bool       // the keys of the entries as read (or as last written)
	read  []keyFields           // the entries as read, whose keys base is once asked (nil: base is)
	index map[string]int        // entry key → index in Entries, for Put
	crlf  bool                  // its lines end with CR LF: written so
	// theirs holds, in a merge that could not choose (Merge), the other
	// side's version of an entry by its key: Marshal writes it after the
	// entry, between git's conflict markers.
	theirs map[string]side
}

// Parse reads a triage file's content; name is used in errors. An empty
// file (or comments only) has no entries. Every mistake is a
// [*config.Error] naming the file, the line, the column and the key
// ("entries[3].state"), with the nearest word for a word written wrong;
// several are joined. It never panics, and reads at most [MaxSize] bytes,
// [MaxEntries] entries and [MaxValues] values.
func Parse(name string, data []byte) (*File, error) {
	if len(data) > MaxSize {
		return nil, tooLarge(name)
	}
	return ParseOwned(name, bytes.Clone(data))
}

// ParseOwned is Parse of data the caller gives up: it is read in place,
// not copied first, so it must not be written while ParseOwned runs (a
// file of 10,000 decisions is 3.7 MB: a copy of it is a few milliseconds
// before a run can start). The entries' strings have memory of their own
// once it returns; data is not held.
func ParseOwned(name string, data []byte) (*File, error) {
	if len(data) > MaxSize {
		return nil, tooLarge(name)
	}
	crlf := false
	if i := bytes.IndexByte(data, '\n'); i > 0 && data[i-1] == '\r' {
		// A file saved on Windows: read with its line ends as YAML reads
		// them (the YAML parser places comments otherwise after CR LF),
		// and written back with CR LF.
		crlf, data = true, bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	}
	f, ok := parseFast(name, unsafe.String(unsafe.SliceData(data), len(data)))
	if !ok {
		var err error
		if f, err = parseFull(name, data); err != nil {
			return nil, err
		}
	}
	f.crlf = crlf
	return f, nil
}

// parseFull is Parse by the YAML parser, whatever the file's shape.
func parseFull(name string, data []byte) (*File, error) {
	f := &File{Name: name, Version: Version, nodes: map[string]*yaml.Node{}}
	d := &decoder{file: name, limited: map[string]bool{}}
	d.parse(data, f)
	if err := d.err(); err != nil {
		return nil, err
	}
	f.base = f.keys()
	return f, nil
}

func tooLarge(name string) error {
	return &config.Error{File: name, Err: fmt.Errorf("more than %d MiB: a triage file is smaller", MaxSize>>20)}
}

// Load reads the triage file at name inside fsys; a file that does not
// exist is an empty triage. A file that is not a regular file, or larger
// than [MaxSize], is an error.
func Load(fsys fs.FS, name string) (*File, error) {
	file, err := fsys.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return &File{Name: name, Version: Version}, nil
	}
	if errors.Is(err, content.ErrNotRegular) {
		// What it is, without the advice for reports (standard input is
		// no triage file).
		if st, serr := fs.Stat(fsys, name); serr == nil {
			return nil, &config.Error{File: name, Err: fmt.Errorf("not a regular file (%s): a triage file is a file", content.Kind(st.Mode()))}
		}
	}
	if err != nil {
		return nil, err
	}
	defer file.Close()
	data, err := readBounded(name, file)
	if err != nil {
		return nil, err
	}
	return ParseOwned(name, data)
}

// LoadFile reads the triage file at path, as Load does.
func LoadFile(path string) (*File, error) {
	// Not blocking: a FIFO is refused as not a regular file, not waited on.
	file, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return &File{Name: path, Version: Version}, nil
	}
	if err != nil {
		return nil, err
	}
	defer file.Close()
	data, err := readBounded(path, file)
	if err != nil {
		return nil, err
	}
	return ParseOwned(path, data)
}

func readBounded(name string, file fs.File) ([]byte, error) {
	st, err := file.Stat()
	if err != nil {
		return nil, &config.Error{File: name, Err: err}
	}
	if !st.Mode().IsRegular() {
		return nil, &config.Error{File: name, Err: fmt.Errorf("not a regular file (%s): a triage file is a file", content.Kind(st.Mode()))}
	}
	data, err := io.ReadAll(io.LimitReader(file, MaxSize+1))
	if err != nil {
		return nil, &config.Error{File: name, Err: err}
	}
	if len(data) > MaxSize {
		return nil, tooLarge(name)
	}
	return data, nil
}

// baseKeys are the keys of the entries as read, or as last written.
func (f *File) baseKeys() map[string]bool {
	if f.read != nil {
		f.base = make(map[string]bool, len(f.read))
		for i := range f.read {
			f.base[f.read[i].key()] = true
		}
		f.read = nil
	}
	return f.base
}

// keyFields are the fields of an entry its Key is made of.
type keyFields struct{ tool, rule, path, location, message string }

func keyFieldsOf(e *Entry) keyFields {
	return keyFields{e.Tool, e.Rule, e.Path, e.Location, e.Message}
}

func (k *keyFields) key() string {
	e := Entry{Tool: k.tool, Rule: k.rule, Path: k.path, Location: k.location, Message: k.message}
	return e.Key()
}

func (f *File) keys() map[string]bool { return keysOf(f.Entries) }

// keysOf are the keys of entries.
func keysOf(entries []Entry) map[string]bool {
	k := make(map[string]bool, len(entries))
	for i := range entries {
		k[entries[i].Key()] = true
	}
	return k
}

// Put adds e, replacing the entry of the same key, and reports whether the
// file changed. Putting a decision the file holds already (the same
// state, reason, expiry and link) changes nothing, not even its date: a
// decision made twice is one diff.
func (f *File) Put(e Entry) bool {
	k := e.Key()
	if i, ok := f.find(k); ok {
		if f.Entries[i].sameDecision(&e) {
			return false
		}
		f.Entries[i] = e
		return true
	}
	f.Entries = append(f.Entries, e)
	f.index[k] = len(f.Entries) - 1
	return true
}

// sameDecision reports whether e and o decide alike: the same state,
// reason, expiry and link (who and when aside).
func (e *Entry) sameDecision(o *Entry) bool {
	return e.State == o.State && e.Reason == o.Reason && e.Until == o.Until && e.Link == o.Link
}

// PutBeside puts e as Put does, except that the entry of e's key, when it
// covers another finding now (covered: the decided code, a copy of which
// pasted above it took the occurrence its location counts, and e decides
// the copy), is kept, anchored where covered is (its path, location, line
// and message as EntryFor reads them through src, and e's commit): both
// decisions stay. kept says it was; changed is Put's.
func (f *File) PutBeside(e Entry, covered *reports.Finding, src fs.FS) (changed, kept bool) {
	if old, had := f.Get(e.Key()); had && covered != nil {
		now := EntryFor(covered, src)
		a := old
		a.Path, a.Location, a.Line, a.Message, a.Commit = now.Path, now.Location, now.Line, now.Message, e.Commit
		if _, clash := f.Get(a.Key()); now.Location != "" && !clash && a.Key() != e.Key() {
			changed = f.Put(e)
			f.Put(a)
			return changed, true
		}
	}
	return f.Put(e), false
}

// Get returns the entry of key k.
func (f *File) Get(k string) (Entry, bool) {
	if i, ok := f.find(k); ok {
		return f.Entries[i], true
	}
	return Entry{}, false
}

// find returns the index of the entry of key k. The index of the keys is
// made again when the entries changed other than through Put.
func (f *File) find(k string) (int, bool) {
	if f.index == nil || len(f.index) != len(f.Entries) {
		f.index = make(map[string]int, len(f.Entries))
		for i := range f.Entries {
			f.index[f.Entries[i].Key()] = i
		}
	}
	i, ok := f.index[k]
	if ok && (i >= len(f.Entries) || f.Entries[i].Key() != k) {
		f.index = nil // the entries moved: look again
		return f.find(k)
	}
	return i, ok
}

// Remove removes the entries drop says to and returns them.
func (f *File) Remove(drop func(*Entry) bool) []Entry {
	var gone []Entry
	f.Entries = slices.DeleteFunc(f.Entries, func(e Entry) bool {
		if drop(&e) {
			gone = append(gone, e)
			return true
		}
		return false
	})
	return gone
}

// Sort puts the entries in the file's order: by path, tool, rule,
// location, then message.
func (f *File) Sort() {
	keys := make([]string, len(f.Entries))
	order := make([]int, len(f.Entries))
	for i := range f.Entries {
		keys[i], order[i] = f.Entries[i].sortKey(), i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(keys[a], keys[b]) })
	sorted := make([]Entry, len(f.Entries))
	for i, j := range order {
		sorted[i] = f.Entries[j]
	}
	copy(f.Entries, sorted)
	f.index = nil
}

func (e *Entry) sortKey() string {
	return e.Path + "\x00" + e.Tool + "\x00" + e.Rule + "\x00" + e.Location + "\x00" + foldSpace(e.Message)
}

// Marshal writes the file, its entries sorted, each entry's keys in one
// order, the comments of the file as read kept: a file written twice is
// the same bytes, and one decision more is a diff of its own lines.
func (f *File) Marshal() ([]byte, error) {
	// Never a file recap then refuses to read: the reader's bounds, and
	// each entry as it checks it.
	if len(f.Entries) > MaxEntries {
		return nil, fmt.Errorf("%d entries, more than the %d recap reads: nothing written (decide fewer findings, or prune the stale entries)", len(f.Entries), MaxEntries)
	}
	for i := range f.Entries {
		if err := f.Entries[i].Check(); err != nil {
			e := &f.Entries[i]
			return nil, fmt.Errorf("the entry of %s %s at %s: %w: nothing written", e.Tool, e.Rule, e.Path, err)
		}
	}
	b, err := f.marshal()
	if err == nil && f.crlf {
		b = bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
	}
	if err == nil && len(b) > MaxSize {
		return nil, fmt.Errorf("%d bytes, more than the %d MiB recap reads: nothing written (decide fewer findings, or prune the stale entries)", len(b), MaxSize>>20)
	}
	return b, err
}

// marshal is Marshal with its lines ended by LF.
func (f *File) marshal() ([]byte, error) {
	f.Sort()
	f.Version = Version
	root := &yaml.Node{Kind: yaml.MappingNode}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	versionKey, versionValue := scalar("version"), &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(Version)}
	entriesKey := scalar("entries")
	root.Content = []*yaml.Node{versionKey, versionValue, entriesKey, seq}
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}
	if f.doc != nil {
		copyNodeComments(f.doc, doc)
		if len(f.doc.Content) == 1 {
			if old := config.Resolve(f.doc.Content[0]); old.Kind == yaml.MappingNode {
				copyNodeComments(old, root)
				for i := 0; i+1 < len(old.Content); i += 2 {
					switch old.Content[i].Value {
					case "version":
						copyNodeComments(old.Content[i], versionKey)
						copyNodeComments(old.Content[i+1], versionValue)
					case "entries":
						copyNodeComments(old.Content[i], entriesKey)
						copyNodeComments(old.Content[i+1], seq)
					}
				}
			}
		}
	}
	// The last entry's closing comment is written as the document's:
	// written under the entry, indented, it is read back as the
	// document's, and a second rewrite would move it.
	lastFoot := ""
	if n := len(f.Entries); n > 0 {
		if old := f.nodes[f.Entries[n-1].Key()]; old != nil {
			lastFoot = commentBreaks(config.Resolve(old).FootComment)
		}
	}
	if lastFoot != "" {
		doc.FootComment = strings.TrimSpace(lastFoot + "\n\n" + doc.FootComment)
	}
	head, err := encodeNode(doc)
	if err != nil || len(f.Entries) == 0 {
		return head, err
	}
	// The entries are encoded one at a time and spliced in place of the
	// empty list: go.yaml.in/yaml/v3's emitter takes time quadratic in the
	// length of one sequence.
	at := bytes.Index(head, []byte("\nentries: []"))
	if bytes.HasPrefix(head, []byte("entries: []")) {
		at = -1
	} else if at < 0 {
		return nil, fmt.Errorf("triage: the file's head has no empty entries to fill")
	} else {
		at++
	}
	start := max(at, 0)
	end := start + len("entries: []")
	var b bytes.Buffer
	b.Grow(len(head) + 200*len(f.Entries))
	b.Write(head[:start])
	b.WriteString("entries:")
	eol := bytes.IndexByte(head[end:], '\n')
	b.Write(head[end : end+eol+1]) // a comment on the line
	for i := range f.Entries {
		e := &f.Entries[i]
		other, conflict := f.theirs[e.Key()]
		if conflict {
			b.WriteString(markerOurs + "\n")
		}
		if err := writeEntry(&b, e, f.nodes[e.Key()], i == len(f.Entries)-1 && lastFoot != ""); err != nil {
			return nil, err
		}
		if conflict {
			b.WriteString(markerSplit + "\n")
			if err := writeEntry(&b, &other.entry, other.node, false); err != nil {
				return nil, err
			}
			b.WriteString(markerTheirs + "\n")
		}
	}
	b.Write(head[end+eol+1:])
	return b.Bytes(), nil
}

// writeEntry writes e as an item of the entries, with the comments of
// old (the entry as read; nil for none), its closing one left out when
// noFoot (written as the document's).
func writeEntry(b *bytes.Buffer, e *Entry, old *yaml.Node, noFoot bool) error {
	m := entryNode(e)
	if old != nil {
		copyComments(config.Resolve(old), m)
		if noFoot {
			m.FootComment = ""
		}
	}
	item, err := encodeNode(&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{m}})
	if err != nil {
		return err
	}
	for _, line := range bytes.SplitAfter(item, []byte("\n")) {
		if len(line) > 0 && line[0] != '\n' {
			b.WriteString("  ")
		}
		b.Write(line)
	}
	return nil
}

// encodeNode writes one node as YAML, indented by 2.
func encodeNode(n *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// entryNode is e as a mapping, its keys in the file's order.
func entryNode(e *Entry) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	add := func(k, v string, always bool) {
		if v == "" && !always {
			return
		}
		val := scalar(v)
		switch {
		case strings.Contains(v, "\n"):
			val.Style = yaml.LiteralStyle
		case k == "date" || k == "until":
			if _, err := time.Parse(DateLayout, v); err == nil {
				val.Tag = "!!timestamp" // written as people write a day, unquoted
			}
		}
		m.Content = append(m.Content, scalar(k), val)
	}
	add("tool", e.Tool, true)
	add("rule", e.Rule, true)
	add("path", e.Path, true)
	add("location", e.Location, false)
	add("line", e.Line, false)
	add("message", e.Message, false)
	add("state", string(e.State), true)
	add("reason", e.Reason, true)
	add("by", e.By, false)
	add("date", e.Date, false)
	add("until", e.Until, false)
	add("link", e.Link, false)
	add("commit", e.Commit, false)
	return m
}

func scalar(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// copyComments carries the comments of an entry as read to its mapping as
// written: the mapping's own, and each key's and value's by the key.
func copyComments(old, m *yaml.Node) {
	copyNodeComments(old, m)
	if old.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(old.Content); i += 2 {
		for j := 0; j+1 < len(m.Content); j += 2 {
			if m.Content[j].Value == old.Content[i].Value {
				copyNodeComments(old.Content[i], m.Content[j])
				copyNodeComments(old.Content[i+1], m.Content[j+1])
			}
		}
	}
}

func copyNodeComments(from, to *yaml.Node) {
	to.HeadComment, to.LineComment, to.FootComment = commentBreaks(from.HeadComment), commentBreaks(from.LineComment), commentBreaks(from.FootComment)
}

// commentBreaks is a comment with its line breaks as recap writes them:
// a carriage return alone, which YAML reads as a line break, written as
// one (kept, the file read again would have another comment, and a
// rewrite change it).
func commentBreaks(c string) string {
	if !strings.Contains(c, "\r") {
		return c
	}
	return strings.ReplaceAll(strings.ReplaceAll(c, "\r\n", "\n"), "\r", "\n")
}

// Lock bounds: how long a writer waits for another's lock, and how old a
// lock is before it is taken for one a stopped writer left.
var (
	LockWait  = 10 * time.Second
	LockStale = 2 * time.Minute
)

// WriteFile writes f to path, safe against another writer of the same
// file at the same time: under a lock file beside it (path + ".lock"), the
// file is read again, and the entries another writer added since f was
// read are kept (f's own entries, additions and removals win), then
// written to a temporary file renamed over path. f then holds what was
// written.
func WriteFile(path string, f *File) error {
	return inDir(path, func(r *os.Root, name string) error { return WriteFileRoot(r, name, f) })
}

// WriteFileRoot is WriteFile of the file name inside r: every file it
// opens, makes, renames or removes is inside r (a link out of it is not
// followed), for a server confined to its root.
func WriteFileRoot(r *os.Root, name string, f *File) error {
	return withLock(r, name, func() error {
		disk, err := loadRoot(r, name)
		if err != nil {
			return err
		}
		merged := f.mergeOnto(disk)
		data, err := merged.Marshal()
		if err != nil {
			return err
		}
		if err := writeBytes(r, name, data); err != nil {
			return err
		}
		f.Entries, f.doc, f.nodes, f.base, f.read, f.index, f.crlf = merged.Entries, merged.doc, merged.nodes, merged.keys(), nil, nil, merged.crlf
		return nil
	})
}

// Update reads the triage file at path under its lock, lets change change
// it, and writes it when change returns nil and the content changed: the
// way for two writers (a command line, a server) to both keep their
// decisions.
func Update(path string, change func(*File) error) error {
	return inDir(path, func(r *os.Root, name string) error { return UpdateRoot(r, name, change) })
}

// UpdateRoot is Update of the file name inside r, confined to r as
// WriteFileRoot is.
func UpdateRoot(r *os.Root, name string, change func(*File) error) error {
	return withLock(r, name, func() error {
		f, err := loadRoot(r, name)
		if err != nil {
			return err
		}
		before, err := f.Marshal()
		if err != nil {
			return err
		}
		if err := change(f); err != nil {
			return err
		}
		after, err := f.Marshal()
		if err != nil {
			return err
		}
		if bytes.Equal(before, after) {
			return nil
		}
		return writeBytes(r, name, after)
	})
}

// inDir runs fn with a root at path's directory (made first) and the
// file's name in it.
func inDir(path string, fn func(r *os.Root, name string) error) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer r.Close()
	return fn(r, filepath.Base(path))
}

// loadRoot reads the file name inside r (none: an empty one); messages
// name it joined to r's directory.
func loadRoot(r *os.Root, name string) (*File, error) {
	shown := filepath.Join(r.Name(), name)
	file, err := r.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return &File{Name: shown, Version: Version}, nil
	}
	if err != nil {
		return nil, err
	}
	defer file.Close()
	data, err := readBounded(shown, file)
	if err != nil {
		return nil, err
	}
	return ParseOwned(shown, data)
}

// mergeOnto returns f with what disk gained since f was read: the entries
// of disk that f never had (by key), and disk's comments.
func (f *File) mergeOnto(disk *File) *File {
	out := &File{Name: f.Name, Version: Version, doc: disk.doc, nodes: map[string]*yaml.Node{}, crlf: disk.crlf}
	if out.doc == nil {
		out.doc, out.crlf = f.doc, disk.crlf || f.crlf
	}
	for k, n := range f.nodes {
		out.nodes[k] = n
	}
	for k, n := range disk.nodes {
		out.nodes[k] = n
	}
	out.Entries = slices.Clone(f.Entries)
	mine := f.keys()
	for _, e := range disk.Entries {
		if k := e.Key(); !mine[k] && !f.baseKeys()[k] {
			out.Entries = append(out.Entries, e)
		}
	}
	return out
}

// writeBytes writes data to name inside r through a temporary file beside
// it, synced, then renamed over it (keeping name's permissions).
func writeBytes(r *os.Root, name string, data []byte) error {
	dir := filepath.Dir(name)
	var tmp *os.File
	var tmpName string
	for range 100 {
		tmpName = filepath.Join(dir, fmt.Sprintf(".triage-%d-%d.yml", os.Getpid(), rand.Uint64()))
		var err error
		if tmp, err = r.OpenFile(tmpName, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); err == nil {
			break
		} else if !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	if tmp == nil {
		return fmt.Errorf("%s: no temporary file could be made beside it", name)
	}
	defer r.Remove(tmpName)
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if st, err := r.Stat(name); err == nil {
		_ = tmp.Chmod(st.Mode().Perm())
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return r.Rename(tmpName, name)
}

// withLock runs fn holding name's lock file inside r, made with O_EXCL
// beside it (its directory made first).
func withLock(r *os.Root, name string, fn func() error) error {
	if dir := filepath.Dir(name); dir != "." {
		if err := r.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	lock := name + ".lock"
	deadline := time.Now().Add(LockWait)
	wait := 5 * time.Millisecond
	for {
		l, err := r.OpenFile(lock, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(l, "%d\n", os.Getpid())
			l.Close()
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
		if st, serr := r.Stat(lock); serr == nil && time.Since(st.ModTime()) > LockStale {
			r.Remove(lock) // left by a writer that stopped
			continue
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: locked by another writer for more than %s (remove %s if none is running)", filepath.Join(r.Name(), name), LockWait, filepath.Join(r.Name(), lock))
		}
		time.Sleep(wait)
		wait = min(2*wait, 100*time.Millisecond)
	}
	defer r.Remove(lock)
	return fn()
}

// WriteTarget returns the file to write for the triage file at rel (slash-
// separated, relative to the directory root): rel itself, or, when it is
// a symbolic link that leads to a file inside root, that file (so that
// the link stays, and its target gets the decisions), relative to root.
// A target whose real place is in a version control's own directory
// (.git, .hg, .svn: their hooks and settings run code), through links of
// the file or of its directories, is refused.
func WriteTarget(root, rel string) (string, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return rel, nil // the writer says what is wrong with the root
	}
	abs := filepath.Join(root, filepath.FromSlash(rel))
	target := rel
	if l, err := os.Readlink(abs); err == nil && filepath.IsAbs(l) {
		// As the readers: a link by absolute path is not followed.
		return "", fmt.Errorf("%s: a symbolic link by absolute path (%s), which recap does not follow: make it relative", rel, l)
	}
	if to, ok := linkTarget(abs); ok {
		if r, err := filepath.Rel(realRoot, to); err == nil && filepath.IsLocal(r) {
			target = filepath.ToSlash(r)
		}
	}
	// The real place of its directory: a directory on the way may be a
	// link, made or not yet.
	dir := filepath.Join(root, filepath.FromSlash(path.Dir(target)))
	for d := dir; ; d = filepath.Dir(d) {
		real, err := filepath.EvalSymlinks(d)
		if err != nil {
			if to, ok := linkTarget(d); ok {
				real, err = to, nil
			}
		}
		if err == nil {
			if r, err := filepath.Rel(realRoot, real); err == nil && filepath.IsLocal(r) && config.InVCSDir(filepath.ToSlash(r)) {
				return "", fmt.Errorf("%s: its place is in the version control's own directory (%s), which recap does not write", rel, filepath.ToSlash(r))
			}
			break
		}
		if d == root || d == filepath.Dir(d) {
			break
		}
	}
	if config.InVCSDir(target) {
		return "", fmt.Errorf("%s: its place is in the version control's own directory (%s), which recap does not write", rel, target)
	}
	return target, nil
}

// linkTarget returns the real place of the file a symbolic link at abs
// leads to, made or not yet (its directory's real place, and its name);
// false when abs is no link, or its target's directory cannot be told.
func linkTarget(abs string) (string, bool) { return linkTargetIn(abs, 40) }

// linkTargetIn is linkTarget following at most hops links (a cycle ends).
func linkTargetIn(abs string, hops int) (string, bool) {
	fi, err := os.Lstat(abs)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return "", false
	}
	if to, err := filepath.EvalSymlinks(abs); err == nil {
		return to, true
	}
	l, err := os.Readlink(abs)
	if err != nil {
		return "", false
	}
	if !filepath.IsAbs(l) {
		l = filepath.Join(filepath.Dir(abs), l)
	}
	if l != abs && hops > 0 {
		if to, ok := linkTargetIn(l, hops-1); ok { // a chain of links
			return to, true
		}
	}
	d, err := filepath.EvalSymlinks(filepath.Dir(l))
	if err != nil {
		return "", false
	}
	return filepath.Join(d, filepath.Base(l)), true
}

// WriteTargetGiven returns the file to write for a triage file named
// explicitly (--triage path): path itself, or the file a link at path
// leads to. A place in a version control's own directory, through links
// too, is refused: its hooks and settings run code.
func WriteTargetGiven(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path, nil
	}
	target := abs
	if to, ok := linkTarget(abs); ok {
		target = to
	}
	real := target
	if d, err := filepath.EvalSymlinks(filepath.Dir(target)); err == nil {
		real = filepath.Join(d, filepath.Base(target))
	}
	for _, p := range []string{target, real} {
		if config.InVCSDir(filepath.ToSlash(p)) {
			return "", fmt.Errorf("%s: its place is in a version control's own directory (%s), which recap does not write", path, real)
		}
	}
	return target, nil
}
