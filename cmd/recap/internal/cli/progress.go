package cli

import (
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progressMin is the input size from which reading shows a progress bar.
const progressMin = 4 << 20

// progress returns a parsers.ReadOptions.Wrap that shows a progress bar on
// stderr, driven by the bytes read, for each input of progressMin bytes or
// more; nil when stderr is not a terminal (a CI log or a file gets nothing).
func progress(errOut io.Writer) func(io.Reader, string, int64) io.Reader {
	f, ok := errOut.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return func(r io.Reader, name string, size int64) io.Reader {
		if size < progressMin {
			return r
		}
		bar := progressbar.NewOptions64(size,
			progressbar.OptionSetWriter(f),
			progressbar.OptionSetDescription("reading "+filepath.Base(name)),
			progressbar.OptionShowBytes(true),
			progressbar.OptionThrottle(65*time.Millisecond),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionSetWidth(30),
		)
		return &barReader{r: r, bar: bar}
	}
}

// barReader advances its bar by the bytes read, and clears it at the end.
type barReader struct {
	r   io.Reader
	bar *progressbar.ProgressBar
}

func (b *barReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.bar.Add(n)
	if err != nil {
		b.bar.Finish()
	}
	return n, err
}
