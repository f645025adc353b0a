package sched_test

// The pipe ping-pong presets (perf bench sched pipe): the round-trip time
// and the switch counts follow from the program and the machine model.

import (
	"testing"

	"schedplay/core/sched"
)

// pipeRun runs a pipe ping-pong preset for 10 ms and returns its events.
func pipeRun(t *testing.T, name string, ideal bool) (sched.Config, []sched.Event) {
	t.Helper()
	cfg := presetConfig(t, name, "", 10*sched.Millisecond)
	if ideal {
		cfg.HW = sched.HW{}
	}
	s, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := &sched.Recorder{}
	s.Attach(r)
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	return cfg, r.Events
}

// roundTrips checks that the sender (task 0) is woken by a signal every
// want ns after the first two rounds, and returns the number of rounds.
func roundTrips(t *testing.T, evs []sched.Event, want sched.Time) int {
	t.Helper()
	var wakes []sched.Time
	for _, e := range evs {
		if e.Kind == sched.EvWakeup && e.Next == 0 {
			if e.Reason != sched.ReasonSignal {
				t.Fatalf("sender woken by %s, want signal", e.Reason)
			}
			wakes = append(wakes, e.Time)
		}
	}
	if len(wakes) < 10 {
		t.Fatalf("%d wakeups of the sender", len(wakes))
	}
	for i := 2; i < len(wakes); i++ {
		if d := wakes[i] - wakes[i-1]; d != want {
			t.Fatalf("round %d took %s, want %s", i, d, want)
		}
	}
	return len(wakes)
}

func count(evs []sched.Event, kind sched.EventKind) int {
	n := 0
	for _, e := range evs {
		if e.Kind == kind {
			n++
		}
	}
	return n
}

const (
	pipeOp   = sched.Microsecond // the presets' CPU cost of one pipe read or write
	pipeWork = 4 * pipeOp        // per round: each task reads once and writes once
	pipeRunT = 10 * sched.Millisecond
)

// TestPipePinned: both tasks on CPU 0. A round: the receiver's write wakes
// the sender (WF_SYNC); the sender is eligible with the earlier deadline
// and preempts the receiver before it reaches its wait (wakeup_eligible).
// The sender reads and writes (2 us), finds the receiver runnable, so its
// signal stays pending, and blocks in its wait; the receiver consumes the
// pending signal without blocking, reads and writes (2 us) and wakes the
// sender again. Two switches per round, each charging the pick and the
// context switch:
//
//	round = 4 * op + 2 * (pick + ctx_switch)   (6 us with the default hw)
//	ideal machine: round = 4 * op              (4 us)
//
// and the switch count is two per round.
func TestPipePinned(t *testing.T) {
	for _, ideal := range []bool{false, true} {
		cfg, evs := pipeRun(t, "demo/pipe-pingpong", ideal)
		want := pipeWork + 2*sched.Time(cfg.HW.PickNs+cfg.HW.CtxSwitchNs)
		if !ideal && want != 6*sched.Microsecond {
			t.Errorf("default hw round %s, want 6us (pick 300ns + switch 700ns)", want)
		}
		rounds := roundTrips(t, evs, want)
		// The run holds pipeRunT/want rounds, give or take the start.
		if exp := int(pipeRunT / want); rounds < exp-1 || rounds > exp {
			t.Errorf("ideal=%v: %d rounds in %s, want %d", ideal, rounds, pipeRunT, exp)
		}
		if sw := count(evs, sched.EvSwitch); sw < 2*rounds || sw > 2*rounds+3 {
			t.Errorf("ideal=%v: %d switches for %d rounds, want two per round", ideal, sw, rounds)
		}
		if m := count(evs, sched.EvMigrate); m != 0 {
			t.Errorf("%d migrations of pinned tasks", m)
		}
	}
}

// TestPipeCross: the sender on CPU 0, the receiver on CPU 1. Each task
// blocks in its wait, so each wakeup finds the other CPU idle and each
// half round is that CPU's way out of idle and into the task, then its
// 2 us of work; the waker's own switch to idle overlaps it:
//
//	half = exit_latency(state) + idle_exit + sched_idle + pick + ctx_switch + 2 * op
//	round = 2 * half                      (9 us with the default hw)
//	ideal machine: round = 4 * op         (4 us)
//
// with four switches per round (each CPU: idle -> task, task -> idle).
func TestPipeCross(t *testing.T) {
	for _, ideal := range []bool{false, true} {
		cfg, evs := pipeRun(t, "demo/pipe-pingpong-cross", ideal)
		want := pipeWork
		if !ideal {
			// The idle state the governor picks between wakeups.
			state := int64(-1)
			for _, e := range evs[len(evs)/2:] {
				if e.Kind == sched.EvIdleEnter {
					if state >= 0 && e.Arg != state {
						t.Fatalf("idle state changes in steady state: %d then %d", state, e.Arg)
					}
					state = e.Arg
				}
			}
			hw := cfg.HW
			half := hw.IdleStates[state].ExitLatencyNs + hw.IdleExitNs + hw.SchedIdleNs + hw.PickNs + hw.CtxSwitchNs
			want = 2*sched.Time(half) + pipeWork
		}
		rounds := roundTrips(t, evs, want)
		if exp := int(pipeRunT / want); rounds < exp-1 || rounds > exp {
			t.Errorf("ideal=%v: %d rounds in %s, want %d", ideal, rounds, pipeRunT, exp)
		}
		if sw := count(evs, sched.EvSwitch); sw < 4*rounds || sw > 4*rounds+6 {
			t.Errorf("ideal=%v: %d switches for %d rounds, want four per round", ideal, sw, rounds)
		}
	}
}
