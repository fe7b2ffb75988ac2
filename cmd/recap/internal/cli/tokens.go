package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/recap-dev/recap/inputs"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/recap-dev/recap/summarize/tokens"
	"github.com/spf13/cobra"
)

func newTokens(streams *IO) *cobra.Command {
	var tokenizer, format string
	var budget int
	cmd := &cobra.Command{
		Use:   "tokens [flags] FILE...",
		Short: "Count the tokens of files before loading them into a context window",
		Long: `tokens prints, for each FILE, its bytes, lines and tokens, then the total and,
when the total is over --budget, a recommendation. A directory stands for every
file under it (.git, .hg, .svn, node_modules and vendor left out). Files over
8 MiB are estimated from an exact count of their first MiB (marked ~). A gzip
file is counted decompressed.`,
		Example: `  recap tokens build/reports/pmd.sarif src/main/java/App.java
  recap tokens --tokenizer cl100k_base --budget 25000 --format json notes.md`,
		Args: needInputs("the files to count (files, or directories for every file under them)", "recap tokens build/reports/pmd.sarif"),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := tokens.New(tokenizer)
			if err != nil {
				return usageError("--tokenizer: %v", err)
			}
			if budget < 0 {
				return usageError("--budget must not be negative")
			}
			out, err := render.Lookup(render.TokenCounts, format)
			if err != nil {
				return usageError("--format: %v", err)
			}
			r := tokens.CountFiles(c, filesOf(args), budget)
			if err := out.Tokens(streams.Out, r); err != nil {
				return err
			}
			for _, f := range r.Files {
				if f.Error != "" {
					return errInputs
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&tokenizer, "tokenizer", tokens.Default, "how to count: "+strings.Join(tokens.Names(), ", ")+
		" (max: the larger of chars4 and the exact o200k_base count)")
	f.IntVar(&budget, "budget", 10000, "token budget the total is compared with")
	f.StringVar(&format, "format", render.Default(render.TokenCounts), "output format: "+render.Help(render.TokenCounts))
	return cmd
}

// filesOf is the files the arguments name: a directory stands for the
// regular files under it, in path order, the directories a report search
// leaves out left out; anything else is itself (and a row's error when it
// cannot be read).
func filesOf(args []string) []string {
	var files []string
	for _, arg := range args {
		if st, err := os.Stat(arg); err != nil || !st.IsDir() {
			files = append(files, arg)
			continue
		}
		n := len(files)
		filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				files = append(files, p) // its row says why it cannot be read
				if d != nil && d.IsDir() {
					return filepath.SkipDir
				}
			case d.IsDir() && p != arg && inputs.SkipDir(d.Name()):
				return filepath.SkipDir
			case d.Type().IsRegular():
				files = append(files, p)
			}
			return nil
		})
		if len(files) == n {
			files = append(files, arg) // an empty directory: its row says so
		}
	}
	return files
}
