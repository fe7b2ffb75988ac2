package cli

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/recap-dev/recap/config"
	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/recap-dev/recap/triage"
	"github.com/spf13/cobra"
)

// commonFlags are the flags every report command shares.
type commonFlags struct {
	repo        string
	format      string
	inputFormat string
	maxChars    int
	maxResults  int
	unlocated   string
	config      string
	noGroup     bool
	output      string
	history     []string
	triage      string
	// triageFile and triageFS are the triage file the query honours and
	// the files its matcher reads, under triageRoot (set by loadTriage),
	// for decisions a review adds from replies.
	triageFile *triage.File
	triageFS   fs.FS
	triageRoot string
	// historyJob says that --history draws the job summary's trend too
	// (review --job-summary).
	historyJob bool
}

func (c *commonFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&c.repo, "repo", "", "repository root for paths and source context (default: the git top level of the current directory)")
	f.StringVar(&c.format, "format", render.Default(render.Findings), "output format: "+render.Help(render.Findings))
	f.IntVar(&c.maxChars, "max-chars", render.CommentLimit, "markdown: the most characters to write, findings left out whole beyond it (65536 fits a PR comment, 1048576 a job summary)")
	f.StringVar(&c.inputFormat, "input-format", "", "read every input as this report format ("+parsers.FormatNames()+") instead of detecting it")
	f.IntVar(&c.maxResults, "max-results", render.MaxRunResults, "sarif: the most results of each run, the most important first, the others counted in the run's properties (GitHub's code scanning takes 25000); 0 keeps all")
	c.registerConfig(cmd)
	f.StringVarP(&c.output, "output", "o", "", "write the output to this file instead of standard output (html: the page to open; the file is made or replaced)")
	f.StringArrayVar(&c.history, "history", nil, "html: recap's JSON summaries of earlier runs (recap summary --format json; files, or directories of .json files in name order), oldest first: the page draws the problems by impact of each run and this one (repeatable)")
	f.StringVar(&c.unlocated, "unlocated", "keep", "sarif: keep the findings without a file, with the place their tool gave (keep), or leave them out and count them (drop: GitHub's code scanning refuses an upload that has one)")
}

// registerConfig registers --config and --no-group, which every command
// that reads reports takes.
func (c *commonFlags) registerConfig(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&c.config, "config", "", "the configuration file: findings to exclude, rules to see differently, rules that report the same problem (default: .recap.yml or .recap.yaml at the repository root; see docs/config.md)")
	c.registerTriage(cmd)
	f.BoolVar(&c.noGroup, "no-group", false, "show every finding, also those that repeat another finding's problem at its place (by default each problem once, naming the other tools that reported it)")
}

// resolve checks the flags and returns the output format, its renderer
// set up by the flags, the input format override and the repository root.
func (c *commonFlags) resolve() (render.Format, parsers.Format, string, error) {
	out, err := render.Lookup(render.Findings, c.format)
	if err != nil {
		return out, "", "", usageError("--format: %v", err)
	}
	if c.maxChars < 1024 || c.maxChars > render.SummaryLimit {
		return out, "", "", usageError("--max-chars must be between 1024 and %d", render.SummaryLimit)
	}
	if _, ok := out.View.(render.Markdown); ok {
		out.View = render.Markdown{MaxChars: c.maxChars}
	}
	if c.maxResults < 0 {
		return out, "", "", usageError("--max-results must be 0 (all) or more")
	}
	if c.unlocated != "" && c.unlocated != "keep" && c.unlocated != "drop" {
		return out, "", "", usageError("--unlocated must be keep or drop")
	}
	if _, ok := out.View.(render.SARIF); ok {
		out.View = render.SARIF{MaxResults: c.maxResults, Version: version(), DropUnlocated: c.unlocated == "drop"}
	}
	if _, ok := out.View.(render.HTML); ok {
		runs, err := history(c.history)
		if err != nil {
			return out, "", "", err
		}
		out.View = render.HTML{Version: version(), History: runs}
	} else if len(c.history) > 0 && !c.historyJob {
		return out, "", "", usageError("--history applies to --format html and to review's --job-summary")
	}
	var in parsers.Format
	if c.inputFormat != "" {
		if in, err = parsers.ParseFormat(c.inputFormat); err != nil {
			return out, "", "", usageError("--input-format: %v", err)
		}
	}
	root, err := repoRoot(c.repo)
	if err != nil {
		return out, "", "", err
	}
	return out, in, root, nil
}

// query sets what the configuration and --no-group ask of q: the
// configuration file (--config, else the repository's own, see
// docs/config.md) and the grouping of the findings of one problem.
func (c *commonFlags) query(q *pipeline.Query, root string, errOut io.Writer) error {
	var err error
	if c.config != "" {
		q.Config, err = config.Load(c.config)
	} else {
		q.Config, err = config.LoadDir(root)
	}
	if err != nil {
		return usageError("%v", err)
	}
	if !c.noGroup {
		q.Classes = grouping.ClassOf
	}
	return c.loadTriage(q, root, errOut)
}

// repoRoot returns the repository root: --repo when given (it must be a
// directory), else the nearest directory above the current one that holds
// .git, else the current directory.
func repoRoot(flag string) (string, error) {
	if flag != "" {
		abs, err := filepath.Abs(flag)
		if err != nil {
			return "", usageError("--repo: %v", err)
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return "", usageError("--repo %s: not a directory", flag)
		}
		return abs, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir, nil
		}
		if filepath.Dir(dir) == dir {
			return wd, nil
		}
	}
}
