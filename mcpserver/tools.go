package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/recap-dev/recap/parsers"
	"github.com/recap-dev/recap/pipeline"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
	"github.com/recap-dev/recap/summarize/budget"
	"github.com/recap-dev/recap/summarize/tokens"
	"github.com/recap-dev/recap/triage"
)

// The first answer of analysis.getReports, asked without arguments: the
// counts and the few most important findings, which an agent can afford
// before it knows what it is looking at. Larger pages are on request.
const (
	FirstAnswerLimit  = 5
	FirstAnswerTokens = 2000
)

// maxListItems bounds every list argument.
const maxListItems = 100

// maxReasonChars bounds a triage reason.
const maxReasonChars = 2000

// maxArgChars bounds every string argument and list item that is not a
// choice among names (an enum): paths, globs, revisions, filters.
const maxArgChars = 4096

// GetReportsIn are analysis.getReports' arguments.
type GetReportsIn struct {
	Reports      []string `json:"reports,omitempty"` // described in the tool table, from the format table
	Types        []string `json:"types,omitempty" jsonschema:"read only reports of these formats"`
	Categories   []string `json:"categories,omitempty" jsonschema:"keep findings in any of these categories, as topCategories names them (Best Practices, Code Style, Design, Documentation, Error Prone, Multithreading, Performance, Security, Internationalization, Other) or in the tool's words (toolCategory)"`
	Severity     string   `json:"severity,omitempty" jsonschema:"keep findings at or above this severity"`
	Tools        []string `json:"tools,omitempty" jsonschema:"keep findings of these tools"`
	Rules        []string `json:"rules,omitempty" jsonschema:"keep findings of these rules (id or name)"`
	Paths        []string `json:"paths,omitempty" jsonschema:"keep findings in files matching these globs (** spans directories)"`
	Grep         string   `json:"grep,omitempty" jsonschema:"keep findings whose message contains this text"`
	CWE          []string `json:"cwe,omitempty" jsonschema:"keep findings of any of these CWE ids (89 or CWE-89)"`
	SecurityOnly bool     `json:"securityOnly,omitempty" jsonschema:"keep only findings about security, as their tools say (quality security)"`
	Impact       string   `json:"impact,omitempty" jsonschema:"keep findings at or above this impact"`
	Qualities    []string `json:"qualities,omitempty" jsonschema:"keep findings about any of these qualities"`
	Sort         string   `json:"sort,omitempty" jsonschema:"the order of the findings: importance (impact, then quality, then severity, then place), severity (as the reports say it, then category and rule), location (path and line)"`
	ChangedSince string   `json:"changedSince,omitempty" jsonschema:"keep findings on lines changed since this git revision (from its merge base with HEAD, committed or not; whitespace-only changes aside)"`
	FilterMode   string   `json:"filterMode,omitempty" jsonschema:"with changedSince, which lines a finding must touch: added (added or modified lines), diff_context (any line of the diff's hunks), file (anywhere in a changed file), nofilter (all)"`
	Baseline     []string `json:"baseline,omitempty" jsonschema:"an earlier run's reports (files, directories or globs under the root): each finding is marked new or unchanged against them by fingerprint, and the summary counts new, unchanged and fixed"`
	NewOnly      bool     `json:"newOnly,omitempty" jsonschema:"keep only the findings new against baseline"`
	Triaged      string   `json:"triaged,omitempty" jsonschema:"the findings a decision of the repository's triage file covers (.recap/triage.yml: false positives, won't fix…): left out and counted in summary.triaged (exclude), shown with their decision in triage (include), or alone (only)"`
	Offset       int      `json:"offset,omitempty" jsonschema:"first finding of the page (page.nextOffset of the previous page)"`
	Limit        int      `json:"limit,omitempty" jsonschema:"findings in the page"`
	TokenBudget
	Context     *bool  `json:"context,omitempty" jsonschema:"show 3 lines of code around each finding"`
	SummaryOnly bool   `json:"summaryOnly,omitempty" jsonschema:"only the counts, no findings"`
	Group       *bool  `json:"group,omitempty" jsonschema:"show each problem once (the default): a finding that repeats another's problem at its place, often of another tool, is counted in summary.duplicates and named in its lead's alsoReportedBy; false lists every finding"`
	BufferID    string `json:"bufferId,omitempty" jsonschema:"page an earlier answer's result without reading the reports again (its reports and filters stay; give only offset, limit, maxTokens, context, summaryOnly)"`
}

