package cli

import (
	"runtime/debug"
	"testing"
)

func TestVersionOf(t *testing.T) {
	t.Parallel()
	vcs := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	tests := map[string]struct {
		info debug.BuildInfo
		want string
	}{
		"a release, go install …@v1.4.0": {debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "v1.4.0"},
		"a checkout":                     {debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", "3f9a1c2b7d10aa55", "vcs.modified", "false")}, "dev+3f9a1c2b7d10"},
		"a checkout with changes":        {debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", "3f9a1c2b7d10aa55", "vcs.modified", "true")}, "dev+3f9a1c2b7d10-dirty"},
		"no VCS information":             {debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
	}
	for name, tc := range tests {
		if got := versionOf(&tc.info); got != tc.want {
			t.Errorf("%s: versionOf = %q, want %q", name, got, tc.want)
		}
	}
}
