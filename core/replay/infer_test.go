package replay

import (
	"errors"
	"strings"
	"testing"

	"schedplay/core/ftraceimport"
	"schedplay/core/rtapp"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/core/topology"
)

// TestReplaySelf: a simulated run, written as ftrace text, imported,
// inferred and replayed on the same machine and profile, gives back its
// per-task CPU time and switches.
func TestReplaySelf(t *testing.T) {
	for _, name := range []string{"demo/nice-shares", "demo/periodic-vs-hog", "demo/sched-idle"} {
		t.Run(name, func(t *testing.T) {
			sc := preset(t, name, 300*sched.Millisecond)
			tr := simTrace(t, sc)
			w, rep := replay(t, tr, sc.Topology, "kernel.version="+sc.Kernel.Version)
			trep := tr.Metrics("trace")
			f := Compare(w, &trep, &rep)
			t.Logf("\n%s\n%s", w.Describe(), f.Text())
			for _, r := range f.Rows {
				if !r.ShareOK || !r.SwitchOK {
					t.Errorf("%s: misses a target: %+v", r.Group, r)
				}
			}
		})
	}
}

// TestPingPongChain: a replayed ping-pong keeps its chain when one side
// is slowed down: with pong on a CPU of half the capacity, ping's
// wakeups come later, as pong's signals do, so fewer round trips fit in
// the trace's duration, and all of them in twice the duration.
func TestPingPongChain(t *testing.T) {
	const n = 400
	us := sched.Microsecond
	tr, err := ftraceimport.Import(strings.NewReader(pingPong(n, 100*us, 100*us, 5*us)), ftraceimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range w.Tasks {
		var byTask int
		for _, b := range tk.Blocks {
			if b.End == EndTask {
				byTask++
			}
		}
		if byTask < n-1 {
			t.Fatalf("%s: %d of its blocks end by its partner's signal, want >= %d\n%s", tk.Group, byTask, n-1, w.Describe())
		}
	}
	sc, err := w.Scenario(ScenarioOptions{Topology: "smp-2", Pin: PinSeen})
	if err != nil {
		t.Fatal(err)
	}
	wakes := func(slow bool, durX sched.Time) int64 {
		s := sc.Clone()
		s.Duration = sc.Duration * durX
		m, err := topology.Preset("smp-2")
		if err != nil {
			t.Fatal(err)
		}
		if slow {
			m.Name, m.CPUs[1].Capacity = "slow-1", 512
		}
		cfg, err := Config(s, &m)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Run(cfg, "replay")
		if err != nil {
			t.Fatal(err)
		}
		return taskByPID(t, &rep, 100).Wakeups
	}
	base, slowed, slowedLong := wakes(false, 1), wakes(true, 1), wakes(true, 2)
	if base < n-2 {
		t.Errorf("replay as traced: ping woken %d times, want about %d", base, n)
	}
	// pong's 100 us of work take 200 us: a round trip of 300 us instead of 200.
	if want := base * 2 / 3; slowed > want+n/20 || slowed < want-n/20 {
		t.Errorf("pong slowed: ping woken %d times in the trace's duration, want about %d (2/3 of %d)", slowed, want, base)
	}
	if slowedLong < base {
		t.Errorf("pong slowed, twice the duration: ping woken %d times, want all %d", slowedLong, base)
	}
}

// TestBounds: tasks, steps and events over the limits are errors saying
// which limit; a long ping-pong does not fit a share URL.
func TestBounds(t *testing.T) {
	us := sched.Microsecond
	tr, err := ftraceimport.Import(strings.NewReader(pingPong(3000, 10*us, 10*us, 5*us)), ftraceimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		o    Options
		want string
	}{{Options{MaxTasks: 1}, "more than 1 tasks"}, {Options{MaxSteps: 100}, "more than 100 program steps"},
		{Options{MaxEvents: 100}, "more than 100 sched events"}} {
		if _, err := Infer(tr, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want an error with %q", c.o, err, c.want)
		}
	}
	w, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := w.Scenario(ScenarioOptions{Topology: "smp-2"})
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckURL(sc); err != nil {
		t.Errorf("3000 round trips: %v", err)
	}
	tr, err = ftraceimport.Import(strings.NewReader(pingPong(40000, 10*us, 10*us, 5*us)), ftraceimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w, err = Infer(tr, Options{}); err != nil {
		t.Fatal(err)
	}
	if sc, err = w.Scenario(ScenarioOptions{Topology: "smp-2"}); err != nil {
		t.Fatal(err)
	}
	if err := CheckURL(sc); err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Errorf("40000 round trips: got %v, want the URL limit", err)
	}
}

// TestInferKinds: outside wakeups in hardirq context with a steady
// interval are a periodic timer even though the hog is the interrupted
// task; the fork is a step of the hog; policy and nice come from the prio;
// work scales with the CPU's capacity.
func TestInferKinds(t *testing.T) {
	tr, err := ftraceimport.Import(strings.NewReader(periodicHog(20)), ftraceimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Infer(tr, Options{Capacity: []int{512}})
	if err != nil {
		t.Fatal(err)
	}
	byPID := map[int]*Task{}
	for i := range w.Tasks {
		byPID[w.Tasks[i].PID] = &w.Tasks[i]
	}
	hog, tick, child, rt := byPID[300], byPID[400], byPID[500], byPID[600]
	if hog == nil || tick == nil || child == nil || rt == nil {
		t.Fatalf("tasks missing:\n%s", w.Describe())
	}
	if hog.Nice != 5 || rt.Policy != sched.SchedFIFO || rt.RTPriority != 10 {
		t.Errorf("policy from prio: hog nice %d, rt %s %d\n%s", hog.Nice, rt.Policy, rt.RTPriority, w.Describe())
	}
	if tick.Period != sched.Millisecond || tick.Periodic < 15 {
		t.Errorf("tick: period %s x%d, want 1ms x >= 15\n%s", tick.Period, tick.Periodic, w.Describe())
	}
	for _, s := range hog.Steps {
		if s.Kind == StepSignal {
			t.Errorf("the hog signals (a wakeup in hardirq context taken as the hog's): %+v", hog.Steps)
			break
		}
	}
	if child.Parent < 0 || w.Tasks[child.Parent].PID != 300 {
		t.Errorf("child's parent %d", child.Parent)
	}
	var forks, exits int
	for _, s := range hog.Steps {
		if s.Kind == StepFork {
			forks++
		}
	}
	for _, s := range child.Steps {
		switch s.Kind {
		case StepExit:
			exits++
		case StepRun:
			if s.Work != 25*sched.Microsecond { // 50 us at capacity 512
				t.Errorf("child work %s, want 25us (50us at half capacity)", s.Work)
			}
		}
	}
	if forks != 1 || exits != 1 {
		t.Errorf("forks %d, exits %d\n%+v\n%+v", forks, exits, hog.Steps, child.Steps)
	}
	var end BlockEnd
	for _, b := range rt.Blocks {
		end = b.End
	}
	if len(rt.Blocks) != 2 || rt.Blocks[0].End != EndOutside || end != EndNever {
		t.Errorf("rt blocks %+v", rt.Blocks)
	}
	sc, err := w.Scenario(ScenarioOptions{Topology: "smp-1"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := Config(sc, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, sc.Encode())
	}
	rep, err := Run(cfg, "replay")
	if err != nil {
		t.Fatal(err)
	}
	if tk := taskByPID(t, &rep, 400); tk.Name != "tick" {
		t.Errorf("pid 400 replayed as %q, want its comm tick", tk.Name)
	}
	if got := taskByPID(t, &rep, 400).Wakeups; got < 18 {
		t.Errorf("tick woken %d times in the replay, want about 20", got)
	}
}

// TestInferFrequency: work is scaled by the CPU's frequency over its
// highest (cpu_frequency lines), on top of its capacity.
func TestInferFrequency(t *testing.T) {
	s := newSynth(1)
	s.comm[7] = "job"
	us := sched.Microsecond
	s.line(0, 0, "d..2.", 0, "cpu_frequency", "state=2000000 cpu_id=0")
	s.sw(10*us, 0, 0, "R", 7)
	s.line(7, 0, "d..2.", 110*us, "cpu_frequency", "state=1000000 cpu_id=0")
	s.sw(210*us, 0, 7, "S", 0)
	tr, err := ftraceimport.Import(strings.NewReader(s.String()), ftraceimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Freqs) != 2 {
		t.Fatalf("freqs %+v", tr.Freqs)
	}
	for _, c := range []struct {
		o    Options
		want sched.Time
	}{{Options{}, 150 * us}, {Options{Capacity: []int{512}}, 75 * us}, {Options{MaxKHz: []int{4000000}}, 75 * us}} {
		w, err := Infer(tr, c.o)
		if err != nil {
			t.Fatal(err)
		}
		if st := w.Tasks[0].Steps; len(st) == 0 || st[0].Kind != StepRun || st[0].Work != c.want {
			t.Errorf("%+v: steps %+v, want a run of %s (100 us at full speed, 100 at half)", c.o, st, c.want)
		}
	}
}

// TestTimedExportsToRTApp: the timed replay has no semaphores and exports
// to rt-app; its wakeups keep the trace's times, so slowing pong no longer
// delays ping's wakeups.
func TestTimedExportsToRTApp(t *testing.T) {
	us := sched.Microsecond
	tr, err := ftraceimport.Import(strings.NewReader(pingPong(200, 100*us, 100*us, 5*us)), ftraceimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := w.Scenario(ScenarioOptions{Topology: "smp-2", Pin: PinSeen, Timed: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Semaphores) != 0 {
		t.Fatalf("timed replay has semaphores %v", sc.Semaphores)
	}
	if _, _, err := rtapp.Export(sc); err != nil {
		t.Fatalf("rt-app export: %v", err)
	}
	m, err := topology.Preset("smp-2")
	if err != nil {
		t.Fatal(err)
	}
	m.Name, m.CPUs[1].Capacity = "slow-1", 512
	cfg, err := Config(sc, &m)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(cfg, "timed")
	if err != nil {
		t.Fatal(err)
	}
	if got := taskByPID(t, &rep, 100).Wakeups; got < 195 {
		t.Errorf("timed replay, pong slowed: ping woken %d times, want all ~200 at the trace's times", got)
	}
}

func TestPerCPUKthread(t *testing.T) {
	for comm, want := range map[string]bool{"ksoftirqd/3": true, "migration/0": true, "kworker/1:2": true, "kworker/0:1H": true,
		"cpuhp/12": true, "kworker/u8:1": false, "kworker/R-rcu_g": false, "bash": false, "sh/x": false, "/3": false,
		"kworker/1:": false, "Foo/1": false, "a/b/2": true} {
		if got := perCPUKthread(comm); got != want {
			t.Errorf("%q: %v, want %v", comm, got, want)
		}
	}
}

// TestLimitSpan: a trace over the step bound says when it passed it, and
// the span it names fits: the trace imported up to that span infers
// within the same bound.
func TestLimitSpan(t *testing.T) {
	us := sched.Microsecond
	text := pingPong(3000, 10*us, 10*us, 5*us)
	tr := importText(t, text, ftraceimport.Options{})
	const bound = 4000
	_, err := Infer(tr, Options{MaxSteps: bound})
	var le *LimitError
	if !errors.As(err, &le) || le.What != "program steps" || le.Limit != bound || le.At <= 0 || le.At >= tr.Duration {
		t.Fatalf("got %v, want a LimitError of %d program steps inside the trace's %s", err, bound, tr.Duration)
	}
	span := le.Span()
	if !strings.Contains(err.Error(), "-until "+scenario.FormatDuration(span)) {
		t.Errorf("%v: want the span %s named", err, span)
	}
	cut := importText(t, text, ftraceimport.Options{Until: span})
	w, err := Infer(cut, Options{MaxSteps: bound})
	if err != nil {
		t.Fatalf("the first %s: %v", span, err)
	}
	steps := 0
	for _, tk := range w.Tasks {
		steps += len(tk.Steps)
	}
	if cut.Duration != span || steps > bound || steps < bound/2 {
		t.Errorf("the first %s: duration %s, %d steps: want the span, at most %d steps and most of them", span, cut.Duration, steps, bound)
	}
}
