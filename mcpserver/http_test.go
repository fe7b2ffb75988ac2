package mcpserver_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/recap-dev/recap/mcpserver"
)

// TestHTTPHostAndToken: on loopback a request that names another host than
// the server's loopback names with its port gets 421 (DNS rebinding); with
// a token, a request without Authorization: Bearer TOKEN (the scheme in
// any case) gets 401, before anything else is looked at.
func TestHTTPHostAndToken(t *testing.T) {
	g := workspace(t)
	s := newServer(t, mcpserver.Options{Root: g.Dir})
	const token = "0123456789abcdef"
	for _, withToken := range []bool{false, true} {
		o := mcpserver.HTTPOptions{}
		if withToken {
			o.Token = token
		}
		ts := httptest.NewServer(s.HTTPHandler(o))
		port := ts.URL[strings.LastIndex(ts.URL, ":")+1:]
		for _, tc := range []struct {
			host, auth string
			want       int
		}{
			{"", "", http.StatusOK},
			{"localhost:" + port, "", http.StatusOK},
			{"[::1]:" + port, "", http.StatusOK},
			{"evil.example:" + port, "", http.StatusMisdirectedRequest},
			{"127.0.0.1:1", "", http.StatusMisdirectedRequest},
			{"localhost", "", http.StatusMisdirectedRequest},
			{"", "Bearer " + token, http.StatusOK},
			{"", "bearer " + token, http.StatusOK},
			{"", "Bearer " + token + "0", http.StatusOK},
		} {
			want := tc.want
			if withToken && want == http.StatusOK && !strings.EqualFold(tc.auth, "Bearer "+token) {
				want = http.StatusUnauthorized
			}
			req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.host != "" {
				req.Host = tc.host
			}
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != want {
				t.Errorf("token %v, Host %q, Authorization %q: %d %s, want %d", withToken, tc.host, tc.auth, resp.StatusCode, b, want)
			}
			if resp.StatusCode == http.StatusUnauthorized && resp.Header.Get("WWW-Authenticate") != `Bearer realm="recap mcp"` {
				t.Errorf("401 without WWW-Authenticate: %v", resp.Header)
			}
		}
		ts.Close()
	}
}

// TestHTTPSessionBound: past MaxSessions a new session closes the least
// recently used one (a request refreshes a session), and the others go on.
func TestHTTPSessionBound(t *testing.T) {
	g := workspace(t)
	s := newServer(t, mcpserver.Options{Root: g.Dir})
	ts := httptest.NewServer(s.HTTPHandler(mcpserver.HTTPOptions{MaxSessions: 3}))
	defer ts.Close()
	post := func(session, body string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	open := func() string {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		id := resp.Header.Get("Mcp-Session-Id")
		if resp.StatusCode != http.StatusOK || id == "" {
			t.Fatalf("initialize: %d, session %q", resp.StatusCode, id)
		}
		if code := post(id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); code != http.StatusAccepted {
			t.Fatalf("initialized: %d", code)
		}
		return id
	}
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	a, b, c := open(), open(), open()
	if code := post(a, ping); code != http.StatusOK { // a is now the most recently used
		t.Fatalf("ping a: %d", code)
	}
	d := open() // closes b, the least recently used
	e := open() // closes c
	for id, want := range map[string]int{a: http.StatusOK, b: http.StatusNotFound, c: http.StatusNotFound, d: http.StatusOK, e: http.StatusOK} {
		if code := post(id, ping); code != want {
			name := map[string]string{a: "a", b: "b", c: "c", d: "d", e: "e"}[id]
			t.Errorf("session %s after 5 sessions made, 3 at most: %d, want %d", name, code, want)
		}
	}
}
