package review

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestForeignNextPage pins that the token goes to the API only: a listing
// whose Link rel="next" (or a redirect) names another origin is refused
// with an error that says so, and the other origin gets no request.
func TestForeignNextPage(t *testing.T) {
	var foreignHits atomic.Int32
	foreign := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		foreignHits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("[]"))
	}))
	defer foreign.Close()
	// Same host name, another port: another origin.
	otherPort := strings.Replace(foreign.URL, "127.0.0.1", "localhost", 1)

	tests := []struct {
		name   string
		answer func(w http.ResponseWriter, r *http.Request, self string) // the API's answer to the first page
		want   string
	}{
		{"Link to another host", func(w http.ResponseWriter, r *http.Request, self string) {
			w.Header().Set("Link", `<`+foreign.URL+`/steal?page=2>; rel="next"`)
			w.Write([]byte("[]"))
		}, "not to the API"},
		{"Link to another host name of the same server", func(w http.ResponseWriter, r *http.Request, self string) {
			w.Header().Set("Link", `<`+otherPort+`/steal?page=2>; rel="next"`)
			w.Write([]byte("[]"))
		}, "not to the API"},
		{"Link to another scheme", func(w http.ResponseWriter, r *http.Request, self string) {
			w.Header().Set("Link", `<`+strings.Replace(self, "http://", "https://", 1)+`/x?page=2>; rel="next"`)
			w.Write([]byte("[]"))
		}, "not to the API"},
		{"protocol-relative Link", func(w http.ResponseWriter, r *http.Request, self string) {
			w.Header().Set("Link", `<//`+strings.TrimPrefix(foreign.URL, "http://")+`/steal>; rel="next"`)
			w.Write([]byte("[]"))
		}, "not to the API"},
		{"redirect to another host", func(w http.ResponseWriter, r *http.Request, self string) {
			http.Redirect(w, r, foreign.URL+"/steal", http.StatusFound)
		}, "redirected to"},
	}
	for _, tt := range tests {
		for _, host := range []string{"GitHub", "GitLab"} {
			t.Run(tt.name+"/"+host, func(t *testing.T) {
				foreignHits.Store(0)
				var api *httptest.Server
				var pages atomic.Int32
				api = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "application/json")
					if r.URL.Query().Get("page") != "" {
						w.Write([]byte("[]"))
						return
					}
					pages.Add(1)
					tt.answer(w, r, "http://"+r.Host)
				}))
				defer api.Close()
				var err error
				switch host {
				case "GitHub":
					c := &Client{APIURL: api.URL, Token: "ghs_secret", Owner: "o", Repo: "r", PR: 1, WriteInterval: -1}
					_, err = c.Earlier(context.Background(), "me")
				case "GitLab":
					g := &GitLab{APIURL: api.URL, Token: "glpat-secret", Project: "1", MR: 1}
					_, err = g.Earlier(context.Background(), "me")
				}
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("error %v, want one saying %q", err, tt.want)
				}
				if strings.Contains(err.Error(), "secret") {
					t.Errorf("the error shows the token: %v", err)
				}
				if n := foreignHits.Load(); n != 0 {
					t.Errorf("the foreign origin got %d requests", n)
				}
				if pages.Load() == 0 {
					t.Error("the API was not asked")
				}
			})
		}
	}
}

// TestSameOriginNextPage pins that a next page on the API's own origin,
// absolute or relative, is followed.
func TestSameOriginNextPage(t *testing.T) {
	for _, rel := range []bool{false, true} {
		var pages atomic.Int32
		api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			pages.Add(1)
			if r.URL.Query().Get("page") == "" {
				next := "http://" + r.Host + r.URL.Path + "?per_page=100&page=2"
				if rel {
					next = r.URL.Path + "?per_page=100&page=2"
				}
				w.Header().Set("Link", `<`+next+`>; rel="next"`)
			}
			w.Write([]byte("[]"))
		}))
		g := &GitLab{APIURL: api.URL, Token: "t", Project: "1", MR: 1}
		if _, err := g.Earlier(context.Background(), "me"); err != nil {
			t.Fatal(err)
		}
		api.Close()
		if pages.Load() != 2 {
			t.Errorf("relative %v: %d pages read, want 2", rel, pages.Load())
		}
	}
}
