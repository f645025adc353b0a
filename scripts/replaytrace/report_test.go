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
	cr, err := replayCase(cases[0], trace, mi, replayOpts{})
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
	for _, want := range []string{"## nice0-vs-nice5", "| nice0_10 | 49.8 | 49.8 | ok |", "every target met", "whatever else ran on the machine is in the traces", "Targets:",
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

// TestWhyQueuedLatency: a latency miss in a case whose remote idle
// wakeups did not go through the wake list says the whole path is fitted
// after sched_wakeup; one whose did, on a machine with a CPU whose
// switches from idle are missing, names that CPU's long trace latency;
// neither is said without such wakeups.
func TestWhyQueuedLatency(t *testing.T) {
	miss := false
	rows := []replay.Row{{Group: "worker_1", ShareOK: true, SwitchOK: true, LatencyOK: &miss}}
	const whole, silent = "did not go through the wake list", "long by the time before its first line"
	n := replay.MinCostSamples
	for _, c := range []struct {
		c          caseResult
		hasW, hasS bool
	}{
		{caseResult{Rows: rows, IdleWakes: n}, true, false},
		{caseResult{Rows: rows, IdleWakes: n, QueuedWakes: n, IdleSwitches: map[int]idleCount{1: {ToIdle: 9}}}, false, true},
		{caseResult{Rows: rows, IdleWakes: n, QueuedWakes: n, IdleSwitches: map[int]idleCount{1: {ToIdle: 9, FromIdle: 9}}}, false, false},
		{caseResult{Rows: rows, IdleWakes: n - 1}, false, false},
	} {
		got := c.c.why()
		if strings.Contains(got, whole) != c.hasW || strings.Contains(got, silent) != c.hasS {
			t.Errorf("%d idle, %d queued, %v: %q: want whole-path %v, silent-CPU %v", c.c.IdleWakes, c.c.QueuedWakes,
				c.c.IdleSwitches, got, c.hasW, c.hasS)
		}
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
		cr, err := replayCase(cases[0], trace, machineInfo{HZ: 250, Preempt: "none", CPUs: 2}, replayOpts{})
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
		if at := fmt.Sprintf("%d of them are at the task's own switch out", cr.MissedAtSwitchOut); cr.MissedAtSwitchOut > 0 != strings.Contains(got, at) {
			t.Errorf("%d missed switches at a switch out: %q", cr.MissedAtSwitchOut, got)
		}
	}
}

// TestReplaySpanAndMachine: a trace over the inference's step bound is
// replayed over its first span that fits, and the report says which bound
// and where; the machine is vm-2vcpu for a trace of the 2-vCPU guest,
// smp-2 elsewhere, and a -topology of another CPU count is refused.
func TestReplaySpanAndMachine(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "nice0-vs-nice5.txt")
	if err := os.WriteFile(trace, []byte(silentIdleTrace(true)), 0o644); err != nil {
		t.Fatal(err)
	}
	cases, err := selectCases("nice0-vs-nice5")
	if err != nil {
		t.Fatal(err)
	}
	guest := machineInfo{HZ: 250, Preempt: "none", CPUs: 2, Hypervisor: true}
	whole, err := replayCase(cases[0], trace, guest, replayOpts{})
	if err != nil {
		t.Fatal(err)
	}
	if whole.SpanNs != 0 || whole.Topology != "vm-2vcpu" {
		t.Errorf("whole trace: span %d, topology %s: want the whole on vm-2vcpu", whole.SpanNs, whole.Topology)
	}
	cut, err := replayCase(cases[0], trace, guest, replayOpts{Infer: replay.Options{MaxSteps: 60}})
	if err != nil {
		t.Fatal(err)
	}
	if cut.SpanNs <= 0 || cut.SpanNs >= cut.DurationNs || cut.DurationNs != whole.DurationNs || cut.Lost == 0 ||
		!strings.Contains(cut.Bound, "bound of 60 program steps") {
		t.Errorf("span %d of %d, %d left out, bound %q: want a shorter span, the bound named", cut.SpanNs, cut.DurationNs, cut.Lost, cut.Bound)
	}
	rep := report{Cases: []caseResult{cut}}
	if md := rep.markdown(); !strings.Contains(md, "Replayed its first") || !strings.Contains(md, "Replayed on vm-2vcpu (the preset of this 2-vCPU guest") ||
		!strings.Contains(md, "| replayed on | vm-2vcpu (") {
		t.Errorf("report lacks the span or the machine:\n%s", md)
	}
	if cr, err := replayCase(cases[0], trace, machineInfo{HZ: 250, Preempt: "none", CPUs: 2}, replayOpts{}); err != nil || cr.Topology != "smp-2" {
		t.Errorf("bare metal: %v, topology %s: want smp-2", err, cr.Topology)
	}
	if _, err := replayCase(cases[0], trace, guest, replayOpts{Topology: "smp-4"}); err == nil || !strings.Contains(err.Error(), "give -topology smp-2") {
		t.Errorf("-topology smp-4 on a 2-CPU trace: %v", err)
	}
}

