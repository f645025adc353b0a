//go:build linux

package main

// Running one case on the real kernel: start the workers, give them their affinity,
// policy and nice while they sleep, read baseline counters, release them all at
// once, wait, read the counters again, kill them. Results are the differences.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

const (
	schedOther = 0 // SCHED_NORMAL
	schedFIFO  = 1
	schedIdle  = 5
)

// cpuMask is a cpu_set_t for up to 1024 CPUs.
type cpuMask [16]uint64

func maskOf(cpus []int) cpuMask {
	var m cpuMask
	for _, c := range cpus {
		m[c/64] |= 1 << (c % 64)
	}
	return m
}

func setAffinity(tid int, m cpuMask) error {
	_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, uintptr(tid), unsafe.Sizeof(m), uintptr(unsafe.Pointer(&m)))
	if e != 0 {
		return fmt.Errorf("sched_setaffinity(%d): %v", tid, e)
	}
	return nil
}

func getAffinity(tid int) (cpuMask, error) {
	var m cpuMask
	_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, uintptr(tid), unsafe.Sizeof(m), uintptr(unsafe.Pointer(&m)))
	if e != 0 {
		return m, fmt.Errorf("sched_getaffinity(%d): %v", tid, e)
	}
	return m, nil
}

// setPolicy is sched_setscheduler(pid, policy, {prio}) (what chrt does;
// SCHED_FIFO needs root or CAP_SYS_NICE).
func setPolicy(pid, policy, prio int) error {
	param := struct{ prio int32 }{int32(prio)}
	_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETSCHEDULER, uintptr(pid), uintptr(policy), uintptr(unsafe.Pointer(&param)))
	if e != 0 {
		return fmt.Errorf("sched_setscheduler(%d, %d): %v", pid, policy, e)
	}
	return nil
}

// pinSelf sets the affinity of every thread of this process (threads created
// later inherit it) and returns the previous mask. The harness keeps off CPU 1
// while measuring so that its own wakeups do not disturb the pinned cases.
func pinSelf(m cpuMask) (cpuMask, error) {
	old, err := getAffinity(0)
	if err != nil {
		return old, err
	}
	tids, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return old, err
	}
	for _, t := range tids {
		tid, _ := strconv.Atoi(t.Name())
		if err := setAffinity(tid, m); err != nil {
			return old, err
		}
	}
	return old, nil
}

// buildWorker compiles worker.c into dir and returns the binary's path.
func buildWorker(root, dir string) (string, error) {
	bin := filepath.Join(dir, "worker")
	src := filepath.Join(root, "scripts", "realkernel", "worker.c")
	out, err := exec.Command("gcc", "-O2", "-Wall", "-o", bin, src).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("gcc %s: %v\n%s", src, err, out)
	}
	return bin, nil
}

// worker is one running worker process and its handshake pipes.
type worker struct {
	task  task
	cmd   *exec.Cmd
	stdin *os.File // write end; closing it starts the workload
	ready *os.File // read end of the worker's stdout
}

func startWorker(bin string, t task, lifetime time.Duration) (*worker, error) {
	args := append([]string{"-n", t.Name, "-t", strconv.Itoa(int(lifetime.Seconds()) + 1)}, t.Spec.workerArgs()...)
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, os.Stderr
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	return &worker{task: t, cmd: cmd, stdin: inW, ready: outR}, nil
}

