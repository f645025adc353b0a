package scenario

import (
	"runtime/debug"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	devel := &debug.BuildInfo{Main: debug.Module{Path: "schedplay", Version: "(devel)"}}
	vcs := &debug.BuildInfo{Main: debug.Module{Path: "schedplay", Version: "v0.0.0-20261202050000-b247848abcde+dirty"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "b247848abcdef"}, {Key: "vcs.modified", Value: "true"}}}
	tagged := &debug.BuildInfo{Main: debug.Module{Path: "schedplay", Version: "v1.2.0"}}
	for _, c := range []struct {
		name  string
		bi    *debug.BuildInfo
		ok    bool
		stamp string
		want  string
	}{
		{"go run, no stamp", devel, true, "", "(devel)"},
		{"go run, Makefile stamp", devel, true, "b247848-dirty", "b247848-dirty"},
		{"go build with VCS wins over the stamp", vcs, true, "b247848", "v0.0.0-20261202050000-b247848abcde+dirty b247848abcdef modified"},
		{"a module version keeps its stamp", tagged, true, "b247848", "v1.2.0 b247848"},
		{"no build information", nil, false, "", "unknown"},
		{"no build information, stamp", nil, false, "b247848", "b247848"},
	} {
		if got := buildVersion(c.bi, c.ok, c.stamp); got != c.want {
			t.Errorf("%s: buildVersion = %q, want %q", c.name, got, c.want)
		}
	}
}
