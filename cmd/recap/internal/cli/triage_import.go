package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/review"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/recap-dev/recap/triage"
	"github.com/spf13/cobra"
)

// githubStates maps GitHub code scanning's dismissed reasons to states.
var githubStates = map[string]triage.State{
	"false positive": triage.FalsePositive,
	"won't fix":      triage.WontFix,
	"used in tests":  triage.UsedInTests,
	"mitigated":      triage.AcceptedRisk,
}

func newTriageImport(streams *IO) *cobra.Command {
	var (
		tf               triageFlags
		sarif            []string
		github           bool
		as               string
		repoSlug, apiURL string
	)
	cmd := &cobra.Command{
		Use:   "import (--sarif FILE... | --github) [flags] [INPUT...]",
		Short: "Take into the triage file what was decided elsewhere: SARIF suppressions, GitHub's dismissed alerts",
		Long: `import adds to the triage file the decisions made elsewhere:

--sarif FILE: the results of a SARIF log that are suppressed (suppressions,
each with the status accepted or none: not one underReview or rejected),
each an entry in the state --as says (default accepted-risk), its
justification the reason. A suppression that recap's SARIF wrote of a
triage decision keeps the decision's state (unless --as is given), by,
date, until and link.

--github: the code scanning alerts dismissed on GitHub (GET
/repos/{owner}/{repo}/code-scanning/alerts?state=dismissed, with
$GITHUB_TOKEN, the repository from --github-repo or $GITHUB_REPOSITORY),
each mapped to the finding of the INPUTs at the alert's rule, path and line:
false positive, won't fix and used in tests become those states, the
dismissal's comment the reason, its author by, its day date, the alert's page
the link. An alert that matches no finding is told and left out.`,
		Example: `  recap triage import --sarif build/reports/eslint.sarif
  GITHUB_TOKEN=… recap triage import --github --github-repo octo/shop build/reports/`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if (len(sarif) > 0) == github {
				return usageError("give --sarif FILE or --github (one of them)")
			}
			state, ok := triage.ParseState(as)
			if !ok {
				names := stateNames()
				return usageError("--as: %v", reports.UnknownWord("state", as, names, names))
			}
			if cmd.Flags().Changed("as") && github {
				return usageError("--as applies to --sarif: GitHub's dismissed reason gives each alert's state")
			}
			r, err := tf.open(cmd)
			if err != nil {
				return err
			}
			defer r.close()
			commit := r.commit()
			today := time.Now().UTC().Format(triage.DateLayout)
			var entries []triage.Entry
			var covering []string // by entry: the key of the entry that covers its finding now
			var failed bool
			if github {
				c, err := importGitHubClient(repoSlug, apiURL)
				if err != nil {
					return err
				}
				entries, covering, failed, err = importGitHub(cmd.Context(), streams, r, c, args, commit)
				if err != nil {
					return err
				}
			} else {
				entries, covering, failed, err = importSARIF(cmd.Context(), streams, r, sarif, state, cmd.Flags().Changed("as"), commit, today)
				if err != nil {
					return err
				}
			}
			n := 0
			var replaced []string // what the decisions imported replace
			if len(entries) > 0 {
				to, err := r.writePath()
				if err != nil {
					return err
				}
				err = triage.Update(to, func(f *triage.File) error {
					n, replaced = 0, replaced[:0]
					for i, e := range entries {
						// An entry that covers the result's finding under
						// another key (its file renamed since): the same
						// decision is unchanged; another replaces it.
						if i < len(covering) && covering[i] != "" && covering[i] != e.Key() {
							if old, ok := f.Get(covering[i]); ok {
								if old.State == e.State && old.Reason == e.Reason && old.Until == e.Until { // the same decision, where it was taken
									continue
								}
								f.Remove(func(x *triage.Entry) bool { return x.Key() == covering[i] })
								replaced = append(replaced, fmt.Sprintf("%s (was %s at %s)", entryName(&e, ""), old.State, render.InertLine(old.Path)))
							}
						}
						old, had := f.Get(e.Key())
						if f.Put(e) {
							n++
							if had {
								replaced = append(replaced, fmt.Sprintf("%s (was %s)", entryName(&e, ""), old.State))
							}
						}
					}
					return nil
				})
				if err != nil {
					return r.writeError(err)
				}
			}
			for _, w := range replaced {
				fmt.Fprintf(streams.Out, "replaced  %s\n", w)
			}
			fmt.Fprintf(streams.Out, "%s: %s imported, %d unchanged\n", r.rel, english.Plural(n, "decision", "decisions"), len(entries)-n)
			if failed {
				return errInputs
			}
			return nil
		},
	}
	tf.creates = true
	tf.register(cmd)
	f := cmd.Flags()
	f.StringArrayVar(&sarif, "sarif", nil, "a SARIF log whose suppressed results to import (repeatable)")
	f.BoolVar(&github, "github", false, "import the code scanning alerts dismissed on GitHub ($GITHUB_TOKEN)")
	f.StringVar(&as, "as", string(triage.AcceptedRisk), "--sarif: the state of the entries imported: "+statesList())
	f.StringVar(&repoSlug, "github-repo", "", "--github: the repository as OWNER/REPO (default: $GITHUB_REPOSITORY)")
	f.StringVar(&apiURL, "api-url", "", "--github: GitHub's REST API (default: $GITHUB_API_URL, else https://api.github.com)")
	return cmd
}

