package tokens

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

func TestCount(t *testing.T) {
	tests := []struct {
		counter, text string
		want          int
	}{
		{Chars4, "", 0},
		{Chars4, "abcd", 1},
		{Chars4, "abcde", 2},
		{Chars4, "ééééé", 2}, // runes, not bytes
		{O200k, "hello world", 2},
		{Cl100k, "hello world", 2},
		{O200k, "<|endoftext|>", 7},                   // special tokens are counted as text
		{Max, "hello world", 3},                       // chars4 (11 runes → 3) beats o200k (2)
		{Max, "1234567890 0987654321 1234567890", 14}, // o200k (14) beats chars4 (8) on digits
	}
	for _, tc := range tests {
		c, err := New(tc.counter)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Count(tc.text); got != tc.want {
			t.Errorf("%s.Count(%q) = %d, want %d", tc.counter, tc.text, got, tc.want)
		}
	}
	if _, err := New("gpt9"); err == nil {
		t.Error("New(gpt9) succeeded")
	}
}

func TestMaxIsNeverBelowEither(t *testing.T) {
	m, _ := New(Max)
	o, _ := New(O200k)
	for _, s := range []string{`{"a":[1,2,3],"b":"x"}`, strings.Repeat("    indented line\n", 40), "naïve café ünïcödé"} {
		if n := m.Count(s); n < o.Count(s) || n < (chars4{}).Count(s) {
			t.Errorf("max(%q) = %d is below one of its parts", s, n)
		}
	}
}

func BenchmarkCount(b *testing.B) {
	text := strings.Repeat(`{"id":"k3xq-12","tool":"PMD","rule":"UnusedLocalVariable","message":"Avoid unused local variables such as 'x'."}`+"\n", 1000)
	for _, name := range Names() {
		c, err := New(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for i := 0; i < b.N; i++ {
				c.Count(text)
			}
		})
	}
}

func TestCountFiles(t *testing.T) {
	dir := t.TempDir()
	small := dir + "/a.txt"
	big := dir + "/big.json"
	if err := os.WriteFile(small, []byte("hello world\nsecond line"), 0o644); err != nil {
		t.Fatal(err)
	}
	line := `{"id":"k3xq-12","message":"Avoid unused local variables such as 'x'."}` + "\n"
	if err := os.WriteFile(big, []byte(strings.Repeat(line, ExactLimit/len(line)+1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	c, _ := New(Chars4)
	r := CountFiles(c, []string{small, big, dir + "/missing"}, 1000)
	if f := r.Files[0]; f.Bytes != 23 || f.Lines != 2 || f.Tokens != 6 || f.Estimated {
		t.Errorf("small file: %+v", f)
	}
	exact := c.Count(strings.Repeat(line, ExactLimit/len(line)+1000))
	if f := r.Files[1]; !f.Estimated || f.Tokens < exact*99/100 || f.Tokens > exact*101/100 {
		t.Errorf("big file: %+v, exact %d", f, exact)
	}
	if f := r.Files[2]; f.Error != "no such file or directory" {
		t.Errorf("missing file: %+v", f)
	}
	if r.Total.Tokens != r.Files[0].Tokens+r.Files[1].Tokens || !strings.Contains(r.Recommendation, "the budget of 1000") {
		t.Errorf("total %+v, recommendation %q", r.Total, r.Recommendation)
	}
	if r := CountFiles(c, []string{small}, 1000); r.Recommendation != "" {
		t.Errorf("recommendation under budget: %q", r.Recommendation)
	}
}

// TestChunkedCount: counting a text line by line (with kept counts) gives
// the codec's count of the whole text, on recap-like JSON and on random
// texts built from the characters where pre-tokens could cross a line:
// white space of every kind, line breaks, slashes, punctuation, digits and
// letters.
func TestChunkedCount(t *testing.T) {
	finding := `{
  "id": "k3xq-12",
  "tool": "PMD",
  "rule": "UnusedLocalVariable",
  "message": "Avoid unused local variables such as 'x'.",
  "path": "src/main/java/org/example/Foo.java",
  "line": 120,
  "context": [
    "    int x = 3;",
    "    // a comment /* with */ slashes",

    "}"
  ]
},
`
	texts := []string{strings.Repeat(finding, 50), strings.Repeat("a\n\n  \n/b\n", 200),
		"      " + strings.ReplaceAll(strings.Repeat(finding, 20), "\n", "\n      "),
		"  \n  x\n   \n    1\n  'll\n  /x\n", "   \t  x\n  \u00a0 y\n"}
	pieces := []string{"\n", "\r\n", "\n\n", " ", "  ", "\t", "\u00a0", "\u2028", "\u3000", "\u0085", "/", "//", "*/", "}", "},", `"`, "'s", "'LL",
		"1", "123", "4567", "abc", "Word", "ÉCOLE", "naïve", "日本", "x", ".", "\v", "\f",
		`":"`, `","`, "-", "_", ".java", "'", "e\u0301", "\u0301", "ǅ", "ʰ", "ª", "²", "Ⅻ", "it's", "I'M", "'re", "'ve", "'d"}
	rng := rand.New(rand.NewSource(1))
	for range 2000 {
		var b strings.Builder
		for range 20 + rng.Intn(300) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	checkChunked(t, texts)
}

// TestChunkedCountOnCorpus: the same on real text, every report of the
// corpus (JSON, XML, messages, code).
func TestChunkedCountOnCorpus(t *testing.T) {
	dir, files := reportstest.Corpus(t)
	var texts []string
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > 100<<10 {
			data = data[:100<<10]
		}
		texts = append(texts, string(data))
	}
	checkChunked(t, texts)
}

// checkChunked checks that both codecs count each text by chunks as whole,
// the first time and from kept counts.
func checkChunked(t *testing.T, texts []string) {
	t.Helper()
	for _, name := range []string{O200k, Cl100k} {
		c, err := New(name)
		if err != nil {
			t.Fatal(err)
		}
		b := c.(bpeCounter)
		for _, text := range texts {
			for range 2 { // the second time from kept counts
				if got, want := b.Count(text), b.count(text); got != want {
					t.Fatalf("%s: counted by chunks %d, whole %d: %q", name, got, want, text)
				}
			}
		}
	}
}

// FuzzChunkedCount: on any text, counting by chunks gives the codec's count
// of the whole text.
func FuzzChunkedCount(f *testing.F) {
	for _, s := range []string{"{\"a\":\"b\",\n  \"c\": 12}\n", "it's\n  \n/x", "  x\n\n\ty'LL", "é\u0301a1b2", "abc\r\n   /*x*/"} {
		f.Add(s)
	}
	c, err := New(O200k)
	if err != nil {
		f.Fatal(err)
	}
	b := c.(bpeCounter)
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := b.Count(s), b.count(s); got != want {
			t.Errorf("counted by chunks %d, whole %d: %q", got, want, s)
		}
	})
}

// TestCheck: Check takes the names New takes and refuses the others with
// New's own message.
func TestCheck(t *testing.T) {
	for _, name := range append(Names(), "", "o200k", "MAX", "gpt-4") {
		_, newErr := New(name)
		err := Check(name)
		if (err == nil) != (newErr == nil) || (err != nil && err.Error() != newErr.Error()) {
			t.Errorf("%q: Check says %v, New %v", name, err, newErr)
		}
		if err != nil && !strings.Contains(err.Error(), fmt.Sprintf("%q", name)) {
			t.Errorf("%q: %v does not name it", name, err)
		}
	}
}
