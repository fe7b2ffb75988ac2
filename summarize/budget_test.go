package summarize

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPack(t *testing.T) {
	parts := []Part{
		{PartSummary, 100}, {PartTopLists, 50},
		{PartFinding, 20}, {PartContext, 10},
		{PartFinding, 20}, {PartContext, 10},
		{PartFinding, 20}, {PartContext, 10},
	}
	tests := map[string]struct {
		budget   int
		want     []bool
		wantUsed int
	}{
		// summary 100 + top lists 50 = 150; each finding 20, each context 10.
		"everything fits exactly":           {240, []bool{true, true, true, true, true, true, true, true}, 240},
		"one over: the last context":        {239, []bool{true, true, true, true, true, true, true, false}, 230},
		"findings before any context":       {210, []bool{true, true, true, false, true, false, true, false}, 210},
		"a prefix of contexts":              {209, []bool{true, true, true, true, true, false, false, false}, 200},
		"a prefix of findings":              {195, []bool{true, true, true, false, true, false, false, false}, 190},
		"top lists skipped, a finding fits": {120, []bool{true, false, true, false, false, false, false, false}, 120},
		"only the summary, over budget":     {50, []bool{true, false, false, false, false, false, false, false}, 100},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			keep, used := Pack(parts, tc.budget)
			if diff := cmp.Diff(tc.want, keep); diff != "" {
				t.Errorf("keep mismatch (-want +got):\n%s", diff)
			}
			if used != tc.wantUsed {
				t.Errorf("used = %d, want %d", used, tc.wantUsed)
			}
		})
	}
}
