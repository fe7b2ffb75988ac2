package parsers

import (
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// TestFuzzSeedsAlone: Every fuzz target of the parsers (SARIF, SpotBugs, Checkstyle, PMD, Code Quality, detection, standard input, the XML scanners, the SARIF decoder oracle) runs on seeds of the checkout without ../shared.
func TestFuzzSeedsAlone(t *testing.T) { reportstest.FuzzSeedsAlone(t, 3) }
