package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/recap-dev/recap/config"
	"github.com/recap-dev/recap/diff"
	"github.com/recap-dev/recap/grouping"
	"github.com/recap-dev/recap/internal/content"
	"github.com/recap-dev/recap/internal/english"
	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize/render"
	"github.com/recap-dev/recap/triage"
	"github.com/spf13/cobra"
)

// triageFlags are the flags every triage command shares: where the
// repository, its configuration and the reports are.
type triageFlags struct {
	repo, config, inputFormat string
	file                      string // --triage: the triage file named, not the repository's
	// creates: the command writes the file named, and makes it when
	// there is none (deciding, importing); the others refuse a file that
	// is not there.
	creates bool
	// problems: the command judges entries by the problems of their
	// findings (list: the entries a confirmation overrules).
	problems bool
}

func (t *triageFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&t.repo, "repo", "", "repository root: the triage file, the source the entries are matched on, the reports' paths (default: the git top level of the current directory)")
	f.StringVar(&t.config, "config", "", "the configuration file, whose triage key names the triage file (default: .recap.yml or .recap.yaml at the repository root; the triage file is .recap/triage.yml unless it says otherwise)")
	f.StringVar(&t.inputFormat, "input-format", "", "read every input as this report format ("+parsers.FormatNames()+") instead of detecting it")
	f.StringVar(&t.file, "triage", "", "the triage file (default: "+triage.DefaultPath+" at the repository root, or what the configuration's triage key names)")
}

// triageRepo is the repository a triage command works on.
type triageRepo struct {
	root   string // absolute
	croot  *content.Root
	cfg    *config.Config
	path   string // the triage file, absolute
	rel    string // the triage file, as messages name it (relative to root, or as --triage named it)
	given  bool   // --triage named it
	format parsers.Format
	// tools are the tools the inputs read are of (lower case), known once
	// findings ran: an entry of another tool is not checked by them, so
	// neither stale nor pruned.
	tools map[string]bool
	// written is each tool's oldest report among the inputs, named the
	// paths their findings name: a report older than the code makes
	// entries look stale that are not (see outdated).
	reports map[string][]reportInfo
	named   namedPaths
	// git and opened read the files at the reports' and entries' commits
	// (outdated); noGit: the root is in no repository.
	git    *diff.Repo
	noGit  bool
	opened map[string]func(string) (io.ReadCloser, int64, error)
	// changed: whether a file changed since a commit (changedSince).
	changed map[string]bool
	// inputs are the inputs the last findings read.
	inputs []reports.Input
	// problems, when not nil, groups the findings of the pass of matcher
	// into problems, for list to tell the entries a confirmation
	// overrules.
	problems *problemPass
	// firstMatch is, of each entry that matched a finding of the pass of
	// matcher (by its index), the first such finding (list shows where).
	firstMatch map[int]*matchedFinding
}

// matchedFinding is a finding an entry matches now, as list names it.
type matchedFinding struct {
	ID   reports.FindingID `json:"id"`
	Path string            `json:"path"`
	Line int               `json:"line,omitempty"`
}

// checks reports whether the inputs read are of the tool of entry e (a
// report of that tool that no longer has the finding makes it stale).
func (r *triageRepo) checks(e *triage.Entry) bool { return r.tools[strings.ToLower(e.Tool)] }

// noteTools adds the tools the inputs name and those of their findings.
func (r *triageRepo) noteTools(ins []reports.Input, found map[string]bool) {
	if r.tools == nil {
		r.tools = map[string]bool{}
	}
	for _, in := range ins {
		if in.LeftOut || in.Error != "" && in.Findings == 0 {
			continue
		}
		// A report of several tools names them joined ("Checkstyle, PMD,
		// SpotBugs"), the last of many as "and 3 more tools": those are
		// known by their findings alone.
		for _, t := range strings.Split(in.Tool, ", ") {
			if t != "" && !strings.HasPrefix(t, "and ") {
				r.tools[strings.ToLower(t)] = true
			}
		}
	}
	for t := range found {
		r.tools[strings.ToLower(t)] = true
	}
}

func (t *triageFlags) open(cmd *cobra.Command) (*triageRepo, error) {
	if err := emptyFlags(cmd); err != nil {
		return nil, err
	}
	root, err := repoRoot(t.repo)
	if err != nil {
		return nil, err
	}
	r := &triageRepo{root: root}
	if t.inputFormat != "" {
		if r.format, err = parsers.ParseFormat(t.inputFormat); err != nil {
			return nil, usageError("--input-format: %v", err)
		}
	}
	if t.config != "" {
		r.cfg, err = config.Load(t.config)
	} else {
		r.cfg, err = config.LoadDir(root)
	}
	if err != nil {
		return nil, usageError("%v", err)
	}
	r.rel = triage.DefaultPath
	if r.cfg != nil && r.cfg.Triage != "" {
		r.rel = r.cfg.Triage
	}
	r.path = filepath.Join(root, filepath.FromSlash(r.rel))
	if t.file != "" {
		// Named on the command line: read and written where it is, and
		// named as it was given.
		if r.path, err = filepath.Abs(t.file); err != nil {
			return nil, usageError("--triage: %v", err)
		}
		r.rel, r.given = t.file, true
		if _, err := os.Stat(r.path); err != nil && (!t.creates || !errors.Is(err, fs.ErrNotExist)) {
			return nil, usageError("--triage: %v", err)
		}
	}
	if r.croot, err = content.OpenRoot(root); err != nil {
		return nil, usageError("--repo: %v", err)
	}
	return r, nil
}

// writePath is where the triage file is written: its path, or, when it
// is a link, the file the link leads to, inside the repository (or
// anywhere, for a file --triage names), written in place as it is read.
// A link out of the repository stays as it is: writing through it fails,
// as reading it does.
func (r *triageRepo) writePath() (string, error) {
	if !r.given {
		// The repository's own (.recap.yml's place): inside it, never in
		// .git, through links too.
		rel, err := filepath.Rel(r.root, r.path)
		if err != nil || !filepath.IsLocal(rel) {
			return r.path, nil
		}
		to, err := triage.WriteTarget(r.root, filepath.ToSlash(rel))
		if err != nil {
			return "", &exitError{code: exitUsage, err: err}
		}
		return filepath.Join(r.root, filepath.FromSlash(to)), nil
	}
	to, err := triage.WriteTargetGiven(r.path)
	if err != nil {
		return "", &exitError{code: exitUsage, err: err}
	}
	return to, nil
}

// writeError is the command's error when writing the triage file failed:
// a system's error names the file (it names the lock, or a directory's
// entry, alone).
func (r *triageRepo) writeError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && !strings.Contains(err.Error(), r.rel) {
		err = fmt.Errorf("%s: %w", r.rel, err)
	}
	return &exitError{code: exitUsage, err: err}
}

func (r *triageRepo) close() {
	r.croot.Close()
	if r.git != nil {
		r.git.Close()
	}
}

// load reads the triage file (none is an empty one).
func (r *triageRepo) load() (*triage.File, error) {
	if r.given {
		f, err := triage.LoadFile(r.path)
		if err != nil {
			return nil, usageError("%v", err)
		}
		f.Name = r.rel
		return f, nil
	}
	f, err := triage.Load(r.croot.FS(), r.rel)
	if err != nil {
		return nil, usageError("%v", err)
	}
	return f, nil
}

// commit is HEAD's commit, "" outside a repository.
func (r *triageRepo) commit() string { return headCommit(r.root) }

// headCommit is the commit HEAD names in the repository at root, "" when
// there is none.
func headCommit(root string) string {
	repo, err := diff.Open(root)
	if err != nil {
		return ""
	}
	defer repo.Close()
	c, err := repo.Commit("HEAD")
	if err != nil {
		return ""
	}
	return c.Hash.String()
}

