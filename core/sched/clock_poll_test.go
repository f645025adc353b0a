package sched

import (
	"strings"
	"testing"
)

// clockPollMix runs a hog, a periodic task and a run/sleep task on smp-2
// under kernel k, the two burning tasks reading their CPU clock every poll
// (0: never), and returns the recorded run.
func clockPollMix(t *testing.T, k string, poll Time) *testRun {
	b := newRun(t).topology("smp-2").kernel(k).hz(250).duration(2 * Second)
	b.task("hog").run(Forever)
	b.task("periodic").clockPoll(poll).run(3*Millisecond).timer("t", 10*Millisecond, TimerAbsolute)
	b.task("rs").clockPoll(poll).run(4 * Millisecond).sleep(3 * Millisecond).run(2 * Millisecond).sleep(5 * Millisecond)
	b.task("rs2").clockPoll(poll).run(5 * Millisecond).sleep(4 * Millisecond)
	r := b.build()
	r.runFor(2 * Second)
	return r
}

// betweenTicks counts the switches that preempt a task because its slice
// ended (slice_expired, protection_ended, tick_ideal_runtime) at an
// instant where its CPU had no tick: only a clock read can do that.
func betweenTicks(r *testRun) int {
	type at struct {
		t   Time
		cpu CPUID
	}
	ticks := map[at]bool{}
	for _, e := range r.rec.events {
		if e.Kind == EvTick {
			ticks[at{e.Time, e.CPU}] = true
		}
	}
	n := 0
	for _, e := range r.rec.events {
		if e.Kind != EvSwitch || e.PrevState != 'R' {
			continue
		}
		switch e.Reason {
		case ReasonSliceExpired, ReasonProtectionEnded, ReasonTickIdealRuntime, ReasonTickVruntimeSpread:
			if !ticks[at{e.Time, e.CPU}] {
				n++
			}
		}
	}
	return n
}

// TestClockPollPerProfile: reading the CPU clock moves slice-end
// preemptions off the ticks on the EEVDF profiles only; on legacy CFS
// (update_curr() checks no slice) and before v3.19 (no update_curr() at
// all) the schedule is the same event for event.
func TestClockPollPerProfile(t *testing.T) {
	for _, k := range []string{"v3.11", "v5.8"} {
		off, on := clockPollMix(t, k, 0), clockPollMix(t, k, 2*Microsecond)
		if len(off.rec.events) != len(on.rec.events) {
			t.Errorf("%s: %d events without reads, %d with", k, len(off.rec.events), len(on.rec.events))
			continue
		}
		for i := range off.rec.events {
			if off.rec.events[i] != on.rec.events[i] {
				t.Errorf("%s: event %d differs: %s without reads, %s with", k, i, off.rec.events[i].Describe(), on.rec.events[i].Describe())
				break
			}
		}
	}
	for _, k := range []string{"v6.6", "v6.12", "v6.18"} {
		// Without reads a slice can still end between ticks when a
		// wakeup on the CPU runs update_curr() for curr.
		off, on := betweenTicks(clockPollMix(t, k, 0)), betweenTicks(clockPollMix(t, k, 2*Microsecond))
		t.Logf("%s: %d slice-end preemptions between ticks without reads, %d with", k, off, on)
		if on < 2*off+50 {
			t.Errorf("%s: %d slice-end preemptions between ticks with reads every 2us, %d without: want far more with", k, on, off)
		}
	}
}

// TestClockPollBounds: an interval outside MinClockPoll..MaxClockPoll is
// refused with the task named.
func TestClockPollBounds(t *testing.T) {
	for _, d := range []Time{-1, MinClockPoll - 1, MaxClockPoll + 1} {
		cfg := newRun(t).task("p").clockPoll(d).run(Forever).config()
		if _, err := New(cfg); err == nil {
			t.Errorf("ClockPoll %d: no error", d)
		}
	}
}