// GetFindingIn are analysis.getFinding's arguments.
type GetFindingIn struct {
	ID          string `json:"id,omitempty" jsonschema:"a finding's id from analysis.getReports (give id or fingerprint)"`
	Fingerprint string `json:"fingerprint,omitempty" jsonschema:"a finding's fingerprint from analysis.getReports, which stays the same when the reports are made again (give id or fingerprint)"`
	TokenBudget
}

// TriageIn are analysis.triage's arguments.
type TriageIn struct {
	ID          string `json:"id,omitempty" jsonschema:"a finding's id from analysis.getReports or analysis.getFinding (give id or fingerprint)"`
	Fingerprint string `json:"fingerprint,omitempty" jsonschema:"a finding's fingerprint from analysis.getReports, which stays the same when the reports are made again (give id or fingerprint)"`
	State       string `json:"state" jsonschema:"what was decided: false-positive (the tool is wrong), wont-fix, accepted-risk, used-in-tests (the code only runs in tests), confirmed (a real problem, kept and marked)"`
	Reason      string `json:"reason" jsonschema:"why, in a sentence the reviewer of the entry reads"`
	Until       string `json:"until,omitempty" jsonschema:"the day the decision expires, YYYY-MM-DD: the finding comes back from that day on"`
	Link        string `json:"link,omitempty" jsonschema:"a link to the discussion or the ticket (http or https)"`
	By          string `json:"by,omitempty" jsonschema:"who decided (default: the client's name, as it gave it)"`
	TokenBudget
}

// DiffIn are vcs.diff's arguments.
type DiffIn struct {
	Base     string   `json:"base,omitempty" jsonschema:"diff from the merge base of this revision and head (git diff base...head); default: the working tree against HEAD"`
	Head     string   `json:"head,omitempty" jsonschema:"the revision to diff to (default HEAD; needs base)"`
	Paths    []string `json:"paths,omitempty" jsonschema:"keep files matching these globs (** spans directories)"`
	MaxHunks int      `json:"maxHunks,omitempty" jsonschema:"hunks shown; the rest are counted per file"`
	TokenBudget
}

// TokensIn are tokens.count's arguments.
type TokensIn struct {
	Paths     []string `json:"paths" jsonschema:"files or globs relative to the root"`
	Tokenizer string   `json:"tokenizer,omitempty" jsonschema:"how to count (max: the larger of chars/4 and o200k_base)"`
	Budget    int      `json:"budget,omitempty" jsonschema:"the context budget the total is compared with, for the recommendation"`
	TokenBudget
}

// StatsIn: server.stats takes no arguments.
type StatsIn struct {
	TokenBudget
}

