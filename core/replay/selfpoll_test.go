package replay

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"schedplay/core/ftraceimport"
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// tickLines is a sink printing each simulated tick as the kernel's
// local_timer_entry line (the simulator's trace has no irq lines), with
// the task running on the CPU in the task column, as the kernel prints
// it (the importer reads the column: a line naming another task shows a
// missed switch).
type tickLines struct {
	b    bytes.Buffer
	info func(sched.TaskID) sched.TaskInfo
	cur  map[sched.CPUID]sched.TaskID
}

// bind is called by simText with the run's task table.
func (k *tickLines) bind(info func(sched.TaskID) sched.TaskInfo) { k.info = info }

func (k *tickLines) Event(e *sched.Event) {
	if k.cur == nil {
		k.cur = map[sched.CPUID]sched.TaskID{}
	}
	switch e.Kind {
	case sched.EvSwitch:
		k.cur[e.CPU] = e.Next
	case sched.EvTick:
		us := (int64(e.Time) + 500) / 1000
		col := "<idle>-0"
		if id, ok := k.cur[e.CPU]; ok && id != sched.NoTask && k.info != nil {
			ti := k.info(id)
			col = fmt.Sprintf("%s-%d", ti.Name, ti.PID)
		}
		fmt.Fprintf(&k.b, "%16s       [%03d] d.h1. %5d.%06d: local_timer_entry: vector=236\n", col, e.CPU, us/1_000_000, us%1_000_000)
	}
}

// pollTrace runs a clock-reading burner and a hog on one CPU of smp-2
// (v6.18, HZ=250) and returns the ftrace text, with the ticks as
// local_timer_entry lines when ticks is set.
func pollTrace(t *testing.T, ticks bool) *ftraceimport.Trace {
	t.Helper()
	js := `{"version":1,"topology":"smp-2","duration":"1s","kernel":{"version":"v6.18","hz":250},"tasks":[
		{"name":"poller","cpus":[0],"cpu_clock_poll":"2us","program":[{"run":-1}]},
		{"name":"hog","cpus":[0],"program":[{"run":-1}]}]}`
	sc, err := scenario.Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	tl := &tickLines{}
	text := simText(t, sc, tl)
	if ticks {
		text += tl.b.String()
	}
	return importText(t, text, ftraceimport.Options{})
}

func taskByComm(t *testing.T, w *Workload, comm string) *Task {
	t.Helper()
	for i := range w.Tasks {
		if strings.HasPrefix(w.Tasks[i].Comm, comm) {
			return &w.Tasks[i]
		}
	}
	t.Fatalf("no task %q in %s", comm, w.Describe())
	return nil
}

// TestClockPollInferred: the simulated clock reader, preempted at its
// slice end between ticks, gets cpu_clock_poll in the replay's scenario;
// the hog, preempted at ticks, does not.
func TestClockPollInferred(t *testing.T) {
	tr := pollTrace(t, true)
	if len(tr.IRQs) == 0 {
		t.Fatal("no interrupt entries imported")
	}
	w, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !w.ClockEvidence {
		t.Fatal("ClockEvidence false with local_timer_entry lines")
	}
	p, h := taskByComm(t, w, "poller"), taskByComm(t, w, "hog")
	if p.Preemptions < 50 || 2*p.SelfPreemptions < p.Preemptions || p.ClockPoll != DefaultClockPoll {
		t.Errorf("poller: %d of %d preemptions self, clock poll %s\n%s", p.SelfPreemptions, p.Preemptions, p.ClockPoll, w.Describe())
	}
	if h.Preemptions < 50 || h.SelfPreemptions != 0 || h.ClockPoll != 0 {
		t.Errorf("hog: %d of %d preemptions self, clock poll %s\n%s", h.SelfPreemptions, h.Preemptions, h.ClockPoll, w.Describe())
	}
	sc, err := w.Scenario(ScenarioOptions{Topology: "smp-2"})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range sc.Tasks {
		want := sched.Time(0)
		if strings.HasPrefix(st.Name, "poller") {
			want = DefaultClockPoll
		}
		if st.CPUClockPoll != want {
			t.Errorf("scenario task %s: cpu_clock_poll %s, want %s", st.Name, st.CPUClockPoll, want)
		}
	}
	if s := w.ClockSummary(); !strings.Contains(s, "1 of 2 tasks inferred") || !strings.Contains(s, p.Group+" (") || strings.Contains(s, h.Group) {
		t.Errorf("clock summary %q", s)
	}
	if !strings.Contains(w.Describe(), "cpu_clock_poll=") {
		t.Errorf("describe does not report the key:\n%s", w.Describe())
	}
	if w2, err := Infer(tr, Options{ClockPoll: -1}); err != nil || taskByComm(t, w2, "poller").ClockPoll != 0 {
		t.Errorf("ClockPoll -1 still inferred a poll (%v)", err)
	}
}

