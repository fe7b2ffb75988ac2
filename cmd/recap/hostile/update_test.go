package hostile_test

// The test binary of every package takes -update (defined by reportstest),
// so that go test ./... -update runs everywhere.
import _ "github.com/recap-dev/recap/internal/reportstest"