// The tool table: a row per tool, all that recap serves of it. Adding a
// tool is its file (its input type, embedding TokenBudget, its answer and
// its handler, a method of Server) and a row here; its registration, its
// names for every client, its schemas' common bounds, its budget, its log
// line and statistics, and the command line's help follow from the row.
var tools = []tool{
	{
		name:  ToolGetReports,
		title: "Static-analysis findings, summary first",
		description: "Counts of the workspace's static-analysis findings (" + parsers.FormatTitles("") + " reports) by quality " +
			"(security, reliability, maintainability) and impact (blocker to info), severity, tool, category, rule and file (and of those " +
			"about security, by CWE), then a page of findings, most important first, with 3 lines of code. Without arguments: the " +
			"counts and the 5 most important findings in at most 2,000 tokens; ask for more with limit and maxTokens. " +
			"Filter by impact, qualities, categories, severity, tools, rules, paths, grep, CWE ids, security only, or lines changed since " +
			"a revision; page with offset or bufferId. Never over maxTokens: what does not fit is listed in omitted with its cost, and " +
			"suggestions say how to narrow. analysis.getFinding tells one finding's rule, fix and flow.",
		maxTokens: FirstAnswerTokens,
		args: func(p props) {
			p.bound("offset", 0, 1<<30, 0)
			p.bound("limit", 1, summarize.MaxLimit, FirstAnswerLimit)
			p.enum("severity", "error", "warning", "note")
			for _, i := range reports.Impacts {
				p.enum("impact", i.String())
			}
			var qualities []string
			for _, q := range reports.Qualities {
				qualities = append(qualities, q.String())
			}
			p.itemsEnum("qualities", qualities...)
			p.enum("sort", reports.OrderNames...)
			p["sort"].Default = json.RawMessage(`"` + reports.OrderImportance.String() + `"`)
			for _, m := range pipeline.FilterModes() {
				p.enum("filterMode", string(m))
			}
			p["filterMode"].Default = json.RawMessage(`"` + string(pipeline.Added) + `"`)
			p.enum("triaged", pipeline.TriagedModes...)
			p["triaged"].Default = json.RawMessage(`"exclude"`)
			p.itemsEnum("types", formatNames()...)
			p["reports"].Description = "report files, directories or globs (** spans directories), relative to the root; default: every " + parsers.FormatTitles("and") + " report under the root"
			p["context"].Default = json.RawMessage("true")
			for _, l := range []string{"reports", "types", "categories", "tools", "rules", "paths", "baseline", "cwe", "qualities"} {
				p[l].MaxItems = jsonschema.Ptr(maxListItems)
			}
		},
		handler: handle((*Server).getReports),
		answer:  outputSchema[summarize.View],
	},
	{
		name:  ToolGetFinding,
		title: "One finding in full",
		description: "One finding by its id from " + ToolGetReports + ": the full message; its rule in the tool's own words (name, short and " +
			"full description, help as Markdown, link, CWE ids, security severity); the fix the tool proposes as a unified diff; the steps " +
			"of its code flow and its related locations with their lines; and up to 80 lines (1,200 tokens) of code around it.",
		args: func(p props) {
			p["id"].MinLength = jsonschema.Ptr(1)
			p["id"].MaxLength = jsonschema.Ptr(100)
		},
		handler: handle((*Server).getFinding),
		answer:  outputSchema[FindingAnswer],
	},
	{
		name:  ToolTriage,
		title: "Record a decision on a finding",
		description: "Decide what a finding is (false-positive, wont-fix, accepted-risk, used-in-tests, confirmed), with a reason, for " +
			"the repository's triage file (.recap/triage.yml), which every door of recap honours: a finding triaged other than confirmed " +
			"leaves pages, gates and reviews. The finding by its id or fingerprint from " + ToolGetReports + "; the entry names it by tool, " +
			"rule, path and a location fingerprint that follows the code as it moves. Returns the entry (structured and as YAML) and " +
			"whether it was written: the server writes the file only when started with --allow-triage-writes; otherwise the answer " +
			"says how to keep the entry (commit it).",
		args: func(p props) {
			p["id"].MaxLength = jsonschema.Ptr(100)
			p["fingerprint"].MaxLength = jsonschema.Ptr(100)
			for _, st := range triage.States {
				p.enum("state", string(st))
			}
			p["reason"].MinLength = jsonschema.Ptr(1)
			p["reason"].MaxLength = jsonschema.Ptr(maxReasonChars)
			p["until"].Pattern = `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`
			p["until"].MaxLength = jsonschema.Ptr(10)
			p["link"].MaxLength = jsonschema.Ptr(2000)
			p["by"].MaxLength = jsonschema.Ptr(200)
		},
		writes:  true,
		handler: handle((*Server).triageTool),
		answer:  outputSchema[TriageAnswer],
	},
	{
		name:  ToolDiff,
		title: "What changed, without whitespace noise",
		description: "The git diff between two revisions (base...head) or of the working tree against HEAD: counts, a line per file, " +
			"then at most maxHunks hunks; whitespace-only hunks are dropped and counted, binary files named, renames shown as old → new.",
		args: func(p props) {
			p.bound("maxHunks", 1, summarize.MaxHunks, summarize.MaxHunks)
			p["paths"].MaxItems = jsonschema.Ptr(maxListItems)
		},
		handler: handle((*Server).diff),
		answer:  outputSchema[summarize.DiffView],
	},
	{
		name:        ToolTokens,
		title:       "Token counts of files",
		description: "Tokens, lines and bytes of files before reading them, with the total and a recommendation when they would not fit the budget.",
		args: func(p props) {
			p.enum("tokenizer", tokens.Names()...)
			p["tokenizer"].Default = json.RawMessage(`"` + tokens.Default + `"`)
			p.bound("budget", 1, 10_000_000, budget.DefaultMaxTokens)
			p["paths"].MinItems = jsonschema.Ptr(1)
			p["paths"].MaxItems = jsonschema.Ptr(maxListItems)
		},
		handler: handle((*Server).tokens),
		answer:  outputSchema[TokensAnswer],
	},
	{
		name:        ToolServerStats,
		title:       "recap server statistics",
		description: "Per-tool calls, errors, answer tokens (mean, p95, max) and durations since the server started; also the resource " + StatsURI + ".",
		handler:     handle((*Server).statsTool),
		answer:      outputSchema[StatsAnswer],
	},
}

