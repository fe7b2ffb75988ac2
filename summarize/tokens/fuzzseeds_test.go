package tokens

import (
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// TestFuzzSeedsAlone: FuzzChunkedCount runs on seeds of its own without
// ../shared.
func TestFuzzSeedsAlone(t *testing.T) { reportstest.FuzzSeedsAlone(t, 3) }
