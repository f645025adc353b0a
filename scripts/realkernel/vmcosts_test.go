//go:build linux

package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// ev is one line of a synthetic x86-tsc capture: at is in ns, the counter
// runs at 2 cycles per ns, and each hrtimer_expire_entry prints now= 100 ns
// before its own timestamp, so the fitted rate is exactly 2.
type ev struct {
	at        int64
	cpu       int
	comm      string
	pid       int
	name, arg string
}

func captureText(evs []ev) string {
	var b strings.Builder
	b.WriteString("# tracer: nop\n#\n")
	for _, e := range evs {
		fmt.Fprintf(&b, "%16s-%-7d [%03d] d.h1. %d: %s: %s\n", e.comm, e.pid, e.cpu, 2*e.at, e.name, e.arg)
	}
	return b.String()
}

// wakeups is one timer wakeup onto a busy CPU 0 (the hog running), one
// onto an idle CPU 1 whose tick was stopped, and a pipe wakeup from CPU 1
// onto the busy CPU 0 by a reschedule IPI.
var wakeups = []ev{
	{1000, 0, "vmc-sleep", 20, "hrtimer_start", "hrtimer=A function=hrtimer_wakeup expires=101000 softexpires=51000 mode=REL was_armed=0"},
	{1500, 0, "vmc-sleep", 20, "sched_switch", "prev_comm=vmc-sleep prev_pid=20 prev_prio=120 prev_state=S ==> next_comm=vmc-hog next_pid=10 next_prio=120"},
	{2000, 1, "vmc-pipe", 30, "hrtimer_start", "hrtimer=C function=hrtimer_wakeup expires=202000 softexpires=152000 mode=REL was_armed=0"},
	{2500, 1, "vmc-pipe", 30, "sched_switch", "prev_comm=vmc-pipe prev_pid=30 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120"},
	{3000, 1, "<idle>", 0, "tick_stop", "success=1 dependency=NONE"},
	{3500, 1, "<idle>", 0, "hrtimer_start", "hrtimer=T function=tick_nohz_handler expires=900000 softexpires=900000 mode=ABS was_armed=0"},
	{4000, 1, "<idle>", 0, "cpu_idle", "state=1 cpu_id=1"},
	// busy CPU 0: interrupt 9.1 us after the hard expiry
	{110000, 0, "vmc-hog", 10, "local_timer_entry", "vector=236"},
	{110200, 0, "vmc-hog", 10, "hrtimer_expire_entry", "hrtimer=A function=hrtimer_wakeup now=110100"},
	{110500, 0, "vmc-hog", 10, "sched_waking", "comm=vmc-sleep pid=20 prio=120 target_cpu=000"},
	{111500, 0, "vmc-hog", 10, "sched_wakeup", "comm=vmc-sleep pid=20 prio=120 target_cpu=000"},
	{111700, 0, "vmc-hog", 10, "hrtimer_expire_exit", "hrtimer=A"},
	{118700, 0, "vmc-hog", 10, "write_msr", "6e0, value 4633b4601b1a"},
	{119000, 0, "vmc-hog", 10, "local_timer_exit", "vector=236"},
	{120000, 0, "vmc-hog", 10, "sched_switch", "prev_comm=vmc-hog prev_pid=10 prev_prio=120 prev_state=R ==> next_comm=vmc-sleep next_pid=20 next_prio=120"},
	{122000, 0, "vmc-sleep", 20, "hrtimer_start", "hrtimer=B function=hrtimer_wakeup expires=1172000 softexpires=1122000 mode=REL was_armed=0"},
	{122500, 0, "vmc-sleep", 20, "sched_switch", "prev_comm=vmc-sleep prev_pid=20 prev_prio=120 prev_state=S ==> next_comm=vmc-hog next_pid=10 next_prio=120"},
	// idle CPU 1: interrupt 20 us after the hard expiry, tick restart
	{222000, 1, "<idle>", 0, "local_timer_entry", "vector=236"},
	{222100, 1, "<idle>", 0, "hrtimer_expire_entry", "hrtimer=C function=hrtimer_wakeup now=222000"},
	{222300, 1, "<idle>", 0, "sched_waking", "comm=vmc-pipe pid=30 prio=120 target_cpu=001"},
	{223000, 1, "<idle>", 0, "sched_wakeup", "comm=vmc-pipe pid=30 prio=120 target_cpu=001"},
	{223200, 1, "<idle>", 0, "hrtimer_expire_exit", "hrtimer=C"},
	{230200, 1, "<idle>", 0, "write_msr", "6e0, value 4633b4601b1b"},
	{230500, 1, "<idle>", 0, "local_timer_exit", "vector=236"},
	{231000, 1, "<idle>", 0, "cpu_idle", "state=4294967295 cpu_id=1"},
	{231500, 1, "<idle>", 0, "hrtimer_cancel", "hrtimer=T"},
	{232000, 1, "<idle>", 0, "hrtimer_start", "hrtimer=T function=tick_nohz_handler expires=236000 softexpires=236000 mode=ABS was_armed=0"},
	{239000, 1, "<idle>", 0, "write_msr", "6e0, value 4633b4601b1c"},
	{240000, 1, "<idle>", 0, "sched_switch", "prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=vmc-pipe next_pid=30 next_prio=120"},
	// the pipe write wakes the sleeper's partner on CPU 0 (busy)
	{241000, 1, "vmc-pipe", 30, "sched_waking", "comm=vmc-sleep pid=20 prio=120 target_cpu=000"},
	{241500, 1, "vmc-pipe", 30, "ipi_send_cpu", "cpu=0 callsite=wakeup_preempt+0x55/0xa0 callback=0x0"},
	{252500, 1, "vmc-pipe", 30, "write_msr", "830, value fd"},
	{258500, 0, "vmc-hog", 10, "reschedule_entry", "vector=253"},
	{259000, 0, "vmc-hog", 10, "reschedule_exit", "vector=253"},
}

