package parsers

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/reports"
)

func TestPlace(t *testing.T) {
	root := emptyFiles(t, "src/main/java/a/A.java", "src/main/java/a/B.java", "README")
	tests := []struct { // in order: the placer learns as it goes
		name, in, want string
		placed         bool
	}{
		{"relative", "src/x/../A.java", "src/A.java", true},
		{"dot relative", "./src/A.java", "src/A.java", true},
		{"under the root", root + "/src/main/java/a/A.java", "src/main/java/a/A.java", true},
		{"windows separators", `src\main\A.java`, "src/main/A.java", true},
		{"ant glob prefix", "**/src/A.java", "src/A.java", true},
		{"made on CI, learned", "/home/runner/work/r/r/src/main/java/a/A.java", "src/main/java/a/A.java", true},
		{"made on CI, by the learned prefix", "/home/runner/work/r/r/src/gone/C.java", "src/gone/C.java", true},
		{"windows absolute, tail found", `C:\build\ws\src\main\java\a\B.java`, "src/main/java/a/B.java", true},
		{"outside, not found", "/opt/other/Z.java", "/opt/other/Z.java", false},
		{"parent escape", "../x/A.java", "../x/A.java", false},
		{"a lone base name is held", "/elsewhere/README", "/elsewhere/README", true},
		{"unc", `\\server\share\A.java`, "//server/share/A.java", false},
	}
	r, err := content.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p := newPlacer(root, r.FS())
	outside := 0
	for _, tc := range tests {
		// Twice in a row, as a report lists a file's findings: the second
		// is placed as the first (remembered), and counted alike.
		for range 2 {
			got := p.place(tc.in)
			if got != tc.want {
				t.Errorf("%s: place(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
			}
			if !tc.placed {
				outside++
			}
			if p.outside != outside {
				t.Fatalf("%s: %d unplaced, want %d", tc.name, p.outside, outside)
			}
		}
	}
	if !p.isHeld("/elsewhere/README") || p.isHeld("/opt/other/Z.java") {
		t.Error("held paths: /elsewhere/README not held, or /opt/other/Z.java held")
	}
	if got := p.settle("/elsewhere/README"); got != "/elsewhere/README" || p.outside != outside+1 {
		t.Errorf("settle without a learned root = %q, %d unplaced", got, p.outside)
	}
	if got := p.settle("/home/runner/work/r/r/README"); got != "README" {
		t.Errorf("settle under a learned root = %q", got)
	}
	var in reports.Input
	p.finish(&in)
	if len(in.Warnings) != 3 || !strings.Contains(in.Warnings[0], "/home/runner/work/r/r") ||
		!strings.HasPrefix(in.Warnings[2], "7 finding paths are outside the repository root") {
		t.Errorf("warnings = %q", in.Warnings)
	}
}

// TestPlaceFirstFileGone: a report made elsewhere whose first file is gone
// from its directory (renamed since) is placed from its directory's next
// file on: the gone file stays as given (its findings are not reordered),
// but its directory is not given up for it.
func TestPlaceFirstFileGone(t *testing.T) {
	root := emptyFiles(t, "src/main/java/a/A.java", "src/main/java/a/B.java")
	r, err := content.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p := newPlacer(root, r.FS())
	const gone = "/ci/r/src/main/java/a/Gone.java"
	if got := p.place(gone); got != gone || p.isHeld(gone) || p.outside != 1 {
		t.Errorf("place(%q) = %q, held %v, %d unplaced: want it as given", gone, got, p.isHeld(gone), p.outside)
	}
	if got := p.place("/ci/r/src/main/java/a/A.java"); got != "src/main/java/a/A.java" {
		t.Errorf("the directory's next file = %q: the root not learned", got)
	}
	if got := p.place("/ci/r/src/main/java/a/Gone2.java"); got != "src/main/java/a/Gone2.java" {
		t.Errorf("a file gone, once the root is learned = %q", got)
	}
	// Countless files gone from one directory: looked for up to a bound.
	q := newPlacer(root, r.FS())
	for i := range 3 * maxGoneFromDir {
		q.place(fmt.Sprintf("/ci/q/src/main/java/a/Gone%d.java", i))
	}
	if !q.failedDirs["/ci/q/src/main/java/a"] || q.outside != 3*maxGoneFromDir {
		t.Errorf("after %d files gone from one directory: failed %v, %d unplaced", 3*maxGoneFromDir, q.failedDirs["/ci/q/src/main/java/a"], q.outside)
	}
}

func TestURIPath(t *testing.T) {
	tests := []struct {
		uri, want string
		ok        bool
	}{
		{"file:///home/a/x.java", "/home/a/x.java", true},
		{"file:/C:/Users/x.java", "C:/Users/x.java", true},
		{"file:///C:/my/%E2%82%ACpath.cs", "C:/my/€path.cs", true},
		{"file:src/a%20b.java", "src/a b.java", true},
		{"hudson/E:/Dokumente%20und/A.java", "hudson/E:/Dokumente und/A.java", true}, // a colon after a slash: still relative
		{"src/T%C3%BCr.java", "src/Tür.java", true},
		{"file://notAvailable.ext", "notAvailable.ext", true},
		{"file://server/share/x", "//server/share/x", true},
		{"C:/x.java", "C:/x.java", true},
		{"https://example.com/x", "https://example.com/x", false},
		{"::::::/", "::::::/", false},
	}
	for _, tc := range tests {
		got, ok := uriPath(tc.uri)
		if got != tc.want || ok != tc.ok {
			t.Errorf("uriPath(%q) = %q, %v; want %q, %v", tc.uri, got, ok, tc.want, tc.ok)
		}
	}
}

func TestMessageText(t *testing.T) {
	tests := map[string]string{
		"  one line  ": "one line",
		"java.lang.NullPointerException\n\tat a.B.c(B.java:3)\n\tat d.E.f(E.java:9)\n\t... 4 more": "java.lang.NullPointerException",
		"first\r\nsecond":         "first\nsecond",
		"\n  a  \n\n\n\tb \r\n\n": "a\n\nb",
		"Package: x\r\nInstalled Version: 1\n\tat a.B.c(B.java:3)\nLink: y": "Package: x\nInstalled Version: 1\nLink: y",
		strings.Repeat("x", 1200): strings.Repeat("x", 999) + "…",
	}
	for in, want := range tests {
		if got := messageText(in); got != want {
			t.Errorf("messageText(%.30q) = %.40q, want %.40q", in, got, want)
		}
	}
}

func TestSourceResolver(t *testing.T) {
	t.Parallel()
	// A host directory outside the repository that holds the file a
	// hostile SrcDir names: it must never be looked at.
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(outside, "conf"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "conf", "passwd"), []byte("root:x:0:0"), 0o644); err != nil {
		t.Fatal(err)
	}
	repo := fstest.MapFS{
		"src/main/java/com/ex/A.java":   {},
		"src/test/java/com/ex/T.java":   {},
		"lib/src/com/ex/Twice.java":     {},
		"other/src/com/ex/Twice.java":   {},
		"src/main/java/com/ex/B.java":   {},
		"module/src/main/java/x/Y.java": {},
	}
	srcDirs := []string{
		outside, // hostile: holds conf/passwd on the host
		"/home/runner/work/shop/shop/src/main/java", // where CI ran SpotBugs
		"/home/runner/work/shop/shop/src/test/java",
		`C:\ci\shop\module\src\main\java`,
	}
	res := newSourceResolver("/repo", repo, srcDirs, nil)
	tests := []struct{ in, want string }{
		{"com/ex/A.java", "src/main/java/com/ex/A.java"}, // learns /home/runner/work/shop/shop
		{"com/ex/T.java", "src/test/java/com/ex/T.java"}, // second SrcDir, by the learned root
		{"x/Y.java", "module/src/main/java/x/Y.java"},    // a Windows SrcDir
		{"conf/passwd", "conf/passwd"},                   // not in the repository: kept as given
		{"com/ex/Twice.java", "com/ex/Twice.java"},       // two matches by suffix: ambiguous
		{`com\ex\B.java`, "src/main/java/com/ex/B.java"}, // Windows separators
		{"com/ex/Gone.java", "com/ex/Gone.java"},         // nowhere
	}
	for _, tc := range tests {
		if got := res.resolve(tc.in); got != tc.want {
			t.Errorf("resolve(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	var in reports.Input
	res.finish(&in)
	want := []string{
		"paths under /home/runner/work/shop/shop (where the report was made) were mapped onto the repository",
		"paths under C:/ci/shop (where the report was made) were mapped onto the repository",
		"1 SpotBugs source path matches several files in the repository; kept as given (first: com/ex/Twice.java (lib/src/com/ex/Twice.java, other/src/com/ex/Twice.java))",
		"2 SpotBugs source paths were not found in the source directories or the repository; kept as given (first: conf/passwd)",
	}
	if diff := cmp.Diff(want, in.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// TestSourceIndexShared: the SpotBugs reports of one reading walk the
// repository once; a walk stopped by its bound is said by each report that
// looked in it.
func TestSourceIndexShared(t *testing.T) {
	repo := fstest.MapFS{"src/main/java/com/ex/A.java": {}}
	for i := range 40 {
		repo[fmt.Sprintf("gen/F%02d.txt", i)] = &fstest.MapFile{}
	}
	walked := &countingFS{FS: repo}
	dir := t.TempDir()
	report := `<BugCollection version="4.8.2"><Project></Project>` +
		`<BugInstance type="NP_NULL" priority="1" rank="5" category="CORRECTNESS"><SourceLine classname="com.ex.A" start="3" end="3" sourcepath="com/ex/A.java"/></BugInstance></BugCollection>`
	var names []string
	for _, n := range []string{"a/spotbugs.xml", "b/spotbugs.xml", "c/spotbugs.xml"} {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(report+"<!-- "+n+" -->"), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, p)
	}
	read := func() ([]string, []reports.Input) {
		var paths []string
		inputs, err := ReadAll(names, ReadOptions{Root: "/repo", FS: walked}, func(f reports.Finding) error {
			paths = append(paths, f.Path)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return paths, inputs
	}
	paths, _ := read()
	if diff := cmp.Diff([]string{"src/main/java/com/ex/A.java", "src/main/java/com/ex/A.java", "src/main/java/com/ex/A.java"}, paths); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	if walked.rootReads != 1 {
		t.Errorf("the repository was walked %d times for 3 reports, want once", walked.rootReads)
	}

	defer func(n int) { maxIndexedFiles = n }(maxIndexedFiles)
	maxIndexedFiles = 10
	_, inputs := read()
	for _, in := range inputs {
		if !slices.Contains(in.Warnings, "the search of the repository for SpotBugs source paths stopped (it listed 10 files, its bound): files further on were not looked at") {
			t.Errorf("%s: %q", in.Path, in.Warnings)
		}
	}
}

// countingFS counts the listings of its root.
type countingFS struct {
	fs.FS
	rootReads int
}

func (c *countingFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == "." {
		c.rootReads++
	}
	return fs.ReadDir(c.FS, name)
}

// TestSrcDirThroughLink: a SpotBugs source directory that a link in the
// repository leads out of is never looked at, not even to see whether a
// file exists there (a report could otherwise probe the host, as a link
// to /etc with <SrcDir>REPO/etc</SrcDir> and sourcepath="shadow" would):
// the file outside stays unplaced. A link that stays inside is followed.
func TestSrcDirThroughLink(t *testing.T) {
	top := t.TempDir()
	repo, outside := filepath.Join(top, "repo"), filepath.Join(top, "host")
	for _, f := range []string{"repo/src/main/java/com/ex/In.java", "host/com/ex/Leak.java", "host/shadow"} {
		p := filepath.Join(top, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"etc":  outside,         // absolute, out
		"up":   "../host",       // relative, out
		"java": "src/main/java", // relative, in
	} {
		if err := os.Symlink(target, filepath.Join(repo, link)); err != nil {
			t.Fatal(err)
		}
	}
	report := `<BugCollection version="4.8.2"><Project>` +
		`<SrcDir>` + repo + `/etc</SrcDir><SrcDir>` + repo + `/up</SrcDir><SrcDir>` + repo + `/java</SrcDir></Project>`
	for _, sp := range []string{"shadow", "com/ex/Leak.java", "com/ex/In.java"} {
		report += `<BugInstance type="X" priority="1" rank="5" category="CORRECTNESS"><SourceLine classname="c" start="1" end="1" sourcepath="` + sp + `" primary="true"/></BugInstance>`
	}
	report += `</BugCollection>`
	findings, in := ParseAll(strings.NewReader(report), "spotbugs.xml", ReadOptions{Root: repo})
	var got []string
	for _, f := range findings {
		got = append(got, f.Path)
	}
	if diff := cmp.Diff([]string{"shadow", "com/ex/Leak.java", "java/com/ex/In.java"}, got); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	if !strings.Contains(strings.Join(in.Warnings, "\n"), "2 SpotBugs source paths were not found") {
		t.Errorf("warnings %q", in.Warnings)
	}
}

// emptyFiles makes a temporary repository of empty files at the given
// slash paths, and returns its root.
func emptyFiles(t *testing.T, files ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestTopNames: what the root's listing settles about a path, and what
// it leaves to the file system.
func TestTopNames(t *testing.T) {
	root := emptyFiles(t, "src/main/A.java", "README", "Docs/guide.md")
	if err := os.Symlink("src", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	r, err := content.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	top := listTop(r.FS())
	tests := []struct {
		rel      string
		dir      bool
		is, sure bool
	}{
		{"src/main/A.java", false, false, false}, // under a listed directory: asked
		{"missing/main/A.java", false, false, true},
		{"missing", true, false, true},
		{"README", false, true, true},
		{"README", true, false, true},
		{"src", false, false, true},
		{"src", true, true, true},
		{"README/x", false, false, true},
		{"link/main/A.java", false, false, false}, // a link: asked
		{"docs/guide.md", false, false, false},    // Docs in another case: asked
		{"Docs/guide.md", false, false, false},
		{"é/x", false, false, false}, // not ASCII: asked
		{".", true, false, false},
	}
	for _, tc := range tests {
		if is, sure := top.settles(tc.rel, tc.dir); is != tc.is || sure != tc.sure {
			t.Errorf("settles(%q, dir %v) = %v, sure %v; want %v, %v", tc.rel, tc.dir, is, sure, tc.is, tc.sure)
		}
	}
	// A root past the bound settles nothing.
	big := fstest.MapFS{}
	for i := range maxTopNames + 1 {
		big[fmt.Sprintf("f%d", i)] = &fstest.MapFile{}
	}
	if _, sure := listTop(big).settles("missing/A.java", false); sure {
		t.Error("a root of more than maxTopNames names settled a path")
	}
}

// statCounter counts the looks at paths of its file system.
type statCounter struct {
	fs.FS
	stats int
}

func (c *statCounter) Stat(name string) (fs.FileInfo, error) {
	c.stats++
	return fs.Stat(c.FS, name)
}

// TestPlaceMissingNamesNotAsked: the tails of a report made elsewhere
// whose first names the root does not have cost no look at the file
// system (a report of 4,808 files made on CI cost 36,000 failed opens),
// and the file that is there is still found.
func TestPlaceMissingNamesNotAsked(t *testing.T) {
	root := emptyFiles(t, "spring-web/src/main/java/A.java")
	r, err := content.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	fsys := &statCounter{FS: r.FS()}
	p := newPlacer(root, fsys)
	for i := range 100 {
		abs := fmt.Sprintf("/home/runner/work/o/o/other-%d/src/main/java/org/x/B%d.java", i, i)
		if got := p.place(abs); got != abs {
			t.Fatalf("place(%q) = %q", abs, got)
		}
	}
	if fsys.stats != 0 {
		t.Errorf("%d looks at the file system for 100 paths whose names the root lacks, want 0", fsys.stats)
	}
	const there = "/home/runner/work/o/o/spring-web/src/main/java/A.java"
	if got := p.place(there); got != "spring-web/src/main/java/A.java" {
		t.Errorf("place(%q) = %q", there, got)
	}
}
