package replay

import (
	"strconv"
	"strings"
	"testing"

	"schedplay/core/ftraceimport"
	"schedplay/core/sched"
)

// TestWakeupCostFromTrace: a cross-CPU ping-pong traced on a machine whose
// remote wakeups of an idle CPU take lat replays with that latency
// (within the target's factor of 2), for a slow and a fast machine alike:
// the estimate follows the trace, not the preset.
func TestWakeupCostFromTrace(t *testing.T) {
	us := sched.Microsecond
	for _, lat := range []sched.Time{3 * us, 8 * us, 40 * us} {
		tr := importText(t, pingPong(300, 50*us, 50*us, lat), ftraceimport.Options{})
		w, rep := replayWith(t, tr, Options{}, ScenarioOptions{Topology: "smp-2", Pin: PinSeen})
		if w.RemoteIdleWakes < 500 || w.RemoteIdleWakeP50 != lat {
			t.Errorf("lat %s: %d samples, median %s: want about 600 at %s", lat, w.RemoteIdleWakes, w.RemoteIdleWakeP50, lat)
		}
		trep := tr.Metrics("trace")
		f := Compare(w, &trep, &rep)
		for _, r := range f.Rows {
			if r.LatencyOK == nil || !*r.LatencyOK || !r.SwitchOK {
				t.Errorf("lat %s: %s: trace p50 %d ns, replay %d ns; switches %d|%d\n%s", lat, r.Group,
					r.Trace.LatP50Ns, r.Replay.LatP50Ns, r.Trace.Switches, r.Replay.Switches, f.Text())
			}
		}
	}
}

// TestBusyWakeupCostFromTrace: the same ping-pong with a hog on each CPU,
// each wakeup preempting the other CPU's hog after lat: the replay's
// remote wakeups of busy CPUs cost the trace's (within the factor of 2).
// (Whether each wakeup preempts the hog at once is the model's EEVDF
// decision, not a cost: the chain's CPU share is not checked.)
func TestBusyWakeupCostFromTrace(t *testing.T) {
	us := sched.Microsecond
	for _, lat := range []sched.Time{4 * us, 12 * us} {
		tr := importText(t, pingPongBusy(300, 50*us, 50*us, lat), ftraceimport.Options{})
		w, rep := replayWith(t, tr, Options{}, ScenarioOptions{Topology: "smp-2", Pin: PinSeen})
		if w.RemoteBusyWakes < 500 || w.RemoteBusyWakeP50 != lat || w.RemoteIdleWakes > 2 {
			t.Errorf("lat %s: %d busy samples, median %s, %d idle: want about 600 busy at %s", lat, w.RemoteBusyWakes,
				w.RemoteBusyWakeP50, w.RemoteIdleWakes, lat)
		}
		trep := tr.Metrics("trace")
		f := Compare(w, &trep, &rep)
		for _, r := range f.Rows {
			if r.LatencyOK != nil && !*r.LatencyOK {
				t.Errorf("lat %s: %s misses\n%s", lat, r.Group, f.Text())
			}
		}
	}
}