func importGitHubClient(slug, apiURL string) (*review.Client, error) {
	c := &review.Client{Token: os.Getenv("GITHUB_TOKEN"), APIURL: apiURL, RetryWait: 2e9, UserAgent: "recap/" + version(), WriteInterval: -1}
	if c.Token == "" {
		return nil, usageError("--github needs a token in GITHUB_TOKEN that may read code scanning alerts (security_events)")
	}
	if c.APIURL == "" {
		c.APIURL = os.Getenv("GITHUB_API_URL")
	}
	if slug == "" {
		slug = os.Getenv("GITHUB_REPOSITORY")
	}
	owner, repo, ok := strings.Cut(slug, "/")
	if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
		return nil, usageError("--github needs the repository as OWNER/REPO: --github-repo, or $GITHUB_REPOSITORY (got %q)", text.CutRunes(slug, maxEcho))
	}
	c.Owner, c.Repo = owner, repo
	return c, nil
}

// importSARIF makes an entry of each result of the logs that its
// suppressions suppress ([reports.Suppressed]).
func importSARIF(ctx context.Context, streams *IO, r *triageRepo, logs []string, state triage.State, stateGiven bool, commit, today string) (
	entries []triage.Entry, covering []string, failed bool, err error) {
	q := &pipeline.Query{Reports: pipeline.Files{Paths: logs, Options: parsers.ReadOptions{Root: r.root, Format: r.format, Uncounted: true}}}
	// The entries now, followed through renames: one that covers a result's
	// finding under another key is the same decision, or replaced.
	old, err := r.load()
	if err != nil {
		return nil, nil, false, err
	}
	m := triage.NewMatcher(old, r.croot.FS(), time.Now())
	_ = m.Follow(ctx, r.root)  // a warning of it is list's and check's to give
	var coveredKeys []string   // by entry
	covers := map[string]int{} // an entry's key → the findings of the log it covers
	outside, badProps, badProp := 0, 0, ""
	gone, goneFirst := 0, ""
	unkept, unkeptFirst := 0, "" // results whose entry the triage file cannot hold, or not on a line of their file
	var identified []bool        // by entry: the log names the finding decided, its location with it
	q.Keep.Each = func(f *reports.Finding, _ string) error {
		k := ""
		if d := m.Decide(f); d != nil {
			k = d.Entry.Key()
			covers[k]++
		}
		if f.Detail == nil || !f.Detail.Suppressed() {
			return nil
		}
		if f.Path == "" || filepath.IsAbs(f.Path) || strings.HasPrefix(f.Path, "../") || strings.Contains(f.Path, ":") {
			outside++
			return nil
		}
		if _, err := r.croot.Stat(f.Path); err != nil && !identifies(f.Detail.Suppressions) {
			gone++ // renamed or deleted since the log was made: its line cannot be read
			if goneFirst == "" {
				goneFirst = f.Path
			}
			return nil
		}
		var s *reports.Suppression
		for i := range f.Detail.Suppressions {
			if f.Detail.Suppressions[i].Suppresses() {
				s = &f.Detail.Suppressions[i]
				break
			}
		}
		e, err := triage.EntryOf(f, r.croot.FS())
		var gone *triage.NoSuchFileError
		if err != nil && !errors.As(err, &gone) { // a file gone: the log names the finding decided (above)
			if unkept++; unkeptFirst == "" {
				unkeptFirst = fmt.Sprintf("%s at %s:%d: %v", f.Rule, f.Path, f.Line, err)
			}
			return nil
		}
		e.State, e.Date, e.Commit = state, today, commit
		identified = append(identified, s.Properties != nil && s.Properties.Rule != "" && s.Properties.Location != "")
		if p := s.Properties; p != nil && p.Rule != "" {
			// recap's SARIF names the finding decided as its entry did,
			// with the commit it was decided on: the same entry comes back,
			// which follows its code (lines added above, a rename) as it
			// did, and decides that finding, not the problem's first one,
			// when it is another finding's.
			e.Tool, e.Rule, e.Path, e.Location, e.Line, e.Message = "", "", "", "", "", ""
		}
		// What recap's SARIF says of a triage decision: its state (unless
		// --as says), who took it, when, until when, and its link.
		s.Properties.Each(func(k, v string) {
			if k == "state" && stateGiven {
				return
			}
			if err := e.Set(k, v); err != nil {
				badProps++
				if badProp == "" {
					badProp = fmt.Sprintf("%s:%d: %s: %v", f.Path, f.Line, k, err)
				}
			}
		})
		e.Reason = strings.TrimSpace(s.Justification)
		if e.Reason == "" {
			e.Reason = "suppressed in the SARIF log (" + s.Kind + "), without a justification"
		}
		e.Reason = text.CutRunes(e.Reason, triage.MaxText)
		if err := e.Check(); err != nil {
			if unkept++; unkeptFirst == "" {
				unkeptFirst = fmt.Sprintf("%s at %s:%d: %v", f.Rule, f.Path, f.Line, err)
			}
			return nil
		}
		entries = append(entries, e)
		coveredKeys = append(coveredKeys, k)
		return nil
	}
	res, err := pipeline.Run(ctx, q)
	if err != nil {
		return nil, nil, false, queryError(err)
	}
	// An entry that covers other findings of the log than those imported
	// stays: the import adds beside it.
	covering = coveringOnly(coveredKeys, covers)
	reportInputs(streams.ErrOut, res.View, true)
	// An entry takes its line from the code as it is now, at the result's
	// line: a log older than the code puts it on another line.
	r.noteReports(res.View.Inputs)
	moved, why := 0, ""
	edited, editedLine := 0, ""
	for i := range entries {
		if identified[i] {
			// Its location, from the log, follows its code; but the code
			// may be gone from the file (edited or removed since, on this
			// branch): the entry would be stale at once.
			e := &entries[i]
			if src, err := readCapped(r.croot, e.Path); err == nil && e.Line != "" && triage.LineOf(src, e) == 0 {
				if edited++; editedLine == "" {
					editedLine = entryName(e, "")
				}
			}
			continue
		}
		if w := r.changedSinceLog(&entries[i]); w != "" {
			if moved++; why == "" {
				why = w
			}
		}
	}
	if edited > 0 {
		fmt.Fprintf(streams.ErrOut, "recap: warning: %s whose decided line is not in its file now (%s: edited or removed since the log was made): recap triage check says whether it still matches\n",
			english.Plural(edited, "entry imported", "entries imported"), text.CutRunes(editedLine, maxEcho))
	}
	if moved > 0 {
		fmt.Fprintf(streams.ErrOut, "recap: warning: %s may be on other lines than the log's results (%s): "+
			"check their line: with recap triage list, or import a log of the code as it is\n",
			english.Plural(moved, "entry imported", "entries imported"), text.CutRunes(why, maxEcho))
	}
	if badProps > 0 {
		fmt.Fprintf(streams.ErrOut, "recap: warning: %s of suppressions not taken (%s)\n",
			english.Plural(badProps, "property", "properties"), text.CutRunes(badProp, maxEcho))
	}
	if gone > 0 {
		fmt.Fprintf(streams.ErrOut, "recap: warning: %s in files this checkout does not have (%s: renamed or deleted since the log was made) left out: import a log of the code as it is\n",
			english.Plural(gone, "suppressed result", "suppressed results"), render.InertLine(goneFirst))
	}
	if outside > 0 {
		fmt.Fprintf(streams.ErrOut, "recap: warning: %s outside the repository %s left out (give --repo the repository the log was made on)\n",
			english.Plural(outside, "suppressed result", "suppressed results"), r.root)
	}
	warnUnkept(streams, unkept, unkeptFirst)
	return entries, covering, res.View.Failed(), nil
}

