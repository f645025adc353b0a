//go:build linux

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/core/replay"
)

// hogsTrace: two hogs on CPU 1 taking turns every 4 ms (a tick), with
// nothing else on the machine, and a line from an untraced task on CPU 0.
func hogsTrace() string {
	var b strings.Builder
	b.WriteString("# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:2\n")
	pids := []int{10, 11}
	comms := []string{"nice0", "nice5"}
	for i := 0; i < 300; i++ {
		a, n := i%2, (i+1)%2
		us := 100 + i*4000
		fmt.Fprintf(&b, "%16s-%-7d [001] d..2. %6d.%06d: sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=R+ ==> next_comm=%s next_pid=%d next_prio=120\n",
			comms[a], pids[a], 100+us/1e6, us%1e6, comms[a], pids[a], comms[n], pids[n])
	}
	return b.String()
}

func TestReplayCaseReport(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "nice0-vs-nice5.txt")
	if err := os.WriteFile(trace, []byte(hogsTrace()), 0o644); err != nil {
		t.Fatal(err)
	}
	mj := filepath.Join(dir, "rk.json")
	if err := os.WriteFile(mj, []byte(`{"machine":{"kernel":"6.18","hz":250,"preempt":"none","cpus":2,"cpu_model":"x"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	mi, err := readMachine(mj)
	if err != nil {
		t.Fatal(err)
	}
	cases, err := selectCases("nice0-vs-nice5")
	if err != nil {
		t.Fatal(err)
	}
	cr, err := replayCase(cases[0], trace, mi)
	if err != nil {
		t.Fatal(err)
	}
	if len(cr.Rows) != 2 || cr.Other.Tasks != 0 {
		t.Fatalf("rows %+v other %+v", cr.Rows, cr.Other)
	}
	for _, r := range cr.Rows {
		if !r.ShareOK || r.Trace.Switches < 140 {
			t.Errorf("%s: %+v", r.Group, r)
		}
	}
	rep := report{Command: "x", Machine: mi, Date: "d", Cases: []caseResult{cr}}
	md := rep.markdown()
	for _, want := range []string{"## nice0-vs-nice5", "| nice0_10 | 49.8 | 49.8 | ok |", "every target met", "recorded once on a machine shared", "Targets:",
		"no timer interrupt entries: which tasks read their CPU clock cannot be inferred"} {
		if !strings.Contains(strings.ToLower(md), strings.ToLower(want)) {
			t.Errorf("%q missing in\n%s", want, md)
		}
	}
	// The method text states the inference's constants.
	for _, want := range []string{fmt.Sprintf("at least %d self-preemptions", replay.MinSelfPreemptions),
		fmt.Sprintf("`cpu_clock_poll` %d us", replay.DefaultClockPoll/1000)} {
		if !strings.Contains(method, want) {
			t.Errorf("method text lacks %q", want)
		}
	}
	if _, err := selectCases("nope"); err == nil || !strings.Contains(err.Error(), "unknown case") {
		t.Errorf("unknown case: %v", err)
	}
	if _, err := readMachine(filepath.Join(dir, "none.json")); err == nil {
		t.Error("a missing machine record was accepted")
	}
}

// TestWhyQueuedLatency: a latency miss in a case whose trace estimated
// the remote idle wakeup cost names the difference of the two latencies'
// start (the IPI's sched_wakeup against the simulator's try_to_wake_up());
// a case without such wakeups does not.
func TestWhyQueuedLatency(t *testing.T) {
	miss := false
	rows := []replay.Row{{Group: "worker_1", ShareOK: true, SwitchOK: true, LatencyOK: &miss}}
	const want = "printed by that CPU's IPI handler"
	c := caseResult{Rows: rows, IdleWakes: replay.MinCostSamples}
	if got := c.why(); !strings.Contains(got, want) {
		t.Errorf("%d remote idle wakeups: %q lacks %q", c.IdleWakes, got, want)
	}
	c.IdleWakes = replay.MinCostSamples - 1
	if got := c.why(); strings.Contains(got, want) {
		t.Errorf("%d remote idle wakeups: %q has %q", c.IdleWakes, got, want)
	}
}

// silentIdleTrace: a task on CPU 1 sleeps and is woken by the IPI
// handler of the idle CPU 1 again and again, with no sched_switch from
// idle on CPU 1 (as this machine's kernel records it) unless fromIdle.
func silentIdleTrace(fromIdle bool) string {
	var b strings.Builder
	b.WriteString("# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:2\n")
	line := func(comm string, pid, us int, flags, ev, body string) {
		fmt.Fprintf(&b, "%16s-%-7d [001] %s %6d.%06d: %s: %s\n", comm, pid, flags, 100+us/1_000_000, us%1_000_000, ev, body)
	}
	for i := 0; i < 50; i++ {
		us := 1000 + i*1000
		line("sleeper", 10, us, "d..2.", "sched_switch", "prev_comm=sleeper prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120")
		line("<idle>", 0, us+500, "dNh2.", "sched_wakeup", "comm=sleeper pid=10 prio=120 target_cpu=001")
		if fromIdle {
			line("<idle>", 0, us+505, "d..2.", "sched_switch", "prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sleeper next_pid=10 next_prio=120")
		}
		line("sleeper", 10, us+510, "d..3.", "sched_waking", "comm=other pid=11 prio=120 target_cpu=000")
	}
	return b.String()
}

// TestSilentIdleCPUReported: a trace whose CPU 1 has switches to idle and
// none from it says so, with the importer's added switches; one with them
// says nothing.
func TestSilentIdleCPUReported(t *testing.T) {
	const want = "No switch from idle on CPU 1 (50 switches to idle)"
	for _, fromIdle := range []bool{false, true} {
		dir := t.TempDir()
		trace := filepath.Join(dir, "nice0-vs-nice5.txt")
		if err := os.WriteFile(trace, []byte(silentIdleTrace(fromIdle)), 0o644); err != nil {
			t.Fatal(err)
		}
		cases, err := selectCases("nice0-vs-nice5")
		if err != nil {
			t.Fatal(err)
		}
		cr, err := replayCase(cases[0], trace, machineInfo{HZ: 250, Preempt: "none", CPUs: 2})
		if err != nil {
			t.Fatal(err)
		}
		got := cr.inferred()
		if has := strings.Contains(got, want); has == fromIdle {
			t.Errorf("switches from idle traced %v: %q", fromIdle, got)
		}
		if !fromIdle && (cr.MissedSwitches < 49 || !strings.Contains(got, fmt.Sprintf("added %d missed switches", cr.MissedSwitches))) {
			t.Errorf("%d missed switches: %q", cr.MissedSwitches, got)
		}
	}
}
