package scenario

// Wait, signal, broadcast and barrier steps: decoding, errors naming the
// path, and their semantics in a run (core/sched/ipc.go).

import (
	"strings"
	"testing"

	"schedplay/core/sched"
)

// ipcEvents runs doc for dur and returns its events (ticks left out).
func ipcEvents(t *testing.T, in string) ([]sched.Event, *sched.Sim) {
	t.Helper()
	sim := buildRun(t, in, sched.DefaultLimits())
	r := &sched.Recorder{}
	sim.Attach(r)
	if err := sim.Run(); err != nil {
		t.Fatal(err)
	}
	return r.Events, sim
}

// wakeTimes returns when task id was woken by a signal.
func wakeTimes(evs []sched.Event, id sched.TaskID) []sched.Time {
	var out []sched.Time
	for _, e := range evs {
		if e.Kind == sched.EvWakeup && e.Next == id && e.Reason == sched.ReasonSignal {
			out = append(out, e.Time)
		}
	}
	return out
}

func TestIPCDecodeErrors(t *testing.T) {
	for _, c := range []struct{ name, in, path, msg string }{
		{"wait not a string", doc("", task("a", "", `{"wait":1}`)), "tasks[0].program[0].wait", "name of a resource"},
		{"bad name", doc("", task("a", "", `{"wait":""}`)), "tasks[0].program[0].wait", "resource name"},
		{"sync on wait", doc("", task("a", "", `{"wait":"x","sync":true}`)), "tasks[0].program[0].sync", "signal or broadcast"},
		{"cond on broadcast", doc("", task("a", "", `{"broadcast":"x","cond":true}`)), "tasks[0].program[0].cond", "only a signal"},
		{"sync not bool", doc("", task("a", "", `{"signal":"x","sync":1}`)), "tasks[0].program[0].sync", "true or false"},
		{"barrier and event", doc("", task("a", "", `{"barrier":"x"},{"signal":"x"},{"run":"1ms"}`)), "tasks[0].program[1].signal", "both as a barrier"},
		{"two kinds", doc("", task("a", "", `{"signal":"x","wait":"y"}`)), "tasks[0].program[0]", "exactly one"},
	} {
		_, err := Decode([]byte(c.in))
		if err == nil {
			var sc *Scenario
			sc, err = Decode([]byte(c.in))
			if err == nil {
				err = sc.Validate()
			}
		}
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		e := asError(t, c.name, err)
		if e.Path != c.path || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v (path %q), want path %q and %q", c.name, err, e.Path, c.path, c.msg)
		}
	}
}

func TestIPCRoundTrip(t *testing.T) {
	sc, err := Decode([]byte(doc("", task("a", "", `{"signal":"x","sync":true,"cond":true},{"wait":"y"},{"broadcast":"z","sync":true},{"barrier":"b"},{"run":"1ms"}`))))
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, sc)
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestIPCPending: a signal with nobody waiting is kept (one pending flag)
// and consumed by the next wait; with cond it is lost.
func TestIPCPending(t *testing.T) {
	// a signals at 0 and again at 0 (the flag absorbs the second), b waits
	// at 1ms twice: the first wait consumes the flag, the second blocks
	// until a's signal at 5ms.
	in := doc(`"topology":"smp-2","duration":"10ms",`,
		task("a", `"loop":1,"cpus":[0],`, `{"signal":"x"},{"signal":"x"},{"sleep":"5ms"},{"signal":"x"},{"run":"1ms"}`),
		task("b", `"loop":1,"cpus":[1],`, `{"sleep":"1ms"},{"wait":"x"},{"wait":"x"},{"run":"1ms"}`))
	evs, _ := ipcEvents(t, in)
	// 5ms plus a's timer slack and kernel costs.
	near5ms := func(w []sched.Time) bool {
		return len(w) == 1 && w[0] >= 5*sched.Millisecond && w[0] < 5*sched.Millisecond+100*sched.Microsecond
	}
	if w := wakeTimes(evs, 1); !near5ms(w) {
		t.Errorf("b woken by signal at %v, want [about 5ms]", w)
	}
	lost := strings.ReplaceAll(in, `{"signal":"x"},{"signal":"x"}`, `{"signal":"x","cond":true}`)
	evs, _ = ipcEvents(t, lost)
	// The first wait now blocks until 5ms, and the second never returns.
	if w := wakeTimes(evs, 1); !near5ms(w) {
		t.Errorf("cond: b woken at %v, want [about 5ms]", w)
	}
	for _, e := range evs {
		if e.Kind == sched.EvExit && e.Prev == 1 {
			t.Errorf("cond: b exited at %s; its second wait should never return", e.Time)
		}
	}
}

