//go:build linux

package main

// Recording: a tracefs instance with the sched events the importer reads,
// the workers started, the buffer switched on after they settle and off
// after the duration, the trace text copied out.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

const (
	tracefs  = "/sys/kernel/tracing"
	instance = tracefs + "/instances/schedplay-replay"
	// settle is how long the workers run before tracing starts, so the
	// trace begins mid-run as a user's capture does.
	settle = 300 * time.Millisecond
)

var events = []string{"sched:sched_switch", "sched:sched_waking", "sched:sched_wakeup", "sched:sched_wakeup_new",
	"sched:sched_migrate_task", "sched:sched_process_fork", "sched:sched_process_exit",
	// The interrupt entries (the importer skips them): a preemption with
	// none on its CPU just before it came from the task's own system
	// call (selfpreempt.go).
	"irq_vectors:local_timer_entry", "irq_vectors:reschedule_entry", "irq_vectors:call_function_entry",
	"irq_vectors:call_function_single_entry", "irq_vectors:irq_work_entry", "irq:irq_handler_entry"}

// detailEvents are added with -stat-runtime: every update_curr() of the
// running task (sched_stat_runtime: a clock-reading task's reads, so the
// replay takes its polling interval from the trace, core/replay
// selfpoll.go) and the timer interrupt's exit and hrtimer expiries (how
// long the interrupt takes from the task it interrupts, core/sched
// timer_irq.go). A task polling its clock every few microseconds prints
// one event per read: the buffer is doubled, and the reads cost the
// tracepoint's time, which the report's intervals include.
var detailEvents = []string{"sched:sched_stat_runtime", "irq_vectors:local_timer_exit",
	"timer:hrtimer_expire_entry", "timer:hrtimer_expire_exit"}

type recorder struct {
	tmp, bin string
	detail   bool // -stat-runtime: detailEvents too
}

// newRecorder mounts tracefs if needed, creates the instance and builds
// worker.c.
func newRecorder(root string, detail bool) (*recorder, error) {
	if _, err := os.Stat(tracefs + "/trace"); err != nil {
		if out, err := exec.Command("mount", "-t", "tracefs", "nodev", tracefs).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("mount tracefs on %s: %v: %s (run as root)", tracefs, err, out)
		}
	}
	if err := os.Mkdir(instance, 0o755); err != nil && !os.IsExist(err) {
		return nil, fmt.Errorf("create the tracefs instance %s: %v (run as root)", instance, err)
	}
	tmp, err := os.MkdirTemp("", "replaytrace-")
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(tmp, "worker")
	src := filepath.Join(root, "scripts", "realkernel", "worker.c")
	if out, err := exec.Command("gcc", "-O2", "-Wall", "-o", bin, src).CombinedOutput(); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("gcc %s: %v\n%s", src, err, out)
	}
	return &recorder{tmp: tmp, bin: bin, detail: detail}, nil
}

func (r *recorder) close() {
	put("tracing_on", "0")
	os.Remove(instance) // rmdir of the instance frees its buffer
	os.RemoveAll(r.tmp)
}

func put(file, val string) error {
	return os.WriteFile(filepath.Join(instance, file), []byte(val+"\n"), 0o644)
}

// record runs case c for d with tracing on and writes the trace to path.
func (r *recorder) record(c caseSpec, d time.Duration, path string) error {
	bufKB, evs := "32768", events
	if r.detail {
		bufKB, evs = "65536", append(append([]string{}, events...), detailEvents...)
	}
	steps := [][2]string{{"tracing_on", "0"}, {"buffer_size_kb", bufKB}, {"trace_clock", "local"},
		{"set_event", ""}, {"trace", ""}}
	for _, s := range steps {
		if err := put(s[0], s[1]); err != nil {
			return fmt.Errorf("tracefs %s: %v", s[0], err)
		}
	}
	for _, ev := range evs {
		f, err := os.OpenFile(filepath.Join(instance, "set_event"), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return err
		}
		_, err = f.WriteString(ev + "\n")
		f.Close()
		if err != nil {
			return fmt.Errorf("enable %s: %v", ev, err)
		}
	}
	var procs []*exec.Cmd
	defer func() {
		for _, p := range procs {
			syscall.Kill(-p.Process.Pid, syscall.SIGKILL)
			p.Wait()
		}
	}()
	lifetime := strconv.Itoa(int((d+settle)/time.Second) + 30)
	for _, w := range c.Workers {
		var argv []string
		if w.CPUs != "" {
			argv = append(argv, "taskset", "-c", w.CPUs)
		}
		if w.RTPri > 0 {
			argv = append(argv, "chrt", "-f", strconv.Itoa(w.RTPri))
		}
		if w.Nice != 0 {
			argv = append(argv, "nice", "-n", strconv.Itoa(w.Nice))
		}
		argv = append(argv, r.bin, "-t", lifetime)
		if w.Args[0] != "pipe" {
			argv = append(argv, "-n", w.Comm)
		}
		argv = append(argv, w.Args...)
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("start %v: %v", argv, err)
		}
		procs = append(procs, cmd)
	}
	time.Sleep(settle)
	if err := put("tracing_on", "1"); err != nil {
		return err
	}
	time.Sleep(d)
	if err := put("tracing_on", "0"); err != nil {
		return err
	}
	data, err := os.ReadFile(filepath.Join(instance, "trace"))
	if err != nil {
		return err
	}
	return writeAtomic(path, data)
}
