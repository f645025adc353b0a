//go:build linux

package main

// Switches from the idle task, per CPU. On this machine (a Firecracker
// guest on 6.18, docs/replay-fidelity.md) CPU 1 never shows one: no
// sched_switch from swapper/1 and no cpu_idle of CPU 1, while its idle
// task's interrupt-context events (a sched_wakeup from the IPI handler)
// and every event of CPU 0 are there. A fresh tracefs instance with only
// sched_switch and sched_wakeup and the top-level buffer show the same,
// with no events dropped (per_cpu/cpu1/stats), so it is the kernel's, not
// this recorder's setup (instance, per-CPU buffers, start order) or the
// workload's pinning. The importer adds each missing switch at the first
// line of any kind the woken task prints there (an interrupt entry, a
// sched_stat_runtime, a sched_waking it makes: core/ftraceimport
// columns.go, resolve.go missedSwitch()); the report says where a CPU has
// switches to idle and none from it, and how many switches were added.

import (
	"bufio"
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// idleCount is one CPU's switches to and from its idle task.
type idleCount struct {
	ToIdle   int `json:"to_idle"`
	FromIdle int `json:"from_idle"`
}

// idleSwitches counts the sched_switch lines to and from pid 0 per CPU
// column of a trace's text.
func idleSwitches(data []byte) map[int]idleCount {
	out := map[int]idleCount{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		i := strings.Index(line, " sched_switch: ")
		if i < 0 {
			continue
		}
		lb := strings.LastIndex(line[:i], "[")
		rb := strings.LastIndex(line[:i], "]")
		if lb < 0 || rb < lb {
			continue
		}
		cpu, err := strconv.Atoi(line[lb+1 : rb])
		if err != nil {
			continue
		}
		body := line[i:]
		c := out[cpu]
		if strings.Contains(body, " prev_pid=0 ") {
			c.FromIdle++
		}
		if strings.Contains(body, " next_pid=0 ") || strings.HasSuffix(body, " next_pid=0") {
			c.ToIdle++
		}
		out[cpu] = c
	}
	return out
}

// silentIdleCPUs lists the CPUs with switches to idle and none from it.
func silentIdleCPUs(m map[int]idleCount) []int {
	var out []int
	for cpu, c := range m {
		if c.ToIdle > 0 && c.FromIdle == 0 {
			out = append(out, cpu)
		}
	}
	slices.Sort(out)
	return out
}
