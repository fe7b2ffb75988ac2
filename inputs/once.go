package inputs

import (
	"crypto/sha256"
	"io/fs"
	"strings"
)

// An Item is an input Once chooses among.
type Item struct {
	Name string      // as the door opens it
	Key  string      // one key a file whatever its name (its absolute path); "": not compared by name
	Info fs.FileInfo // nil: no file of the door's (standard input, an input in error), kept as is
	// Found is set for an input a search found: recap's own outputs
	// among them are left out.
	Found bool
}

// Why an input was left out for another.
type Reason int

const (
	SameFile    Reason = iota // it names the kept input's file
	GivenAgain                // it is the kept input, given again by the same name
	SameContent               // its content (gzip undone) is the kept one's
)

// A Left is an input left out for a kept one.
type Left struct {
	Item   int // its index in the items
	Reason Reason
}

// Chosen is what Once chose: the inputs to read, by index into the items
// in their order; for each kept one (by its index into Keep), those left
// out for it; recap's own outputs a search found, not read; and recap's
// own outputs given by name beside other reports (a shell's glob), not
// read either: their findings came from reports, those named too.
type Chosen struct {
	Keep   []int
	Left   map[int][]Left
	Own    []int
	Beside []int
}

// Once chooses the inputs to read once (docs/formats.md, "Duplicates"):
// the first of the items that name one file (a path given twice, or a
// directory and a file in it), the first of the files whose content is
// the same (a copy, or a report and its gzip), and none of recap's own
// outputs found by a search (its SARIF, Code Quality report and JSON;
// given by name alone, as a baseline is, a SARIF or Code Quality report
// is read, but not beside other reports: Chosen.Beside). Files are compared by content size first, each hashed at most
// once and only when a second of its size comes (200,000 reports of a few
// sizes are compared in linear time); empty files, each an error of its
// own, are not compared.
func (d *Door) Once(items []Item) Chosen {
	var c Chosen
	c.Left = map[int][]Left{}
	byKey := map[string]int{} // a file's key → its index in Keep
	bySize := map[int64][]int{}
	dropped := map[string]bool{} // the keys left out as copies
	byHash := map[[sha256.Size]byte]int{}
	// Whether a report that is none of recap's outputs is given: recap's
	// outputs named beside it are left out.
	others := false
	for _, it := range items {
		if it.Info == nil {
			continue
		}
		if !ownNamed(it.Name) {
			others = true
			break
		}
		if _, own := d.Own(it.Name, it.Info); !own {
			others = true
			break
		}
	}
	for i, it := range items {
		if it.Info == nil || it.Key == "" {
			c.Keep = append(c.Keep, i)
			continue
		}
		if dropped[it.Key] {
			continue
		}
		if k, ok := byKey[it.Key]; ok {
			why := SameFile
			if it.Name == items[c.Keep[k]].Name {
				why = GivenAgain
			}
			if !hasReason(c.Left[k], why, it.Name, items) {
				c.Left[k] = append(c.Left[k], Left{i, why})
			}
			continue
		}
		if it.Found && ownNamed(it.Name) {
			if _, own := d.Own(it.Name, it.Info); own {
				c.Own = append(c.Own, i)
				continue
			}
		}
		if !it.Found && others && d.ownReport(it) {
			c.Beside = append(c.Beside, i)
			continue
		}
		if k, dup := d.sameContent(it, len(c.Keep), items, c.Keep, bySize, byHash); dup {
			c.Left[k] = append(c.Left[k], Left{i, SameContent})
			dropped[it.Key] = true
			continue
		}
		byKey[it.Key] = len(c.Keep)
		c.Keep = append(c.Keep, i)
	}
	return c
}

// ownReport reports whether it is one of recap's outputs that is read as
// a report when named: its SARIF or Code Quality report.
func (d *Door) ownReport(it Item) bool {
	if it.Info == nil || !ownNamed(it.Name) {
		return false
	}
	o, own := d.Own(it.Name, it.Info)
	return own && o.Format != ""
}

// hasReason reports whether left says why already for an input of name
// (a path given three times is noted once).
func hasReason(left []Left, why Reason, name string, items []Item) bool {
	for _, l := range left {
		if l.Reason == why && (why == GivenAgain || items[l.Item].Name == name) {
			return true
		}
	}
	return false
}

// sameContent reports whether it has the content of a kept input, and
// which (by index into keep); else it notes it (to be kept at index k) by
// its size, or hash.
func (d *Door) sameContent(it Item, k int, items []Item, keep []int, bySize map[int64][]int, byHash map[[sha256.Size]byte]int) (int, bool) {
	size, ok := d.ContentSize(it.Name, it.Info)
	if !ok || size == 0 {
		return 0, false
	}
	pending, seen := bySize[size]
	if !seen {
		bySize[size] = []int{k}
		return 0, false
	}
	for _, j := range pending {
		o := items[keep[j]]
		if h, ok := d.Hash(o.Name, o.Info); ok {
			if _, dup := byHash[h]; !dup {
				byHash[h] = j
			}
		}
	}
	bySize[size] = pending[:0]
	h, ok := d.Hash(it.Name, it.Info)
	if !ok {
		return 0, false
	}
	if j, dup := byHash[h]; dup {
		return j, true
	}
	byHash[h] = k
	return 0, false
}

// ownNamed reports whether a name may be one of recap's outputs: it
// writes them as .sarif or .json, which may be gzip'd after (.gz).
func ownNamed(name string) bool {
	lower := strings.TrimSuffix(strings.ToLower(name), ".gz")
	return strings.HasSuffix(lower, ".sarif") || strings.HasSuffix(lower, ".json")
}