// findings reads the inputs (the repository root searched when none is
// given) and hands each finding that flt keeps to each, a copy it may keep;
// with suppressed, the results the reports suppress too (no id: recap's
// SARIF suppresses the findings the triage file decided). Every input's
// error is written on stderr; failed says whether one failed.
func (r *triageRepo) findings(ctx context.Context, streams *IO, inputs []string, flt *reports.Filter, suppressed bool, each func(f *reports.Finding)) (failed bool, err error) {
	if len(inputs) == 0 {
		inputs = []string{searchedRoot(r.root)}
	}
	q := &pipeline.Query{
		Reports: pipeline.Files{Paths: inputs, Options: parsers.ReadOptions{Root: r.root, Format: r.format, Stdin: streams.In, Wrap: progress(streams.ErrOut), Uncounted: suppressed}},
		Config:  r.cfg,
	}
	if flt != nil {
		q.Filter = *flt
	}
	if r.problems != nil {
		// The problems, found as the pages find them; Each still takes
		// every finding, in this one pass.
		q.Classes, q.Keep.Early = grouping.ClassOf, r.problems
	}
	found := map[string]bool{}
	q.Keep.Each = func(f *reports.Finding, _ string) error {
		if r.problems != nil {
			r.problems.take(f)
		}
		if f.Detail != nil && f.Detail.Kind != "" {
			return nil // a result of another kind than fail (pass…): no finding at all
		}
		found[f.Tool] = true
		r.named.add(f)
		g := *f
		each(&g)
		return nil
	}
	res, err := pipeline.Run(ctx, q)
	if err != nil {
		return false, queryError(err)
	}
	r.noteTools(res.View.Inputs, found)
	r.inputs = res.View.Inputs
	if r.named.watch != nil { // stale entries to judge (list, check, prune)
		r.noteReports(res.View.Inputs)
	}
	reportInputs(streams.ErrOut, res.View, true)
	reportUnmatched(streams.ErrOut, res.Unmatched)
	return res.View.Failed(), nil
}

// searchedRoot is the repository root as the inputs to search when none
// is given: relative to the working directory when it can be, so that the
// reports found are named as a person names them (recap findings
// build/reports) and their findings have the ids recap findings shows;
// absolute when the working directory is not the root or one above it.
func searchedRoot(root string) string {
	wd, err := os.Getwd()
	if err != nil {
		return root
	}
	rel, err := filepath.Rel(wd, root)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return root
	}
	return rel
}

// matched opens the repository and matches its triage file's entries on
// the findings of the inputs (failed: one could not be read). The caller
// closes r.
func (t *triageFlags) matched(cmd *cobra.Command, streams *IO, inputs []string) (r *triageRepo, m *triage.Matcher, failed bool, err error) {
	if r, err = t.open(cmd); err != nil {
		return nil, nil, false, err
	}
	file, err := r.load()
	if err == nil {
		if t.problems {
			r.problems = newProblemPass(file)
		}
		m, failed, err = r.matcher(cmd.Context(), streams, file, inputs)
	}
	if err != nil {
		r.close()
		return nil, nil, false, err
	}
	return r, m, failed, nil
}

// matcher matches the triage file's entries on the findings of the inputs,
// following renames through git when the repository is one.
func (r *triageRepo) matcher(ctx context.Context, streams *IO, f *triage.File, inputs []string) (*triage.Matcher, bool, error) {
	m := triage.NewMatcher(f, r.croot.FS(), time.Now())
	m.TellEdited()
	if err := m.Follow(ctx, r.root); err != nil {
		fmt.Fprintf(streams.ErrOut, "recap: warning: %s: %s\n", r.rel, render.InertLine(err.Error()))
	}
	// A result the report suppresses is still there: an entry that
	// matches one (recap's own SARIF suppresses what the entries decided)
	// is not stale.
	r.watchEntries(m)
	failed, err := r.findings(ctx, streams, inputs, nil, true, func(f *reports.Finding) {
		d := m.Decide(f)
		if r.problems != nil && d != nil && !d.Expired && !f.Uncounted() {
			r.problems.decided[f.ID] = d.Index
		}
		if d != nil && !f.ID.IsZero() && r.firstMatch[d.Index] == nil {
			if r.firstMatch == nil {
				r.firstMatch = map[int]*matchedFinding{}
			}
			r.firstMatch[d.Index] = &matchedFinding{ID: f.ID, Path: f.Path, Line: f.Line}
		}
	})
	return m, failed, err
}

var (
	// idLike is what a person may take for a finding's id: a word, a
	// hyphen, a number.
	idLike            = regexp.MustCompile(`^[A-Za-z0-9]+-[0-9]+$`)
	fingerprintSyntax = regexp.MustCompile(`^[0-9a-f]{16}(:[0-9]+)?$`)
)

// findingName says whether a names a finding: an id as recap findings
// shows it (read by reports.ParseID) or a location fingerprint.
func findingName(a string) bool {
	_, ok := reports.ParseID(a)
	return ok || fingerprintSyntax.MatchString(a)
}

// notAnID is the usage error of an argument that looks like an id but is
// none recap writes.
func notAnID(a string) error {
	return usageError("%s: not a finding's id as recap findings shows it (the input's tag in a-z and 2-7, a hyphen, the finding's number without a leading zero: 6wig-7)", text.CutRunes(a, 80))
}

// splitArgs tells the findings named (ids and fingerprints) from the
// inputs: an argument that names a file or a directory, or -, is an input.
func splitArgs(args []string) (names, inputs []string, err error) {
	for _, a := range args {
		_, statErr := os.Stat(a)
		switch {
		case a == "-" || statErr == nil:
			inputs = append(inputs, a)
		case findingName(a):
			names = append(names, a)
		case idLike.MatchString(a):
			return nil, nil, notAnID(a)
		default:
			return nil, nil, usageError("%s: neither a report (no such file or directory) nor a finding's id (pmd-12) or fingerprint (16 hex digits), as recap findings shows them", text.CutRunes(a, 80))
		}
	}
	return names, inputs, nil
}

