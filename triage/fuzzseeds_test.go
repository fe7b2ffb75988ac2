package triage

import (
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// TestFuzzSeedsAlone: FuzzParse (the triage file) runs on seeds of the checkout without ../shared.
func TestFuzzSeedsAlone(t *testing.T) { reportstest.FuzzSeedsAlone(t, 3) }
