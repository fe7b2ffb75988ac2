package parsers

import (
	"bufio"
	"io"
	"io/fs"
	"regexp"
	"strings"
)

// A SpotBugs bug about a field (UUF_UNUSED_FIELD, URF_UNREAD_FIELD,
// NM_FIELD_NAMING_CONVENTION, SS_SHOULD_BE_STATIC) has a SourceLine with no
// line: SpotBugs reads none from the bytecode. Its class's first line of
// code (the first field initialized, or the constructor) is another
// field's line, which a review would comment on, and which a change to
// that line would make "changed". The field's declaration is looked for
// in the class's source instead: the first line that declares a variable
// of the field's name and type (from its signature), within its class's
// lines and with a field's modifier (private, static…) first; found, the
// bug is put there, else on its class's first line.

// maxFieldSource bounds what is read of a source file to find a field.
const maxFieldSource = 4 << 20

// fieldLines finds fields' declarations in a report's source files,
// keeping the last file read (a class's bugs come together).
type fieldLines struct {
	fsys  fs.FS
	path  string
	lines []string
	reads int   // files read, bounded per report
	bytes int64 // bytes read, bounded per report
}

// maxFieldFiles and maxFieldBytes bound what one report reads of the
// source files for its fields' lines (a hostile one naming big files).
const (
	maxFieldFiles = 2000
	maxFieldBytes = 64 << 20
)

// line returns the line (1-based) of the field name, of the JVM type
// signature sig ("" unknown), in the file path; 0 when not found. A
// declaration within lines lo..hi (its class's code, 0 unknown) comes
// before one outside them: a nested class's field of the name of its
// outer class's is its own.
func (fl *fieldLines) line(path, name, sig string, lo, hi int) int {
	if fl == nil || fl.fsys == nil || path == "" || name == "" || !javaName.MatchString(name) || !fs.ValidPath(path) {
		return 0
	}
	if path != fl.path {
		if fl.reads >= maxFieldFiles || fl.bytes >= maxFieldBytes {
			return 0
		}
		fl.reads++
		fl.path, fl.lines = path, nil
		f, err := fl.fsys.Open(path)
		if err != nil {
			return 0
		}
		sc := bufio.NewScanner(io.LimitReader(f, maxFieldSource))
		sc.Buffer(make([]byte, 64<<10), maxFieldSource)
		for sc.Scan() {
			fl.lines = append(fl.lines, sc.Text())
			fl.bytes += int64(len(sc.Bytes()) + 1)
		}
		f.Close()
	}
	typ, array := sigType(sig)
	decl := regexp.MustCompile(`(^|[\s,])` + regexp.QuoteMeta(name) + `\s*(\[\s*\]\s*)*(=[^=]|;|,|$)`)
	var typed *regexp.Regexp
	if typ != "" {
		typed = regexp.MustCompile(`\b` + regexp.QuoteMeta(typ) + `\b`)
	}
	var best [4]int // in its class with a modifier, in its class, with a modifier, any: the first line of each
	in := func(n int) bool { return lo > 0 && hi >= lo && n >= lo && n <= hi }
	for i, l := range fl.lines {
		code := strings.TrimSpace(l)
		if strings.HasPrefix(code, "//") || strings.HasPrefix(code, "*") || strings.HasPrefix(code, "/*") {
			continue
		}
		if k := strings.Index(code, "//"); k >= 0 {
			code = code[:k]
		}
		m := decl.FindStringIndex(code)
		if m == nil {
			continue
		}
		raw := strings.TrimRight(code[:m[0]+1], " \t")
		before := strings.TrimRight(raw, ",")
		if before != raw && strings.IndexByte(before, '=') > 0 {
			// A declarator after another one and its value: "long a = 1, total".
			before = strings.TrimSpace(before[:strings.IndexByte(before, '=')])
			if len(strings.Fields(before)) < 2 {
				continue
			}
		}
		if before == "" || !typeBefore.MatchString(before) || strings.ContainsAny(before, "(=") {
			continue // an assignment, a call's argument
		}
		if typed != nil && !typed.MatchString(before) {
			continue
		}
		if array && !strings.Contains(code[:m[1]], "[") {
			continue
		}
		n, mod := i+1, fieldModifier.MatchString(before)
		for k, ok := range [4]bool{in(n) && mod, in(n), mod, true} {
			if ok && best[k] == 0 {
				best[k] = n
			}
		}
		if best[0] != 0 {
			break
		}
	}
	for _, n := range best {
		if n != 0 {
			return n
		}
	}
	return 0
}

var (
	javaName      = regexp.MustCompile(`^[\pL_$][\pL\pN_$]*$`)
	typeBefore    = regexp.MustCompile(`[\pL\pN_$>\]]$`)
	fieldModifier = regexp.MustCompile(`\b(private|protected|public|static|transient|volatile)\b`)
)

// sigType returns the simple name of the type a JVM field signature
// names ("I": int, "Ljava/util/List;": List, "[B": byte and an array),
// "" when it is not one.
func sigType(sig string) (name string, array bool) {
	for strings.HasPrefix(sig, "[") {
		sig, array = sig[1:], true
	}
	switch sig {
	case "Z":
		return "boolean", array
	case "B":
		return "byte", array
	case "C":
		return "char", array
	case "S":
		return "short", array
	case "I":
		return "int", array
	case "J":
		return "long", array
	case "F":
		return "float", array
	case "D":
		return "double", array
	}
	if strings.HasPrefix(sig, "L") && strings.HasSuffix(sig, ";") {
		n := sig[1 : len(sig)-1]
		n = n[strings.LastIndexAny(n, "/$")+1:]
		if javaName.MatchString(n) {
			return n, array
		}
	}
	return "", array
}
