package replay

import (
	"testing"

	"schedplay/core/sched"
	"schedplay/core/topology"
)

// blockEnds counts a task's blocks by how they ended.
func blockEnds(tk *Task) map[BlockEnd]int {
	n := map[BlockEnd]int{}
	for _, b := range tk.Blocks {
		n[b.End]++
	}
	return n
}

// TestSimulatedPingPongChain: the simulator's own ftrace text of a pipe
// ping-pong, on one CPU and across two (where the wakeup goes through the
// target's wake list), prints sched_waking in the waker's context, so the
// inference finds the chain: every block but each task's last ends by
// the partner's signal. Replayed with the receiver's CPU at half capacity
// (the cross-CPU case), the sender's wakeups follow the slower partner.
func TestSimulatedPingPongChain(t *testing.T) {
	for _, name := range []string{"demo/pipe-pingpong", "demo/pipe-pingpong-cross"} {
		t.Run(name, func(t *testing.T) {
			sc := preset(t, name, 20*sched.Millisecond)
			tr := simTrace(t, sc)
			w, err := Infer(tr, Options{})
			if err != nil {
				t.Fatal(err)
			}
			// On one CPU the receiver is preempted by the sender it wakes
			// and finds the next token already written: only the sender
			// blocks there.
			blocks, byTask := 0, 0
			for i := range w.Tasks {
				tk := &w.Tasks[i]
				blocks += len(tk.Blocks)
				byTask += blockEnds(tk)[EndTask]
			}
			if blocks < 100 || byTask < blocks-len(w.Tasks) {
				t.Fatalf("%d blocks, %d ended by the partner (want all but the last of each task)\n%s", blocks, byTask, w.Describe())
			}
			if name != "demo/pipe-pingpong-cross" {
				return
			}
			s, err := w.Scenario(ScenarioOptions{Topology: "smp-2", Pin: PinSeen})
			if err != nil {
				t.Fatal(err)
			}
			wakes := func(slow bool) int64 {
				m, err := topology.Preset("smp-2")
				if err != nil {
					t.Fatal(err)
				}
				if slow {
					m.Name, m.CPUs[1].Capacity = "slow-1", 256
				}
				cfg, err := Config(s.Clone(), &m)
				if err != nil {
					t.Fatal(err)
				}
				rep, err := Run(cfg, "replay")
				if err != nil {
					t.Fatal(err)
				}
				return taskByPID(t, &rep, 1000).Wakeups
			}
			base, slowed := wakes(false), wakes(true)
			if base < 100 || slowed >= base*9/10 {
				t.Errorf("sender woken %d times as traced, %d with the receiver at a quarter capacity: want clearly fewer", base, slowed)
			}
		})
	}
}

// TestSimulatedTimerWakeupsFromOutside: a periodic task's timer wakeups
// fire on the CPU a hog is running on; their lines carry the hardirq flag,
// so the inference does not take the interrupted hog for the waker: every
// block ends from outside, and the timer's period is found.
func TestSimulatedTimerWakeupsFromOutside(t *testing.T) {
	sc := preset(t, "demo/periodic-vs-hog", 200*sched.Millisecond)
	tr := simTrace(t, sc)
	w, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range w.Tasks {
		tk := &w.Tasks[i]
		if tk.Comm != "periodic-1" {
			continue
		}
		ends := blockEnds(tk)
		if len(tk.Blocks) < 15 || ends[EndTask] != 0 {
			t.Fatalf("periodic: %d blocks, by how they ended %v: want none ended by a task\n%s", len(tk.Blocks), ends, w.Describe())
		}
		if tk.Period != 10*sched.Millisecond {
			t.Errorf("periodic: period %v, want 10ms", tk.Period)
		}
		return
	}
	t.Fatalf("no periodic task in\n%s", w.Describe())
}

// TestSimulatedPIBoost: the simulator's trace of a priority-inheritance
// run prints the owner's boosts (sched_pi_setprio) and its boosted prio in
// the switch lines; the inference keeps each task's own policy: the fair
// mutex owner stays SCHED_OTHER nice 0, the waiter SCHED_FIFO 90.
func TestSimulatedPIBoost(t *testing.T) {
	sc := preset(t, "demo/priority-inversion-pi", 100*sched.Millisecond)
	tr := simTrace(t, sc)
	pis := 0
	for _, e := range tr.Events {
		if e.Kind == sched.EvPISetprio {
			pis++
		}
	}
	w, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][3]int{"low-0": {int(sched.SchedOther), 0, 0}, "high-1": {int(sched.SchedFIFO), 0, 90}}
	for i := range w.Tasks {
		tk := &w.Tasks[i]
		if wt, ok := want[tk.Comm]; ok {
			if got := [3]int{int(tk.Policy), tk.Nice, tk.RTPriority}; got != wt {
				t.Errorf("%s: policy, nice, rt_priority %v, want %v", tk.Comm, got, wt)
			}
			delete(want, tk.Comm)
		}
	}
	if pis < 2 || len(want) != 0 {
		t.Errorf("%d sched_pi_setprio events; tasks not inferred: %v\n%s", pis, want, w.Describe())
	}
}
