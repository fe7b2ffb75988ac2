package cli

import (
	"os"

	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/render"
)

// shownInLog reports whether the inputs' warnings are in the view already
// and standard output and standard error are one file (2>&1, a terminal,
// one CI log): a text or Markdown view that left nothing out to keep a
// budget shows them there, and standard error need not repeat them.
func shownInLog(streams *IO, format render.Format, v *summarize.View) bool {
	if !format.ShowsWarnings {
		return false
	}
	if len(v.Omitted) > 0 { // a budget may have left them out
		return false
	}
	return sameFile(streams.Out, streams.ErrOut)
}

func sameFile(a, b any) bool {
	fa, ok := a.(*os.File)
	fb, ok2 := b.(*os.File)
	if !ok || !ok2 {
		return false
	}
	sa, err := fa.Stat()
	sb, err2 := fb.Stat()
	return err == nil && err2 == nil && os.SameFile(sa, sb)
}
