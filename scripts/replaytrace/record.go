//go:build linux

package main

// Recording: a tracefs instance with the sched events the importer reads,
// the workers started, the buffer switched on after they settle and off
// after the duration, the trace text copied out.
//
// The instance is the run's own, instances/schedplay-replay-NS-PID
// (scripts/internal/scratch), so two recordings at once do not share a
// buffer; it is removed when the run ends, also on SIGINT or SIGTERM (the
// signal context of main), and a dead run's is removed when the next
// recorder starts.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"schedplay/scripts/internal/scratch"
)

const (
	tracefs = "/sys/kernel/tracing"
	// instanceBase is the instance's name before the run's suffix.
	instanceBase = "schedplay-replay"
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
	instance string // the run's tracefs instance directory
	detail   bool   // -stat-runtime: detailEvents too
}

// newRecorder mounts tracefs if needed, removes the instances of dead runs,
// creates this run's and builds worker.c.
func newRecorder(root string, detail bool) (*recorder, error) {
	if _, err := os.Stat(tracefs + "/trace"); err != nil {
		if out, err := exec.Command("mount", "-t", "tracefs", "nodev", tracefs).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("mount tracefs on %s: %v: %s (run as root)", tracefs, err, out)
		}
	}
	self := scratch.Self()
	removed, err := scratch.Sweep(filepath.Join(tracefs, "instances"), instanceBase, self, scratch.Alive, os.Remove)
	for _, p := range removed {
		fmt.Fprintf(os.Stderr, "replaytrace: removed %s, left by a dead run\n", p)
	}
	if err != nil { // not this run's instance: reported, not fatal
		fmt.Fprintf(os.Stderr, "replaytrace: %v (not used by this run)\n", err)
	}
	instance := filepath.Join(tracefs, "instances", self.Name(instanceBase))
	if err := os.Mkdir(instance, 0o755); err != nil && !os.IsExist(err) {
		return nil, fmt.Errorf("create the tracefs instance %s: %v (run as root)", instance, err)
	}
	tmp, err := os.MkdirTemp("", "replaytrace-")
	if err != nil {
		os.Remove(instance)
		return nil, err
	}
	bin := filepath.Join(tmp, "worker")
	src := filepath.Join(root, "scripts", "realkernel", "worker.c")
	if out, err := exec.Command("gcc", "-O2", "-Wall", "-o", bin, src).CombinedOutput(); err != nil {
		os.RemoveAll(tmp)
		os.Remove(instance)
		return nil, fmt.Errorf("gcc %s: %v\n%s", src, err, out)
	}
	return &recorder{tmp: tmp, bin: bin, instance: instance, detail: detail}, nil
}

func (r *recorder) close() {
	r.put("tracing_on", "0")
	os.Remove(r.instance) // rmdir of the instance frees its buffer
	os.RemoveAll(r.tmp)
}

func (r *recorder) put(file, val string) error {
	return os.WriteFile(filepath.Join(r.instance, file), []byte(val+"\n"), 0o644)
}

// record runs case c for d with tracing on and writes the trace to path;
// a cancelled ctx (SIGINT, SIGTERM) ends it early with ctx's error.
func (r *recorder) record(ctx context.Context, c caseSpec, d time.Duration, path string) error {
	bufKB, evs := "32768", events
	if r.detail {
		bufKB, evs = "65536", append(append([]string{}, events...), detailEvents...)
	}
	steps := [][2]string{{"tracing_on", "0"}, {"buffer_size_kb", bufKB}, {"trace_clock", "local"},
		{"set_event", ""}, {"trace", ""}}
	for _, s := range steps {
		if err := r.put(s[0], s[1]); err != nil {
			return fmt.Errorf("tracefs %s: %v", s[0], err)
		}
	}
	for _, ev := range evs {
		f, err := os.OpenFile(filepath.Join(r.instance, "set_event"), os.O_WRONLY|os.O_APPEND, 0)
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
	if err := sleep(ctx, settle); err != nil {
		return err
	}
	if err := r.put("tracing_on", "1"); err != nil {
		return err
	}
	if err := sleep(ctx, d); err != nil {
		return err
	}
	if err := r.put("tracing_on", "0"); err != nil {
		return err
	}
	data, err := os.ReadFile(filepath.Join(r.instance, "trace"))
	if err != nil {
		return err
	}
	return writeAtomic(path, data)
}

// sleep waits d, or returns ctx's error when ctx ends first.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
