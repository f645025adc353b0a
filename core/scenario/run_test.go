package scenario

import (
	"fmt"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/sched"
)

// buildRun decodes, builds and starts a run of a scenario document.
func buildRun(t *testing.T, in string, lim sched.Limits) *sched.Sim {
	t.Helper()
	sc, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Build(lim)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sim
}

// TestInstantYieldLoop checks that a finite loop of yields, which takes no
// simulated time, is bounded like other zero-time loops (maxInstantSteps or
// the event limit) instead of spinning at one instant.
func TestInstantYieldLoop(t *testing.T) {
	lim := sched.DefaultLimits()
	lim.MaxEvents = 1000
	sim := buildRun(t, doc("", task("a", `"loop":1,`, `{"loop":{"count":2147483647,"program":[{"loop":{"count":2147483647,"program":[{"yield":true}]}}]}}`)), lim)
	sim.RunUntil(sched.Millisecond) // must return
	if sim.Err() == nil {
		t.Error("no error for 2^62 yields at one instant")
	}
}

// TestHugeDurationsNoOverflow checks that durations past MaxDurationValue
// are rejected at decode time and that the largest accepted ones do not
// wrap simulated time around.
func TestHugeDurationsNoOverflow(t *testing.T) {
	for _, prog := range []string{`{"run":9223372036854775806}`, `{"run":"1ms"},{"sleep":9223372036854775807}`} {
		if _, err := Decode([]byte(doc("", task("a", "", prog)))); err == nil {
			t.Errorf("%s: decoded; want an out-of-range error", prog)
		}
	}
	for _, prog := range []string{`{"run":1000000000000000}`, `{"run":"1ms"},{"sleep":1000000000000000}`} {
		lim := sched.DefaultLimits()
		lim.MaxEvents = 10000
		sim := buildRun(t, doc(`"duration":"10ms",`, task("a", `"cpus":[0],`, prog), task("b", `"cpus":[0],`, `{"run":-1}`)), lim)
		col := metrics.New(sim.NumCPUs())
		sim.Attach(col)
		if err := sim.Run(); err != nil || sim.Now() != 10*sched.Millisecond {
			t.Errorf("%s: run ended at %s with %v", prog, sim.Now(), err)
			continue
		}
		a := col.Build(sim, "").Tasks[0]
		if a.Wakeups != 0 || a.SleepNs < 0 || a.RuntimeNs+a.WaitNs+a.SleepNs != int64(10*sched.Millisecond) {
			t.Errorf("%s: task a woke %d times, runtime %d wait %d sleep %d", prog, a.Wakeups, a.RuntimeNs, a.WaitNs, a.SleepNs)
		}
	}
}

// TestTickOffset checks where the jiffies grid lies: fixed by
// kernel.tick_offset, otherwise drawn from the seed (different seeds give
// different grids; the same seed the same one), and bounded by one tick.
func TestTickOffset(t *testing.T) {
	base := doc(`"duration":"20ms","kernel":{"version":"v6.18","hz":250%s},"seed":%d,`, task("a", `"cpus":[0],`, `{"run":-1}`))
	tickTimes := func(tickOffset string, seed int) []sched.Time {
		sc, err := Decode([]byte(fmt.Sprintf(base, tickOffset, seed)))
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := sc.Build(sched.DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		sim, err := sched.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		rec := &sched.Recorder{KeepTicks: true}
		sim.Attach(rec)
		if err := sim.Run(); err != nil {
			t.Fatal(err)
		}
		var ticks []sched.Time
		for _, e := range rec.Events {
			if e.Kind == sched.EvTick {
				ticks = append(ticks, e.Time)
			}
		}
		return ticks
	}
	fixed := tickTimes(`,"tick_offset":"1.5ms"`, 1)
	if len(fixed) == 0 || fixed[0] != 1500*sched.Microsecond || fixed[1] != 5500*sched.Microsecond {
		t.Errorf("tick_offset 1.5ms: ticks %v, want 1.5ms, 5.5ms, ...", fixed)
	}
	a, b := tickTimes("", 1), tickTimes("", 2)
	if fmt.Sprint(a) != fmt.Sprint(tickTimes("", 1)) {
		t.Error("the same seed placed the tick grid differently")
	}
	if a[0] == b[0] {
		t.Errorf("seeds 1 and 2 both put the first tick at %s", a[0])
	}
	for _, ticks := range [][]sched.Time{a, b} {
		if ticks[0] <= 0 || ticks[0] > 4*sched.Millisecond || ticks[1]-ticks[0] != 4*sched.Millisecond {
			t.Errorf("ticks %v: want a 4ms grid starting within the first tick", ticks)
		}
	}
	if _, err := Decode([]byte(fmt.Sprintf(base, `,"tick_offset":"4ms"`, 1))); err == nil {
		t.Error("tick_offset of a whole tick decoded")
	}
}
