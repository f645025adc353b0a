//go:build linux

package main

import (
	"slices"
	"strings"
	"testing"

	"schedplay/core/sched"
)

// TestPlacementCounts: a wakeup that finds its previous CPU busy and the
// other idle counts, kept or moved as its target says; one onto an idle
// previous CPU, or with no CPU idle, does not; only the named comms count.
func TestPlacementCounts(t *testing.T) {
	const a, b, c = sched.TaskID(0), sched.TaskID(1), sched.TaskID(2)
	names := map[sched.TaskID]string{a: "mixB", b: "mixC", c: "other"}
	p := newPlacement(2, func(id sched.TaskID) string {
		if names[id] == "other" {
			return ""
		}
		return names[id]
	})
	sw := func(cpu int, prev, next sched.TaskID) sched.Event {
		return sched.Event{Kind: sched.EvSwitch, CPU: sched.CPUID(cpu), Prev: prev, Next: next}
	}
	wake := func(cpu int, id sched.TaskID) sched.Event {
		return sched.Event{Kind: sched.EvWakeup, CPU: sched.CPUID(cpu), Next: id, Prev: sched.NoTask}
	}
	for _, e := range []sched.Event{
		sw(0, sched.NoTask, a), sw(0, a, b), // a ran on 0, now b runs there; CPU 1 idle
		wake(0, a), // kept on the busy CPU
		sw(0, b, a), sw(0, a, b),
		wake(1, a),                                     // moved to the idle one
		sw(1, sched.NoTask, a), sw(1, a, sched.NoTask), // a last ran on 1, idle now
		wake(1, a), // previous CPU idle: not counted
		sw(1, sched.NoTask, c), sw(1, c, sched.NoTask), sw(1, sched.NoTask, a), sw(1, a, c), sw(0, b, sched.NoTask),
		sw(0, sched.NoTask, c), wake(0, b), // b's CPU 0 busy, CPU 1 busy: not counted
	} {
		p.Event(&e)
	}
	if got := p.counts["mixB"]; got != (placeCount{Found: 2, Stayed: 1, Moved: 1}) {
		t.Errorf("mixB %+v: want 2 found, 1 kept, 1 moved", got)
	}
	if got, ok := p.counts["mixC"]; ok {
		t.Errorf("mixC %+v: want none", got)
	}
	line := placementLine(p.counts, map[string]placeCount{"mixB": {Found: 3, Moved: 3}, "mixC": {Found: 1, Moved: 1}})
	if !strings.Contains(line, "mixB 2 (1 kept on the busy CPU, 1 moved to the idle one) | 3 (0 kept on the busy CPU, 3 moved to the idle one); mixC 0 (") {
		t.Errorf("line %q", line)
	}
}

// TestKernelRow: the report names the kernel the traces were recorded on,
// and where HZ and the preemption model come from when that differs.
func TestKernelRow(t *testing.T) {
	mi := machineInfo{Kernel: "6.18.44-fc-v857", HZ: 250, Preempt: "none"}
	for _, c := range []struct {
		r    report
		want string
	}{
		{report{Machine: mi}, "6.18.44-fc-v857, HZ=250, preempt none (real-kernel.json's; the recording did not note its kernel)"},
		{report{Machine: mi, TraceKernel: "6.18.44-fc-v857"}, "6.18.44-fc-v857, HZ=250, preempt none"},
		{report{Machine: mi, TraceKernel: "6.18.44-fc-v1098", SchedCmdline: []string{"sched_vcpu_pack=15"}},
			"6.18.44-fc-v1098 at the recording; HZ=250, preempt none as real-kernel.json found them on 6.18.44-fc-v857; command line `sched_vcpu_pack=15`"},
	} {
		if got := c.r.kernelRow(); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
	got := schedParams("console=ttyS0 sched_vcpu_pack=15 schedstats=enable quiet -- --sched_x=1")
	if !slices.Equal(got, []string{"sched_vcpu_pack=15", "schedstats=enable"}) {
		t.Errorf("sched params %q", got)
	}
}

// TestPlacementWhy: a comm the trace kept on its busy CPU where the
// replay moved it explains a switch miss; too few wakeups, or the same
// placement in both, do not.
func TestPlacementWhy(t *testing.T) {
	cr := caseResult{
		TracePlacement:  map[string]placeCount{"mixB": {Found: 192, Stayed: 187, Moved: 5}, "mixA": {Found: 10, Stayed: 10}, "mixC": {Found: 40, Stayed: 40}},
		ReplayPlacement: map[string]placeCount{"mixB": {Found: 282, Stayed: 5, Moved: 277}, "mixA": {Found: 10, Moved: 10}, "mixC": {Found: 40, Stayed: 40}},
	}
	got := cr.placementWhy()
	if !strings.Contains(got, "(mixB: 187 of 192 kept on the busy CPU in the trace, 277 of 282 moved to the idle one in the replay)") ||
		strings.Contains(got, "mixA") || strings.Contains(got, "mixC") {
		t.Errorf("got %q", got)
	}
	if got := (&caseResult{}).placementWhy(); got != "" {
		t.Errorf("no placement: got %q", got)
	}
}
