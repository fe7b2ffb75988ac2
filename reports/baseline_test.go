package reports

import (
	"reflect"
	"testing"
)

func TestBaseline(t *testing.T) {
	mk := func(rule, path string, line int, msg string) Finding {
		f := Finding{Tool: "PMD", Rule: rule, Path: path, Line: line, Message: msg, Severity: SeverityWarning}
		f.Fingerprint = Fingerprint(f, nil)
		return f
	}
	old := []Finding{
		mk("UnusedLocalVariable", "A.java", 10, "Avoid unused local variables such as 'x'."),
		mk("UnusedLocalVariable", "A.java", 20, "Avoid unused local variables such as 'y'."),
		mk("EmptyCatchBlock", "B.java", 5, "Avoid empty catch blocks"),
		mk("EmptyCatchBlock", "B.java", 9, "Avoid empty catch blocks"),
		mk("SystemPrintln", "C.java", 3, "Usage of System.out/err"),
	}
	cur := []Finding{
		mk("UnusedLocalVariable", "A.java", 14, "Avoid unused local variables such as 'x'."), // moved
		mk("UnusedLocalVariable", "A.java", 24, "Avoid unused local variables such as 'y'."), // moved
		mk("EmptyCatchBlock", "B.java", 5, "Avoid empty catch blocks"),
		mk("EmptyCatchBlock", "B.java", 9, "Avoid empty catch blocks"),
		mk("EmptyCatchBlock", "B.java", 30, "Avoid empty catch blocks"), // a third: new
		mk("UnusedLocalVariable", "A.java", 40, "Avoid unused local variables such as 'z'."),
	}
	b := NewBaseline()
	for _, f := range old {
		b.Add(f)
	}
	var got []string
	for i := range cur {
		b.Mark(&cur[i])
		got = append(got, cur[i].Baseline)
	}
	want := []string{"unchanged", "unchanged", "unchanged", "unchanged", "new", "new"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("states = %v, want %v", got, want)
	}
	if fixed := b.Fixed(); fixed != 1 {
		t.Errorf("fixed = %d, want 1 (the SystemPrintln finding)", fixed)
	}
	// A clone marks again from the matches left: the same states.
	c := NewBaseline()
	c.Scope = func(f *Finding) bool { return f.Path != "C.java" } // C.java did not change
	for _, f := range old {
		c.Add(f)
	}
	for i := 0; i < 2; i++ {
		d := c.Clone()
		got = got[:0]
		for j := range cur {
			got = append(got, d.State(&cur[j]))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("clone %d: states = %v, want %v", i, got, want)
		}
		if fixed := d.Fixed(); fixed != 0 {
			t.Errorf("clone %d: %d fixed, want 0 (C.java is out of scope)", i, fixed)
		}
	}
}

// TestBaselineDuplicates: findings that share a fingerprint match one for
// one, whatever their order among the others.
func TestBaselineDuplicates(t *testing.T) {
	b := NewBaseline()
	for i := 0; i < 1000; i++ {
		b.Add(Finding{Fingerprint: string(rune('a' + i%7))})
	}
	unchanged := 0
	for i := 0; i < 1200; i++ {
		if b.State(&Finding{Fingerprint: string(rune('a' + i%8))}) == BaselineUnchanged {
			unchanged++
		}
	}
	if unchanged != 1000 || b.Fixed() != 0 || b.Len() != 1000 {
		t.Errorf("%d unchanged, %d fixed of %d; want 1000, 0", unchanged, b.Fixed(), b.Len())
	}
}

// Mark sets f.Baseline to its [Baseline.State].
func (b *Baseline) Mark(f *Finding) { f.Baseline = b.State(f) }

// Len is the number of the baseline's findings.
func (b *Baseline) Len() int { return len(b.recs) }
