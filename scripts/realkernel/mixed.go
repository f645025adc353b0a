//go:build linux

package main

// The mixed, unpinned cases (issue 18, "What must be shown"): hogs, a
// periodic task and run/sleep tasks together, every task allowed on both
// CPUs, so that wakeup placement (select_task_rq_fair()), wakeup preemption
// (check_preempt_wakeup_fair()) and load balancing (load_balance(), newidle
// included) act at once. Three mixes put the nominal demand below, near and
// above the two CPUs.
//
// A run/sleep task runs the same fixed program on both sides: a list of
// (run, sleep) pairs drawn once from a PCG seeded by the case, looped
// forever. The simulator gets it as run/sleep program steps, worker.c as
// "runsleep R1 S1 R2 S2 ...", so the real and the simulated task execute
// the identical sequence (the scenario format has no random durations).
//
// All tasks of a mix run in one cgroup, /mix, under the harness's heavy
// scratch parent (cgroups.go), on both sides: on the machine so that the
// load of other processes, in their own groups, takes little of the mix's
// CPU; in the case file as /schedplay-realkernel/mix with the parent's
// weight (simGroup), because the balancer weighs each CPU by the parent's
// group entity (calc_group_shares() of the parent, fed by
// update_tg_load_avg()'s rate-limited contributions), not by /mix's.
// Inside /mix the tasks compete as in a flat runqueue (find_matching_se()
// brings a wakee and curr to the same level).
//
// Each mixed case is measured several times (-repeats) for the spread of
// the real numbers, and also simulated by the code before issue 18's
// fixes (-before, before.go).

import (
	"fmt"
	"math/rand/v2"
)

// runSleep is one step pair of a run/sleep task, in microseconds.
type runSleep struct {
	RunUS, SleepUS int
}

// runSleepPairs is how many pairs a run/sleep program has before it repeats.
const runSleepPairs = 16

// genRunSleep draws runSleepPairs pairs with run in [runLo, runHi] and sleep
// in [sleepLo, sleepHi] microseconds, in steps of 100 us, from a PCG seeded
// by seed: the same seed always gives the same program.
func genRunSleep(seed uint64, runLo, runHi, sleepLo, sleepHi int) []runSleep {
	r := rand.New(rand.NewPCG(seed, 0x5eed_1818))
	draw := func(lo, hi int) int { return lo + 100*r.IntN((hi-lo)/100+1) }
	out := make([]runSleep, runSleepPairs)
	for i := range out {
		out[i] = runSleep{RunUS: draw(runLo, runHi), SleepUS: draw(sleepLo, sleepHi)}
	}
	return out
}

// dutyPct is the CPU share (% of one CPU) the program asks for when it never
// waits: total run over total run plus sleep.
func dutyPct(steps []runSleep) float64 {
	run, all := 0, 0
	for _, s := range steps {
		run += s.RunUS
		all += s.RunUS + s.SleepUS
	}
	if all == 0 {
		return 0
	}
	return 100 * float64(run) / float64(all)
}

// mixedCases are the unpinned mixes, in report order.
func mixedCases() []caseSpec {
	both := []int{0, 1}
	hog := func(n int) taskSpec {
		return taskSpec{Name: "hog", Instances: n, Policy: "SCHED_OTHER", CPUs: both, Cgroup: mixGroup}
	}
	periodic := taskSpec{Name: "periodic", Instances: 1, Policy: "SCHED_OTHER", CPUs: both, RunUS: 3000, PeriodUS: 10000, Cgroup: mixGroup}
	rs := func(name string, seed uint64, runLo, runHi, sleepLo, sleepHi int) taskSpec {
		return taskSpec{Name: name, Instances: 1, Policy: "SCHED_OTHER", CPUs: both, Cgroup: mixGroup,
			Steps: genRunSleep(seed, runLo, runHi, sleepLo, sleepHi)}
	}
	groups := []cgroupDef{{mixGroup, nil}}
	return []caseSpec{
		{"mix-below", "Unpinned mix below two CPUs (about 150 % of one CPU asked for): a hog, a periodic task (3 ms every 10 ms, absolute timer) and a run/sleep task (run 1-3 ms, sleep 4-12 ms, a fixed seeded sequence), all allowed on CPUs 0-1.",
			[]taskSpec{hog(1), periodic, rs("rs", 1, 1000, 3000, 4000, 12000)}, groups},
		{"mix-near", "Unpinned mix near two CPUs (about 200 %): a hog, the periodic task (30 %) and two run/sleep tasks of about 35 % each (run 1-6 ms, sleep 2-11 ms, two different seeded sequences), all allowed on CPUs 0-1.",
			[]taskSpec{hog(1), periodic, rs("rsa", 2, 1000, 6000, 2000, 11000), rs("rsb", 3, 1000, 6000, 2000, 11000)}, groups},
		{"mix-over", "Unpinned mix above two CPUs (about 270 %): two hogs, the periodic task (30 %) and two run/sleep tasks of about 20 % each (run 1-3 ms, sleep 4-12 ms), all allowed on CPUs 0-1.",
			[]taskSpec{hog(2), periodic, rs("rsa", 4, 1000, 3000, 4000, 12000), rs("rsb", 5, 1000, 3000, 4000, 12000)}, groups},
	}
}

// mixGroup is the cgroup every task of a mix runs in.
const mixGroup = "/mix"

// mixed reports whether the case is one of the unpinned mixes (it has a
// run/sleep task): those get repeats, spreads and the before column.
func (c caseSpec) mixed() bool {
	for _, s := range c.Tasks {
		if len(s.Steps) > 0 {
			return true
		}
	}
	return false
}

// workerArgs are worker.c's arguments for the task's workload.
func (s taskSpec) workerArgs() []string {
	switch {
	case len(s.Steps) > 0:
		args := []string{"runsleep"}
		for _, st := range s.Steps {
			args = append(args, fmt.Sprint(st.RunUS), fmt.Sprint(st.SleepUS))
		}
		return args
	case s.PeriodUS > 0:
		return []string{"periodic", fmt.Sprint(s.RunUS), fmt.Sprint(s.PeriodUS)}
	}
	return []string{"hog"}
}

// workload describes the task's workload for the report.
func (s taskSpec) workload() string {
	switch {
	case len(s.Steps) > 0:
		return fmt.Sprintf("run/sleep %d pairs, %.0f %% duty", len(s.Steps), dutyPct(s.Steps))
	case s.PeriodUS > 0:
		return fmt.Sprintf("periodic run %dus every %dus (absolute)", s.RunUS, s.PeriodUS)
	}
	return "hog"
}
