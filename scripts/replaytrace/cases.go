//go:build linux

package main

// The recorded workloads: the real-kernel cases of scripts/realkernel
// (docs/real-kernel.md) run by its worker.c, plus a mix of run/sleep
// tasks.

import (
	"fmt"

	"schedplay/scripts/internal/caselist"
)

// worker is one process of a case: worker.c's arguments, its comm, and
// how it is started (taskset CPU list, nice, SCHED_FIFO priority).
type worker struct {
	Comm  string
	Args  []string // worker.c mode and its arguments
	CPUs  string   // taskset -c list, "" = all CPUs
	Nice  int
	RTPri int // chrt -f priority, 0 = SCHED_OTHER
}

// caseSpec is one recorded workload.
type caseSpec struct {
	ID, Description string
	Workers         []worker
	// Affinity of the workload's comms in the replay (taskset is not in
	// the trace); a nil list: the CPUs each task was seen on.
	Affinity map[string][]int
	// Short cases trace a sixth of -duration (a ping-pong writes a few
	// hundred thousand lines a second).
	Short bool
}

func hog(comm, cpus string, nice int) worker {
	return worker{Comm: comm, Args: []string{"hog"}, CPUs: cpus, Nice: nice}
}

func periodic(comm, cpus string, runUS, periodUS int) worker {
	return worker{Comm: comm, Args: []string{"periodic", fmt.Sprint(runUS), fmt.Sprint(periodUS)}, CPUs: cpus}
}

func allCases() []caseSpec {
	cpu1 := []int{1}
	return []caseSpec{
		{ID: "nice0-vs-nice5", Description: "Two CPU hogs pinned to CPU 1, nice 0 and nice 5.",
			Workers:  []worker{hog("nice0", "1", 0), hog("nice5", "1", 5)},
			Affinity: map[string][]int{"nice0": cpu1, "nice5": cpu1}},
		{ID: "periodic-vs-hog", Description: "A periodic task (1 ms of CPU every 10 ms, absolute timer) and a nice-0 hog pinned to CPU 1.",
			Workers:  []worker{periodic("periodic", "1", 1000, 10000), hog("hog", "1", 0)},
			Affinity: map[string][]int{"periodic": cpu1, "hog": cpu1}},
		{ID: "three-hogs-two-cpus", Description: "Three nice-0 hogs allowed on both CPUs.",
			Workers: []worker{hog("hog0", "", 0), hog("hog1", "", 0), hog("hog2", "", 0)}},
		{ID: "pipe-pingpong-cross", Description: "perf bench sched pipe's ping-pong (worker.c pipe mode): two processes pass a byte through two pipes, one pinned to CPU 0, one to CPU 1.",
			Workers:  []worker{{Comm: "worker", Args: []string{"pipe", "100000000", "0", "1"}}},
			Affinity: map[string][]int{"worker": nil}, Short: true},
		{ID: "pipe-pingpong-pinned", Description: "The same ping-pong with both processes pinned to CPU 1.",
			Workers:  []worker{{Comm: "worker", Args: []string{"pipe", "100000000", "1", "1"}}},
			Affinity: map[string][]int{"worker": cpu1}, Short: true},
		{ID: "mixed-run-sleep", Description: "Three periodic tasks on both CPUs: 2 ms every 5 ms, 0.5 ms every 3 ms, 3 ms every 20 ms.",
			Workers: []worker{periodic("mixA", "", 2000, 5000), periodic("mixB", "", 500, 3000), periodic("mixC", "", 3000, 20000)}},
	}
}

// comms is the set of the case's workload comms.
func (c *caseSpec) comms() map[string]bool {
	m := map[string]bool{}
	for _, w := range c.Workers {
		m[w.Comm] = true
	}
	return m
}

// freeComms is the comms free to run on every CPU: not taskset, no
// replay affinity (the pipe workers pin themselves).
func (c *caseSpec) freeComms() map[string]bool {
	m := map[string]bool{}
	for _, w := range c.Workers {
		if _, pinned := c.Affinity[w.Comm]; w.CPUs == "" && !pinned {
			m[w.Comm] = true
		}
	}
	return m
}

func selectCases(list string) ([]caseSpec, error) {
	return caselist.Select(allCases(), func(c caseSpec) string { return c.ID }, list)
}
