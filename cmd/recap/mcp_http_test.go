package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// withoutToken is the environment without RECAP_HTTP_TOKEN, plus more.
func withoutToken(more ...string) []string {
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "RECAP_HTTP_TOKEN=") {
			env = append(env, e)
		}
	}
	return append(env, more...)
}

// startMCP starts recap mcp with args and env, and returns the port it
// listens on and its standard error.
func startMCP(t *testing.T, env []string, args ...string) (string, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"mcp"}, args...)...)
	cmd.Env = env
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Error("recap mcp --http did not stop on an interrupt")
		}
	})
	logs := &syncBuffer{}
	ports := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			logs.Write([]byte(sc.Text() + "\n"))
			if _, rest, ok := strings.Cut(sc.Text(), "serving http://"); ok {
				hostPort := strings.TrimSuffix(strings.Fields(rest)[0], "/mcp")
				ports <- hostPort[strings.LastIndex(hostPort, ":")+1:]
			}
		}
	}()
	select {
	case port := <-ports:
		return port, logs
	case <-time.After(15 * time.Second):
		t.Fatalf("recap mcp did not say where it listens:\n%s", logs.String())
	}
	return "", nil
}

// bearer adds an Authorization header to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// rawInitialize posts an initialize request to addr (host:port) with the
// Host header and the Authorization header given ("": none), and returns
// the status and body.
func rawInitialize(t *testing.T, addr, host, auth string) (int, string) {
	t.Helper()
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp", strings.NewReader(initialize))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if host != "" {
		req.Host = host
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestMCPHTTPBeyondLoopback: recap mcp --http on an address beyond
// loopback refuses to start without a bearer token (exit 2, saying how to
// give one) or with a short one; with RECAP_HTTP_TOKEN or --http-token it
// serves, and every request needs Authorization: Bearer TOKEN (401
// otherwise), through the Go SDK's client and the TypeScript SDK's. On
// loopback a request that names another host (DNS rebinding) is refused
// with 421, and the server's own names are served.
func TestMCPHTTPBeyondLoopback(t *testing.T) {
	dir := mcpWorkspace(t)
	const token = "0123456789abcdef0123456789abcdef"
	for _, tc := range []struct {
		args []string
		env  []string
		want string
	}{
		{[]string{"--http", "0.0.0.0:0"}, nil, "--http 0.0.0.0:0 listens beyond this machine"},
		{[]string{"--http", "[::]:0"}, nil, "give a bearer token that every request must carry, in the environment variable RECAP_HTTP_TOKEN or with --http-token"},
		{[]string{"--http", ":0", "--http-token", "short"}, nil, "the HTTP token is 5 characters: give one of at least 16"},
		{[]string{"--http", "0.0.0.0:0"}, []string{"RECAP_HTTP_TOKEN=short"}, "the HTTP token is 5 characters"},
	} {
		cmd := exec.Command(bin, append([]string{"mcp", "--root", dir}, tc.args...)...)
		cmd.Env = withoutToken(tc.env...)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), tc.want) {
			t.Errorf("recap mcp %v: %v\n%s", tc.args, err, out)
		}
	}

	port, logs := startMCP(t, withoutToken("RECAP_HTTP_TOKEN="+token), "--root", dir, "--tool-names", "dotted", "--http", "0.0.0.0:0")
	if !strings.Contains(logs.String(), "listening beyond this machine") {
		t.Errorf("no warning:\n%s", logs.String())
	}
	addr := "127.0.0.1:" + port
	for _, tc := range []struct {
		auth string
		want int
	}{
		{"", http.StatusUnauthorized},
		{"Bearer nope", http.StatusUnauthorized},
		{"Bearer " + token + "x", http.StatusUnauthorized},
		{"Basic " + token, http.StatusUnauthorized},
		{"Bearer " + token, http.StatusOK},
	} {
		if code, body := rawInitialize(t, addr, "", tc.auth); code != tc.want {
			t.Errorf("Authorization %q: %d %s, want %d", tc.auth, code, body, tc.want)
		}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", HTTPClient: &http.Client{Transport: bearer{token}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	agentFlow(t, cs)
	cs.Close()
	if _, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp"}, nil); err == nil || !strings.Contains(err.Error(), "Unauthorized") {
		t.Errorf("the Go client without the token: %v", err)
	}
	// From another address of this machine, any Host is served with the token.
	if ip := externalIP(); ip != "" {
		if code, body := rawInitialize(t, net.JoinHostPort(ip, port), "recap.example:"+port, "Bearer "+token); code != http.StatusOK {
			t.Errorf("through %s: %d %s", ip, code, body)
		}
	}

	// --http-token on loopback asks for the token too.
	lport, _ := startMCP(t, withoutToken(), "--root", dir, "--http", "127.0.0.1:0", "--http-token", token)
	if code, _ := rawInitialize(t, "127.0.0.1:"+lport, "", ""); code != http.StatusUnauthorized {
		t.Errorf("--http-token on loopback, no header: %d", code)
	}

	// DNS rebinding on loopback, without a token.
	lport, _ = startMCP(t, withoutToken(), "--root", dir, "--http", "127.0.0.1:0")
	for _, tc := range []struct {
		host string
		want int
	}{
		{"evil.example:" + lport, http.StatusMisdirectedRequest},
		{"evil.example", http.StatusMisdirectedRequest},
		{"localhost:1", http.StatusMisdirectedRequest},
		{"127.0.0.2.nip.io:" + lport, http.StatusMisdirectedRequest},
		{"localhost:" + lport, http.StatusOK},
		{"127.0.0.1:" + lport, http.StatusOK},
		{"[::1]:" + lport, http.StatusOK},
	} {
		if code, body := rawInitialize(t, "127.0.0.1:"+lport, tc.host, ""); code != tc.want {
			t.Errorf("Host %q: %d %s, want %d", tc.host, code, body, tc.want)
		}
	}

	// The TypeScript SDK's client, with the header and without.
	url := "http://" + addr + "/mcp"
	with := httpClient("recap-test", url)
	with["headers"] = map[string]string{"Authorization": "Bearer " + token}
	rep, _ := runTS(t, map[string]any{
		"clients": map[string]any{"with": with, "without": httpClient("recap-test", url)},
		"steps":   []map[string]any{{"client": "without", "op": "connect"}, {"client": "with", "op": "call", "name": "server.stats"}},
	})
	if rep.Steps[0].OK || fmt.Sprint(rep.Steps[0].Code) != "401" {
		t.Errorf("the TypeScript client without the token: %+v", rep.Steps[0])
	}
	if rep.Steps[1].tool(t).IsError {
		t.Errorf("the TypeScript client with the token: %+v", rep.Steps[1])
	}
}

// externalIP is an address of this machine beyond loopback, "" if none.
func externalIP() string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return ""
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.String()
		}
	}
	return ""
}
