//go:build linux

package main

// The runnable tasks of each CPU as a trace shows them, for -passes and
// -replay-passes (passes.go, passes_replay.go): a wakeup makes a task
// runnable on its target CPU, a switch-out in a state other than R ends
// it, a migration moves it. The tracker also keeps a continuous PELT of
// each CPU's RT running time, the utilisation scale_rt_capacity() takes
// off the CPU's capacity.

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// rtHalfLife is PELT's: the RT utilisation decays by half in 32 ms.
const rtHalfLife = 32e6

// cpuState is one CPU at an instant: its runnable tasks.
type cpuState struct {
	mix, other int // runnable mix tasks, runnable other tasks
}

// rqTracker follows the runnable tasks of CPUs 0 and 1.
type rqTracker struct {
	prefixes []string
	tasks    map[int64]*trackedTask
	rtU      [2]float64
	rtSince  [2]int64
	rtOn     [2]bool
}

type trackedTask struct {
	comm     string
	cpu      int
	runnable bool
	mix      bool
}

func newRQTracker(prefixes []string) *rqTracker {
	return &rqTracker{prefixes: prefixes, tasks: map[int64]*trackedTask{}}
}

func (k *rqTracker) get(pid int64, comm string) *trackedTask {
	t := k.tasks[pid]
	if t == nil {
		t = &trackedTask{comm: comm, cpu: -1, mix: isMixTask(comm, k.prefixes)}
		k.tasks[pid] = t
	}
	return t
}

// apply updates the state with one record.
func (k *rqTracker) apply(r traceRec) error {
	switch r.Event {
	case "sched_wakeup", "sched_wakeup_new":
		pid, ok := r.intField("pid")
		cpu, ok2 := r.intField("target_cpu")
		if !ok || !ok2 {
			return fmt.Errorf("%s at %.6f: want pid= and target_cpu=", r.Event, float64(r.TS)/1e9)
		}
		t := k.get(pid, r.field("comm"))
		t.cpu, t.runnable = int(cpu), true
	case "sched_migrate_task":
		pid, ok := r.intField("pid")
		cpu, ok2 := r.intField("dest_cpu")
		if !ok || !ok2 {
			return fmt.Errorf("sched_migrate_task at %.6f: want pid= and dest_cpu=", float64(r.TS)/1e9)
		}
		k.get(pid, r.field("comm")).cpu = int(cpu)
	case "sched_switch":
		prev, ok := r.intField("prev_pid")
		next, ok2 := r.intField("next_pid")
		if !ok || !ok2 {
			return fmt.Errorf("sched_switch at %.6f: want prev_pid= and next_pid=", float64(r.TS)/1e9)
		}
		if prev != 0 {
			t := k.get(prev, r.field("prev_comm"))
			t.cpu = r.CPU
			t.runnable = strings.HasPrefix(r.field("prev_state"), "R")
		}
		if next != 0 {
			t := k.get(next, r.field("next_comm"))
			t.cpu, t.runnable = r.CPU, true
		}
		if r.CPU >= 0 && r.CPU <= 1 {
			k.rtUtil(r.CPU, r.TS)
			prio, _ := r.intField("next_prio")
			k.rtOn[r.CPU] = next != 0 && prio < 100
		}
	}
	return nil
}

// counts returns the runnable tasks per CPU now.
func (k *rqTracker) counts() [2]cpuState {
	var st [2]cpuState
	for _, t := range k.tasks {
		if !t.runnable || t.cpu < 0 || t.cpu > 1 {
			continue
		}
		if t.mix {
			st[t.cpu].mix++
		} else {
			st[t.cpu].other++
		}
	}
	return st
}

// rtUtil brings CPU c's RT utilisation to now and returns it (0-1024).
func (k *rqTracker) rtUtil(c int, now int64) float64 {
	y := math.Exp2(-float64(now-k.rtSince[c]) / rtHalfLife)
	k.rtU[c] *= y
	if k.rtOn[c] {
		k.rtU[c] += 1024 * (1 - y)
	}
	k.rtSince[c] = now
	return k.rtU[c]
}

// placement names where the mix tasks are, by their names without the
// instance suffix: "hog+periodic / hog+rsa+rsb", the two CPUs' lists in
// sorted order (so hog-0 and hog-1 swapping CPUs is the same placement).
func (k *rqTracker) placement() string {
	var on [2][]string
	for _, t := range k.tasks {
		if t.mix && t.cpu >= 0 && t.cpu <= 1 {
			name := t.comm
			if i := strings.LastIndexByte(name, '-'); i > 0 {
				name = name[:i]
			}
			on[t.cpu] = append(on[t.cpu], name)
		}
	}
	sides := make([]string, 2)
	for c := range on {
		sort.Strings(on[c])
		sides[c] = strings.Join(on[c], "+")
	}
	sort.Strings(sides)
	return sides[0] + " / " + sides[1]
}