func TestDeriveCostsFromCapture(t *testing.T) {
	recs, cycles, err := parseTrace(strings.NewReader(captureText(wakeups)))
	if err != nil {
		t.Fatal(err)
	}
	if !cycles || len(recs) != len(wakeups) {
		t.Fatalf("parsed %d records (cycles %v), want %d counter-stamped", len(recs), cycles, len(wakeups))
	}
	for i, r := range recs {
		if r.TS != wakeups[i].at {
			t.Fatalf("record %d (%s): %d ns after the rate fit, want %d", i, r.Event, r.TS, wakeups[i].at)
		}
	}
	cs := deriveCosts(recs, vmcostsWatched)
	want := map[string][]int64{
		"Slack":           {50000, 50000, 50000},
		"LateBusy":        {9100},
		"LateIdle":        {20000},
		"ExpireToWaking":  {300, 200},
		"WakingToWakeup":  {1000, 700},
		"IRQWakeBusy":     {9000},
		"IRQWakeIdle":     {8500},
		"ClockWrite":      {7000, 7000, 7000},
		"ExitToSwitchBsy": {1000},
		"ExitToSwitchRst": {9500},
		"TickRestart":     {7500},
		"TickRestartMSR":  {1},
		"TickStop":        {1000},
		"TickStopMSR":     {0},
		"SwitchToFirst":   {2000, 1000},
		"ICRWrite":        {11000},
		"IPIBusy":         {6000},
		"SendToEntryBusy": {17000},
	}
	got := map[string][]int64{
		"Slack": cs.Slack, "LateBusy": cs.LateBusy, "LateIdle": cs.LateIdle,
		"ExpireToWaking": cs.ExpireToWaking, "WakingToWakeup": cs.WakingToWakeup,
		"IRQWakeBusy": cs.IRQWakeBusy, "IRQWakeIdle": cs.IRQWakeIdle, "ClockWrite": cs.ClockWrite,
		"ExitToSwitchBsy": cs.ExitToSwitchBsy, "ExitToSwitchRst": cs.ExitToSwitchRst,
		"TickRestart": cs.TickRestart, "TickRestartMSR": cs.TickRestartMSR,
		"TickStop": cs.TickStop, "TickStopMSR": cs.TickStopMSR, "SwitchToFirst": cs.SwitchToFirst,
		"ICRWrite": cs.ICRWrite, "IPIBusy": cs.IPIBusy, "SendToEntryBusy": cs.SendToEntryBusy,
	}
	for k, w := range want {
		if !slices.Equal(got[k], w) {
			t.Errorf("%s = %v, want %v", k, got[k], w)
		}
	}
	for k, v := range map[string][]int64{"IRQTickBusy": cs.IRQTickBusy, "ExitToSwitchIdl": cs.ExitToSwitchIdl, "IPIIdle": cs.IPIIdle} {
		if len(v) != 0 {
			t.Errorf("%s = %v, want none", k, v)
		}
	}
	if cs.BusyNotAtOnce != 0 {
		t.Errorf("BusyNotAtOnce = %d, want 0", cs.BusyNotAtOnce)
	}
}

