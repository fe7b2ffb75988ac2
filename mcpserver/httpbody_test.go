package mcpserver

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestBodiesInFlight: connections that never finish their bodies hold at
// most MaxBodyBytesInFlight between them; the others are answered 503
// with Retry-After at once, and once room is given back a request is
// served again.
func TestBodiesInFlight(t *testing.T) {
	s, err := New(Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: s.HTTPHandler(HTTPOptions{MaxBodyBytesInFlight: 1 << 20}), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	addr := ln.Addr().String()
	send := func(length, sent int) (net.Conn, error) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", addr, length)
		_, err = c.Write([]byte(strings.Repeat(" ", sent)))
		return c, err
	}
	const n = 20
	var mu sync.Mutex
	var wg sync.WaitGroup
	status := map[string]int{}
	var conns []net.Conn
	for i := 0; i < n; i++ {
		c, err := send(2<<20, 300<<10) // 300 KiB of 2 MiB, never the rest
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			line, err := bufio.NewReader(c).ReadString('\n')
			if err != nil {
				line = "no answer yet"
			}
			mu.Lock()
			status[strings.TrimSpace(line)]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if status["HTTP/1.1 503 Service Unavailable"] < n-4 || status["no answer yet"] > 4 || status["no answer yet"] == 0 {
		t.Errorf("answers %v: want at most 4 bodies held (1 MiB of room), the others 503", status)
	}
	for _, c := range conns {
		c.Close()
	}
	// The room comes back: a whole request is served.
	time.Sleep(200 * time.Millisecond)
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, _ := http.NewRequest("POST", "http://"+addr+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("after the connections closed: %s", res.Status)
	}
}

// TestBusy: a call that would read reports while MaxColdReads calls do
// waits ColdWait for its turn, then is answered BUSY; a page of a buffer
// is served meanwhile, and once a turn is free the call is served.
func TestBusy(t *testing.T) {
	dir := t.TempDir()
	report := `<checkstyle version="8.36"><file name="A.java"><error line="1" severity="error" message="m" source="x.Y"/></file></checkstyle>`
	if err := os.WriteFile(filepath.Join(dir, "checkstyle-result.xml"), []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Root: dir, MaxColdReads: 1, ColdWait: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := s.getReports(ctx, &GetReportsIn{})
	if err != nil {
		t.Fatal(err)
	}
	id := a.(*reportsAnswer).v.BufferID
	s.cold <- struct{}{} // a call reading reports
	start := time.Now()
	_, err = s.getReports(ctx, &GetReportsIn{Severity: "error"})
	if te := asToolError(err); te.Code != CodeBusy || time.Since(start) < 50*time.Millisecond || !strings.Contains(te.Message, "call again in a few seconds") {
		t.Errorf("a call while another reads: %v after %s", err, time.Since(start))
	}
	for _, call := range []func() error{
		func() error { _, err := s.getFinding(ctx, &GetFindingIn{ID: "x"}); return err },
		func() error { _, err := s.tokens(ctx, &TokensIn{Paths: []string{"checkstyle-result.xml"}}); return err },
	} {
		if te := asToolError(call()); te.Code != CodeBusy {
			t.Errorf("another tool while a call reads: %v", te)
		}
	}
	if _, err := s.getReports(ctx, &GetReportsIn{BufferID: id, Offset: 0}); err != nil {
		t.Errorf("a page of a buffer while a call reads: %v", err)
	}
	<-s.cold
	if _, err := s.getReports(ctx, &GetReportsIn{Severity: "error"}); err != nil {
		t.Errorf("once the turn is free: %v", err)
	}
}