// A tool is a row of the tool table.
type tool struct {
	// name is the tool's name as docs/mcp.md gives it (dotted); clients
	// that refuse dots are served it with underscores (names.go).
	name string
	// title and description are what tools/list shows of it; a tool name
	// in the description is served as the session names it.
	title, description string
	// maxTokens is the budget of an answer when the call gives none, and
	// maxTokens' default in the input schema (budget.DefaultMaxTokens when
	// zero).
	maxTokens int
	// args sets the bounds, defaults and enums of the input schema's
	// properties (the input type's struct tags carry their descriptions);
	// maxTokens' bounds are set for every tool. nil when there are none.
	args func(props)
	// handler answers the calls (made by handle, which knows the input type).
	handler handler
	// answer is the output schema: the answer's type, or the error object.
	answer func() *jsonschema.Schema
	// writes: the tool writes into the root when the server lets it
	// (Options.AllowTriageWrites); every other tool only reads.
	writes bool
}

// budget is the token budget of an answer: the call's maxTokens, or the
// tool's default when the call gave none (0).
func (t *tool) budget(maxTokens int) int {
	switch {
	case maxTokens != 0:
		return maxTokens
	case t.maxTokens != 0:
		return t.maxTokens
	}
	return budget.DefaultMaxTokens
}

// TokenBudget is the argument every tool takes, embedded in each input
// type: the token budget of the answer. Its default is the tool's (see
// the tool table).
type TokenBudget struct {
	MaxTokens int `json:"maxTokens,omitempty" jsonschema:"token budget of the answer"`
}

func (b *TokenBudget) tokenBudget() *TokenBudget { return b }

// input is the constraint on a tool's input: a pointer to a struct of
// arguments that embeds TokenBudget.
type input[In any] interface {
	*In
	tokenBudget() *TokenBudget
}

// A pager is an input that may page an earlier result instead of asking
// anew (the inputs' warnings were sent with the first page).
type pager interface{ pages() bool }

func (in *GetReportsIn) pages() bool { return in.BufferID != "" }

// pages reports whether a call's input pages an earlier result.
func pages(in any) bool {
	p, ok := in.(pager)
	return ok && p.pages()
}

