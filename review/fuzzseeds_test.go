package review

import (
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// TestFuzzSeedsAlone: FuzzReadEvent and FuzzParseReply run on seeds of the checkout without ../shared.
func TestFuzzSeedsAlone(t *testing.T) { reportstest.FuzzSeedsAlone(t, 3) }