// warnUnkept says how many results were left out because their entry
// could not be kept: a name the triage file cannot hold, or a line past
// the end of its file (an entry there would cover every finding of its
// rule and message in the file).
func warnUnkept(streams *IO, n int, first string) {
	if n > 0 {
		fmt.Fprintf(streams.ErrOut, "recap: warning: %s left out, whose entry the triage file could not hold rightly (%s)\n",
			english.Plural(n, "result", "results"), render.InertLine(text.CutRunes(first, maxEcho)))
	}
}

// importGitHub maps each dismissed alert to the finding of the inputs at
// its rule, path and line.
func importGitHub(ctx context.Context, streams *IO, r *triageRepo, c *review.Client, inputs []string, commit string) (
	entries []triage.Entry, covering []string, failed bool, err error) {
	alerts, err := c.DismissedAlerts(ctx)
	if err != nil {
		return nil, nil, false, &exitError{code: exitUsage, err: fmt.Errorf("--github: %w", err)}
	}
	// The entries now, followed through renames (see importSARIF).
	old, err := r.load()
	if err != nil {
		return nil, nil, false, err
	}
	m := triage.NewMatcher(old, r.croot.FS(), time.Now())
	_ = m.Follow(ctx, r.root)
	covers := map[string]int{} // an entry's key → the findings of the inputs it covers
	coveredBy := map[*reports.Finding]string{}
	type place struct {
		path string
		line int
	}
	want := map[place][]int{}
	for i, a := range alerts {
		want[place{a.Path, a.Line}] = append(want[place{a.Path, a.Line}], i)
	}
	match := make([]*reports.Finding, len(alerts))
	failed, err = r.findings(ctx, streams, inputs, nil, false, func(f *reports.Finding) {
		k := ""
		if d := m.Decide(f); d != nil {
			k = d.Entry.Key()
			covers[k]++
		}
		for _, i := range want[place{f.Path, f.Line}] {
			if match[i] == nil && sameRule(alerts[i], f) {
				match[i] = f
				coveredBy[f] = k
			}
		}
	})
	if err != nil {
		return nil, nil, false, err
	}
	var coveredKeys []string // by entry
	unkept, unkeptFirst := 0, ""
	for i, a := range alerts {
		f := match[i]
		state, ok := githubStates[a.Reason]
		switch {
		case f == nil:
			fmt.Fprintf(streams.ErrOut, "recap: warning: alert #%d (%s at %s:%d): no finding of the inputs there; left out\n",
				a.Number, render.InertLine(a.Rule), render.InertLine(a.Path), a.Line)
			continue
		case !ok:
			fmt.Fprintf(streams.ErrOut, "recap: warning: alert #%d: dismissed as %q, which recap does not know; left out\n", a.Number, render.InertLine(a.Reason))
			continue
		}
		e, err := triage.EntryOf(f, r.croot.FS())
		if err != nil {
			if unkept++; unkeptFirst == "" {
				unkeptFirst = fmt.Sprintf("alert #%d, %s at %s:%d: %v", a.Number, f.Rule, f.Path, f.Line, err)
			}
			continue
		}
		e.State, e.By, e.Link, e.Commit = state, text.CutRunes(a.By, triage.MaxText), a.URL, commit
		e.Reason = strings.TrimSpace(a.Comment)
		if e.Reason == "" {
			e.Reason = "dismissed on GitHub as " + a.Reason
		}
		e.Reason = text.CutRunes(e.Reason, triage.MaxText)
		if t, err := time.Parse(time.RFC3339, a.At); err == nil {
			e.Date = t.UTC().Format(triage.DateLayout)
		}
		if !strings.HasPrefix(e.Link, "https://") && !strings.HasPrefix(e.Link, "http://") {
			e.Link = ""
		}
		if err := e.Check(); err != nil {
			if unkept++; unkeptFirst == "" {
				unkeptFirst = fmt.Sprintf("alert #%d, %s at %s:%d: %v", a.Number, f.Rule, f.Path, f.Line, err)
			}
			continue
		}
		entries = append(entries, e)
		coveredKeys = append(coveredKeys, coveredBy[f])
	}
	warnUnkept(streams, unkept, unkeptFirst)
	return entries, coveringOnly(coveredKeys, covers), failed, nil
}