// TestNoCostEstimateWithoutSamples: a trace without remote wakeups of
// idle CPUs keeps the preset's idle exit cost; the switch costs are the
// trace's own in every replay.
func TestNoCostEstimateWithoutSamples(t *testing.T) {
	tr, err := ftraceimport.Import(strings.NewReader(periodicHog(20)), ftraceimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := w.Scenario(ScenarioOptions{Topology: "smp-1"})
	if err != nil {
		t.Fatal(err)
	}
	_, idle := sc.HW["idle_exit_ns"]
	if _, ipi := sc.HW["ipi_latency_ns"]; idle || ipi || w.RemoteIdleWakes != 0 || w.RemoteBusyWakes != 0 {
		t.Errorf("%d samples, hw %v: want no idle-exit estimate", w.RemoteIdleWakes, sc.HW)
	}
	if sc.HW["ctx_switch_ns"] != "0" || sc.HW["pick_ns"] != "0" {
		t.Errorf("hw %v: want the switch and pick costs 0 (in the trace's CPU time)", sc.HW)
	}
}

// timerOnHog is a trace of one CPU: a hog and a periodic task woken by its
// hrtimer every 5 ms, in hardirq context on the hog's CPU (the hog the
// interrupted task), switched in lat after its sched_waking (the
// interrupt's rest, its return and __schedule()), running 500 us.
func timerOnHog(n int, lat sched.Time) string {
	s := newSynth(1)
	s.comm[100], s.comm[200] = "hog", "periodic"
	us := sched.Microsecond
	t := sched.Time(1000 * us)
	s.sw(t, 0, 0, "R", 100)
	for i := 0; i < n; i++ {
		t += 5000 * us
		s.line(100, 0, "d.h..", t-us, "local_timer_entry", "vector=236")
		s.line(100, 0, "d.h2.", t, "sched_waking", "comm=periodic pid=200 prio=120 target_cpu=000")
		s.line(100, 0, "dNh3.", t, "sched_wakeup", "comm=periodic pid=200 prio=120 target_cpu=000")
		s.sw(t+lat, 0, 100, "R", 200)
		s.sw(t+lat+500*us, 0, 200, "S", 100)
	}
	return s.String()
}

// TestTimerIRQCostFromTrace: the wakeups of a task by a timer interrupt on
// its own busy CPU, preempting the hog at once after lat, give the replay
// hw.timer_irq_ns lat, and the replay's wakeup latency is the trace's; a
// trace with fewer such wakeups than MinCostSamples leaves it uncharged.
func TestTimerIRQCostFromTrace(t *testing.T) {
	us := sched.Microsecond
	for _, lat := range []sched.Time{5 * us, 20 * us} {
		tr, err := ftraceimport.Import(strings.NewReader(timerOnHog(200, lat)), ftraceimport.Options{})
		if err != nil {
			t.Fatal(err)
		}
		w, rep := replay(t, tr, "smp-1")
		if w.LocalIRQWakes < 190 || w.LocalIRQWakeP50 != lat {
			t.Errorf("lat %s: %d local interrupt wakeups, median %s: want 200 at %s", lat, w.LocalIRQWakes, w.LocalIRQWakeP50, lat)
		}
		sc, err := w.Scenario(ScenarioOptions{Topology: "smp-1"})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := sc.HW["timer_irq_ns"], strconv.FormatInt(int64(lat), 10); got != want {
			t.Errorf("lat %s: hw.timer_irq_ns %q, want %q", lat, got, want)
		}
		trep := tr.Metrics("trace")
		f := Compare(w, &trep, &rep)
		for _, r := range f.Rows {
			if r.Comm != "periodic" {
				continue
			}
			if r.Replay.LatP50Ns != int64(lat) || r.LatencyOK == nil || !*r.LatencyOK {
				t.Errorf("lat %s: periodic's replay latency p50 %d ns, trace %d ns\n%s", lat, r.Replay.LatP50Ns, r.Trace.LatP50Ns, f.Text())
			}
		}
	}
	tr, err := ftraceimport.Import(strings.NewReader(timerOnHog(MinCostSamples-1, 8*us)), ftraceimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sc, _ := w.Scenario(ScenarioOptions{Topology: "smp-1"}); sc.HW["timer_irq_ns"] != "" {
		t.Errorf("%d samples set hw.timer_irq_ns %s", w.LocalIRQWakes, sc.HW["timer_irq_ns"])
	}
}

// wakeParts collects, over every task of a run, the sched_waking to
// sched_wakeup and sched_wakeup to switch-in times of its wakeups.
type wakeParts struct {
	waking, woken      map[sched.TaskID]sched.Time
	toWakeup, toSwitch []sched.Time
}

func newWakeParts() *wakeParts {
	return &wakeParts{waking: map[sched.TaskID]sched.Time{}, woken: map[sched.TaskID]sched.Time{}}
}

func (p *wakeParts) Event(e *sched.Event) {
	switch e.Kind {
	case sched.EvWaking:
		p.waking[e.Next] = e.Time
		delete(p.woken, e.Next)
	case sched.EvWakeup:
		if at, ok := p.waking[e.Next]; ok {
			p.woken[e.Next] = e.Time
			p.toWakeup = append(p.toWakeup, e.Time-at)
		}
	case sched.EvSwitch:
		if at, ok := p.woken[e.Next]; ok {
			p.toSwitch = append(p.toSwitch, e.Time-at)
			delete(p.woken, e.Next)
			delete(p.waking, e.Next)
		}
	}
}

// TestWakeListCostsSplit: a cross-CPU ping-pong whose wakeups go through
// the wake list (sched_wakeup printed on the idle target a after the
// waker's sched_waking, the switch-in b after that) replays both parts
// on a machine whose idle state needs the IPI (vm-2vcpu's HLT): the
// replay's sched_waking-to-sched_wakeup and sched_wakeup-to-switch-in
// medians are the trace's within 1 us, so the wakeup latency (from
// sched_wakeup) is b, not a + b; the IPI's part is hw.ipi_latency_ns, the
// rest hw.idle_exit_ns.
func TestWakeListCostsSplit(t *testing.T) {
	us := sched.Microsecond
	for _, c := range []struct{ a, b sched.Time }{{19 * us, 8 * us}, {30 * us, 3 * us}} {
		tr := importText(t, queuedPingPong(2000, 11*us, c.a, c.b, true), ftraceimport.Options{Lenient: true})
		w, err := Infer(tr, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if w.QueuedIdleWakes < 3900 || w.QueuedIdleWakingP50 != c.a || w.QueuedIdleSwitchP50 != c.b {
			t.Fatalf("%+v: %d queued wakeups, medians %s and %s: want about 4000 at a and b", c, w.QueuedIdleWakes,
				w.QueuedIdleWakingP50, w.QueuedIdleSwitchP50)
		}
		sc, err := w.Scenario(ScenarioOptions{Topology: "vm-2vcpu", Pin: PinSeen})
		if err != nil {
			t.Fatal(err)
		}
		if sc.HW["ipi_latency_ns"] == "" || sc.HW["idle_exit_ns"] == "" {
			t.Errorf("%+v: hw %v: want the IPI latency and the idle exit fitted", c, sc.HW)
		}
		parts := newWakeParts()
		simText(t, sc, parts)
		_, toWakeup := median(parts.toWakeup)
		n, toSwitch := median(parts.toSwitch)
		near := func(got, want sched.Time) bool { return got-want <= us && want-got <= us }
		if n < 3000 || !near(toWakeup, c.a) || !near(toSwitch, c.b) {
			t.Errorf("%+v: the replay's %d wakeups: waking to wakeup %s, wakeup to switch-in %s; want the trace's (hw %v)",
				c, n, toWakeup, toSwitch, sc.HW)
		}
	}
}

// TestCostSamplesSkipAdded: the wakeups whose switch-in the importer added
// (CPU 1's switches from idle missing: the switch is put at the woken
// task's first line, later than the kernel's) are left out of the cost
// samples, so the medians are those of CPU 0's real switches.
func TestCostSamplesSkipAdded(t *testing.T) {
	us := sched.Microsecond
	tr := importText(t, queuedPingPong(2000, 11*us, 19*us, 4*us, false), ftraceimport.Options{Lenient: true})
	if len(tr.Added) < 1990 {
		t.Fatalf("%d switches added, want one per round trip", len(tr.Added))
	}
	w, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w.CostSamplesAdded < 1990 || w.QueuedIdleWakes < 1990 || w.QueuedIdleWakes > 2010 || w.QueuedIdleSwitchP50 != 4*us {
		t.Errorf("%d left out, %d samples, wakeup to switch-in %s: want about 2000 each and CPU 0's 4us", w.CostSamplesAdded,
			w.QueuedIdleWakes, w.QueuedIdleSwitchP50)
	}
}
