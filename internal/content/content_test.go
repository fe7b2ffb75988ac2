package content

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestDecompress(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("hello"))
	zw.Close()
	for _, tc := range []struct {
		name, in, want, err string
		gzip                bool
	}{
		{"plain", "hello", "hello", "", false},
		{"gzip", gz.String(), "hello", "", true},
		{"one byte", "\x1f", "\x1f", "", false},
		{"empty", "", "", "", false},
		{"bad header", "\x1f\x8b\x00", "", "gzip: unexpected EOF", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			br := bufio.NewReader(strings.NewReader(tc.in))
			if got := IsGzip(br); got != tc.gzip {
				t.Errorf("IsGzip = %v", got)
			}
			r, err := Decompress(br)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(r)
			if err != nil || string(b) != tc.want {
				t.Errorf("read %q, %v; want %q", b, err, tc.want)
			}
		})
	}
}

func TestIsBinary(t *testing.T) {
	for _, tc := range []struct {
		in   []byte
		want bool
	}{
		{nil, false},
		{[]byte("text\n"), false},
		{[]byte("a\x00b"), true},
		{append(bytes.Repeat([]byte("a"), BinarySniffLen-1), 0), true},
		{append(bytes.Repeat([]byte("a"), BinarySniffLen), 0), false}, // past git's 8,000 bytes
	} {
		if got := IsBinary(tc.in); got != tc.want {
			t.Errorf("IsBinary(%.20q… %d bytes) = %v", tc.in, len(tc.in), got)
		}
	}
}

func TestPathErr(t *testing.T) {
	_, err := os.Open(filepath.Join(t.TempDir(), "missing"))
	if got := PathErr(err).Error(); got != "no such file or directory" {
		t.Errorf("PathErr = %q", got)
	}
	other := errors.New("is a directory")
	if PathErr(other) != other {
		t.Error("another error is changed")
	}
}

// TestGzipStreams: members are read one after the other; what follows a
// member and is not one, and a member cut short, are named as such; a bad
// checksum keeps compress/gzip's words.
func TestGzipStreams(t *testing.T) {
	member := func(s string) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(s))
		zw.Close()
		return b.Bytes()
	}
	one := member(strings.Repeat("hello ", 1000))
	badSum := slices.Clone(one)
	badSum[len(badSum)-8] ^= 0xff
	for _, tc := range []struct {
		name string
		in   []byte
		want string // read whole, or the error
	}{
		{"one member", one, strings.Repeat("hello ", 1000)},
		{"two members", append(member("a"), member("b")...), "ab"},
		{"junk after", append(slices.Clone(one), "<html>not a gzip member</html>"...), "gzip: what follows the compressed data (member 1) is not gzip (invalid header)"},
		{"a member cut after one", append(slices.Clone(one), 0x1f, 0x8b, 8), "gzip: what follows the compressed data (member 1) is not gzip (cut short)"},
		{"cut short", one[:len(one)/2], "gzip: the compressed data (member 1) is cut short"},
		{"bad checksum", badSum, "gzip: invalid checksum"},
	} {
		r, err := Decompress(bufio.NewReader(bytes.NewReader(tc.in)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		b, err := io.ReadAll(r)
		got := string(b)
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: %.80q, want %.80q", tc.name, got, tc.want)
		}
	}
}
