//go:build linux

package main

// The comparison cases and their translation to simulator scenarios
// (docs/scenario-format.md). Case ids are stable: reports, JSON files and
// scripts/realkernel/cases/<id>.json are named after them.

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"schedplay/scripts/internal/caselist"
)

// taskSpec is one task group of a case, the same notion as a scenario task group.
type taskSpec struct {
	Name      string // group name; tasks are "<Name>-<index>" like rt-app
	Instances int
	Policy    string // SCHED_OTHER, SCHED_IDLE or SCHED_FIFO
	Nice      int
	RTPrio    int // SCHED_FIFO: rt_priority
	CPUs      []int
	RunUS     int        // periodic only: CPU time per period
	PeriodUS  int        // periodic only; 0 means a hog
	Cgroup    string     // the cgroup the tasks run in ("" = the root; cgroups.go)
	Steps     []runSleep // run/sleep program, looped (mixed.go); nil otherwise
}

// caseSpec is one comparison case.
type caseSpec struct {
	ID          string
	Description string
	Tasks       []taskSpec
	Cgroups     []cgroupDef // cgroups.go
}

// task is one instance of a taskSpec, named as the simulator names it.
type task struct {
	Name string
	Spec taskSpec
}

// allCases returns the cases in report order.
func allCases() []caseSpec {
	hog := func(name string, n, nice int, policy string, cpus ...int) taskSpec {
		return taskSpec{Name: name, Instances: n, Policy: policy, Nice: nice, CPUs: cpus}
	}
	return append([]caseSpec{
		{"nice0-vs-nice5", "Two CPU hogs pinned to CPU 1, nice 0 and nice 5.",
			[]taskSpec{hog("nice0", 1, 0, "SCHED_OTHER", 1), hog("nice5", 1, 5, "SCHED_OTHER", 1)}, nil},
		{"nice0-vs-idle", "A nice-0 hog and a SCHED_IDLE hog pinned to CPU 1.",
			[]taskSpec{hog("normal", 1, 0, "SCHED_OTHER", 1), hog("idle", 1, 0, "SCHED_IDLE", 1)}, nil},
		{"two-hogs", "Two nice-0 hogs pinned to CPU 1.",
			[]taskSpec{hog("hog", 2, 0, "SCHED_OTHER", 1)}, nil},
		{"periodic-vs-hog", "A periodic task (1 ms of CPU every 10 ms, absolute timer) and a nice-0 hog pinned to CPU 1.",
			[]taskSpec{{Name: "periodic", Instances: 1, Policy: "SCHED_OTHER", CPUs: []int{1}, RunUS: 1000, PeriodUS: 10000},
				hog("hog", 1, 0, "SCHED_OTHER", 1)}, nil},
		{"periodic-and-hog-two-cpus", "A periodic task (1 ms of CPU every 10 ms, absolute timer) and a nice-0 hog, both allowed on CPUs 0-1: wakeup placement should keep the periodic task off the hog's CPU.",
			[]taskSpec{{Name: "periodic", Instances: 1, Policy: "SCHED_OTHER", CPUs: []int{0, 1}, RunUS: 1000, PeriodUS: 10000},
				hog("hog", 1, 0, "SCHED_OTHER", 0, 1)}, nil},
		{"three-hogs-two-cpus", "Three nice-0 hogs allowed on CPUs 0-1.",
			[]taskSpec{hog("hog", 3, 0, "SCHED_OTHER", 0, 1)}, nil},
		{"fifo-vs-other", "A SCHED_FIFO (priority 50) hog and a nice-0 SCHED_OTHER hog pinned to CPU 1: the fair hog gets what RT throttling (before v6.12) or the fair deadline server (v6.12+) leaves it, 5% by default.",
			[]taskSpec{{Name: "fifo", Instances: 1, Policy: "SCHED_FIFO", RTPrio: 50, CPUs: []int{1}},
				hog("other", 1, 0, "SCHED_OTHER", 1)}, nil},
	}, append(cgroupCases(), mixedCases()...)...)
}

