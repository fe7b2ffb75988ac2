package tokens

import (
	"os"
	"strings"
	"testing"
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
