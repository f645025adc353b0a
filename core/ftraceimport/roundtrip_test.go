package ftraceimport

// Round trip: simulate, write ftrace text with core/trace/ftrace, import it
// and compare the metrics with the simulator's own.
//
// Tolerance: the writer rounds each timestamp to the nearest microsecond
// (like the kernel's trace_print_time()), so each interval (a run, a wait,
// a sleep, a wakeup latency) is off by less than 1 µs. A sum of n intervals
// is off by less than n µs; counts (switches, involuntary switches,
// migrations, wakeups, latency samples) match exactly. The trace ends at the
// simulator's end (Options.End), which the text does not carry.

import (
	"bytes"
	"fmt"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/core/trace/ftrace"
)

const us = int64(sched.Microsecond)

// simulate runs a preset (on topo if not empty, for dur) and returns the
// simulator's metrics and its ftrace text.
func simulate(t *testing.T, preset, topo string, dur sched.Time) (metrics.Report, []byte) {
	t.Helper()
	sc, err := scenario.Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	if topo != "" {
		for _, tk := range sc.Tasks {
			for _, c := range tk.CPUs {
				if c >= 4 {
					t.Skipf("%s pins CPU %d: it does not run on %s", preset, c, topo)
				}
			}
		}
		sc.Topology = topo
	}
	sc.Duration = dur
	if preset == "seed/newidle-rt-latency" && topo == "" {
		sc.Duration = min(dur, 20*sched.Millisecond) // 144 CPUs under a dense load
	}
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	sim, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	col := metrics.New(sim.NumCPUs())
	var buf bytes.Buffer
	w := ftrace.NewWriter(&buf, sim.TaskInfo, sim.NumCPUs())
	sim.Attach(col)
	sim.Attach(w)
	if err := sim.Run(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return col.Build(sim, preset), buf.Bytes()
}

func TestRoundTripPresets(t *testing.T) {
	dur := 300 * sched.Millisecond
	if testing.Short() {
		dur = 50 * sched.Millisecond
	}
	for _, p := range scenario.Presets() {
		for _, topo := range []string{"", "smp-4"} {
			t.Run(p.Name+"/"+topo, func(t *testing.T) {
				want, text := simulate(t, p.Name, topo, dur)
				tr, err := Import(bytes.NewReader(text), Options{End: want.DurationNs})
				if err != nil {
					t.Fatal(err)
				}
				got := tr.Metrics(p.Name)
				compareReports(t, want, got, tr.Offset)
				if tr.Stats.Unrecognized != 0 || len(tr.Stats.Other) != 0 || tr.Stats.RedundantWakeups != 0 {
					t.Errorf("stats: %+v", tr.Stats)
				}
			})
		}
	}
}

func compareReports(t *testing.T, want, got metrics.Report, offset int64) {
	t.Helper()
	if got.DurationNs != want.DurationNs-offset {
		t.Errorf("duration %d, want %d - offset %d", got.DurationNs, want.DurationNs, offset)
	}
	byPID := map[int]metrics.Task{}
	for _, g := range got.Tasks {
		if _, dup := byPID[g.PID]; dup {
			t.Errorf("pid %d imported twice", g.PID)
		}
		byPID[g.PID] = g
	}
	migrations := int64(0)
	for _, w := range want.Tasks {
		g, ok := byPID[w.PID]
		if !ok {
			if w.Switches != 0 || w.Wakeups != 0 || w.RuntimeNs != 0 {
				t.Errorf("task %s-%d with activity missing from the import", w.Name, w.PID)
			}
			continue
		}
		delete(byPID, w.PID)
		if err := compareTask(w, g); err != nil {
			t.Errorf("task %s-%d: %v\nwant %+v\ngot  %+v", w.Name, w.PID, err, w, g)
		}
		migrations += w.Migrations
	}
	for pid := range byPID {
		t.Errorf("imported task pid %d not in the simulation", pid)
	}
	if len(got.CPUs) != len(want.CPUs) {
		t.Fatalf("%d CPUs, want %d", len(got.CPUs), len(want.CPUs))
	}
	for i, w := range want.CPUs {
		g := got.CPUs[i]
		tol := (w.Switches + 1) * us
		if g.Switches != w.Switches || !near(g.BusyNs, w.BusyNs, tol) || !near(g.IdleNs+offset, w.IdleNs, tol) {
			t.Errorf("cpu %d: got %+v, want %+v (offset %d)", i, g, w, offset)
		}
	}
	var sw int64
	for _, c := range want.CPUs {
		sw += c.Switches
	}
	t.Logf("%d tasks, %d cpus, %d switches, %d migrations, duration %d, offset %d", len(want.Tasks), len(want.CPUs), sw, migrations, want.DurationNs, offset)
}

func compareTask(w, g metrics.Task) error {
	if g.Name != w.Name || g.Nice != w.Nice {
		return fmt.Errorf("identity %q nice %d, want %q nice %d", g.Name, g.Nice, w.Name, w.Nice)
	}
	if (g.RTPriority > 0) != (w.RTPriority > 0) || g.RTPriority != w.RTPriority {
		return fmt.Errorf("rt_priority %d, want %d", g.RTPriority, w.RTPriority)
	}
	if g.Switches != w.Switches || g.InvoluntarySwitches != w.InvoluntarySwitches ||
		g.Migrations != w.Migrations || g.Wakeups != w.Wakeups ||
		g.WakeupLatencyNs.Count != w.WakeupLatencyNs.Count {
		return fmt.Errorf("counts differ")
	}
	// One interval per switch in or out, wakeup and the end.
	tol := (w.Switches + w.Wakeups + 2) * us
	if !near(g.RuntimeNs, w.RuntimeNs, tol) || !near(g.WaitNs, w.WaitNs, tol) || !near(g.SleepNs, w.SleepNs, tol) {
		return fmt.Errorf("times differ beyond %d ns", tol)
	}
	lw, lg := w.WakeupLatencyNs, g.WakeupLatencyNs
	for _, p := range [][2]int64{{lw.Mean, lg.Mean}, {lw.P50, lg.P50}, {lw.P90, lg.P90}, {lw.P99, lg.P99}, {lw.Max, lg.Max}} {
		if !near(p[1], p[0], us) {
			return fmt.Errorf("latency differs beyond 1 µs")
		}
	}
	return nil
}

// near reports |a-b| <= tol.
func near(a, b, tol int64) bool {
	d := a - b
	return d <= tol && -d <= tol
}
