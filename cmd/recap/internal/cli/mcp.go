package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/recap-dev/recap/internal/text"
	"github.com/recap-dev/recap/mcpserver"
	"github.com/spf13/cobra"
)

// mcpGCPercent is the garbage collector's target of recap mcp (GOGC),
// unless the environment sets GOGC.
const mcpGCPercent = 50

func newMCP(streams *IO) *cobra.Command {
	var root, addr, toolNames, token, cacheSize string
	var idle time.Duration
	var origins []string
	var triageWrites bool
	cmd := &cobra.Command{
		Use:   "mcp [--root DIR] [--http ADDR] [--tool-names auto|dotted|underscore]",
		Short: "Serve the MCP tools " + toolList(),
		Long: `mcp serves recap to AI agents over the Model Context Protocol: on standard
input and output by default, or over streamable HTTP at http://ADDR/mcp with
--http (an address without a host is bound to 127.0.0.1). Every answer stays
within its token budget (default 10,000 tokens and 40,000 characters).

The tools read the reports and the git repository under --root (default: the
git top level of the current directory); paths outside it are refused.
Parsed reports are cached by path, size and modification time, within
--cache-size of memory (default 96MiB, about five reports of 300,000
findings; a report larger than that alone is read by each call that needs
it); result pages are kept for 10 minutes without use (bufferId), in the
session that made them only, within 32MiB. The server keeps within the cache
plus 160MiB (256MiB by default): two calls read reports at once, and a call
that waits more than 10 seconds for its turn is answered BUSY; over HTTP the
request bodies held at once are at most 16MiB (503 past it). The search for reports skips
reports over 512 MiB (a path that names one reads it) and stops after 200,000
files and directories or 5 seconds. One log line per call goes to standard
error.

Over HTTP each client has its own session (Mcp-Session-Id), closed after
--session-idle without a request (default 30m); at most 1,000 are open, a
new one closing the least recently used idle one; a request from a browser page
of another origin is refused (403) unless --allow-origin names it, and on a
loopback address a request that names another host (DNS rebinding) is
refused (421). An address beyond loopback (0.0.0.0:8765, a LAN address, a
host name) serves other machines: it needs a bearer token (--http-token, or
better the environment variable RECAP_HTTP_TOKEN, at least 16 characters),
which every request must then carry (Authorization: Bearer TOKEN; 401
otherwise). A token given on loopback is asked for too.

Some clients accept only tool names matching ^[a-zA-Z0-9_-]{1,64}$ (the Claude
desktop app, GitHub Copilot CLI, OpenAI Codex CLI): with --tool-names auto, the
default, recap recognises them by the name they give at initialize and serves
them the names below with underscores for dots; other clients get the dotted
names. --tool-names dotted or underscore serves one kind to every client.

The server only reads, unless --allow-triage-writes lets analysis.triage
write the decisions an agent takes to the triage file (.recap/triage.yml
under --root): each write is confined to the root, made under a lock
(two decisions at once are both kept) and atomic (a temporary file renamed
over the file). Without it the tool returns the entry to commit.

` + toolTable(),
		Example: `  claude mcp add recap -- recap mcp --root .
  recap mcp --root ~/src/shop --http :8765
  recap mcp --tool-names underscore
  recap mcp --allow-triage-writes   # analysis.triage writes .recap/triage.yml
  recap mcp --http 127.0.0.1:8765 --session-idle 2h --allow-origin http://localhost:6274
  RECAP_HTTP_TOKEN=$(openssl rand -hex 16) recap mcp --http 0.0.0.0:8765`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			serving.Store(true)
			dir, err := repoRoot(root)
			if err != nil {
				return err
			}
			if toolNames != mcpserver.NamesAuto && toolNames != mcpserver.NamesDotted && toolNames != mcpserver.NamesUnderscore {
				return usageError("--tool-names must be auto, dotted or underscore")
			}
			if idle <= 0 {
				return usageError("--session-idle must be positive (for example 30m)")
			}
			if os.Getenv("GOGC") == "" {
				// The server holds every finding it read (compact, without
				// pointers: collections cost little), and its parses make
				// garbage at several times that rate: collecting at 50%
				// growth instead of Go's 100% keeps its peak memory about a
				// fifth lower, for about half a millisecond more per page.
				debug.SetGCPercent(mcpGCPercent)
			}
			cacheBytes, err := parseSize(cacheSize)
			if err != nil {
				return usageError("--cache-size %s: %v", cacheSize, err)
			}
			logger := slog.New(slog.NewTextHandler(streams.ErrOut, nil))
			s, err := mcpserver.New(mcpserver.Options{Root: dir, ToolNames: toolNames, Version: version(), Logger: logger, MaxCacheBytes: cacheBytes,
				AllowTriageWrites: triageWrites})
			if err != nil {
				return usageError("%v", err)
			}
			if os.Getenv("GOMEMLIMIT") == "" {
				// The collector works harder as the heap nears the bound,
				// rather than letting garbage double it.
				debug.SetMemoryLimit(s.RuntimeMemoryLimit())
			}
			ctx := cmd.Context()
			if addr == "" {
				logger.Info("serving MCP on standard input and output", "root", s.Root())
				if err := s.MCP().Run(ctx, mcpserver.StdioTransport(streams.In, streams.Out)); err != nil && !errors.Is(err, context.Canceled) && !isEOF(err) {
					return err
				}
				return nil
			}
			if token == "" {
				token = os.Getenv("RECAP_HTTP_TOKEN")
			}
			return serveHTTP(ctx, streams, logger, s, addr, mcpserver.HTTPOptions{SessionIdle: idle, AllowedOrigins: origins, Token: token})
		},
	}
	f := cmd.Flags()
	f.StringVar(&root, "root", "", "the directory served: reports are found, and paths confined, there (default: the git top level of the current directory)")
	f.StringVar(&addr, "http", "", "serve streamable HTTP at this address (host:port; :port binds 127.0.0.1) instead of standard input and output")
	first := mcpserver.Tools()[0]
	f.StringVar(&toolNames, "tool-names", mcpserver.NamesAuto, "tool names: auto (dotted names for the clients known to take them, underscore names for the others), dotted ("+first.Name+") or underscore ("+first.Underscore+")")
	f.StringVar(&cacheSize, "cache-size", fmt.Sprintf("%dMiB", mcpserver.DefaultMaxCacheBytes>>20), "memory of the parsed reports kept (KiB, MiB or GiB; at least 1MiB); a report larger than that alone is read by each call; the server keeps within this plus 160MiB")
	f.DurationVar(&idle, "session-idle", mcpserver.DefaultSessionIdle, "with --http: close a session (and drop its result buffers) after this long without a request")
	f.StringVar(&token, "http-token", "", "with --http: the bearer token every request must carry (Authorization: Bearer TOKEN), at least 16 characters; needed to listen beyond loopback (default: $RECAP_HTTP_TOKEN)")
	f.BoolVar(&triageWrites, "allow-triage-writes", false, "let analysis.triage write the decisions it is given to the triage file (.recap/triage.yml under --root); read-only by default")
	f.StringArrayVar(&origins, "allow-origin", nil, "with --http: also serve browser pages of this origin (scheme://host:port; repeatable); other foreign origins get 403")
	return cmd
}