// A busy-CPU wakee that waits for a later interrupt (the tick) before it
// runs counts as not run at the interrupt's exit.
func TestDeriveCostsWakeeWaits(t *testing.T) {
	evs := slices.Clone(wakeups[:14]) // up to the busy interrupt's exit
	evs = append(evs,
		ev{150000, 0, "vmc-hog", 10, "local_timer_entry", "vector=236"},
		ev{150100, 0, "vmc-hog", 10, "hrtimer_expire_entry", "hrtimer=T0 function=tick_nohz_handler now=150000"},
		ev{151000, 0, "vmc-hog", 10, "hrtimer_expire_exit", "hrtimer=T0"},
		ev{160000, 0, "vmc-hog", 10, "local_timer_exit", "vector=236"},
		ev{161000, 0, "vmc-hog", 10, "sched_switch", "prev_comm=vmc-hog prev_pid=10 prev_prio=120 prev_state=R ==> next_comm=vmc-sleep next_pid=20 next_prio=120"})
	recs, _, err := parseTrace(strings.NewReader(captureText(evs)))
	if err != nil {
		t.Fatal(err)
	}
	cs := deriveCosts(recs, vmcostsWatched)
	if cs.BusyNotAtOnce != 1 || len(cs.ExitToSwitchBsy) != 0 {
		t.Errorf("BusyNotAtOnce %d, ExitToSwitchBsy %v: want 1 and none", cs.BusyNotAtOnce, cs.ExitToSwitchBsy)
	}
	if !slices.Equal(cs.IRQTickBusy, []int64{10000}) {
		t.Errorf("IRQTickBusy = %v, want [10000]", cs.IRQTickBusy)
	}
}

func TestParseTraceSecondsAndErrors(t *testing.T) {
	text := "  rs-2-31374   [000] d.h.. 25642.270009: local_timer_entry: vector=236\n" +
		"  <idle>-0 [001] dNh1. 25642.269941: call_function_single_exit: vector=251\n"
	recs, cycles, err := parseTrace(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if cycles || len(recs) != 2 || recs[0].TS != 25642270009000 || recs[0].Comm != "rs-2" || recs[0].PID != 31374 || recs[1].CPU != 1 {
		t.Fatalf("got %+v (cycles %v)", recs, cycles)
	}
	for name, bad := range map[string]string{
		"empty":   "# tracer: nop\n",
		"mixed":   text + "  x-1 [000] d.... 123456: local_timer_exit: vector=236\n",
		"no rate": "  x-1 [000] d.... 123456: local_timer_exit: vector=236\n",
	} {
		if _, _, err := parseTrace(strings.NewReader(bad)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestSummarize(t *testing.T) {
	d := summarize([]int64{5, 1, 4, 2, 3})
	if d.N != 5 || d.Median != 3 || d.P10 != 1 || d.P90 != 5 || d.Mn != 3 {
		t.Errorf("summarize = %+v", d)
	}
	if summarize(nil).N != 0 {
		t.Error("summarize(nil) has samples")
	}
}