// A handler is a tool's input type and handler, with the type hidden from
// the table: schema derives the input schema, add registers the handler.
type handler struct {
	schema func(set func(props)) *jsonschema.Schema
	add    func(s *Server, t *tool, mt *mcp.Tool)
}

// handle makes the handler of a tool from its method.
func handle[In any, P input[In]](h func(*Server, context.Context, P) (answer, error)) handler {
	return handler{
		schema: schema[In],
		add: func(s *Server, t *tool, mt *mcp.Tool) {
			addTool(s, t, mt, func(ctx context.Context, in P) (answer, error) { return h(s, withSources(ctx), in) })
		},
	}
}

// addTools registers the tools of a table (the tool table, or in tests one
// with a row more).
func (s *Server) addTools(table []tool) {
	listed := make([]*mcp.Tool, len(table))
	for i := range table {
		t := &table[i]
		listed[i] = &mcp.Tool{
			Name:  t.name,
			Title: t.title, Description: t.description,
			InputSchema: t.handler.schema(func(p props) {
				p.bound("maxTokens", budget.MinMaxTokens, budget.MaxMaxTokens, t.budget(0))
				if t.args != nil {
					t.args(p)
				}
			}),
			OutputSchema: t.answer(),
			// Every tool of recap reads, and only what is under the root;
			// analysis.triage writes its file there when allowed to.
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: jsonschema.Ptr(false)},
		}
		if t.writes && s.opts.AllowTriageWrites {
			listed[i].Annotations.ReadOnlyHint = false
			listed[i].Annotations.DestructiveHint = jsonschema.Ptr(false)
			listed[i].Annotations.IdempotentHint = true
		}
	}
	s.listed = listTools(listed)
	for i := range table {
		reg := *listed[i]
		reg.OutputSchema = nil // shown by tools/list (see listedTools), not checked by the SDK on every call: the tests check it
		table[i].handler.add(s, &table[i], &reg)
	}
}

// ToolInfo is what the command line's help says of a tool.
type ToolInfo struct {
	Name       string // as docs/mcp.md gives it: analysis.getReports
	Underscore string // as clients that refuse dots are served it: analysis_getReports
	Title      string
}

// Tools lists the tools, in the tool table's order.
func Tools() []ToolInfo {
	out := make([]ToolInfo, len(tools))
	for i, t := range tools {
		out[i] = ToolInfo{Name: t.name, Underscore: underscoreName(t.name), Title: t.title}
	}
	return out
}

func formatNames() []string {
	var out []string
	for _, f := range parsers.Formats() {
		out = append(out, string(f))
	}
	return out
}

// props are a schema's properties, with helpers to set bounds.
type props map[string]*jsonschema.Schema

func (p props) bound(name string, lo, hi, def int) {
	p[name].Minimum = jsonschema.Ptr(float64(lo))
	p[name].Maximum = jsonschema.Ptr(float64(hi))
	p[name].Default = json.RawMessage(fmt.Sprint(def))
}

func (p props) enum(name string, values ...string) {
	for _, v := range values {
		p[name].Enum = append(p[name].Enum, v)
	}
}

func (p props) itemsEnum(name string, values ...string) {
	items := &jsonschema.Schema{Type: "string"}
	for _, v := range values {
		items.Enum = append(items.Enum, v)
	}
	p[name].Items = items
}

// schema derives T's input schema and lets set add bounds, defaults and
// enums (struct tags only carry descriptions); every property has one plain
// type (see plainTypes).
func schema[T any](set func(props)) *jsonschema.Schema {
	sc, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err) // the types above are fixed: a failure is a bug caught by any test
	}
	set(props(sc.Properties))
	plainTypes(sc)
	for _, p := range sc.Properties {
		for _, x := range []*jsonschema.Schema{p, p.Items} {
			if x != nil && x.Type == "string" && x.Enum == nil && x.MaxLength == nil {
				x.MaxLength = jsonschema.Ptr(maxArgChars)
			}
		}
	}
	return sc
}
