package sched

// Script commands for util_est (testdata/mp/util_est_*.txt): each task's
// util_avg and estimate, each CPU's util_avg, util_est sum and cpu_util(),
// and each LLC's SIS_UTIL scan budget.

import (
	"fmt"
	"strings"
)

func init() {
	scriptCommands["util"] = cmdUtil
	scriptCommands["idle-scan"] = cmdIdleScan
}

// util prints, per task, util_avg, the util_est estimate
// (_task_util_est()) and task_util_est(); per CPU, util_avg, the root
// cfs_rq's util_est sum and cpu_util_cfs().
func cmdUtil(e *scriptEnv) string {
	r := e.run()
	var b strings.Builder
	for i := range r.NumTasks() {
		t := r.tasks[i]
		fmt.Fprintf(&b, "%s util_avg=%d util_est=%d task_util_est=%d\n", r.name(TaskID(i)),
			t.se.avg.utilAvg, r.taskUtilEstRaw(t), r.taskUtilEst(t))
	}
	for c := range r.rqs {
		fmt.Fprintf(&b, "cpu%d util_avg=%d util_est=%d cpu_util=%d\n", c,
			r.rqs[c].cfs.avg.utilAvg, r.rqs[c].cfs.avg.ue.enqueued, r.cpuUtil(CPUID(c), nil, -1, false))
	}
	return b.String()
}

// idle-scan prints sd_llc_shared->nr_idle_scan of each LLC (by its first
// CPU), as update_idle_cpu_scan() last set it.
func cmdIdleScan(e *scriptEnv) string {
	r := e.run()
	var b strings.Builder
	seen := map[*sdShared]bool{}
	for c := range r.topo {
		sh := r.topo[c].sdLLCShared
		if sh == nil || seen[sh] {
			continue
		}
		seen[sh] = true
		fmt.Fprintf(&b, "llc cpu%d nr_idle_scan=%d\n", c, sh.nrIdleScan)
	}
	return b.String()
}
