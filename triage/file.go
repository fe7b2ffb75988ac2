package triage

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"go.yaml.in/yaml/v3"
)

// A File is a triage file: its version and its entries.
type File struct {
	// Name is the file's name as given; messages name it.
	Name    string  `yaml:"-"`
	Version int     `yaml:"version"`
	Entries []Entry `yaml:"entries"`
}

// Parse reads a triage file's content; name is used in errors.
func Parse(name string, data []byte) (*File, error) {
	f := &File{Name: name}
	if len(bytes.TrimSpace(data)) == 0 {
		f.Version = 1
		return f, nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if f.Version == 0 {
		f.Version = 1
	}
	for i := range f.Entries {
		e := &f.Entries[i]
		if !e.State.Valid() {
			return nil, fmt.Errorf("%s: entry %d: state %q is none of false-positive, wont-fix, accepted-risk, used-in-tests, confirmed", name, i+1, e.State)
		}
		if e.Reason == "" {
			return nil, fmt.Errorf("%s: entry %d: a reason is required", name, i+1)
		}
	}
	return f, nil
}

// Load reads the triage file at name inside fsys; a file that does not
// exist is an empty triage.
func Load(fsys fs.FS, name string) (*File, error) {
	data, err := fs.ReadFile(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return &File{Name: name, Version: 1}, nil
	}
	if err != nil {
		return nil, err
	}
	return Parse(name, data)
}

// Put adds e, replacing the entry of the same key.
func (f *File) Put(e Entry) {
	k := e.Key()
	for i := range f.Entries {
		if f.Entries[i].Key() == k {
			f.Entries[i] = e
			return
		}
	}
	f.Entries = append(f.Entries, e)
}

// Sort puts the entries in the file's order: by path, tool, rule, location.
func (f *File) Sort() {
	sort.SliceStable(f.Entries, func(i, j int) bool {
		a, b := &f.Entries[i], &f.Entries[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Tool != b.Tool {
			return a.Tool < b.Tool
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Location < b.Location
	})
}

// Marshal writes the file, its entries sorted.
func (f *File) Marshal() ([]byte, error) {
	f.Sort()
	if f.Version == 0 {
		f.Version = 1
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return b.Bytes(), enc.Close()
}

// WriteFile writes f to path, through a temporary file renamed over it.
func WriteFile(path string, f *File) error {
	data, err := f.Marshal()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".triage-*.yml")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