// TestClockPollAgainstEveryRead checks the targeted reads against the
// simple reference, every read an event running update_curr(): the two
// schedules must be the same event for event, with a custom short slice
// (v6.12 did_preempt_short()) and readers sharing CPUs with a hog of
// another weight. Readers are nice 0: with other weights every read
// truncates calc_delta_fair() once, which the targeted reads abstract, and
// the decisions move by a read or two. Durations avoid multiples of the
// read intervals, so that no run ends exactly at a read. v6.18 is left
// out: there the two models part after about 270 ms in this mix (a wakeup
// preemption in one, a slice end 60 us later in the other), a known
// difference not yet explained (docs/kernel-rules.md section 20.3).
func TestClockPollAgainstEveryRead(t *testing.T) {
	mix := func(k string, every bool) *testRun {
		b := newRun(t).topology("smp-2").kernel(k).hz(250).duration(Second)
		b.task("hog").nice(-3).run(Forever)
		b.task("periodic").clockPoll(3*Microsecond).run(3001*Microsecond).timer("t", 10*Millisecond, TimerAbsolute)
		b.task("rs").clockPoll(2 * Microsecond).run(4003 * Microsecond).sleep(3 * Millisecond).run(2007 * Microsecond).sleep(5 * Millisecond)
		b.task("short").slice(300 * Microsecond).clockPoll(2 * Microsecond).run(701 * Microsecond).sleep(2 * Millisecond)
		b.task("rs2").clockPoll(5 * Microsecond).run(5011 * Microsecond).sleep(4 * Millisecond)
		r := b.build()
		r.Sim.pollEveryRead = every
		r.runFor(Second)
		return r
	}
	// Events of one instant on different CPUs may come in either order
	// (the reads are queued at different times in the two models), so
	// the streams are compared CPU by CPU.
	perCPU := func(evs []Event) map[CPUID][]Event {
		m := map[CPUID][]Event{}
		for _, e := range evs {
			m[e.CPU] = append(m[e.CPU], e)
		}
		return m
	}
	for _, k := range []string{"v5.8", "v6.6", "v6.12"} {
		targeted, every := perCPU(mix(k, false).rec.events), perCPU(mix(k, true).rec.events)
		for _, cpu := range []CPUID{-1, 0, 1} {
			a, b := targeted[cpu], every[cpu]
			for i := 0; i < min(len(a), len(b)); i++ {
				if a[i] != b[i] {
					t.Errorf("%s cpu %d: event %d differs: targeted reads %s, every read %s", k, cpu, i, a[i].Describe(), b[i].Describe())
					break
				}
			}
			if len(a) != len(b) {
				t.Errorf("%s cpu %d: %d events with targeted reads, %d with every read", k, cpu, len(a), len(b))
			}
		}
	}
}

