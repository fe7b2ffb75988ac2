package reports

import (
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// TestFuzzSeedsAlone: every fuzz target of reports (the grouper) runs on
// seeds of the checkout without ../shared.
func TestFuzzSeedsAlone(t *testing.T) { reportstest.FuzzSeedsAlone(t, 3) }