// selectCases returns the cases named in a comma-separated list ("" = all).
func selectCases(list string) ([]caseSpec, error) {
	cs, err := caselist.Select(allCases(), func(c caseSpec) string { return c.ID }, list)
	var u *caselist.UnknownError
	if errors.As(err, &u) {
		return nil, fmt.Errorf("-cases: unknown case %q (have %s)", u.ID, strings.Join(u.Known, ", "))
	}
	return cs, err
}

// tasks expands the instances, indexing over the whole case like the simulator.
func (c caseSpec) tasks() []task {
	var out []task
	for _, s := range c.Tasks {
		for range s.Instances {
			out = append(out, task{Name: fmt.Sprintf("%s-%d", s.Name, len(out)), Spec: s})
		}
	}
	return out
}

// weight is the load weight of a task (sched_prio_to_weight, WEIGHT_IDLEPRIO).
func weight(s taskSpec) float64 {
	if s.Policy == "SCHED_IDLE" {
		return 3
	}
	w := [40]float64{
		88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
		9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
		1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
		110, 87, 70, 56, 45, 36, 29, 23, 18, 15,
	}
	return w[s.Nice+20]
}

// rtShare is the share (% of a CPU) an RT hog keeps: sched_rt_runtime_us /
// sched_rt_period_us (950000/1000000) before v6.12, and 1 - 50 ms/1000 ms of
// the fair deadline server from v6.12: 95% either way with the defaults.
const rtShare = 95.0

// expectedShares is the ideal CPU share (% of one CPU) of each task: periodic tasks
// get RUN/PERIOD, an RT hog rtShare, hogs split what is left of their CPUs by
// weight. It assumes, as all cases do, that tasks share either one CPU or all
// CPUs of the case, and at most one RT hog per case.
func (c caseSpec) expectedShares() map[string]float64 {
	if len(c.Cgroups) > 0 && !c.mixed() { // a mix's one group is as flat
		return c.cgroupShares() // cgroups.go
	}
	ts := c.tasks()
	capacity, hogWeight := 100*float64(len(c.cpuSet())), 0.0
	for _, t := range ts {
		if t.Spec.Policy == "SCHED_FIFO" {
			capacity -= rtShare
			continue
		}
		if t.Spec.PeriodUS > 0 || len(t.Spec.Steps) > 0 {
			capacity -= t.Spec.demandPct()
		} else {
			hogWeight += weight(t.Spec)
		}
	}
	out := map[string]float64{}
	for _, t := range ts {
		if t.Spec.Policy == "SCHED_FIFO" {
			out[t.Name] = rtShare
			continue
		}
		if t.Spec.PeriodUS > 0 || len(t.Spec.Steps) > 0 {
			out[t.Name] = t.Spec.demandPct()
		} else {
			// A task cannot use more than one CPU; with the CPUs
			// overcommitted nothing may be left for the hogs.
			out[t.Name] = max(0, min(100, capacity*weight(t.Spec)/hogWeight))
		}
	}
	return out
}

// demandPct is what a periodic or run/sleep task asks for, % of one CPU.
func (s taskSpec) demandPct() float64 {
	if len(s.Steps) > 0 {
		return dutyPct(s.Steps)
	}
	return 100 * float64(s.RunUS) / float64(s.PeriodUS)
}

// cpuSet is the set of CPUs the case's tasks may use.
func (c caseSpec) cpuSet() map[int]bool {
	cpus := map[int]bool{}
	for _, s := range c.Tasks {
		for _, cpu := range s.CPUs {
			cpus[cpu] = true
		}
	}
	return cpus
}

// workerClockPoll is how much CPU time worker.c's burn() runs between two
// reads of CLOCK_THREAD_CPUTIME_ID (1024 increments of a volatile counter
// and the system call): about 2.4 us on the 2-CPU VM of docs/real-kernel.md
// (83301 reads in 200 ms of thread CPU time with worker.c's loop, gcc -O2;
// the read itself about 195 ns), measured once, not fitted. The hog's loop
// reads no clock.
const workerClockPoll = 2400 * time.Nanosecond

// simTopology is the machine preset the case files run on: the 2-vCPU VM
// these cases are measured on, with its measured costs (vm-2vcpu,
// docs/costs.md). Its CPUs and caches are smp-2's; the before column's
// older simulator, which lacks the preset, runs smp-2 (beforeCaseFile).
const simTopology = "vm-2vcpu"