// TestIPCBroadcastFIFO: a broadcast wakes every waiter in the order they
// began waiting; a signal wakes the first.
func TestIPCBroadcastFIFO(t *testing.T) {
	in := doc(`"topology":"smp-4","duration":"10ms",`,
		task("w", `"instances":3,"loop":1,`, `{"wait":"x"},{"run":"1ms"}`),
		task("s", `"loop":1,"start":"1ms",`, `{"signal":"x"},{"run":"1ms"},{"broadcast":"x"},{"run":"1ms"}`))
	evs, _ := ipcEvents(t, in)
	var order []sched.TaskID
	var at []sched.Time
	for _, e := range evs {
		if e.Kind == sched.EvWakeup && e.Reason == sched.ReasonSignal {
			order = append(order, e.Next)
			at = append(at, e.Time)
		}
	}
	if len(order) != 3 || order[0] != 0 || order[1] != 1 || order[2] != 2 ||
		at[1] != at[2] || at[1] <= at[0] {
		t.Errorf("wakeups %v at %v; want w-0 by the signal, then w-1, w-2 by the broadcast", order, at)
	}
}

// TestIPCBarrier: three participants; each arrives after its own sleep and
// all leave when the last (at 3ms) arrives, every round.
func TestIPCBarrier(t *testing.T) {
	in := doc(`"topology":"smp-4","duration":"20ms",`,
		task("p", `"instances":3,"loop":2,`, `{"sleep":"1ms"},{"barrier":"b"},{"run":"100us"}`),
		task("q", `"loop":2,`, `{"sleep":"3ms"},{"barrier":"b"},{"run":"100us"}`))
	evs, _ := ipcEvents(t, in)
	// Round 1: p-0..p-2 block at ~1ms; q arrives at ~3ms (+ slack) and
	// wakes them. Round 2 likewise from there.
	w := wakeTimes(evs, 0)
	if len(w) != 2 {
		t.Fatalf("p-0 woken at %v, want twice", w)
	}
	for id := sched.TaskID(1); id < 3; id++ {
		if got := wakeTimes(evs, id); len(got) != 2 || got[0] != w[0] || got[1] != w[1] {
			t.Errorf("p-%d woken at %v, want %v", id, got, w)
		}
	}
	if len(wakeTimes(evs, 3)) != 0 {
		t.Error("the last arrival blocked")
	}
	if w[0] < 3*sched.Millisecond || w[0] > 3*sched.Millisecond+100*sched.Microsecond {
		t.Errorf("first release at %s, want about 3ms (q's sleep plus timer slack)", w[0])
	}
}

// TestIPCSyncWakeAffine: on two CPUs the receiver waits with CPU 0 as
// its previous CPU, where a hog starts just before the signal; the sender
// runs alone on CPU 1. A sync signal makes wake_affine_idle() pick the
// waker's CPU (sync and nr_running == 1), and select_idle_sibling() keeps
// it since the previous CPU is busy: the receiver migrates (wake_affine).
// Without sync, wake_affine_weight() compares loads: the hog has run for
// only 100us, so the previous CPU looks lighter and the receiver stays.
// (With the previous CPU idle, select_idle_sibling() would return it
// either way: WF_SYNC only pulls a wakee off a busy CPU.)
func TestIPCSyncWakeAffine(t *testing.T) {
	run := func(sync string) []sched.Event {
		evs, _ := ipcEvents(t, doc(`"topology":"smp-2","duration":"5ms",`,
			task("r", `"loop":1,`, `{"wait":"x"},{"run":"100us"}`),
			task("s", `"loop":1,"cpus":[1],`, `{"run":"1ms"},{"signal":"x"`+sync+`},{"run":"2ms"}`),
			task("hog", `"loop":1,"cpus":[0],"start":"900us",`, `{"run":"3ms"}`)))
		return evs
	}
	affine := func(evs []sched.Event) bool {
		for _, e := range evs {
			if e.Kind == sched.EvMigrate && e.Next == 0 && e.Reason == sched.ReasonWakeAffine {
				return true
			}
		}
		return false
	}
	if !affine(run(`,"sync":true`)) {
		t.Error("sync wakeup: the receiver did not move to the waker's CPU (wake_affine)")
	}
	if affine(run(``)) {
		t.Error("plain wakeup: the receiver moved to the waker's busy CPU")
	}
}
