package diff_test

import (
	"testing"

	"github.com/recap-dev/recap/internal/reportstest"
)

// TestFuzzSeedsAlone: FuzzParse (diff text) and FuzzSimilarityLikeGoGit run
// on seeds of the checkout without ../shared.
func TestFuzzSeedsAlone(t *testing.T) { reportstest.FuzzSeedsAlone(t, 3) }
