package render

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recap-dev/recap/reports"
	"github.com/recap-dev/recap/summarize"
)

// TestHTMLEarlySettled: a page that takes the findings early (SetEarly)
// and settles them (Settle) shows what a page shows that is handed the
// findings fate keeps, as fate leaves them, byte for byte: the same rows,
// the same rules, the same file view, the same table of strings (of the
// rows kept, in the order they use them); fate is asked about every
// finding in order, with its id, state, whether its decision suppresses it and
// whether it is a result that is no finding. Restart forgets what was
// taken. On the corpus (each finding with a detail that names others,
// and in each state) and hostile findings, with the source at hand and
// without.
func TestHTMLEarlySettled(t *testing.T) {
	decisions := []*reports.Triage{
		{State: "false-positive", Reason: "covered by <b>"},
		{State: "confirmed", Reason: "seen", Via: reports.ID("x", 1)},
		{State: "wont-fix", Reason: "old", Expired: true, Until: "2026-01-01"},
	}
	check := func(t *testing.T, src summarize.Source, fs []reports.Finding) {
		type fated struct {
			drop  bool
			state string
			t     *reports.Triage
			also  []reports.Also
		}
		fates := make([]fated, len(fs))
		early := make([]reports.Finding, len(fs)) // as the first pass has them: no others named
		states := make([]string, len(fs))
		for i, f := range fs {
			states[i] = []string{"", reports.BaselineNew, reports.BaselineUnchanged, reports.BaselineFixed}[i%4]
			fa := fated{drop: i%5 == 1, state: states[i]}
			if i%7 == 2 {
				fa.state = reports.BaselineUnchanged
			}
			if i%11 == 3 {
				fa.t = decisions[i%len(decisions)]
			}
			e := f
			if f.Detail != nil && len(f.Detail.Also) > 0 {
				fa.also = f.Detail.Also
				d := *f.Detail
				d.Also = nil
				e.Detail = &d
			}
			fates[i], early[i] = fa, e
		}
		opts := HTML{Source: src, CompressOver: -1, Version: "v"}
		want := opts.newStream()
		defer want.Close()
		for i, fa := range fates {
			if fa.drop {
				continue
			}
			g := early[i]
			if fa.t != nil {
				g.Triage = fa.t
			}
			if len(fa.also) > 0 {
				d := reports.Detail{}
				if g.Detail != nil {
					d = *g.Detail
				}
				d.Also = fa.also
				g.Detail = &d
			}
			if err := want.AddState(&g, fa.state); err != nil {
				t.Fatal(err)
			}
		}
		got := opts.newStream()
		defer got.Close()
		got.SetEarly()
		add := func(n int) {
			for i := range n {
				if err := got.AddState(&early[i], states[i]); err != nil {
					t.Fatal(err)
				}
			}
		}
		add(len(fs) / 2)
		if err := got.Restart(); err != nil {
			t.Fatal(err)
		}
		add(len(fs))
		asked := 0
		err := got.Settle(func(id reports.FindingID, baseline string, suppressed, uncounted bool) (bool, string, *reports.Triage, []reports.Also) {
			i := asked
			asked++
			f := &early[i]
			if id != f.ID || baseline != states[i] || suppressed != f.Triage.Suppressed() || uncounted != f.Uncounted() {
				t.Fatalf("fate of finding %d asked with %q %q %v %v; want %q %q %v %v", i, id, baseline, suppressed, uncounted,
					f.ID, states[i], f.Triage.Suppressed(), f.Uncounted())
			}
			return fates[i].drop, fates[i].state, fates[i].t, fates[i].also
		})
		if err != nil {
			t.Fatal(err)
		}
		if asked != len(fs) {
			t.Fatalf("fate asked about %d findings, want %d", asked, len(fs))
		}
		v := summarize.NewCollector().View(nil)
		wantShown, wantPage := pageShown(t, want, v)
		gotShown, gotPage := pageShown(t, got, v)
		if d := cmp.Diff(wantShown, gotShown); d != "" {
			t.Errorf("the settled page differs (-handed the findings kept +settled):\n%s", d)
		} else if gotPage != wantPage {
			t.Error("the settled page differs, not in what it shows")
		}
		if !slices.Equal(got.list, want.list) {
			t.Errorf("the settled page's table differs: %d strings, want %d", len(got.list), len(want.list))
		}
	}
	t.Run("hostile", func(t *testing.T) {
		var fs []reports.Finding
		for _, f := range hostileFindings() {
			fs = append(fs, variants(f)...)
		}
		check(t, nil, fs)
		check(t, &summarize.Dir{Root: t.TempDir()}, fs)
	})
	corpusFindings(t, func(t *testing.T, root string, all []reports.Finding) {
		var fs []reports.Finding
		for _, f := range all {
			fs = append(fs, variants(f)...)
		}
		check(t, nil, fs)
		check(t, &summarize.Dir{Root: root}, fs)
	})
}

// pageShown writes st's page of v and returns what it shows (its meta
// data, and its data with every string of the table read in its place)
// and the page.
func pageShown(t *testing.T, st *HTMLStream, v *summarize.View) (string, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := st.Write(&buf, v); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	meta := regexp.MustCompile(`(?s)id="recap-meta">(.*?)</script>`).FindStringSubmatch(page)
	m := regexp.MustCompile(`(?s)id="recap-findings-deflate"[^>]*>(.*?)</script>`).FindStringSubmatch(page)
	if meta == nil || m == nil {
		t.Fatal("no meta data or no deflated data in the page")
	}
	z, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(m[1], "\n", ""))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(z)))
	if err != nil {
		t.Fatal(err)
	}
	var data struct {
		S []string
		R [][]any
		F any
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		t.Fatal(err)
	}
	str := func(v any) any {
		if n, ok := v.(float64); ok {
			return data.S[int(n)]
		}
		return v
	}
	for _, r := range data.R {
		for _, i := range []int{1, 2, 3, 4, 5, 13} {
			r[i] = str(r[i])
		}
		if d, ok := r[14].(map[string]any); ok {
			for _, k := range []string{"cn", "tc", "h"} {
				if x, ok := d[k]; ok {
					d[k] = str(x)
				}
			}
		}
		if tr, ok := r[15].([]any); ok {
			tr[0], tr[1] = str(tr[0]), str(tr[1])
		}
	}
	if files, ok := data.F.([]any); ok {
		for _, f := range files {
			f.([]any)[0] = str(f.([]any)[0]) // its path
		}
	}
	rows, err := json.MarshalIndent(data.R, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := json.Marshal(data.F)
	return fmt.Sprintf("meta: %s\nrows:\n%s\nfiles: %s\n", meta[1], rows, files), page
}
