package render_test

import (
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// TestFuzzSeedsAlone: every fuzz target of render (the JSON text of the
// writers of every finding, GitLab's text) runs on seeds of the checkout
// without ../shared.
func TestFuzzSeedsAlone(t *testing.T) { reportstest.FuzzSeedsAlone(t, 3) }