// Scenario JSON, fields in the order of docs/scenario-format.md.
type scenario struct {
	Version     int            `json:"version"`
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Topology    string         `json:"topology"`
	Kernel      scenarioKernel `json:"kernel"`
	Duration    string         `json:"duration"`
	Seed        int            `json:"seed"`
	Tasks       []scenarioTask `json:"tasks"`
	// Cgroups: the case's groups (omitted without any, so the flat
	// cases' files keep their bytes).
	Cgroups map[string]map[string]string `json:"cgroups,omitempty"`
}

type scenarioKernel struct {
	Version string `json:"version"`
	HZ      int    `json:"hz,omitempty"` // 0: the profile's
	Preempt string `json:"preempt"`
}

type scenarioTask struct {
	Name      string `json:"name"`
	Instances int    `json:"instances"`
	Policy    string `json:"policy"`
	Nice      int    `json:"nice"`
	Priority  int    `json:"priority,omitempty"` // SCHED_FIFO
	CPUs      []int  `json:"cpus"`
	Taskgroup string `json:"taskgroup,omitempty"`
	// CPUClockPoll: worker.c's burns read the thread CPU clock (the
	// simulator's cpu_clock_poll; workerClockPoll). Omitted for hogs.
	CPUClockPoll string `json:"cpu_clock_poll,omitempty"`
	Loop         int    `json:"loop"`
	Program      []any  `json:"program"`
}

type timerEvent struct {
	Ref    string `json:"ref"`
	Period string `json:"period"`
	Mode   string `json:"mode"`
}

// scenarioJSON renders the case as a simulator scenario on simTopology
// (so CPU numbers match this machine) with the kernel settings found here;
// v1 says which cgroup hierarchy the machine has (the scratch parent's file,
// simGroup).
func (c caseSpec) scenarioJSON(d time.Duration, hz int, preempt string, v1 bool) ([]byte, error) {
	sc := scenario{
		Version:     1,
		Name:        "realkernel/" + c.ID,
		Description: c.Description + " Generated by scripts/realkernel; compare with the real kernel.",
		Topology:    simTopology,
		Kernel:      scenarioKernel{Version: "v6.18", HZ: hz, Preempt: preempt},
		Duration:    d.String(),
		Seed:        1,
	}
	us := func(v int) string { return (time.Duration(v) * time.Microsecond).String() }
	for _, s := range c.Tasks {
		prog := []any{map[string]any{"run": -1}}
		poll := ""
		if len(s.Steps) > 0 || s.PeriodUS > 0 {
			poll = fmt.Sprintf("%gus", float64(workerClockPoll)/float64(time.Microsecond)) // burn() in worker.c
		}
		switch {
		case len(s.Steps) > 0:
			prog = nil
			for _, st := range s.Steps {
				prog = append(prog, map[string]any{"run": us(st.RunUS)}, map[string]any{"sleep": us(st.SleepUS)})
			}
		case s.PeriodUS > 0:
			prog = []any{map[string]any{"run": us(s.RunUS)},
				map[string]any{"timer": timerEvent{Ref: "t", Period: us(s.PeriodUS), Mode: "absolute"}}}
		}
		sc.Tasks = append(sc.Tasks, scenarioTask{Name: s.Name, Instances: s.Instances,
			Policy: s.Policy, Nice: s.Nice, Priority: s.RTPrio, CPUs: s.CPUs, Taskgroup: c.simGroup(s.Cgroup), CPUClockPoll: poll, Loop: -1, Program: prog})
	}
	for _, g := range c.Cgroups {
		if sc.Cgroups == nil {
			sc.Cgroups = map[string]map[string]string{}
		}
		files := g.Files
		if files == nil {
			files = map[string]string{}
		}
		sc.Cgroups[c.simGroup(g.Path)] = files
	}
	if c.mixed() && len(c.Cgroups) > 0 {
		sc.Cgroups["/"+scratchParent] = scratchParentFile(v1) // cgroups.go
	}
	b, err := json.MarshalIndent(sc, "", "  ")
	return append(b, '\n'), err
}