func newTriage(streams *IO) *cobra.Command {
	var (
		tf                      triageFlags
		as, reason, until, link string
		by                      string
		tools, rules, paths     []string
		dryRun                  bool
	)
	cmd := &cobra.Command{
		Use:   "triage [ID|FINGERPRINT...] --as STATE --reason TEXT [flags] [INPUT...]",
		Short: "Keep a decision on findings (false positive, won't fix…) in the repository's triage file",
		Long: `triage writes what people decided of findings to the repository's triage file
(.recap/triage.yml, or where .recap.yml's triage key says), one entry per
finding: its tool, rule, path, a location fingerprint that follows the code
as it moves, the line's text and the message, then the state, the reason,
who (git's user.name and user.email, or --by), the day, and --until, --link
and the commit when given or known. Name findings by the id or fingerprint
recap findings shows, or select them with --rule, --path and --tool (the
filters of recap findings), or both. The INPUTs are the reports, as the other
commands take them; without one, the repository is searched for reports.
The file is written sorted, its comments kept, under a lock: a decision is a
small diff to commit. See docs/triage.md.

States: ` + statesList() + `.`,
		Example: `  recap triage pmd-12 --as false-positive --reason "the value is checked in init()" build/reports/
  recap triage --tool PMD --rule SystemPrintln --path 'src/main/**/cli/**' --as wont-fix --reason "a command line prints" build/reports/
  recap triage list build/reports/
  recap triage check build/reports/`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 && len(cmd.Commands()) > 0 && !findingName(args[0]) {
				if _, err := os.Stat(args[0]); err != nil && args[0] != "-" {
					if idLike.MatchString(args[0]) {
						return notAnID(args[0])
					}
					return usageError("unknown command or argument %q for recap triage (its commands: list, check, prune, import, merge)", text.CutRunes(args[0], 80))
				}
			}
			state, ok := triage.ParseState(as)
			switch {
			case as == "":
				return usageError("--as: say what was decided: %s", statesList())
			case !ok:
				names := stateNames()
				return usageError("--as: %v", reports.UnknownWord("state", as, names, names))
			case strings.TrimSpace(reason) == "":
				return usageError("--reason: say why (the next reader needs it)")
			}
			if _, err := triage.CheckDecision(as, reason, until, time.Now()); err != nil {
				return usageError("--%v", err) // the state and the reason are checked above: the until
			}
			// Each value as the file's reader checks it: a decision written
			// is one recap reads back.
			for _, v := range []struct{ flag, key, value string }{{"reason", "reason", reason}, {"by", "by", by}, {"link", "link", link}} {
				if v.value == "" && v.key != "reason" {
					continue
				}
				if err := triage.CheckValue(v.key, v.value); err != nil {
					return usageError("--%s: %v", v.flag, render.InertLine(text.CutRunes(err.Error(), 300)))
				}
			}
			names, inputs, err := splitArgs(args)
			if err != nil {
				return err
			}
			if len(names) == 0 && len(tools)+len(rules)+len(paths) == 0 {
				return usageError("name the findings by id or fingerprint (as recap findings shows them), or select them with --rule, --path or --tool")
			}
			r, err := tf.open(cmd)
			if err != nil {
				return err
			}
			flt, err := reports.ParseFilter(reports.FilterWords{Tools: tools, Rules: rules, Paths: paths, Root: r.root})
			var fe *reports.FilterError
			if errors.As(err, &fe) {
				return usageError("--%s: %v", filterFlagOf[fe.Field], fe.Err)
			} else if err != nil {
				return usageError("%v", err)
			}
			defer r.close()
			entry := triage.Entry{State: state, Reason: reason, By: by, Date: time.Now().UTC().Format(triage.DateLayout), Until: until, Link: link, Commit: r.commit()}
			if !cmd.Flags().Changed("by") {
				entry.By = gitUser(r.root)
				if triage.CheckValue("by", entry.By) != nil {
					entry.By = "" // git's user.name and user.email, not one recap can write
				}
			}
			return decide(cmd.Context(), streams, r, names, inputs, flt, entry, dryRun)
		},
	}
	tf.creates = true
	tf.register(cmd)
	f := cmd.Flags()
	f.StringVar(&as, "as", "", "what was decided: "+statesList())
	f.StringVar(&reason, "reason", "", "why (required)")
	f.StringVar(&until, "until", "", "the day the decision expires, YYYY-MM-DD: from then on the finding is shown again, saying so")
	f.StringVar(&link, "link", "", "a link to more (an issue, a discussion)")
	f.StringVar(&by, "by", "", "who decided (default: git's user.name and user.email)")
	f.StringArrayVar(&tools, "tool", nil, "triage the findings of this tool (repeatable)")
	f.StringArrayVar(&rules, "rule", nil, "triage the findings of this rule, by id or name, as recap findings takes it (repeatable)")
	f.StringArrayVar(&paths, "path", nil, "triage the findings whose path matches this glob; ** spans directories (repeatable)")
	f.BoolVar(&dryRun, "dry-run", false, "list the decisions that would be written, and write nothing")
	cmd.AddCommand(newTriageList(streams), newTriageCheck(streams), newTriagePrune(streams), newTriageImport(streams), newTriageMerge(streams))
	return cmd
}

func stateNames() []string {
	names := make([]string, len(triage.States))
	for i, s := range triage.States {
		names[i] = string(s)
	}
	return names
}

// filtersGiven names the filters of a bulk decision as given, each
// flag's values any of which a finding passes: "--rule A or B and --path
// src/**".
func filtersGiven(flt *reports.Filter) string {
	var parts []string
	for _, f := range []struct {
		flag   string
		values []string
	}{{"--tool", flt.Tools}, {"--rule", flt.Rules}, {"--path", flt.Paths}} {
		if len(f.values) == 0 {
			continue
		}
		vs := make([]string, len(f.values))
		for i, v := range f.values {
			vs[i] = render.InertLine(text.CutRunes(v, 80))
		}
		parts = append(parts, f.flag+" "+text.List(vs, "or"))
	}
	if len(parts) == 0 {
		return "the filters"
	}
	return text.List(parts, "and")
}

func statesList() string { return text.List(stateNames(), "or") }

