package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestProgressBar: reading an input of 4 MB or more shows a bar on stderr
// when stderr is a terminal (a real PTY, by script(1)), and writes nothing
// to stderr when it is not.
func TestProgressBar(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<checkstyle version="8.36.1">` + "\n" + `<file name="src/A.java">` + "\n")
	for b.Len() < 5<<20 {
		b.WriteString(`<error line="3" column="5" severity="warning" message="Line is longer than 80 characters (found 95)." source="com.puppycrawl.tools.checkstyle.checks.sizes.LineLengthCheck"/>` + "\n")
	}
	b.WriteString("</file>\n</checkstyle>\n")
	report := filepath.Join(t.TempDir(), "big-checkstyle.xml")
	if err := os.WriteFile(report, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(bin, "summary", report)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr is not a terminal, yet recap wrote %q", stderr.String())
	}

	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("script(1) not found: the bar on a terminal is not checked")
	}
	log := filepath.Join(t.TempDir(), "tty.log")
	out, err := exec.Command(script, "-qc", bin+" summary "+report+" >/dev/null", log).CombinedOutput()
	if err != nil {
		t.Fatalf("script: %v\n%s", err, out)
	}
	got, _ := os.ReadFile(log)
	if !strings.Contains(string(got), "reading big-checkstyle.xml") || !strings.Contains(string(got), "%") {
		t.Errorf("no progress bar on the terminal:\n%q", got)
	}
}
