package sched

// Script commands for task groups (cgroup*.go): cgroup definitions, a
// task's cgroup and its moves, cpu.stat.

import (
	"fmt"
	"strconv"
	"strings"
)

// cgroup path=/A [parent=/P] [shares=N] [max=QUOTA/PERIOD] [burst=D]
// [idle=1] [cpus=2,3] [partition=root|isolated] [rt=RUNTIME/PERIOD] defines a cgroup (shares is
// tg->shares before scale_load(), 1024 by default; max as cpu.max).
func cmdCgroup(e *scriptEnv) string {
	b := e.builder()
	path, ok := e.arg("path")
	if !ok {
		e.t.Fatalf("%s:%d: cgroup: missing path=", e.path, e.d.line)
	}
	parent := ""
	if v, ok := e.arg("parent"); ok {
		parent = v
	}
	b.cgroup(path, parent, uint64(e.intArg("shares", 1024)))
	c := &b.cgroups[len(b.cgroups)-1]
	if v, ok := e.arg("max"); ok {
		qp := strings.Split(v, "/")
		if len(qp) != 2 {
			e.t.Fatalf("%s:%d: cgroup max=%s: want QUOTA/PERIOD", e.path, e.d.line, v)
		}
		c.Quota, c.Period = e.parseDur(qp[0]), e.parseDur(qp[1])
	}
	if v, ok := e.arg("rt"); ok { // cpu.rt_runtime_us / cpu.rt_period_us
		rp := strings.Split(v, "/")
		if len(rp) != 2 {
			e.t.Fatalf("%s:%d: cgroup rt=%s: want RUNTIME/PERIOD", e.path, e.d.line, v)
		}
		c.RTRuntime, c.RTPeriod = e.parseDur(rp[0]), e.parseDur(rp[1])
	}
	if d, ok := e.durArg("burst"); ok {
		c.Burst = d
	}
	c.Idle = e.intArg("idle", 0) == 1
	if v, ok := e.arg("cpus"); ok {
		for _, x := range strings.Split(v, ",") {
			n, err := strconv.Atoi(x)
			if err != nil {
				e.t.Fatal(err)
			}
			c.CPUs = append(c.CPUs, n)
		}
	}
	if v, ok := e.arg("partition"); ok {
		c.Partition = v
	}
	return ""
}

// cpustat path=/A prints the cgroup's cpu.stat now.
func cmdCpustat(e *scriptEnv) string {
	r := e.run()
	path, _ := e.arg("path")
	k := e.b.cgroupID(path)
	st := r.CgroupStat(k)
	return fmt.Sprintf("usage %s user %s system %s\nnr_periods %d nr_throttled %d throttled %s\nnr_bursts %d burst %s\n",
		fmtMs(Time(st.UsageNs)), fmtMs(Time(st.UserNs)), fmtMs(Time(st.SystemNs)),
		st.NrPeriods, st.NrThrottled, fmtMs(Time(st.ThrottledNs)), st.NrBursts, fmtMs(Time(st.BurstNs)))
}

// pelt task=NAME | cgroup=/A cpu=N [of=entity] | cpu=N prints the load,
// runnable and util averages of a task, of a cgroup's cfs_rq (or its group
// entity) on a CPU, or of a CPU's root cfs_rq, as of their last update,
// with that update's clock_pelt.
func cmdPelt(e *scriptEnv) string {
	r := e.run()
	var p PELT
	cpu := e.intArg("cpu", 0)
	if name, ok := e.arg("task"); ok {
		p = r.TaskPELT(r.id(name))
	} else if path, ok := e.arg("cgroup"); ok {
		tg := r.tgs[e.b.cgroupID(path)]
		p = tg.cfs[cpu].avg.snapshot()
		if of, _ := e.arg("of"); of == "entity" {
			p = tg.se[cpu].se.avg.snapshot()
		}
	} else {
		p = r.rqs[cpu].cfs.avg.snapshot()
	}
	return fmt.Sprintf("load %d runnable %d util %d at %s\n", p.LoadAvg, p.RunnableAvg, p.UtilAvg, fmtMs(Time(p.LastUpdate)))
}

// build-error builds the run and prints the error New returns (the run is
// not started; "ok" when there is none).
func cmdBuildError(e *scriptEnv) string {
	if _, err := New(e.builder().config()); err != nil {
		return err.Error() + "\n"
	}
	return "ok\n"
}

// affinity prints each task's allowed CPUs (cpus_ptr).
func cmdAffinity(e *scriptEnv) string {
	r := e.run()
	var b strings.Builder
	for i := range r.NumTasks() {
		fmt.Fprintf(&b, "%s %s\n", r.name(TaskID(i)), r.tasks[i].affinity.format(len(r.rqs)))
	}
	return b.String()
}
