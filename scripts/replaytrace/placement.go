//go:build linux

package main

// Wakeup placement, trace against replay. A wakee whose previous CPU runs
// another task while another CPU is idle is where the traced kernel and
// the model can part: v6.18's select_task_rq_fair() ->
// select_idle_sibling() (kernel/sched/fair.c) takes the idle CPU of the
// same LLC, while the guest this was recorded on kept such wakeups on the
// busy CPU (its cmdline's non-mainline sched_vcpu_pack=, docs/
// replay-fidelity.md). A task kept there waits for, or preempts, the
// CPU's task: switches the replay, which moves it, does not make. This
// counts, per workload comm, the wakeups that found their previous CPU
// busy and another idle, and how many of them the wakee's target CPU
// (sched_wakeup's target_cpu; the simulator's EvWakeup CPU) kept on the
// busy CPU, over the same event stream read from the trace and from the
// replay's run.

import (
	"fmt"
	"slices"
	"strings"

	"schedplay/core/sched"
)

// placeCount is one comm's wakeups that found their previous CPU busy and
// another CPU idle; Stayed of them went to the busy CPU, Moved to an idle
// one (the rest to another busy CPU).
type placeCount struct {
	Found  int `json:"found_other_idle"`
	Stayed int `json:"stayed_busy"`
	Moved  int `json:"moved_idle"`
}

// placement is a sink counting the wakeups of the tasks of interest.
type placement struct {
	comm    func(sched.TaskID) string // the task's comm, "" = not counted
	running []sched.TaskID            // per CPU
	last    map[sched.TaskID]int      // the CPU each task last ran on
	counts  map[string]placeCount
}

func newPlacement(ncpu int, comm func(sched.TaskID) string) *placement {
	p := &placement{comm: comm, running: make([]sched.TaskID, ncpu), last: map[sched.TaskID]int{}, counts: map[string]placeCount{}}
	for i := range p.running {
		p.running[i] = sched.NoTask
	}
	return p
}

func (p *placement) Event(e *sched.Event) {
	cpu := int(e.CPU)
	if cpu < 0 || cpu >= len(p.running) {
		return
	}
	switch e.Kind {
	case sched.EvSwitch:
		p.running[cpu] = e.Next
		if e.Next != sched.NoTask {
			p.last[e.Next] = cpu
		}
	case sched.EvWakeup:
		prev, ok := p.last[e.Next]
		if !ok || e.Next == sched.NoTask || p.running[prev] == sched.NoTask || p.running[prev] == e.Next {
			return
		}
		name := p.comm(e.Next)
		if name == "" || !slices.Contains(p.running, sched.NoTask) {
			return
		}
		c := p.counts[name]
		c.Found++
		switch {
		case cpu == prev:
			c.Stayed++
		case p.running[cpu] == sched.NoTask:
			c.Moved++
		}
		p.counts[name] = c
	}
}

// placementLine is the report's line for a case: per comm, trace | replay.
func placementLine(trace, replay map[string]placeCount) string {
	comms := sortedKeys(trace)
	for _, c := range sortedKeys(replay) {
		if trace[c] == (placeCount{}) {
			comms = append(comms, c)
		}
	}
	slices.Sort(comms)
	var ps []string
	for _, c := range comms {
		t, r := trace[c], replay[c]
		if t.Found == 0 && r.Found == 0 {
			continue
		}
		ps = append(ps, c+" "+placeText(t)+" | "+placeText(r))
	}
	if len(ps) == 0 {
		return ""
	}
	return "Placement (wakeups that found the wakee's previous CPU busy and another idle, trace | replay; " +
		"scripts/replaytrace/placement.go): " + strings.Join(ps, "; ") + "."
}

func placeText(c placeCount) string {
	return fmt.Sprintf("%d (%d kept on the busy CPU, %d moved to the idle one)", c.Found, c.Stayed, c.Moved)
}

// placementWhy explains a switch miss by placement: the comms the trace
// kept on their busy CPU at most of the wakeups that found another idle,
// where the replay moved most of them.
func (c *caseResult) placementWhy() string {
	var ps []string
	for _, comm := range sortedKeys(c.TracePlacement) {
		t, r := c.TracePlacement[comm], c.ReplayPlacement[comm]
		if t.Found >= 20 && 2*t.Stayed > t.Found && 2*r.Moved > r.Found {
			ps = append(ps, fmt.Sprintf("%s: %d of %d kept on the busy CPU in the trace, %d of %d moved to the idle one in the replay",
				comm, t.Stayed, t.Found, r.Moved, r.Found))
		}
	}
	if len(ps) == 0 {
		return ""
	}
	s := "Placement (counts above): at the wakeups that found the wakee's previous CPU busy and another CPU idle, the traced " +
		"kernel kept the wakee on the busy CPU, where v6.18's select_idle_sibling(), which the replay runs, takes the idle one (" +
		strings.Join(ps, "; ") + "). Kept there, the wakee preempts or waits for the task running on that CPU, a switch " +
		"of that task the replay does not make; the model is not tuned to keep them (the kernel row above names the " +
		"recording's sched parameters, where it noted them)."
	return s
}
