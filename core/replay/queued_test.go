package replay

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"schedplay/core/ftraceimport"
	"schedplay/core/sched"
)

// queuedPingPong is a cross-CPU pipe ping-pong whose wakeups go through
// the wake list, as a real kernel's do onto an idle CPU: a (pid 100, CPU 0)
// and b (pid 200, CPU 1) each work 1..3 us, wake the other (sched_waking
// in its own context), work tail more and block; the wakee's sched_wakeup
// is printed lat after the waking by the IPI on its CPU, after the waker
// blocked (lat > tail), and it is switched in sw later. Without
// switchInB, CPU 1's switches from idle to b are missing, as in a trace
// whose first line of b after its wakeup is its sched_waking.
func queuedPingPong(n int, tail, lat, sw sched.Time, switchInB bool) string {
	s := newSynth(2)
	s.comm[100], s.comm[200] = "ping", "pong"
	us := sched.Microsecond
	t := sched.Time(1000 * us)
	s.sw(t, 0, 0, "R", 100)
	s.sw(t, 1, 0, "R", 200)
	s.sw(t+us, 1, 200, "S", 0)
	t += us
	rng := rand.New(rand.NewPCG(5, 6))
	body := func(pid, cpu int) string {
		return fmt.Sprintf("comm=%s pid=%d prio=120 target_cpu=%03d", s.comm[pid], pid, cpu)
	}
	for i := 0; i < n; i++ {
		t += sched.Time(1+rng.IntN(3)) * us
		s.line(100, 0, "d..3.", t, "sched_waking", body(200, 1))
		s.sw(t+tail, 0, 100, "S", 0)
		s.line(0, 1, "d.h1.", t+lat-us, "call_function_single_entry", "vector=251")
		s.line(0, 1, "dNh2.", t+lat, "sched_wakeup", body(200, 1))
		t += lat + sw
		if switchInB {
			s.sw(t, 1, 0, "R", 200)
		}
		t += sched.Time(1+rng.IntN(3)) * us
		s.line(200, 1, "d..3.", t, "sched_waking", body(100, 0))
		s.sw(t+tail, 1, 200, "S", 0)
		s.line(0, 0, "d.h1.", t+lat-us, "call_function_single_entry", "vector=251")
		s.line(0, 0, "dNh2.", t+lat, "sched_wakeup", body(100, 0))
		t += lat + sw
		s.sw(t, 0, 0, "R", 100)
	}
	return s.String()
}

// TestQueuedWakeupPingPong: a cross-CPU ping-pong whose wakeups are
// printed by the wakee's CPU after the waker blocked keeps its causal
// chain (each block ends by the partner's signal, placed where the
// partner's sched_waking was) and replays one block per round trip.
func TestQueuedWakeupPingPong(t *testing.T) {
	const n = 2000
	us := sched.Microsecond
	for _, switchInB := range []bool{true, false} {
		t.Run(fmt.Sprintf("switch-in-b=%v", switchInB), func(t *testing.T) {
			tr := importText(t, queuedPingPong(n, 11*us, 19*us, us, switchInB), ftraceimport.Options{Lenient: true})
			w, rep := replayWith(t, tr, Options{}, ScenarioOptions{Topology: "smp-2", Pin: PinSeen})
			for _, task := range w.Tasks {
				var byPartner, outside int
				for _, b := range task.Blocks {
					switch b.End {
					case EndTask:
						byPartner++
					case EndOutside:
						outside++
					}
				}
				if byPartner < n-1 || outside > 1 {
					t.Errorf("%s: %d of %d blocks ended by the partner, %d from outside; want every round trip's by the partner",
						task.Comm, byPartner, len(task.Blocks), outside)
				}
			}
			trep := tr.Metrics("trace")
			f := Compare(w, &trep, &rep)
			if len(f.Rows) != 2 {
				t.Fatalf("%d rows, want ping and pong\n%s", len(f.Rows), f.Text())
			}
			for _, r := range f.Rows {
				if !r.SwitchOK || !r.ShareOK {
					t.Errorf("%s: trace %d switches, %.1f%% CPU; replay %d, %.1f%%: want within the targets\n%s", r.Group,
						r.Trace.Switches, r.Trace.Share, r.Replay.Switches, r.Replay.Share, f.Text())
				}
			}
		})
	}
}
