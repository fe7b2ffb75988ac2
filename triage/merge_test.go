package triage

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// mergeEntry is an entry of PMD's rule on src/A.java as recap writes it;
// the file sorts them by rule.
func mergeEntry(rule, state, reason string) string {
	return "  - tool: PMD\n    rule: " + rule + "\n    path: src/A.java\n    state: " + state + "\n    reason: " + reason + "\n"
}

// mergeFile is a triage file of entries as recap writes it.
func mergeFile(entries ...string) string {
	if len(entries) == 0 {
		return "version: 1\nentries: []\n"
	}
	return "version: 1\nentries:\n" + strings.Join(entries, "")
}

func TestMerge(t *testing.T) {
	var (
		a      = mergeEntry("A", "false-positive", "checked")
		aLater = mergeEntry("A", "wont-fix", "later")
		aRisk  = mergeEntry("A", "accepted-risk", "a risk we take")
		b      = mergeEntry("B", "false-positive", "checked")
		c      = mergeEntry("C", "used-in-tests", "a fixture")
	)
	tests := map[string]struct {
		base, ours, theirs string
		want               string
		conflicts          int
	}{
		"add/add":                {mergeFile(a), mergeFile(a, b), mergeFile(a, c), mergeFile(a, b, c), 0},
		"add/add without a base": {"", mergeFile(b), mergeFile(a), mergeFile(a, b), 0},
		"add/add the same decision, another day": {"", mergeFile(b), mergeFile(strings.Replace(b, "reason: checked\n", "reason: checked\n    date: 2026-01-02\n", 1)),
			mergeFile(b), 0},
		"add/delete":                     {mergeFile(a, b), mergeFile(a, b, c), mergeFile(a), mergeFile(a, c), 0},
		"delete/delete":                  {mergeFile(a, b), mergeFile(b), mergeFile(b), mergeFile(b), 0},
		"unchanged/change":               {mergeFile(a, b), mergeFile(a, b), mergeFile(aLater, b), mergeFile(aLater, b), 0},
		"change/delete keeps the change": {mergeFile(a, b), mergeFile(aLater, b), mergeFile(b), mergeFile(aLater, b), 0},
		"change/change the same way":     {mergeFile(a), mergeFile(aLater), mergeFile(aLater), mergeFile(aLater), 0},
		"change/change conflict": {mergeFile(a, b), mergeFile(aLater, b), mergeFile(aRisk, b, c),
			"version: 1\nentries:\n<<<<<<< ours\n" + aLater + "=======\n" + aRisk + ">>>>>>> theirs\n" + b + c, 1},
		"add/add conflict": {mergeFile(b), mergeFile(aLater, b), mergeFile(aRisk, b),
			"version: 1\nentries:\n<<<<<<< ours\n" + aLater + "=======\n" + aRisk + ">>>>>>> theirs\n" + b, 1},
		"comments kept": {
			"# Decisions: see docs/triage.md.\n" + mergeFile(a, b),
			"# Decisions: see docs/triage.md.\n" + mergeFile("  # Ana checked it in the debugger.\n"+a, b),
			"# Decisions: see docs/triage.md.\n# Ask Bo first.\n" + mergeFile(a, strings.Replace(b, "reason: checked\n", "reason: checked # twice\n", 1), c),
			"# Decisions: see docs/triage.md.\n# Ask Bo first.\n" + mergeFile("  # Ana checked it in the debugger.\n"+a, strings.Replace(b, "reason: checked\n", "reason: checked # twice\n", 1), c), 0},
		"comments of both sides": {
			mergeFile(a),
			"# Ours.\n" + mergeFile(a),
			"# Theirs.\n" + mergeFile(a),
			"# Ours.\n" + mergeFile(a), 0},
		"line ends kept": {mergeFile(a), strings.ReplaceAll(mergeFile(a, b), "\n", "\r\n"), mergeFile(a, c),
			strings.ReplaceAll(mergeFile(a, b, c), "\n", "\r\n"), 0},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			var files [3]*File
			for i, in := range []string{tt.base, tt.ours, tt.theirs} {
				var err error
				if files[i], err = Parse("triage.yml", []byte(in)); err != nil {
					t.Fatal(err)
				}
			}
			got, conflicts, err := Merge(files[0], files[1], files[2])
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("Merge() mismatch (-want +got):\n%s", diff)
			}
			if len(conflicts) != tt.conflicts {
				t.Errorf("%d conflicts, want %d: %+v", len(conflicts), tt.conflicts, conflicts)
			}
			if tt.conflicts > 0 {
				if _, err := Parse("triage.yml", got); err == nil || !strings.Contains(err.Error(), "an unresolved merge conflict") {
					t.Errorf("the file with conflicts reads as %v", err)
				}
				return
			}
			// As recap writes it: written again, the same bytes.
			f, err := Parse("triage.yml", got)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := f.Marshal()
			if diff := cmp.Diff(string(got), string(again)); diff != "" {
				t.Errorf("not as recap writes it (-merged +rewritten):\n%s", diff)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	// What git's own merge leaves of two branches that each decided a
	// finding on neighbouring lines: the conflict cuts the entries.
	ours := mergeEntry("B", "wont-fix", "later")
	theirs := mergeEntry("C", "false-positive", "checked")
	a := mergeEntry("A", "false-positive", "checked")
	merge := "version: 1\nentries:\n" + a + "  - tool: PMD\n<<<<<<< HEAD\n" + strings.TrimPrefix(ours, "  - tool: PMD\n") +
		"=======\n" + strings.TrimPrefix(theirs, "  - tool: PMD\n") + ">>>>>>> other\n"
	diff3 := "version: 1\nentries:\n<<<<<<< HEAD\n" + a + ours + "||||||| base\n" + a + "=======\n" + a + theirs + ">>>>>>> other\n"
	pruned := "version: 1\nentries:\n<<<<<<< HEAD\n" + ours + "||||||| base\n" + a + "=======\n" + a + theirs + ">>>>>>> other\n"
	tests := map[string]struct {
		in, want string
		err      string
	}{
		"git's default style": {in: merge, err: "triage.yml: the conflicts hold no merge base (|||||||), without which the sides cannot be told apart surely: " +
			"run recap triage merge --resolve during the merge (git's index holds the three versions), or git checkout --conflict=diff3 on the file first"},
		"diff3 style":        {in: diff3, want: mergeFile(a, ours, theirs)},
		"markers of 9":       {in: strings.NewReplacer("<<<<<<<", "<<<<<<<<<", "|||||||", "|||||||||", "=======", "=========", ">>>>>>>", ">>>>>>>>>").Replace(diff3), want: mergeFile(a, ours, theirs)},
		"pruned on one side": {in: pruned, want: mergeFile(ours, theirs)},
		"CR LF":              {in: strings.ReplaceAll(diff3, "\n", "\r\n"), want: strings.ReplaceAll(mergeFile(a, ours, theirs), "\n", "\r\n")},
		"no conflict":        {in: mergeFile(a), err: "triage.yml: no merge conflict in it: nothing to resolve"},
		"no end":             {in: "version: 1\nentries:\n<<<<<<< HEAD\n" + a, err: "triage.yml:3: a conflict without its >>>>>>> line"},
		"markers out of place": {in: "version: 1\nentries:\n=======\n" + a,
			err: "triage.yml:3: ======= out of place (a conflict is <<<<<<<, our lines, ||||||| and the merge base's, =======, their lines, >>>>>>>): mend the markers, or take one side (git checkout --ours FILE)"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got, conflicts, err := Resolve("triage.yml", []byte(tt.in))
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("Resolve error %v, want %s", err, tt.err)
				}
				return
			}
			if err != nil || len(conflicts) > 0 {
				t.Fatalf("Resolve: %v, conflicts %+v", err, conflicts)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("Resolve() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestResolveFile: a file with conflicts is written merged; a file
// without is left as it is.
func TestResolveFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".recap", "triage.yml")
	a, b := mergeEntry("A", "false-positive", "checked"), mergeEntry("B", "wont-fix", "later")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("version: 1\nentries:\n<<<<<<< HEAD\n"+a+"||||||| base\n=======\n"+b+">>>>>>> other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if conflicts, err := ResolveFile(path); err != nil || len(conflicts) > 0 {
		t.Fatalf("ResolveFile: %v, conflicts %+v", err, conflicts)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(mergeFile(a, b), string(got)); diff != "" {
		t.Errorf("the file (-want +got):\n%s", diff)
	}
	if _, err := ResolveFile(path); !errors.Is(err, ErrNoConflict) {
		t.Errorf("ResolveFile of a merged file: %v, want ErrNoConflict", err)
	}
}

// TestMergeFilesMissing: a side that is no file is an error naming it,
// and OURS is left as it was: read as an empty file, a THEIRS written
// wrong would remove every decision OURS shares with BASE.
func TestMergeFilesMissing(t *testing.T) {
	a, b := mergeEntry("A", "false-positive", "checked"), mergeEntry("B", "wont-fix", "later")
	for i, side := range []string{"BASE", "OURS", "THEIRS"} {
		t.Run(side, func(t *testing.T) {
			dir := t.TempDir()
			paths := []string{filepath.Join(dir, "base.yml"), filepath.Join(dir, "ours.yml"), filepath.Join(dir, "theirs.yml")}
			for j, content := range []string{mergeFile(a), mergeFile(a, b), mergeFile(a)} {
				if err := os.WriteFile(paths[j], []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			paths[i] = filepath.Join(dir, "no-such.yml")
			_, err := MergeFiles(paths[0], paths[1], paths[2])
			if err == nil || !strings.Contains(err.Error(), paths[i]+" ("+side+"): no such file") {
				t.Errorf("err %v, want one naming %s as %s", err, paths[i], side)
			}
			if _, err := os.Stat(filepath.Join(dir, "no-such.yml")); err == nil {
				t.Errorf("the missing %s was written", side)
			}
			if got, _ := os.ReadFile(filepath.Join(dir, "ours.yml")); i != 1 && string(got) != mergeFile(a, b) {
				t.Errorf("OURS changed:\n%s", got)
			}
		})
	}
}