// TestClockPollNeedsIRQs: the same run without interrupt lines infers
// nothing and says so.
func TestClockPollNeedsIRQs(t *testing.T) {
	w, err := Infer(pollTrace(t, false), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w.ClockEvidence || !strings.Contains(w.ClockSummary(), "cannot be inferred") {
		t.Errorf("ClockEvidence %v without interrupt entries; summary %q", w.ClockEvidence, w.ClockSummary())
	}
	for _, tk := range w.Tasks {
		if tk.ClockPoll != 0 || tk.SelfPreemptions != 0 {
			t.Errorf("%s: clock poll %s, %d self-preemptions without interrupt entries", tk.Group, tk.ClockPoll, tk.SelfPreemptions)
		}
	}
}

// TestSelfPreemptionRule: hand-written lines pin the rule: a cause before
// the switch-in or outside the window does not count, one inside does,
// and a wakeup naming the CPU counts as a cause.
func TestSelfPreemptionRule(t *testing.T) {
	sw := func(ts string, prev, next string, state string) string {
		pc, pp, _ := strings.Cut(prev, "-")
		nc, np, _ := strings.Cut(next, "-")
		return fmt.Sprintf("%16s-%-7s [000] d..2. %s: sched_switch: prev_comm=%s prev_pid=%s prev_prio=120 prev_state=%s ==> next_comm=%s next_pid=%s next_prio=120\n",
			pc, pp, ts, pc, pp, state, nc, np)
	}
	tick := func(ts string) string {
		return fmt.Sprintf("          <idle>-0       [000] d.h1. %s: local_timer_entry: vector=236\n", ts)
	}
	var in strings.Builder
	in.WriteString(tick("1.000000"))
	in.WriteString(sw("1.000001", "a-10", "b-11", "R")) // tick 1 us before: caused
	in.WriteString(sw("1.003001", "b-11", "a-10", "R")) // tick before b's switch-in: self
	in.WriteString(tick("1.003500"))
	in.WriteString(sw("1.006000", "a-10", "b-11", "R")) // tick 2.5 ms before: outside the window, self
	in.WriteString(sw("1.009000", "b-11", "a-10", "R")) // self
	in.WriteString("            a-10      [000] d..2. 1.011990: sched_wakeup: comm=c pid=12 prio=120 target_cpu=001\n")
	in.WriteString("            x-13      [001] d..2. 1.011995: sched_wakeup: comm=d pid=14 prio=120 target_cpu=000\n")
	in.WriteString(sw("1.012000", "a-10", "b-11", "R")) // wakeup naming CPU 0 5 us before: caused
	in.WriteString(sw("1.015000", "b-11", "a-10", "R")) // self
	tr, err := ftraceimport.Import(strings.NewReader(in.String()), ftraceimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := taskByComm(t, w, "a"), taskByComm(t, w, "b")
	if a.Preemptions != 3 || a.SelfPreemptions != 1 || b.Preemptions != 3 || b.SelfPreemptions != 3 {
		t.Fatalf("a %d of %d, b %d of %d self\n%s", a.SelfPreemptions, a.Preemptions, b.SelfPreemptions, b.Preemptions, w.Describe())
	}
	if a.ClockPoll != 0 || b.ClockPoll != DefaultClockPoll {
		t.Errorf("clock poll a %s b %s: want 0 and %s (at least %d self-preemptions)", a.ClockPoll, b.ClockPoll, DefaultClockPoll, MinSelfPreemptions)
	}
}

// TestClockPollReplaySwitches: replayed with the inferred key, the clock
// reader's switches match the trace's; without it (ClockPoll -1) it is
// preempted at ticks only and they do not.
func TestClockPollReplaySwitches(t *testing.T) {
	tr := pollTrace(t, true)
	trace := tr.Metrics("trace")
	switches := func(opts Options) (tracePoller, replayPoller int64) {
		w, rep := replayWith(t, tr, opts, ScenarioOptions{Topology: "smp-2", Pin: PinSeen}, "kernel.hz=250")
		p := taskByComm(t, w, "poller")
		return taskByPID(t, &trace, p.PID).Switches, taskByPID(t, &rep, p.PID).Switches
	}
	tw, with := switches(Options{})
	_, without := switches(Options{ClockPoll: -1})
	within := func(r int64) bool { return 10*abs64(r-tw) <= tw }
	if !within(with) || within(without) {
		t.Errorf("poller switches: trace %d, replay with cpu_clock_poll %d, without %d: want only the first within 10%%", tw, with, without)
	}
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// hzTrace runs two hogs on each CPU of smp-2 at hz and returns the trace with
// its ticks as local_timer_entry lines.
func hzTrace(t *testing.T, hz int) *ftraceimport.Trace {
	t.Helper()
	js := fmt.Sprintf(`{"version":1,"topology":"smp-2","duration":"400ms","kernel":{"version":"v6.18","hz":%d},"tasks":[
		{"name":"hog","instances":4,"program":[{"run":-1}]}]}`, hz)
	sc, err := scenario.Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	tl := &tickLines{}
	text := simText(t, sc, tl) + tl.b.String()
	return importText(t, text, ftraceimport.Options{})
}

// TestHZFromTicks: the replay of a trace whose ticks come every 1/HZ s
// runs at that HZ (and its cost probe with it), whatever the profile's
// default; a trace without timer interrupt entries keeps the profile's.
func TestHZFromTicks(t *testing.T) {
	for _, hz := range []int{100, 300, 1000} {
		tr := hzTrace(t, hz)
		w, err := Infer(tr, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if w.HZ != hz || w.HZTicks < MinHZTicks {
			t.Errorf("HZ %d: inferred %d from %d ticks (%s)", hz, w.HZ, w.HZTicks, w.HZSummary())
		}
		sc, err := w.Scenario(ScenarioOptions{Topology: "smp-2", Kernel: "v6.18"})
		if err != nil {
			t.Fatal(err)
		}
		if sc.Kernel.HZ != hz {
			t.Errorf("HZ %d: the scenario's kernel.hz is %d", hz, sc.Kernel.HZ)
		}
		if sc, _ := w.Scenario(ScenarioOptions{Topology: "smp-2", HZ: 250}); sc.Kernel.HZ != 250 {
			t.Errorf("HZ %d: ScenarioOptions.HZ 250 gives kernel.hz %d", hz, sc.Kernel.HZ)
		}
	}
	tr := pollTrace(t, false)
	w, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w.HZ != 0 {
		t.Errorf("a trace without timer interrupts: HZ %d inferred", w.HZ)
	}
	if sc, _ := w.Scenario(ScenarioOptions{Topology: "smp-2"}); sc.Kernel.HZ != 0 {
		t.Errorf("a trace without timer interrupts: kernel.hz %d, want the profile's (0)", sc.Kernel.HZ)
	}
}

// readerTrace is a trace of one CPU shared by a task that reads its CPU
// clock every period (each read a sched_stat_runtime) and a hog that does
// not, switched at each 2 ms tick; stat says whether the reads are traced.
func readerTrace(period sched.Time, stat bool) string {
	s := newSynth(1)
	s.comm[100], s.comm[200] = "reader", "hog"
	us := sched.Microsecond
	t := sched.Time(1000 * us)
	s.sw(t, 0, 0, "R", 100)
	for k := 0; k < 100; k++ {
		pid, next := 100, 200
		if k%2 == 1 {
			pid, next = 200, 100
		}
		from := t
		if pid == 100 && stat {
			for r := t + period; r < t+1990*us; r += period {
				s.line(pid, 0, "d..2.", r, "sched_stat_runtime", fmt.Sprintf("comm=reader pid=100 runtime=%d [ns]", period))
				from = r
			}
		}
		t += 2000 * us
		s.line(pid, 0, "d.h..", t-us, "local_timer_entry", "vector=236")
		if stat {
			s.line(pid, 0, "d.h1.", t, "sched_stat_runtime", fmt.Sprintf("comm=%s pid=%d runtime=%d [ns]", s.comm[pid], pid, t-from))
		}
		s.sw(t+us, 0, pid, "R", next)
	}
	return s.String()
}

// TestClockPollFromStatRuntime: with sched_stat_runtime in the trace, a
// task whose updates between its switches and ticks come every period is
// given that period as cpu_clock_poll, whatever the period; the hog,
// updated only at ticks and switches, is not. Without them the reader is
// not given a traced interval, and the summary says the interval is a
// default.
func TestClockPollFromStatRuntime(t *testing.T) {
	us := sched.Microsecond
	for _, p := range []sched.Time{3 * us, 40 * us} {
		tr, err := ftraceimport.Import(strings.NewReader(readerTrace(p, true)), ftraceimport.Options{})
		if err != nil {
			t.Fatal(err)
		}
		w, err := Infer(tr, Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, h := taskByComm(t, w, "reader"), taskByComm(t, w, "hog")
		if r.ClockPoll != p || !r.ClockPollTraced || r.ClockReads < MinClockReads {
			t.Errorf("period %s: reader cpu_clock_poll %s (traced %v, %d reads)\n%s", p, r.ClockPoll, r.ClockPollTraced, r.ClockReads, w.ClockSummary())
		}
		if h.ClockPoll != 0 || h.ClockReads != 0 {
			t.Errorf("period %s: the hog got cpu_clock_poll %s from %d reads", p, h.ClockPoll, h.ClockReads)
		}
		if sc, _ := w.Scenario(ScenarioOptions{Topology: "smp-1"}); sc.Tasks[0].CPUClockPoll != p {
			t.Errorf("period %s: the scenario's reader has cpu_clock_poll %s", p, sc.Tasks[0].CPUClockPoll)
		}
	}
	tr, err := ftraceimport.Import(strings.NewReader(readerTrace(3*us, false)), ftraceimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := taskByComm(t, w, "reader"); r.ClockPollTraced {
		t.Errorf("no sched_stat_runtime: the reader's interval %s is called traced", r.ClockPoll)
	}
}