// awaitAsleep waits for the worker's "r" and then until it sleeps in read().
func (w *worker) awaitAsleep() error {
	w.ready.SetReadDeadline(time.Now().Add(5 * time.Second))
	var b [1]byte
	if _, err := w.ready.Read(b[:]); err != nil {
		return fmt.Errorf("%s: no handshake: %v", w.task.Name, err)
	}
	for range 1000 {
		var c schedCounters
		s, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", w.cmd.Process.Pid))
		if err == nil && parseStat(string(s), &c) == nil && c.ProcessorState == "S" {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return fmt.Errorf("%s: did not go to sleep", w.task.Name)
}

// configure applies affinity, policy and nice to the sleeping worker, wakes it once
// so it moves to an allowed CPU before the baseline, and checks the result.
func (w *worker) configure() error {
	pid, s := w.cmd.Process.Pid, w.task.Spec
	if err := setAffinity(pid, maskOf(s.CPUs)); err != nil {
		return err
	}
	policy := schedOther
	switch s.Policy {
	case "SCHED_IDLE":
		policy = schedIdle
	case "SCHED_FIFO":
		policy = schedFIFO
	}
	if err := setPolicy(pid, policy, s.RTPrio); err != nil {
		return err
	}
	if policy != schedFIFO {
		if err := syscall.Setpriority(syscall.PRIO_PROCESS, pid, s.Nice); err != nil {
			return fmt.Errorf("setpriority(%d, %d): %v", pid, s.Nice, err)
		}
	}
	if _, err := w.stdin.Write([]byte{'x'}); err != nil {
		return err
	}
	if err := w.awaitAsleep(); err != nil {
		return err
	}
	got, err := getAffinity(pid)
	if err != nil {
		return err
	}
	c, err := readCounters(pid)
	if err != nil {
		return err
	}
	if got != maskOf(s.CPUs) || c.Policy != policy || c.Nice != s.Nice {
		return fmt.Errorf("%s: settings did not stick (policy %d nice %d)", w.task.Name, c.Policy, c.Nice)
	}
	return nil
}

func (w *worker) kill() {
	w.cmd.Process.Kill()
	w.cmd.Wait()
	w.stdin.Close()
	w.ready.Close()
}

// realTask is the measured result of one task.
type realTask struct {
	ElapsedNS int64         `json:"elapsed_ns"` // wall time from release to snapshot
	SharePct  float64       `json:"share_pct"`  // sum_exec_runtime / elapsed, % of one CPU
	Delta     schedCounters `json:"delta"`      // counters over the measurement
}

// noise is what else happened on the machine during a case.
type noise struct {
	MachineSwitches int64 `json:"machine_switches"` // /proc/stat ctxt delta, all CPUs
	TaskSwitches    int64 `json:"task_switches"`    // nr_switches of the case's tasks
	StealMS         int64 `json:"steal_ms"`         // steal time on the case's CPUs
}

// measureCase runs c for d and returns one realTask per task, in c.tasks()
// order, and for a case with cgroups each group's cpu.stat over the run.
// rec says what else to record of the run (tracefs.go, debugfs.go).
func measureCase(ctx context.Context, bin string, c caseSpec, d time.Duration, rec record) (_ []realTask, nz noise, stats []cpuStat, _ error) {
	var ws []*worker
	var cs *cgroupSet
	if len(c.Cgroups) > 0 {
		var err error
		if cs, err = setupCgroups(c); err != nil { // cgroups.go
			return nil, nz, nil, err
		}
	}
	defer func() {
		for _, w := range ws {
			w.kill()
		}
		if cs != nil {
			cs.remove()
		}
	}()
	for _, t := range c.tasks() {
		w, err := startWorker(bin, t, d+30*time.Second)
		if err != nil {
			return nil, nz, nil, err
		}
		ws = append(ws, w)
		if err := w.awaitAsleep(); err != nil {
			return nil, nz, nil, err
		}
		if cs != nil && t.Spec.Cgroup != "" {
			if err := cs.attach(w.cmd.Process.Pid, t.Spec.Cgroup); err != nil {
				return nil, nz, nil, err
			}
		}
		if err := w.configure(); err != nil {
			return nil, nz, nil, err
		}
	}
	time.Sleep(5 * time.Millisecond) // let the last switch-out complete
	snapshot := func() ([]schedCounters, error) {
		out := make([]schedCounters, len(ws))
		for i, w := range ws {
			var err error
			if out[i], err = readCounters(w.cmd.Process.Pid); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	statBefore, err := readProcStat()
	if err != nil {
		return nil, nz, nil, err
	}
	base, err := snapshot()
	if err != nil {
		return nil, nz, nil, err
	}
	var cgBase []cpuStat
	if cs != nil {
		if cgBase, err = cs.snapshot(); err != nil {
			return nil, nz, nil, err
		}
	}
	if rec.debugDir != "" {
		// No garbage collection while SCHED_FIFO and sampling: with every
		// thread FIFO on CPU 0, a collection started by the sampler's
		// allocations livelocked the harness (a thread spinning in the
		// runtime's scheduler while the collection waited for another).
		// Deferred before fifoSelf, so restored after it.
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
	}
	if c.mixed() {
		// After the workers were forked and configured: they must not
		// inherit the policy.
		restore, err := fifoSelf()
		if err != nil {
			return nil, nz, nil, fmt.Errorf("harness to SCHED_FIFO: %v", err)
		}
		defer restore()
	}
	var tr *traceSession
	if rec.traceDir != "" {
		if tr, err = startTrace(rec.traceSoftirq); err != nil {
			return nil, nz, nil, err
		}
		defer tr.remove()
	}
	t0 := time.Now()
	var ds *debugSampler
	if rec.debugDir != "" {
		if ds, err = startDebugSampler(rec.debugDir, c.ID, rec.debugEvery, t0, cs); err != nil {
			return nil, nz, nil, err
		}
		defer func() {
			if ds != nil {
				ds.finish()
			}
		}()
	}
	for _, w := range ws {
		w.stdin.Close() // EOF: start
	}
	select {
	case <-ctx.Done():
		return nil, nz, nil, ctx.Err()
	case <-time.After(d):
	}
	elapsed := time.Since(t0)
	after, err := snapshot()
	if err != nil {
		return nil, nz, nil, err
	}
	if ds != nil {
		err := ds.finish()
		ds = nil
		if err != nil {
			return nil, nz, nil, err
		}
	}
	if tr != nil {
		if err := tr.stop(filepath.Join(rec.traceDir, c.ID+".real.txt")); err != nil {
			return nil, nz, nil, fmt.Errorf("-trace: %v", err)
		}
	}
	if cs != nil {
		cgAfter, err := cs.snapshot()
		if err != nil {
			return nil, nz, nil, err
		}
		for i := range cgAfter {
			stats = append(stats, cgAfter[i].sub(cgBase[i]))
		}
	}
	statAfter, err := readProcStat()
	if err != nil {
		return nil, nz, nil, err
	}
	nz.MachineSwitches = statAfter.Ctxt - statBefore.Ctxt
	for cpu := range c.cpuSet() {
		nz.StealMS += (statAfter.StealTicks[cpu] - statBefore.StealTicks[cpu]) * 10 // USER_HZ = 100
	}
	res := make([]realTask, len(ws))
	for i := range ws {
		delta := after[i].sub(base[i])
		res[i] = realTask{ElapsedNS: elapsed.Nanoseconds(), Delta: delta,
			SharePct: 100 * float64(delta.SumExecNS) / float64(elapsed.Nanoseconds())}
		nz.TaskSwitches += delta.Switches
	}
	return res, nz, stats, nil
}

// fifoSelf makes every thread of this process SCHED_FIFO at priority 1
// (threads created later inherit it) and returns the function that puts
// them back to SCHED_OTHER. A mix in the heavy scratch cgroup would
// otherwise starve the harness on CPU 0 (the root group's weight is
// 1024 against 262144), so its timer fired tens of seconds late and the
// run lasted that much longer than -duration.
func fifoSelf() (func(), error) {
	set := func(policy, prio int) error {
		tids, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return err
		}
		for _, t := range tids {
			tid, _ := strconv.Atoi(t.Name())
			if err := setPolicy(tid, policy, prio); err != nil {
				return err
			}
		}
		return nil
	}
	if err := set(schedFIFO, 1); err != nil {
		set(schedOther, 0)
		return nil, err
	}
	return func() { set(schedOther, 0) }, nil
}
