package content

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
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
