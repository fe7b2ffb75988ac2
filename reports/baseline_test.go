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
	fixed := b.Fixed()
	if len(fixed) != 1 || fixed[0].Rule != "SystemPrintln" || fixed[0].Baseline != BaselineFixed {
		t.Errorf("fixed = %+v want the SystemPrintln finding", fixed)
	}
}
