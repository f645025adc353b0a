package scenario

// Record: the provenance object every export carries (docs/cli.md
// "Provenance in exports"): the preset, the -set flags by which the
// scenario differs from it (Provenance), the kernel profile and machine,
// the seeds of the runs, a digest of the scenario's canonical JSON and the
// schedplay build. The CLI and the playground build it with the same
// function from the same scenario, so an export from the page and one from
// the CLI for the same configuration carry the same object but for the
// build (Schedplay): each binary names its own.

import (
	"encoding/hex"
	"slices"
)

// Record is the "provenance" object of an export. Fields are added, never
// removed or renamed.
type Record struct {
	// Preset is the preset the scenario is named after ("" if none);
	// Scenario is the scenario's name.
	Preset   string `json:"preset"`
	Scenario string `json:"scenario"`
	// Set: the KEY=VALUE flags that turn the preset into the scenario, in
	// key-table order (empty when it is the preset).
	Set []string `json:"set"`
	// Cleared: keys the scenario leaves to their default where the preset
	// sets them (no -set flag says that).
	Cleared []string `json:"cleared,omitempty"`
	// Other: the scenario also differs in fields no key names (a task
	// group's fields, a workload): only its JSON reproduces it, and
	// ScenarioSHA256 identifies that JSON.
	Other bool `json:"other,omitempty"`
	// Kernel and Topology: the kernel profile and machine of the scenario
	// (a sweep or an experiment may vary them per run: see its own fields).
	Kernel   string `json:"kernel"`
	Topology string `json:"topology"`
	// Seeds of the runs, ascending, each once.
	Seeds []uint64 `json:"seeds"`
	// ScenarioSHA256 is the SHA-256 of the scenario's canonical JSON
	// (Scenario.Encode, the bytes a share link carries).
	ScenarioSHA256 string `json:"scenario_sha256"`
	// Command reruns the export: the preset and its -set flags, or
	// scenario.json (the exported scenario) when -set cannot say it.
	Command string `json:"command"`
	// Schedplay is the build: module version, VCS revision and
	// "modified" for a tree with uncommitted changes, as far as the binary
	// knows them (BuildVersion).
	Schedplay string `json:"schedplay"`
	// Trace and TraceSHA256 name the kernel trace a replay inferred the
	// scenario from (schedplay replay; omitted for any other export): its
	// file name as given ("-" for standard input) and the SHA-256 of its
	// bytes. Set then holds replay's own -set flags, and Command is the
	// replay.
	Trace       string `json:"trace,omitempty"`
	TraceSHA256 string `json:"trace_sha256,omitempty"`
}

// NewRecord describes sc (as it ran) for an export of the runs with the
// given seeds. cmd is the subcommand and the flags after the scenario
// ("run", "sweep -sweep kernel.hz=250,1000 -runs 3"): Command is
// "schedplay " + cmd + the preset's -preset and -set flags, or + a
// scenario.json argument.
func NewRecord(sc *Scenario, seeds []uint64, cmd string) *Record {
	p := ProvenanceOf(sc)
	r := &Record{Preset: p.Preset, Scenario: sc.Name, Set: append([]string{}, p.Sets...),
		Cleared: p.Cleared, Other: p.Other, Schedplay: BuildVersion()}
	r.Kernel, _ = sc.Value("kernel.version")
	r.Topology, _ = sc.Value("topology")
	r.Seeds = slices.Compact(slices.Sorted(slices.Values(seeds)))
	if r.Seeds == nil {
		r.Seeds = []uint64{}
	}
	sum := sha256Sum(sc.Encode())
	r.ScenarioSHA256 = hex.EncodeToString(sum[:])
	r.Command = RegenerateCommand(p, cmd)
	return r
}

// RegenerateCommand is the CLI command of cmd (the subcommand and its own
// flags) on the scenario p describes: with -preset and -set flags when
// they reproduce it, else on scenario.json.
func RegenerateCommand(p Provenance, cmd string) string {
	sub, rest := cmd, ""
	for i := range cmd {
		if cmd[i] == ' ' {
			sub, rest = cmd[:i], cmd[i:]
			break
		}
	}
	if p.Preset == "" || !p.Exact() {
		return "schedplay " + sub + rest + " scenario.json"
	}
	return "schedplay " + sub + " -preset " + ShellQuote(p.Preset) + p.SetFlags() + rest
}

// SeedRange is the seeds first..first+n-1, the seeds of n runs per
// configuration (experiment.Plan's).
func SeedRange(first uint64, n int) []uint64 {
	s := make([]uint64, 0, max(n, 0))
	for i := range n {
		s = append(s, first+uint64(i))
	}
	return s
}