// TestOwnIdleFitReported: the Inferred line names the own idle CPU's
// timer wakeups and the idle exit they set, or why they set none.
func TestOwnIdleFitReported(t *testing.T) {
	for _, c := range []struct {
		cr   caseResult
		want string
	}{
		{caseResult{OwnIdleWakes: 944, OwnIdleWakeP50Ns: 14000, OwnIdleGapP50Ns: 2500000, IdleExitNs: "1900"},
			"944 wakeups by an interrupt on the wakee's own idle CPU (a timer), median 14.0 us from sched_wakeup to switch-in after 2.5 ms idle (replay's hw.idle_exit_ns 1900)"},
		{caseResult{OwnIdleWakes: 12, OwnIdleWakeP50Ns: 14000, OwnIdleGapP50Ns: 2500000},
			"12 wakeups by an interrupt on the wakee's own idle CPU (a timer), median 14.0 us from sched_wakeup to switch-in after 2.5 ms idle (fewer than 20: not fitted)"},
		{caseResult{IdleWakes: 30, IdleWakeP50Ns: 20000, IdleExitNs: "5000", OwnIdleWakes: 40, OwnIdleWakeP50Ns: 9000},
			"40 wakeups by an interrupt on the wakee's own idle CPU (a timer), median 9.0 us from sched_wakeup to switch-in after 0.0 ms idle (the remote wakeups' fit kept)"},
	} {
		if got := c.cr.inferred(); !strings.Contains(got, c.want) {
			t.Errorf("got %q\nwant it to contain %q", got, c.want)
		}
	}
}

// TestMissedAtSwitchOutReported: switches added at the task's own switch
// out are counted in the silent CPU's sentence.
func TestMissedAtSwitchOutReported(t *testing.T) {
	cr := caseResult{IdleSwitches: map[int]idleCount{0: {ToIdle: 9, FromIdle: 9}, 1: {ToIdle: 598}}, MissedSwitches: 673, MissedAtSwitchOut: 290}
	if got := cr.inferred(); !strings.Contains(got, "the importer added 673 missed switches") ||
		!strings.Contains(got, "290 of them are at the task's own switch out") {
		t.Errorf("got %q", got)
	}
}

// TestWhyMigrations: a share miss names the tasks whose migrations differ
// widely between the trace and the replay, and only those.
func TestWhyMigrations(t *testing.T) {
	side := func(m int64) replay.Side { return replay.Side{Migrations: m} }
	rows := []replay.Row{
		{Comm: "hog0", Trace: side(0), Replay: side(10), SwitchOK: true},               // share miss, moved far more
		{Comm: "hog1", Trace: side(14), Replay: side(7), SwitchOK: true},               // share miss, within half
		{Comm: "hog2", Trace: side(0), Replay: side(9), ShareOK: true, SwitchOK: true}, // share met
		{Comm: "hog3", Trace: side(1), Replay: side(3), SwitchOK: true},                // too few to say
	}
	got := (&caseResult{Rows: rows}).why()
	if !strings.Contains(got, "hog0 0 in the trace, 10 in the replay") {
		t.Errorf("hog0's migrations not named: %q", got)
	}
	for _, not := range []string{"hog1 ", "hog2 ", "hog3 "} {
		if strings.Contains(got, not) {
			t.Errorf("%q named: %q", not, got)
		}
	}
	if got := (&caseResult{Rows: rows[1:2]}).migrationsWhy(); got != "" {
		t.Errorf("no wide difference, yet %q", got)
	}
}