// coveringOnly returns, by entry imported, the key of the entry that
// covers its finding now (coveredKeys) when it covers no other finding
// (covers counts them all): the import keeps it or replaces it; "" where
// it covers others too, or none.
func coveringOnly(coveredKeys []string, covers map[string]int) []string {
	imported := map[string]int{}
	for _, k := range coveredKeys {
		imported[k]++
	}
	out := make([]string, len(coveredKeys))
	for i, k := range coveredKeys {
		if k != "" && imported[k] == covers[k] {
			out[i] = k
		}
	}
	return out
}

// sameRule reports whether an alert's rule is the finding's: the same id,
// or the finding's rule the last part of a qualified id (a Checkstyle
// check's class name), the tool the same when the alert names one.
func sameRule(a review.DismissedAlert, f *reports.Finding) bool {
	if a.Tool != "" && !strings.EqualFold(a.Tool, f.Tool) {
		return false
	}
	if strings.EqualFold(a.Rule, f.Rule) {
		return true
	}
	short := func(s string) string {
		if i := strings.LastIndexAny(s, "./:"); i >= 0 {
			s = s[i+1:]
		}
		return strings.TrimSuffix(s, "Check")
	}
	return strings.EqualFold(short(a.Rule), short(f.Rule))
}

// changedSinceLog says why the file of e, an entry imported from a log,
// may not be the code the log describes, "" when nothing says so: it
// changed since the commit the log was made at (the commit that gave a
// committed log its content; HEAD when an uncommitted one was written),
// and the log was not written after it last changed.
func (r *triageRepo) changedSinceLog(e *triage.Entry) string {
	st, err := r.croot.Stat(e.Path)
	if err != nil {
		return ""
	}
	for _, in := range r.reports[strings.ToLower(e.Tool)] {
		base := in.then
		if in.committed {
			base = in.base
		}
		if base == "" || !in.committed && in.at.After(st.ModTime()) {
			continue // written after the file last changed: it describes the file as it is
		}
		if r.changedSince(base, e.Path, e.Path) {
			return fmt.Sprintf("%s changed since the commit %s describes, %s", render.InertLine(e.Path), render.InertLine(in.path), shortHash(base))
		}
	}
	return ""
}

// identifies says whether one of the accepted suppressions names the
// finding decided (recap's SARIF), whose entry needs nothing of the
// checkout's file.
func identifies(sups []reports.Suppression) bool {
	for i := range sups {
		if p := sups[i].Properties; sups[i].Suppresses() && p != nil && p.Rule != "" && p.Location != "" {
			return true
		}
	}
	return false
}