// TestClockPollAloneMatchesEveryLapsedRead checks v6.18's alone case (a
// nice-0 reader alone on its cfs_rq reads only where its deadline, its
// bandwidth runtime or the fair server's runtime runs out) against the
// targeted reads without it, where a lapsed vprot makes every read an
// event: the schedules, every task's sum_exec_runtime and the cgroups'
// usage must be the same, with the alone case taking far fewer events.
// The mixes have the kernel costs on (each re-pick charges its pick), a
// cgroup, an RT hog that leaves a pinned reader only the fair server's
// runtime, a quota used up between ticks beside a periodic RT task, an RT
// task woken from the other CPU (its IPI in flight while the reader reads),
// and renices and class changes of a reader.
func TestClockPollAloneMatchesEveryLapsedRead(t *testing.T) {
	mixes := map[string]func(b *runBuilder){
		"cgroup": func(b *runBuilder) {
			b.cgroup("/mix", "", 1024)
			b.task("hog").in("/mix").run(Forever)
			b.task("periodic").in("/mix").clockPoll(2400).run(3*Millisecond).timer("t", 10*Millisecond, TimerAbsolute)
			b.task("rs").in("/mix").clockPoll(2400).run(4600 * Microsecond).sleep(6600 * Microsecond).run(2600 * Microsecond).sleep(10900 * Microsecond)
			b.task("rs2").in("/mix").clockPoll(2400).run(3800 * Microsecond).sleep(3300 * Microsecond)
		},
		"fair-server": func(b *runBuilder) {
			b.task("rt").fifo(10).cpus(0).start(100 * Millisecond).run(Forever)
			b.task("reader").cpus(0).clockPoll(3 * Microsecond).run(Forever)
			b.task("rs").cpus(1).clockPoll(2 * Microsecond).run(5 * Millisecond).sleep(4 * Millisecond)
		},
		"quota": func(b *runBuilder) {
			b.cgroup("/Q", "", 1024).quota("/Q", 3*Millisecond, 10*Millisecond, 0)
			b.task("q").in("/Q").cpus(1).clockPoll(2 * Microsecond).run(Forever)
			b.task("rs").cpus(1).clockPoll(2 * Microsecond).run(2 * Millisecond).sleep(7 * Millisecond)
			b.task("hog").cpus(0).run(Forever)
			b.task("rtp").fifo(5).cpus(1).run(200 * Microsecond).sleep(3100 * Microsecond)
		},
		"remote-rt": func(b *runBuilder) {
			ev := len(b.mutexes)
			b.mutexes = append(b.mutexes, Resource{Name: "ev"})
			b.task("reader").cpus(0).clockPoll(2 * Microsecond).run(Forever)
			b.task("rt").fifo(5).cpus(0).op(Op{Kind: OpWait, Res: ev}).run(100 * Microsecond)
			b.task("waker").cpus(1).run(Millisecond).op(Op{Kind: OpSignal, Res: ev}).sleep(3 * Millisecond)
		},
		"renice": func(b *runBuilder) {
			b.task("reader").cpus(0).clockPoll(2 * Microsecond).run(Forever)
			b.task("mgr").cpus(1)
			for i := range 8 {
				b.sleep(Time(37+11*i) * Millisecond)
				b.op(Op{Kind: OpNice, Attr: &Attr{Nice: (i % 3) - 1, Group: -1}})
				b.cur().attrTo[len(b.cur().spec.Program)-1] = "reader"
				if i%4 == 1 {
					b.sleep(5 * Millisecond)
					b.op(Op{Kind: OpSetattr, Attr: &Attr{Policy: SchedFIFO, RTPrio: 1, Group: -1}})
					b.cur().attrTo[len(b.cur().spec.Program)-1] = "reader"
					b.sleep(3 * Millisecond)
					b.op(Op{Kind: OpSetattr, Attr: &Attr{Policy: SchedOther, Group: -1}})
					b.cur().attrTo[len(b.cur().spec.Program)-1] = "reader"
				}
			}
			b.sleep(10 * Second)
			b.task("rs").cpus(0).clockPoll(3 * Microsecond).run(1 * Millisecond).sleep(9 * Millisecond)
		},
	}
	names := []string{"cgroup", "fair-server", "quota", "remote-rt", "renice"}
	// The "+irq" variants add a sleeper's hrtimer interrupt time on a busy
	// CPU (timer_irq.go), which pauses the reader's work mid-request.
	for _, k := range []string{"v6.6", "v6.12", "v6.18", "v6.18+irq"} {
		for _, name := range names {
			kernel, irq := strings.CutSuffix(k, "+irq")
			run := func(noAlone bool) *testRun {
				b := newRun(t).topology("smp-2").kernel(kernel).hz(250).duration(2 * Second).withHW()
				mixes[name](b)
				r := b.buildWith(func(cfg *Config) {
					if irq {
						cfg.HW.TimerIRQNs = 10400
					}
				})
				r.Sim.pollNoAlone = noAlone
				r.runFor(2 * Second)
				return r
			}
			alone, every := run(false), run(true)
			byCPU := func(evs []Event) map[CPUID][]Event {
				m := map[CPUID][]Event{}
				for _, e := range evs {
					m[e.CPU] = append(m[e.CPU], e)
				}
				return m
			}
			a, e := byCPU(alone.rec.events), byCPU(every.rec.events)
			for _, cpu := range []CPUID{-1, 0, 1} {
				x, y := a[cpu], e[cpu]
				for i := range min(len(x), len(y)) {
					if x[i] != y[i] {
						t.Errorf("%s %s cpu %d: event %d differs: alone case %s, every lapsed read %s", k, name, cpu, i, x[i].Describe(), y[i].Describe())
						break
					}
				}
				if len(x) != len(y) {
					t.Errorf("%s %s cpu %d: %d events with the alone case, %d without", k, name, cpu, len(x), len(y))
				}
			}
			for i, ta := range alone.allTasks() {
				if te := every.allTasks()[i]; ta.se.sumExec != te.se.sumExec {
					t.Errorf("%s %s %s: sum_exec_runtime %d with the alone case, %d without", k, name, ta.name, ta.se.sumExec, te.se.sumExec)
				}
			}
			for c := 1; c <= len(alone.cfg.Cgroups); c++ {
				if sa, se := alone.CgroupStat(c), every.CgroupStat(c); sa != se {
					t.Errorf("%s %s cgroup %d: %+v with the alone case, %+v without", k, name, c, sa, se)
				}
			}
			pa, pe := alone.EventsPopped(), every.EventsPopped()
			t.Logf("%s %s: %d events popped with the alone case, %d without", k, name, pa, pe)
			if kernel == "v6.18" && pa*2 > pe {
				t.Errorf("%s %s: %d events popped with the alone case, %d without: want under half", k, name, pa, pe)
			}
		}
	}
}
