package main

// What one run of validate measures and what it leaves as it is. The real
// kernel and the trace recording both need root and tracefs, and both
// rewrite committed docs (docs/real-kernel.md/.json, docs/replay-fidelity.md/.json),
// so -skip-realkernel skips the recording too: a run without root then
// writes docs/VALIDATION.md and nothing else.

import "strings"

// plan is what a run does beside the simulator sections.
type plan struct {
	measureRK    bool   // run scripts/realkernel (rewrites docs/real-kernel.md/.json)
	recordReplay bool   // run scripts/replaytrace (rewrites docs/replay-fidelity.md/.json)
	replayFlag   string // the flag that skipped the recording, for the report ("" when recorded)
}

// planFor turns the flags into a plan.
func planFor(skipRK, skipReplay bool) plan {
	p := plan{measureRK: !skipRK, recordReplay: !skipRK && !skipReplay}
	switch {
	case skipReplay:
		p.replayFlag = "-skip-replay"
	case skipRK:
		p.replayFlag = "-skip-realkernel"
	}
	return p
}

// skipped says, for the run's output, what the plan leaves out and which
// files it therefore leaves as they are ("" when it leaves out nothing).
func (p plan) skipped() string {
	var what, files []string
	if !p.measureRK {
		what = append(what, "the real-kernel measurement")
		files = append(files, "docs/real-kernel.md")
	}
	if !p.recordReplay {
		what = append(what, "the trace recording and replay")
		files = append(files, "docs/replay-fidelity.md")
	}
	if len(what) == 0 {
		return ""
	}
	var flags []string
	if !p.measureRK {
		flags = append(flags, "-skip-realkernel")
	}
	if p.replayFlag == "-skip-replay" {
		flags = append(flags, "-skip-replay")
	}
	return "skipping " + strings.Join(what, " and ") + " (" + strings.Join(flags, " ") + "); " +
		strings.Join(files, " and ") + " left unchanged"
}
