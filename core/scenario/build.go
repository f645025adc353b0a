package scenario

// The build's name in every export's provenance (Record.Schedplay): what
// the binary's Go build information says of its module and VCS commit,
// or, where Go stamped no VCS information (go run, -buildvcs=false), the
// commit the Makefile's builds link in (buildStamp); "(devel)" only where
// neither is known (docs/cli.md "Provenance in exports").

import "runtime/debug"

// buildStamp is `git describe --always --dirty` of the tree the Makefile
// built from, set at link time (-ldflags -X
// schedplay/core/scenario.buildStamp=...); "" in any other build.
var buildStamp string

// BuildVersion names the running binary's schedplay build: the main
// module's version (Go stamps a pseudo-version from the VCS commit, with
// +dirty, on go build; "(devel)" on go run and go test), the VCS revision
// and "modified" when the tree had uncommitted changes, as far as the
// binary's build information says. Without a VCS revision there, the
// Makefile's stamp (the commit, "-dirty" when modified) instead of
// "(devel)"; "unknown" without either.
func BuildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	return buildVersion(bi, ok, buildStamp)
}

// buildVersion is BuildVersion of the build information bi (ok: there is
// some) and the link-time stamp.
func buildVersion(bi *debug.BuildInfo, ok bool, stamp string) string {
	if !ok {
		if stamp != "" {
			return stamp
		}
		return "unknown"
	}
	id, rev := bi.Main.Version, false
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			id += " " + s.Value
			rev = true
		case s.Key == "vcs.modified" && s.Value == "true":
			id += " modified"
		}
	}
	switch {
	case rev || stamp == "":
		return id
	case id == "(devel)" || id == "":
		return stamp
	}
	return id + " " + stamp
}
