package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Version is recap's version: set at build time with
// -ldflags "-X github.com/recap-dev/recap/cmd/recap/internal/cli.Version=v1.2.3"
// for a release; else taken from the build information (see version).
var Version = ""

// version is recap's version: Version when set; the module's version when
// built by go install of a tagged release; else "dev", with the VCS
// revision the binary was built from ("dev+3f9a1c2b7d10", "-dirty" when
// the work tree had changes).
func version() string {
	if Version != "" {
		return Version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	return versionOf(info)
}

func versionOf(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	v := "dev"
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if rev != "" {
		v += "+" + rev[:min(12, len(rev))] + dirty
	}
	return v
}

func newVersion(streams *IO) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print recap's version",
		Long: `version prints recap's version: a release's tag, or "dev" and the VCS revision
it was built from, then the Go version and platform.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprintf(streams.Out, "recap %s (%s, %s/%s)\n", version(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return err
		},
	}
}