// gitUser is git's user.name and user.email, as "Name <email>", for the
// entries' by; "" when git does not know.
func gitUser(root string) string {
	get := func(key string) string {
		out, err := exec.Command("git", "-C", root, "config", "--get", key).Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	name, email := get("user.name"), get("user.email")
	switch {
	case name != "" && email != "":
		return name + " <" + email + ">"
	case name != "":
		return name
	}
	return email
}

// decide writes the entry for each finding named or selected; with dryRun,
// it says what it would write.
func decide(ctx context.Context, streams *IO, r *triageRepo, names, inputs []string, flt *reports.Filter, decision triage.Entry, dryRun bool) error {
	wanted := map[string]bool{}
	for _, n := range names {
		wanted[strings.TrimSuffix(n, ":1")] = true
	}
	found := map[string]bool{}
	var picked []*reports.Finding
	// The entries now: one whose finding's message changed (check says
	// "changed") is replaced by the decision on that finding.
	old, err := r.load()
	if err != nil {
		return err
	}
	m := triage.NewMatcher(old, r.croot.FS(), time.Now())
	m.TellEdited()
	_ = m.Follow(ctx, r.root)                   // a warning of it is list's and check's to give
	coveredBy := map[reports.FindingID]string{} // a finding → the key of the entry that covers it now
	covers := map[string]*reports.Finding{}     // an entry's key → the first finding it covers now
	// Findings of one rule and message on one line, by a hash of them: an
	// entry tells them apart by their line, not their column, and a
	// decision on one covers the others (said below).
	seed := maphash.MakeSeed()
	sameLine := func(f *reports.Finding) uint64 {
		return maphash.Comparable(seed, struct {
			tool, rule, path, msg string
			line                  int
		}{f.Tool, f.Rule, f.Path, strings.Join(strings.Fields(f.Message), " "), f.Line})
	}
	onLine := map[uint64]int{}
	// A decision that disagrees with another on the same problem (a
	// confirmation overrules those that suppress): the findings are
	// grouped as the pages group them, all of them (a filter picks the
	// findings decided, not those of their problems), when an entry
	// could disagree.
	disagree := disagreeing(old, decision.State, time.Now())
	query := flt
	if disagree {
		r.problems = &problemPass{decided: map[reports.FindingID]int{}, entries: old.Entries, overruled: map[int]int{},
			picked: map[reports.FindingID]bool{}, beside: map[reports.FindingID][]reports.FindingID{}}
		defer func() { r.problems = nil }()
		query = nil
	}
	others := map[reports.FindingID]*reports.Finding{} // the findings an entry decides (disagree)
	failed, err := r.findings(ctx, streams, inputs, query, false, func(f *reports.Finding) {
		if len(wanted) > 0 && f.Line > 0 {
			onLine[sameLine(f)]++
		}
		if d := m.Decide(f); d != nil {
			k := d.Entry.Key()
			coveredBy[f.ID] = k
			if covers[k] == nil {
				covers[k] = f
			}
			if disagree && !d.Expired && !f.Uncounted() {
				r.problems.decided[f.ID] = d.Index
				others[f.ID] = f
			}
		}
		if query == nil && flt != nil && !flt.Match(*f) {
			return
		}
		if len(wanted) > 0 {
			switch id := f.ID.String(); {
			case wanted[id]:
				found[id] = true
			case wanted[f.Fingerprint]:
				found[f.Fingerprint] = true
			default:
				return
			}
		}
		if disagree {
			r.problems.picked[f.ID] = true
		}
		picked = append(picked, f)
	})
	if err != nil {
		return err
	}
	for _, n := range names {
		if !found[strings.TrimSuffix(n, ":1")] {
			return usageError("%s: no finding of the inputs has this id or fingerprint (recap findings shows them; ids change when the reports do)", n)
		}
	}
	if len(picked) == 0 {
		if failed {
			return errInputs
		}
		return usageError("no finding of the inputs passes %s", filtersGiven(flt))
	}
	src := r.croot.FS()
	entries := make([]triage.Entry, 0, len(picked))
	edited := newEditedSince(r)
	// A file changed by a commit made after its report was written is
	// refused too: the report's line may hold other code as well.
	edited.committed = true
	for _, f := range picked {
		if filepath.IsAbs(f.Path) || strings.HasPrefix(f.Path, "../") {
			return usageError("%s (%s): its file %s is outside the repository %s: give --repo the repository the reports were made on", f.ID, f.Rule, render.InertLine(f.Path), r.root)
		}
		if why := edited.why(f); why != "" {
			if !strings.HasSuffix(why, " since)") { // (committed since), (stashed since)
				why += ", not committed"
			}
			return usageError("%s (%s at %s:%d): %s: the line the report names may hold other code now, and the decision would be on that code: run the tools again, then decide (nothing was written)",
				f.ID, render.InertLine(reports.ShortRule(f.Tool, f.Rule)), render.InertLine(f.Path), f.Line, why)
		}
		e, err := triage.EntryOf(f, src)
		if err != nil {
			return usageError("%s (%s at %s:%d): %s: run the tools again, then decide (nothing was written)", f.ID, render.InertLine(reports.ShortRule(f.Tool, f.Rule)), render.InertLine(f.Path), f.Line, render.InertLine(err.Error()))
		}
		e.State, e.Reason, e.By, e.Date, e.Until, e.Link, e.Commit = decision.State, decision.Reason, decision.By, decision.Date, decision.Until, decision.Link, decision.Commit
		if err := e.Check(); err != nil {
			// A name the triage file cannot hold (a rule id on two
			// lines, a blank tool): the file would not read.
			return usageError("%s (%s at %s:%d): its entry cannot be kept in the triage file (%s): nothing was written", f.ID, render.InertLine(reports.ShortRule(f.Tool, f.Rule)), render.InertLine(f.Path), f.Line, render.InertLine(err.Error()))
		}
		entries = append(entries, e)
	}
	pickedIDs := map[reports.FindingID]bool{}
	for _, f := range picked {
		pickedIDs[f.ID] = true
	}
	for _, f := range picked {
		if f.Line > 0 {
			onLine[sameLine(f)]-- // decided too: not another covered
		}
	}
	for _, f := range picked {
		if n := onLine[sameLine(f)]; n > 0 && f.Line > 0 {
			fmt.Fprintf(streams.ErrOut, "recap: warning: %s (%s at %s:%d): its decision covers %s of its rule and message on that line too: a decision tells findings apart by their line, not their column\n",
				f.ID, render.InertLine(reports.ShortRule(f.Tool, f.Rule)), render.InertLine(f.Path), f.Line, english.Plural(n, "other finding", "other findings"))
			onLine[sameLine(f)] = 0 // said once
		}
	}
	// The entries the new decisions replace: one that covers a finding
	// decided now under another key (its file renamed since, its message
	// changed by numbers), and one whose finding's message changed.
	newKeys := map[string]bool{}
	for i := range entries {
		newKeys[entries[i].Key()] = true
	}
	replace := map[string]string{}              // key → why
	pickedOf := map[string]int{}                // key → the picked findings it covers
	forFinding := map[string]*reports.Finding{} // key → a picked finding it covers, or whose message changed
	for _, f := range picked {
		if k, ok := coveredBy[f.ID]; ok && !newKeys[k] {
			pickedOf[k]++
			forFinding[k] = f
		}
	}
	byID := map[reports.FindingID]*reports.Finding{}
	for _, f := range picked {
		byID[f.ID] = f
	}
	for _, st := range m.Statuses() {
		k := st.Entry.Key()
		switch {
		case newKeys[k]:
		case pickedOf[k] > 0 && pickedOf[k] == st.Matched: // an entry that covers others too stays
			replace[k] = "decided again"
		case st.Changed != nil && pickedIDs[st.Changed.ID] && st.Changed.Code != "":
			replace[k] = "its decided line was edited"
			forFinding[k] = byID[st.Changed.ID]
		case st.Changed != nil && pickedIDs[st.Changed.ID]:
			replace[k] = "its finding's message changed"
			forFinding[k] = byID[st.Changed.ID]
		case st.Matched == 0 && (st.Squashed || st.Unfollowed || st.Unfetched):
			// Its line could not be followed (check calls it stale? and
			// says to decide it again): a decision on a finding of its
			// rule on a line of its text in its file now replaces it.
			if i := redecides(&st, entries, r.croot.FS()); i >= 0 {
				replace[k] = "its line could not be followed through git"
				forFinding[k] = picked[i]
			}
		}
	}
	changed := make([]bool, len(entries))
	var replaced, anchored []triage.Entry
	var redecided []replacedEntry
	var kept []*reports.Finding // the findings of the entries anchored again
	put := func(file *triage.File) error {
		replaced = file.Remove(func(e *triage.Entry) bool { return replace[e.Key()] != "" })
		redecided, anchored, kept = redecided[:0], anchored[:0], kept[:0]
		for i, e := range entries {
			old, had := file.Get(e.Key())
			if other := covers[e.Key()]; had && other != nil && coveredBy[picked[i].ID] != e.Key() && !pickedIDs[other.ID] {
				// The entry of this key covers another finding: the
				// decided code, a copy of which now takes the occurrence
				// its location counts. It stays, and the new decision is
				// the copy's.
				var keptOld bool
				if changed[i], keptOld = file.PutBeside(e, other, src); keptOld {
					anchored, kept = append(anchored, old), append(kept, other)
					continue
				}
			}
			if changed[i] = file.Put(e); changed[i] && had {
				redecided = append(redecided, replacedEntry{old, picked[i], "decided again"}) // the same finding decided otherwise before
			}
		}
		return nil
	}
	if dryRun {
		file, err := r.load()
		if err != nil {
			return err
		}
		put(file)
	} else if to, err := r.writePath(); err != nil {
		return err
	} else if err := triage.Update(to, put); err != nil {
		return r.writeError(err)
	}
	n := 0
	tw := tabwriter.NewWriter(streams.Out, 0, 0, 2, ' ', 0)
	for i, f := range picked {
		word := "unchanged"
		if changed[i] {
			word, n = string(decision.State), n+1
		}
		fmt.Fprintf(tw, "%s\t%s\t%s %s\t%s\n", word, f.ID, render.InertLine(f.Tool), render.InertLine(reports.ShortRule(f.Tool, f.Rule)), render.InertLine(placeOf(f)))
	}
	tw.Flush()
	for _, e := range replaced {
		redecided = append(redecided, replacedEntry{e, forFinding[e.Key()], replace[e.Key()]})
	}
	for _, r := range redecided {
		r.write(streams.Out, dryRun)
	}
	for i, a := range anchored {
		f := kept[i]
		word := "kept"
		if dryRun {
			word = "would keep"
		}
		fmt.Fprintf(streams.Out, "%s  %s  %s %s  %s:%d (%s: %q): its entry anchored where its finding is now (a copy of its code was pasted above it)\n",
			word, f.ID, render.InertLine(f.Tool), render.InertLine(reports.ShortRule(f.Tool, f.Rule)), render.InertLine(f.Path), f.Line, a.State, render.InertLine(text.CutRunes(a.Reason, 60)))
	}
	if dryRun {
		fmt.Fprintf(streams.Out, "%s: %s would be written, %d unchanged (--dry-run: nothing written)\n", r.rel, english.Plural(n, "decision", "decisions"), len(picked)-n)
	} else {
		fmt.Fprintf(streams.Out, "%s: %s written, %d unchanged\n", r.rel, english.Plural(n, "decision", "decisions"), len(picked)-n)
	}
	if disagree {
		warnDisagreeing(streams, r.problems, picked, pickedIDs, others, decision.State, replace, dryRun)
	}
	if failed {
		return errInputs
	}
	return nil
}

// disagreeing says whether a decision of state st could disagree with an
// entry of file (in force at now) on a finding of the same problem: a
// confirmation and an entry that suppresses, or the other way round.
func disagreeing(file *triage.File, st triage.State, now time.Time) bool {
	for i := range file.Entries {
		e := &file.Entries[i]
		if e.Expired(now) {
			continue
		}
		if (st == triage.Confirmed && e.State.Suppresses()) || (st.Suppresses() && e.State == triage.Confirmed) {
			return true
		}
	}
	return false
}

// warnDisagreeing warns of each decision taken (of state st, on the
// picked findings) that disagrees with an entry on another finding of its
// problem (others, by id; p their problems): a decision that suppresses
// a finding another of whose problem is confirmed changes nothing shown,
// and a confirmation overrules the decisions that suppress the others.
// An entry the decisions replace is left out. With dryRun, nothing was
// written: the warning says what the decision would do.
func warnDisagreeing(streams *IO, p *problemPass, picked []*reports.Finding, pickedIDs map[reports.FindingID]bool, others map[reports.FindingID]*reports.Finding,
	st triage.State, replace map[string]string, dryRun bool) {
	stays, overrules, shown := "stays", "this confirmation overrules", "is shown"
	if dryRun {
		stays, overrules, shown = "would stay", "this confirmation would overrule", "would be shown"
	}
	for _, f := range picked {
		for _, id := range p.beside[f.ID] {
			idx, ok := p.decided[id]
			o := others[id]
			if !ok || o == nil || pickedIDs[id] {
				continue
			}
			e := &p.entries[idx]
			if replace[e.Key()] != "" {
				continue
			}
			this := fmt.Sprintf("%s (%s %s at %s)", f.ID, render.InertLine(f.Tool), render.InertLine(reports.ShortRule(f.Tool, f.Rule)), render.InertLine(placeOf(f)))
			other := fmt.Sprintf("%s (%s %s at %s)", o.ID, render.InertLine(o.Tool), render.InertLine(reports.ShortRule(o.Tool, o.Rule)), render.InertLine(placeOf(o)))
			reason := text.CutRunes(strings.Join(strings.Fields(e.Reason), " "), 100)
			switch {
			case st.Suppresses() && e.State == triage.Confirmed:
				fmt.Fprintf(streams.ErrOut, "recap: warning: %s: %s reports the same problem and is decided confirmed (%q): a confirmation overrules a decision that suppresses, so the problem %s shown, marked confirmed; to hide it, decide %s again (recap triage %s --as %s --reason \"…\"), or remove its entry\n",
					this, other, reason, stays, o.ID, o.ID, st)
			case st == triage.Confirmed && e.State.Suppresses():
				fmt.Fprintf(streams.ErrOut, "recap: warning: %s: %s reports the same problem and is decided %s (%q): %s that decision, so the problem %s, marked confirmed; if the %s stands, decide %s as %s instead\n",
					this, other, e.State, reason, overrules, shown, e.State, f.ID, e.State)
			}
		}
	}
}

// placeOf is a finding's path and line, as path:line (the path alone
// when it has no line).
func placeOf(f *reports.Finding) string {
	if f.Line > 0 {
		return fmt.Sprintf("%s:%d", f.Path, f.Line)
	}
	return f.Path
}

// redecides returns the index of the entry of entries that decides
// again st's (of its tool and rule, in its file now, on a line of its
// text, the only line of that text in the file: of two copies, which one
// was decided cannot be told), -1 when none does. src reads the file.
func redecides(st *triage.Status, entries []triage.Entry, src fs.FS) int {
	path := st.Path
	if path == "" {
		path = st.Entry.Path
	}
	text := strings.Join(strings.Fields(st.Entry.Line), "")
	for i := range entries {
		e := &entries[i]
		if e.Tool == st.Entry.Tool && e.Rule == st.Entry.Rule && e.Path == path && e.Line != "" &&
			strings.Join(strings.Fields(e.Line), "") == text {
			b, err := fs.ReadFile(src, path)
			if err != nil {
				return -1
			}
			n := 0
			for _, l := range strings.Split(string(b), "\n") {
				if strings.Join(strings.Fields(l), "") == text {
					n++
				}
			}
			if n != 1 {
				return -1
			}
			return i
		}
	}
	return -1
}

// replacedEntry is an entry a decision replaces: the finding decided, and
// why.
type replacedEntry struct {
	old triage.Entry
	f   *reports.Finding // nil: not known
	why string
}

// write says what the entry was: "replaced  ID  TOOL RULE PATH:LINE (was
// STATE: "reason" by WHO on DATE, at ITS PATH): why".
func (r replacedEntry) write(w io.Writer, dryRun bool) {
	e := r.old
	word := "replaced"
	if dryRun {
		word = "would replace"
	}
	id, place := "", render.InertLine(e.Path)
	if r.f != nil {
		id = r.f.ID.String() + "  "
		place = render.InertLine(r.f.Path)
		if r.f.Line > 0 {
			place += ":" + strconv.Itoa(r.f.Line)
		}
	}
	was := fmt.Sprintf("was %s: %q", e.State, text.CutRunes(strings.Join(strings.Fields(e.Reason), " "), 60))
	if e.By != "" {
		was += " by " + render.InertLine(e.By)
	}
	if e.Date != "" {
		was += " on " + e.Date
	}
	if r.f != nil && r.f.Path != e.Path {
		was += ", at " + render.InertLine(e.Path)
	}
	fmt.Fprintf(w, "%s  %s%s %s %s (%s): %s\n", word, id, render.InertLine(e.Tool), render.InertLine(reports.ShortRule(e.Tool, e.Rule)), place, was, r.why)
}

// listFlags are the flags of list and check.
type listFlags struct {
	triageFlags
	format string
}

func (l *listFlags) register(cmd *cobra.Command) {
	l.triageFlags.register(cmd)
	cmd.Flags().StringVar(&l.format, "format", "text", "output format: text (a table) or json")
}

func (l *listFlags) check() error {
	if l.format != "text" && l.format != "json" {
		return usageError("--format: %v", reports.UnknownWord("format", l.format, []string{"text", "json"}, []string{"text", "json"}))
	}
	return nil
}

func newTriageList(streams *IO) *cobra.Command {
	var lf listFlags
	cmd := &cobra.Command{
		Use:   "list [flags] [INPUT...]",
		Short: "Every entry of the triage file, with the findings it matches now",
		Long: `list prints every entry of the triage file with how many findings of the
INPUTs it matches now (stale when none), and whether it has expired. The
entries follow the code: lines added above, a block re-indented or moved, a
file renamed (see docs/triage.md, "Matching").`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runList(cmd, streams, &lf, args, false)
		},
	}
	lf.register(cmd)
	return cmd
}