// toolList names the MCP tools: "analysis.getReports, …, tokens.count and
// server.stats".
func toolList() string {
	var names []string
	for _, t := range mcpserver.Tools() {
		names = append(names, t.Name)
	}
	return text.List(names, "and")
}

// toolTable lists the MCP tools for the help: each name and its title.
func toolTable() string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "Tools:")
	for _, t := range mcpserver.Tools() {
		fmt.Fprintf(w, "  %s\t%s\n", t.Name, t.Title)
	}
	w.Flush()
	return strings.TrimSuffix(b.String(), "\n")
}

// parseSize reads a size of memory: a number of bytes, or of KiB, MiB or
// GiB (KB, MB, GB are taken as the same), at least 1 MiB.
func parseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	unit := int64(1)
	for _, u := range []struct {
		suffix string
		n      int64
	}{{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, unit = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.n
			break
		}
	}
	n, err := strconv.ParseFloat(t, 64)
	if err != nil || n*float64(unit) < 1<<20 || n*float64(unit) > 1<<50 {
		return 0, errors.New("want a size of at least 1MiB, such as 512MiB or 2GiB")
	}
	return int64(n * float64(unit)), nil
}

func isEOF(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "EOF") || strings.Contains(err.Error(), "closed"))
}

// serveHTTP serves s at http://addr/mcp until ctx ends. The address it
// listens on is printed on standard error (useful with port 0).
func serveHTTP(ctx context.Context, streams *IO, logger *slog.Logger, s *mcpserver.Server, addr string, o mcpserver.HTTPOptions) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		if !strings.Contains(addr, ":") {
			host, port, err = "", addr, nil
		} else {
			return usageError("--http %s: %v", addr, err)
		}
	}
	if host == "" {
		host = "127.0.0.1"
	}
	public := !mcpserver.IsLoopbackAddr(host)
	switch {
	case o.Token != "" && len(o.Token) < mcpserver.MinTokenLen:
		return usageError("the HTTP token is %d characters: give one of at least %d (openssl rand -hex 16)", len(o.Token), mcpserver.MinTokenLen)
	case public && o.Token == "":
		return usageError("--http %s listens beyond this machine (any host but localhost, 127.0.0.1 or ::1): give a bearer token that every request must carry, in the environment variable RECAP_HTTP_TOKEN or with --http-token (at least %d characters: openssl rand -hex 16), or listen on 127.0.0.1", addr, mcpserver.MinTokenLen)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return usageError("--http %s: %v", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.HTTPHandler(o))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	if public {
		fmt.Fprintf(streams.ErrOut, "recap mcp: listening beyond this machine (%s): every request needs Authorization: Bearer with the token\n", ln.Addr())
	}
	fmt.Fprintf(streams.ErrOut, "recap mcp: serving http://%s/mcp (root %s)\n", ln.Addr(), s.Root())
	logger.Info("serving MCP over streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp")
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
		return nil
	case err := <-errc:
		return err
	}
}
