package diff_test

import (
	"strings"
	"testing"

	"github.com/recap-dev/recap/diff"
)

func parse(t *testing.T, text string) []diff.File {
	t.Helper()
	files, err := diff.Parse("t.diff", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return files
}
