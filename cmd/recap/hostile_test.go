package main

import (
	"flag"
	"testing"
	"time"

	"github.com/recap-dev/recap/internal/hostile"
)

var full = flag.Bool("full", false, "run the hostile cases at full size (the test command does, for the cases of changes)")

// TestHostile runs every hostile-input case (internal/hostile) at its test
// size through the recap binary: each ends within its time limit with a
// named error or a bounded result, the good inputs of the same call still
// reported, and a peak RSS within its bound. scripts/hostile runs the same
// cases at full size.
//
// With -full (the test command gives it for the cases of changes) the
// cases run at full size.
func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile inputs: not in -short")
	}
	for _, c := range hostile.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			if tool := c.Missing(); tool != "" {
				t.Skipf("%s is not installed: the case needs it", tool)
			}
			size, limit := c.Size, 2*time.Minute
			if *full {
				size, limit = c.Full, 10*time.Minute
			}
			r, err := hostile.Run(bin, t.TempDir(), c, size, limit)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: exit %d in %s, peak RSS %.1f MiB", r.What, r.Code, r.Wall.Round(time.Millisecond), float64(r.MaxRSS)/hostile.MiB)
			if err := c.Check(r); err != nil {
				t.Error(err)
			}
			if r.MaxRSS > c.Bound {
				t.Errorf("peak RSS %.1f MiB, bound %d MiB", float64(r.MaxRSS)/hostile.MiB, c.Bound/hostile.MiB)
			}
		})
	}
}