func newTriageCheck(streams *IO) *cobra.Command {
	var lf listFlags
	cmd := &cobra.Command{
		Use:   "check [flags] [INPUT...]",
		Short: "The stale and expired entries of the triage file; exit 1 when there are any",
		Long: `check lists the entries of the triage file that match no finding of the INPUTs
(stale: the code was fixed or deleted; changed, when a finding of its rule is
at its place with another message, as a method renamed in SpotBugs' message:
decide that finding again by the id shown) and those whose --until has come
(expired: their findings are shown again), and exits 1 when there is one, for
CI. recap triage prune removes the stale ones, not the changed.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runList(cmd, streams, &lf, args, true)
		},
	}
	lf.register(cmd)
	return cmd
}

// entryStatus is an entry in list's and check's JSON.
type entryStatus struct {
	triage.Entry
	Matches int  `json:"matches"`
	Stale   bool `json:"stale"`
	Expired bool `json:"expired"`
	// Unchecked: no input read is of the entry's tool, so that matching
	// no finding says nothing of it (neither stale nor pruned).
	Unchecked bool   `json:"unchecked,omitempty"`
	PathNow   string `json:"pathNow,omitempty"`
	// Finding is the first finding the entry matches now (its id, path and
	// line), to find it among the pages' findings.
	Finding *matchedFinding `json:"finding,omitempty"`
	// Changed, of a stale entry, is the finding of its tool and rule at
	// its location whose message is another now (a method renamed): to
	// decide again by its id; prune keeps the entry.
	Changed *changedFinding `json:"changed,omitempty"`
	// Outdated, of a stale entry, says why it may only look stale: the
	// reports of its tool are older than the code (its file changed
	// after they were written, or is gone and they still name it), or
	// this shallow clone cannot follow it (Shallow); prune keeps it.
	Outdated string `json:"outdated,omitempty"`
	// Shallow: the entry's commit is not in this shallow clone, so that
	// its decided line could not be followed (Outdated says so).
	Shallow bool `json:"shallow,omitempty"`
	// Squashed: the entry's commit is in no branch of this repository,
	// nor its code as it was in a commit since, so that its decided line
	// could not be followed (Outdated says so).
	Squashed bool `json:"squashed,omitempty"`
	// Unfetched: the entry's code at its commit is not in this partial
	// clone and git could not fetch it, so that its decided line could
	// not be followed (Outdated says so).
	Unfetched bool `json:"unfetched,omitempty"`
	// OverruledBy, of an entry that suppresses a finding (list), is the
	// entry that confirms another finding of its problem: the two
	// disagree, and every output shows the problem, marked confirmed.
	OverruledBy *triage.Entry `json:"overruledBy,omitempty"`
}

// changedFinding is the finding at a stale entry's place, its message
// changed, or on its decided line as edited since (Code: that line now).
type changedFinding struct {
	ID      string `json:"id"`
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Message string `json:"message"`
	Code    string `json:"code,omitempty"`
	// Fingerprint names the finding to analysis.triage too (an id of
	// a command is no id of the MCP server's).
	Fingerprint string `json:"fingerprint,omitempty"`
}

func changedOf(n *triage.Near) *changedFinding {
	if n == nil {
		return nil
	}
	return &changedFinding{ID: n.ID.String(), Path: n.Path, Line: n.Line, Message: n.Message, Code: n.Code, Fingerprint: n.Fingerprint}
}

type listOutput struct {
	File    string        `json:"file"`
	Entries []entryStatus `json:"entries"`
	Stale   int           `json:"stale"`
	Expired int           `json:"expired"`
	// Unchecked counts the entries of tools no input read is of.
	Unchecked int `json:"unchecked"`
	// Changed counts the stale entries whose finding's message changed.
	Changed int `json:"changed"`
	// Outdated counts the stale entries whose reports are older than the
	// code.
	Outdated int `json:"outdated"`
	// Shallow counts the stale entries this shallow clone cannot follow.
	Shallow int `json:"shallow"`
	// Squashed counts the stale entries whose commit is in no branch.
	Squashed int `json:"squashed"`
	// Unfetched counts the stale entries whose code this partial clone
	// could not fetch.
	Unfetched int `json:"unfetched"`
	// Overruled counts the entries a confirmation overrules (list; check
	// does not look, and leaves it out).
	Overruled *int `json:"overruled,omitempty"`
	// InputFailed: an input could not be read (its error is on stderr,
	// the exit code 2): what the list says is not a result.
	InputFailed bool `json:"inputFailed,omitempty"`
}

func runList(cmd *cobra.Command, streams *IO, lf *listFlags, args []string, check bool) error {
	if err := lf.check(); err != nil {
		return err
	}
	lf.problems = !check
	r, m, failed, err := lf.matched(cmd, streams, args)
	if err != nil {
		return err
	}
	defer r.close()
	out := listOutput{File: r.rel, Entries: []entryStatus{}}
	warnMatches(streams, m)
	sts := m.Statuses()
	var overruled map[int]int
	if !check {
		out.Overruled = new(int)
		if r.problems != nil {
			overruled = r.problems.overruled
		}
	}
	for i, s := range sts {
		es := entryStatus{Entry: s.Entry, Matches: s.Matched, Stale: s.Matched == 0, Expired: s.Expired, Finding: r.firstMatch[i]}
		if c, ok := overruled[i]; ok {
			es.OverruledBy = &sts[c].Entry
			*out.Overruled++
		}
		if es.Stale && !r.checks(&s.Entry) {
			es.Stale, es.Unchecked = false, true
			out.Unchecked++
		}
		if s.Path != s.Entry.Path {
			es.PathNow = s.Path
		}
		if es.Stale {
			out.Stale++
			// Reports older than the code first: their finding at the
			// entry's place may be another that moved there.
			var kind staleKind
			es.Outdated, kind = r.staleWhy(s)
			es.Shallow, es.Squashed, es.Unfetched = kind == staleShallow, kind == staleSquashed, kind == staleUnfetched
			if es.Shallow {
				out.Shallow++
			} else if es.Squashed {
				out.Squashed++
			} else if es.Unfetched {
				out.Unfetched++
			} else if es.Outdated != "" {
				out.Outdated++
			} else if es.Changed = changedOf(s.Changed); es.Changed != nil {
				out.Changed++
			}
		}
		if es.Expired {
			out.Expired++
		}
		if !check || es.Stale || es.Expired {
			out.Entries = append(out.Entries, es)
		}
	}
	if failed {
		// An input not read would make its entries look stale.
		out.InputFailed = true
		writeList(streams.Out, lf.format, out, check)
		return errInputs
	}
	writeList(streams.Out, lf.format, out, check)
	if check && out.Stale+out.Expired > 0 {
		var parts []string
		if n := out.Stale - out.Changed - out.Outdated - out.Shallow - out.Squashed - out.Unfetched; n > 0 {
			parts = append(parts, english.Plural(n, "stale entry", "stale entries")+" (recap triage prune removes "+itOrThem(n)+")")
		}
		if out.Outdated > 0 {
			parts = append(parts, english.Plural(out.Outdated, "stale entry", "stale entries")+" whose reports may be older than the code (run the tools again)")
		}
		if out.Shallow > 0 {
			parts = append(parts, english.Plural(out.Shallow, "stale entry", "stale entries")+" this shallow clone cannot follow (git fetch --unshallow)")
		}
		if out.Squashed > 0 {
			parts = append(parts, english.Plural(out.Squashed, "stale entry", "stale entries")+" whose commit is in no branch (decide "+itOrThem(out.Squashed)+" again where "+itsOrTheir(out.Squashed)+" finding is shown)")
		}
		if out.Unfetched > 0 {
			parts = append(parts, english.Plural(out.Unfetched, "stale entry", "stale entries")+" whose code this partial clone could not fetch (give git access to the remote)")
		}
		if out.Changed > 0 {
			parts = append(parts, english.Plural(out.Changed, "stale entry", "stale entries")+" whose finding changed (decide "+itOrThem(out.Changed)+" again by the id shown)")
		}
		if out.Expired > 0 {
			parts = append(parts, english.Plural(out.Expired, "expired entry", "expired entries")+" (decide again or remove "+itOrThem(out.Expired)+")")
		}
		return &exitError{code: exitGate, err: fmt.Errorf("triage check failed: %s in %s", strings.Join(parts, ", "), r.rel)}
	}
	return nil
}

func writeList(w io.Writer, format string, out listOutput, check bool) {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(out)
		return
	}
	total := len(out.Entries)
	if out.InputFailed {
		fmt.Fprintf(w, "%s: an input could not be read: what follows is not a result\n", out.File)
	}
	if check {
		if total == 0 {
			fmt.Fprintf(w, "%s: no stale or expired entry%s\n", out.File, uncheckedNote(out.Unchecked))
			return
		}
		fmt.Fprintf(w, "%s: %s%s, %s%s\n\n", out.File, english.Plural(out.Stale, "stale entry", "stale entries"), staleKinds(out.Changed, out.Outdated, out.Shallow, out.Squashed, out.Unfetched), english.Plural(out.Expired, "expired entry", "expired entries"), uncheckedNote(out.Unchecked))
	} else {
		if total == 0 {
			fmt.Fprintf(w, "%s: no entry\n", out.File)
			return
		}
		overruled := ""
		if out.Overruled != nil && *out.Overruled > 0 {
			overruled = fmt.Sprintf(", %d overruled", *out.Overruled)
		}
		fmt.Fprintf(w, "%s: %s, %d stale%s, %d expired%s%s\n\n", out.File, english.Plural(total, "entry", "entries"), out.Stale, staleKinds(out.Changed, out.Outdated, out.Shallow, out.Squashed, out.Unfetched), out.Expired, overruled, uncheckedNote(out.Unchecked))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NOW\tSTATE\tRULE\tPATH\tREASON")
	for _, e := range out.Entries {
		now := fmt.Sprintf("matches %d", e.Matches)
		switch {
		case e.Unchecked && e.Expired:
			now = "not checked, expired"
		case e.Unchecked:
			now = "not checked"
		case e.Changed != nil && e.Expired:
			now = "changed, expired"
		case e.Changed != nil:
			now = "changed"
		case e.Outdated != "" && e.Expired:
			now = "stale?, expired"
		case e.Outdated != "":
			now = "stale?"
		case e.Stale && e.Expired:
			now = "stale, expired"
		case e.Stale:
			now = "stale"
		case e.Expired:
			now += ", expired"
		}
		if e.OverruledBy != nil {
			now += ", overruled"
		}
		path := e.Path
		if e.PathNow != "" {
			path = e.PathNow
		}
		if f := e.Finding; f != nil && f.Line > 0 && f.Path == path {
			path += ":" + strconv.Itoa(f.Line)
		} else if c := e.Changed; f == nil && c != nil && c.Line > 0 && c.Path == path {
			path += ":" + strconv.Itoa(c.Line) // the finding to decide again
		}
		if e.PathNow != "" {
			path += " (was " + e.Path + ")"
		}
		state := string(e.State)
		if e.Until != "" {
			state += " until " + render.InertLine(e.Until) // when the decision ends (or ended)
		}
		reason := strings.Join(strings.Fields(e.Reason), " ")
		fmt.Fprintf(tw, "%s\t%s\t%s %s\t%s\t%s\n", now, state, render.InertLine(e.Tool), render.InertLine(reports.ShortRule(e.Tool, e.Rule)), render.InertLine(path), render.InertLine(text.CutRunes(reason, 60)))
	}
	tw.Flush()
	first := true
	var listed []triage.Status
	for _, e := range out.Entries {
		listed = append(listed, triage.Status{Entry: e.Entry, Path: e.PathNow})
	}
	names := entryNames(listed)
	// Which entry is stale: the table's row names its rule and file, which
	// other entries share; its line's text tells it apart.
	for _, e := range out.Entries {
		if !e.Stale || e.Outdated != "" || e.Changed != nil || e.Unchecked {
			continue
		}
		if first {
			fmt.Fprintln(w)
			first = false
		}
		fmt.Fprintf(w, "stale: %s: no finding of the reports matches it (its code fixed, deleted, or changed past following)\n", names[e.Key()])
	}
	for _, e := range out.Entries {
		if e.Outdated == "" {
			continue
		}
		if first {
			fmt.Fprintln(w)
			first = false
		}
		if e.Shallow {
			fmt.Fprintf(w, "stale?: %s: %s: fetch the whole history to know\n", names[e.Key()], e.Outdated)
			continue
		}
		if e.Unfetched {
			fmt.Fprintf(w, "stale?: %s: %s: let git fetch it to know\n", names[e.Key()], e.Outdated)
			continue
		}
		if e.Squashed {
			fmt.Fprintf(w, "stale?: %s: %s. Where its finding is shown, decide it again, then delete this entry (recap triage prune --force removes it)\n", names[e.Key()], e.Outdated)
			continue
		}
		fmt.Fprintf(w, "stale?: %s: the reports may be older than the code (%s): run the tools again to know\n", names[e.Key()], e.Outdated)
	}
	for _, e := range out.Entries {
		c := e.Changed
		if c == nil {
			continue
		}
		if first {
			fmt.Fprintln(w)
			first = false
		}
		more := ""
		if e.Until != "" {
			more += " --until " + e.Until
		}
		if e.Link != "" {
			more += " --link " + render.InertLine(e.Link)
		}
		if c.Code != "" {
			fmt.Fprintf(w, "changed: %s %s at %s:%d %q: its decided line was edited, now %q (was %q): decide it again (recap triage %s --as %s%s --reason …), which replaces the entry\n",
				render.InertLine(e.Tool), render.InertLine(reports.ShortRule(e.Tool, e.Rule)), render.InertLine(c.Path), c.Line, text.CutRunes(c.Message, 100),
				text.CutRunes(c.Code, 100), text.CutRunes(e.Line, 100), c.ID, e.State, more)
			continue
		}
		fmt.Fprintf(w, "changed: %s %s at %s:%d now says %q; was %q: decide it again (recap triage %s --as %s%s --reason …), which replaces the entry\n",
			render.InertLine(e.Tool), render.InertLine(reports.ShortRule(e.Tool, e.Rule)), render.InertLine(c.Path), c.Line,
			text.CutRunes(c.Message, 100), text.CutRunes(e.Message, 100), c.ID, e.State, more)
	}
	// An overruled entry: the confirmation that overrules it, so that
	// the two decisions that disagree are both in sight.
	for _, e := range out.Entries {
		if e.OverruledBy == nil {
			continue
		}
		if first {
			fmt.Fprintln(w)
			first = false
		}
		by, ok := names[e.OverruledBy.Key()] // list lists every entry
		if !ok {
			by = entryName(e.OverruledBy, "")
		}
		fmt.Fprintf(w, "overruled: %s: %s, but %s (confirmed: %q) reports the same problem: the problem is shown, marked confirmed; decide one of the two again, or remove one of them\n",
			names[e.Key()], e.State, by, text.CutRunes(strings.Join(strings.Fields(e.OverruledBy.Reason), " "), 100))
	}
	// An expired entry: when, and what was decided, so that the
	// decision is taken again knowingly.
	for _, e := range out.Entries {
		if !e.Expired {
			continue
		}
		if first {
			fmt.Fprintln(w)
			first = false
		}
		// A confirmation hid nothing: what ends with it is its mark, and
		// its hold on the problem (a decision on another finding of the
		// problem that suppresses covers it again).
		now := "its findings are shown again"
		if e.State == triage.Confirmed {
			now = "its findings are marked confirmed no more, and a decision that suppresses another finding of their problem covers them again"
		}
		again := "decide again with a later --until"
		if f := e.Finding; f != nil {
			// By the id of the finding it matches, as changed entries are.
			more := ""
			if e.Link != "" {
				more = " --link " + render.InertLine(e.Link)
			}
			again = fmt.Sprintf("decide it again with a later --until (recap triage %s --as %s --until …%s --reason …), which replaces the entry", f.ID, e.State, more)
		}
		fmt.Fprintf(w, "expired: %s: %s until %s (%q): %s; %s, or remove the entry\n",
			names[e.Key()], e.State, e.Until, text.CutRunes(strings.Join(strings.Fields(e.Reason), " "), 100), now, again)
	}
}

// warnMatches says which decisions may cover a copy (ambiguousWarning)
// and why git could not fetch the code of entries a partial clone lacks
// (their lines not followed).
func warnMatches(streams *IO, m *triage.Matcher) {
	for _, w := range []string{ambiguousWarning(m), unreadWarning(m)} {
		if w != "" {
			fmt.Fprintln(streams.ErrOut, w)
		}
	}
	if n, err := m.Unfetched(); n > 0 && err != nil {
		fmt.Fprintf(streams.ErrOut, "recap: warning: triage: the decided code of %s is not in this partial clone, and git could not fetch it (%s): %s decided %s not followed\n",
			english.Plural(n, "decision", "decisions"), render.InertLine(err.Error()), english.Verb(n, "its", "their"), english.Verb(n, "line is", "lines are"))
	}
}

// unreadWarning says that decisions made at a line cover findings by
// their message alone, their file not read: every finding of their rule
// and message there, those to come too; "" for none.
func unreadWarning(m *triage.Matcher) string {
	entries, findings, first := m.ByMessageUnread()
	if entries == 0 {
		return ""
	}
	return fmt.Sprintf("recap: warning: triage: %s made at a line %s %s by %s message alone in files recap does not read (larger than %d MiB, or no regular file; first: %s): each covers every finding of its rule and message there, new ones too (recap triage list shows what each decision matches)",
		english.Plural(entries, "decision", "decisions"), english.Verb(entries, "covers", "cover"), english.Plural(findings, "finding", "findings"), english.Verb(findings, "its", "their"), triage.MaxSourceSize>>20, render.InertLine(first))
}

// ambiguousWarning says that decisions cover a finding by their location
// while git's history says the decided line is another of its text (a
// copy: see triage.Matcher.Ambiguous); "" for none.
func ambiguousWarning(m *triage.Matcher) string {
	n, at := m.Ambiguous()
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("recap: warning: triage: %s %s a finding by %s location while git's history says the decided line is another of the same text (first: %s): %s block was copied, or moved, and the copy changed; %s may cover the copy (recap triage list shows what each decision matches)",
		english.Plural(n, "decision", "decisions"), english.Verb(n, "covers", "cover"), english.Verb(n, "its", "their"), render.InertLine(at), english.Verb(n, "its", "their"), english.Verb(n, "it", "they"))
}

// keptNote says how many entries prune kept for want of a report of
// their tool: "" for none.
func keptNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; %s kept: no input is a report of %s", english.Plural(n, "entry", "entries"), itsTools(n))
}

// staleKinds says how many of the stale entries are changed, how many
// have reports older than the code and how many this shallow clone
// cannot follow: " (1 changed, 2 with reports that may be older than the code)", ""
// for none.
func staleKinds(changed, outdated, shallow, squashed, unfetched int) string {
	var parts []string
	if changed > 0 {
		parts = append(parts, fmt.Sprintf("%d changed", changed))
	}
	if outdated > 0 {
		parts = append(parts, fmt.Sprintf("%d with reports that may be older than the code", outdated))
	}
	if shallow > 0 {
		parts = append(parts, fmt.Sprintf("%d this shallow clone cannot follow", shallow))
	}
	if squashed > 0 {
		parts = append(parts, fmt.Sprintf("%d whose commit is in no branch", squashed))
	}
	if unfetched > 0 {
		parts = append(parts, fmt.Sprintf("%d whose code this partial clone could not fetch", unfetched))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// changedNote says how many stale entries prune kept because the finding
// at their place is there, its message changed or its line edited: ""
// for none.
func changedNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; %s kept: the finding at %s place says another message now, or is on %s line as edited (recap triage check shows %s, to decide again)",
		english.Plural(n, "stale entry", "stale entries"), itsOrTheir(n), itsOrTheir(n), itOrThem(n))
}

// uncheckedNote says how many entries no input could check: "" for none.
func uncheckedNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s not checked: no input is a report of %s)", english.Plural(n, "entry", "entries"), itsTools(n))
}

func newTriagePrune(streams *IO) *cobra.Command {
	var tf triageFlags
	var force, dryRun bool
	cmd := &cobra.Command{
		Use:   "prune [flags] [INPUT...]",
		Short: "Remove the entries of the triage file that match no finding any more",
		Long: `prune removes the stale entries of the triage file: those that match no finding
of the INPUTs (the code was fixed or deleted). It keeps those whose place has a
finding of their rule with another message now, or whose decided line was
edited and has a finding of their rule (recap triage check shows them, to decide
again) and, unless --force, those whose reports are older than the
code (the finding may only have moved: their file is gone while
the report still has findings in it, their file changed after the commit a
committed report was made at or a shallow clone lacks that commit, an
uncommitted report has the finding where the line was in the code it
describes, or the file changed after it was written) or whose commit this
shallow clone lacks (their line cannot be followed), listing each, and
refuses to run when an input could not be read, whose entries would all look
stale. --dry-run lists what it would remove.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			r, m, failed, err := tf.matched(cmd, streams, args)
			if err != nil {
				return err
			}
			defer r.close()
			if failed {
				return &exitError{code: exitUsage, err: errors.New("triage prune: an input could not be read: nothing removed")}
			}
			stale := map[string]bool{}
			pathNow := map[string]string{} // key → the entry's file now, when git says it was renamed
			unchecked, changed, shallow, squashed, unfetched := 0, 0, 0, 0, 0
			var kept []string // the lines of the stale entries kept for reports older than the code
			warnMatches(streams, m)
			statuses := m.Statuses()
			names := entryNames(statuses) // told apart among all the file's entries
			for _, s := range statuses {
				e := s.Entry
				switch {
				case s.Matched > 0:
				case !r.checks(&e):
					unchecked++ // no report of its tool among the inputs: kept
				default:
					if w, kind := r.staleWhy(s); w != "" && !force {
						// its report is older than its code, or its line
						// cannot be followed: the finding may have moved
						switch kind {
						case staleShallow:
							shallow++
						case staleSquashed:
							squashed++
						case staleUnfetched:
							unfetched++
						}
						kept = append(kept, fmt.Sprintf("kept     %s (%s): %s\n", names[e.Key()], e.State, w))
						continue
					}
					if s.Changed != nil {
						// its finding is there, its message changed or its
						// line edited: to decide again
						changed++
						what := "the finding at its place says another message now"
						if s.Changed.Code != "" {
							what = "its decided line was edited, and a finding of its rule is on it"
						}
						kept = append(kept, fmt.Sprintf("kept     %s (%s): %s (recap triage check shows it, to decide again)\n", names[e.Key()], e.State, what))
						continue
					}
					stale[e.Key()] = true
					pathNow[e.Key()] = s.Path
				}
			}
			var gone []triage.Entry
			if len(stale) > 0 && dryRun {
				f, err := r.load()
				if err != nil {
					return err
				}
				gone = f.Remove(func(e *triage.Entry) bool { return stale[e.Key()] })
			} else if len(stale) > 0 {
				to, err := r.writePath()
				if err != nil {
					return err
				}
				err = triage.Update(to, func(f *triage.File) error {
					gone = f.Remove(func(e *triage.Entry) bool { return stale[e.Key()] })
					return nil
				})
				if err != nil {
					return r.writeError(err)
				}
			}
			word := "removed"
			if dryRun {
				word = "would remove"
			}
			for _, e := range gone {
				fmt.Fprintf(streams.Out, "%s  %s (%s)\n", word, names[e.Key()], e.State)
			}
			for _, l := range kept {
				fmt.Fprint(streams.Out, l)
			}
			done := "removed"
			if dryRun {
				done = "would be removed (--dry-run: nothing removed)"
			}
			fmt.Fprintf(streams.Out, "%s: %s %s%s%s%s\n", r.rel, english.Plural(len(gone), "stale entry", "stale entries"), done, keptNote(unchecked), changedNote(changed), outdatedNote(len(kept)-changed-shallow-squashed-unfetched, shallow, squashed, unfetched))
			return nil
		},
	}
	tf.register(cmd)
	cmd.Flags().BoolVar(&force, "force", false, "remove the stale entries whose reports may be older than the code too")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "list the entries that would be removed, and remove nothing")
	return cmd
}

func itsTools(n int) string {
	if n == 1 {
		return "its tool"
	}
	return "their tools"
}

func itsOrTheir(n int) string {
	if n == 1 {
		return "its"
	}
	return "their"
}

func itOrThem(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}
