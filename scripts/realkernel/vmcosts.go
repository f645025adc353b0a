//go:build linux

package main

// -vmcosts: this machine's wakeup-path costs, measured with tracefs on
// micro-workloads that do nothing but wake up, independently of the mixed
// cases whose waits they are meant to explain (docs/costs.md, "The 2-vCPU
// VM"). Each workload runs alone for -vmcosts-duration under a private
// tracefs instance (tracefs.go) with the x86-tsc trace clock, so that
// differences of a few hundred nanoseconds are resolved:
//
//	idle-timer  worker sleeper on CPU 0, nothing else there: timer wakeups
//	            onto an idle CPU (clock_nanosleep of 1, 3 and 7 ms in turn)
//	busy-timer  the same sleeper beside a hog on CPU 0: timer wakeups onto
//	            a busy CPU, the interrupt taken from the hog
//	idle-pipe   worker pipewake: a task on CPU 1 writes a pipe every 1 ms,
//	            its partner on CPU 0 answers; each byte wakes a task on the
//	            other, idle CPU (ttwu_queue_wakelist()'s IPI)
//	busy-pipe   the same with a hog on CPU 0: the wakee's CPU is busy
//	            (remote enqueue and, when it preempts, a reschedule IPI)
//
// The harness keeps to CPU 1 meanwhile. deriveCosts (vmcosts_derive.go)
// turns the events into samples; the report is each quantity's median and
// spread and the hw.* values they give. -vmcosts-trace reads existing
// captures instead (any trace clock) and reports the same quantities.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// vmcostsEvents are the events -vmcosts records.
const vmcostsEvents = "sched:sched_switch sched:sched_waking sched:sched_wakeup ipi:ipi_send_cpu " +
	"irq_vectors:local_timer_entry irq_vectors:local_timer_exit irq_vectors:reschedule_entry irq_vectors:reschedule_exit " +
	"irq_vectors:call_function_single_entry irq_vectors:call_function_single_exit " +
	"timer:hrtimer_start timer:hrtimer_expire_entry timer:hrtimer_expire_exit timer:hrtimer_cancel timer:tick_stop " +
	"power:cpu_idle msr:write_msr irq:softirq_entry irq:softirq_exit"

// vmWorkload is one micro-workload: worker processes, each with its CPU.
type vmWorkload struct {
	ID, What string
	procs    []vmProc
}

type vmProc struct {
	cpu  int
	args []string
}

func vmWorkloads() []vmWorkload {
	sleeper := vmProc{0, []string{"-n", "vmc-sleep", "sleeper", "1000", "3000", "7000"}}
	hog := vmProc{0, []string{"-n", "vmc-hog", "hog"}}
	pipe := vmProc{1, []string{"-n", "vmc-pipe", "pipewake", "1000", "1", "0"}}
	return []vmWorkload{
		{"idle-timer", "timer wakeups onto an idle CPU (sleeper on CPU 0)", []vmProc{sleeper}},
		{"busy-timer", "timer wakeups onto a busy CPU (sleeper and hog on CPU 0)", []vmProc{hog, sleeper}},
		{"idle-pipe", "pipe wakeups across CPUs onto an idle CPU (writer CPU 1, reader CPU 0)", []vmProc{pipe}},
		{"busy-pipe", "pipe wakeups across CPUs onto a busy CPU (hog on the reader's CPU 0)", []vmProc{hog, pipe}},
	}
}

// selectVMWorkloads picks the workloads named in list ("" = all).
func selectVMWorkloads(list string) ([]vmWorkload, error) {
	all := vmWorkloads()
	if list == "" {
		return all, nil
	}
	var out []vmWorkload
	for _, id := range strings.Split(list, ",") {
		i := slices.IndexFunc(all, func(w vmWorkload) bool { return w.ID == id })
		if i < 0 {
			var ids []string
			for _, w := range all {
				ids = append(ids, w.ID)
			}
			return nil, fmt.Errorf("-vmcosts-only: no micro-workload %q (have %s)", id, strings.Join(ids, ", "))
		}
		out = append(out, all[i])
	}
	return out, nil
}

// vmcostsWatched: the micro-workloads' tasks.
func vmcostsWatched(comm string) bool { return strings.HasPrefix(comm, "vmc-") && comm != "vmc-hog" }

// measureVMCosts runs the workloads, keeps each capture in traceDir (a
// temporary directory when empty) and returns the samples of all of them.
func measureVMCosts(ctx context.Context, root string, ws []vmWorkload, d time.Duration, traceDir string) (costSamples, []string, error) {
	var all costSamples
	old, err := pinSelf(maskOf([]int{1}))
	if err != nil {
		return all, nil, err
	}
	defer pinSelf(old)
	tmp, err := os.MkdirTemp("", "realkernel-vmcosts-")
	if err != nil {
		return all, nil, err
	}
	defer os.RemoveAll(tmp)
	if traceDir == "" {
		traceDir = tmp
	}
	bin, err := buildWorker(root, tmp)
	if err != nil {
		return all, nil, err
	}
	var files []string
	for _, w := range ws {
		fmt.Fprintf(os.Stderr, "vmcosts: %s for %v\n", w.ID, d)
		path := filepath.Join(traceDir, "vmcosts-"+w.ID+".txt")
		if err := runVMWorkload(ctx, bin, w, d, path); err != nil {
			return all, nil, fmt.Errorf("vmcosts %s: %v", w.ID, err)
		}
		cs, err := costsOfFile(path, vmcostsWatched)
		if err != nil {
			return all, nil, fmt.Errorf("vmcosts %s: %v", w.ID, err)
		}
		all.add(cs)
		files = append(files, path)
	}
	return all, files, nil
}

// runVMWorkload starts w's processes (each inherits its CPU from the
// harness's affinity at the fork), records d of them and stops them.
func runVMWorkload(ctx context.Context, bin string, w vmWorkload, d time.Duration, path string) error {
	var cmds []*exec.Cmd
	defer func() {
		for _, c := range cmds {
			c.Process.Kill()
			c.Wait()
		}
	}()
	for _, p := range w.procs {
		if _, err := pinSelf(maskOf([]int{p.cpu})); err != nil {
			return err
		}
		args := append([]string{"-t", fmt.Sprint(int(d.Seconds()) + 5)}, p.args...)
		c := exec.Command(bin, args...) // stdin /dev/null: starts at once
		c.Stderr = os.Stderr
		err := c.Start()
		if _, perr := pinSelf(maskOf([]int{1})); perr != nil && err == nil {
			err = perr
		}
		if err != nil {
			return err
		}
		cmds = append(cmds, c)
	}
	time.Sleep(100 * time.Millisecond) // past the start-up
	tr, err := startTraceWith(vmcostsEvents, "x86-tsc", false)
	if err != nil {
		return err
	}
	select {
	case <-ctx.Done():
		tr.remove()
		return ctx.Err()
	case <-time.After(d):
	}
	return tr.stop(path)
}

// costsOfFile parses and derives one capture.
func costsOfFile(path string, watched func(string) bool) (costSamples, error) {
	f, err := os.Open(path)
	if err != nil {
		return costSamples{}, err
	}
	defer f.Close()
	recs, _, err := parseTrace(f)
	if err != nil {
		return costSamples{}, fmt.Errorf("%s: %v", path, err)
	}
	return deriveCosts(recs, watched), nil
}

// add appends o's samples to cs.
func (cs *costSamples) add(o costSamples) {
	for _, q := range costQuantities() {
		*q.get(cs) = append(*q.get(cs), *q.get(&o)...)
	}
	cs.BusyNotAtOnce += o.BusyNotAtOnce
}

// costQuantity is one row of the report.
type costQuantity struct {
	Name, Path string
	get        func(*costSamples) *[]int64
	count      bool // a count, not a duration
}

func costQuantities() []costQuantity {
	return []costQuantity{
		{"timer slack (expires - softexpires)", "hrtimer_nanosleep(): timer_slack_ns", func(c *costSamples) *[]int64 { return &c.Slack }, false},
		{"timer interrupt after the hard expiry, idle CPU", "now= of hrtimer_interrupt() - expires", func(c *costSamples) *[]int64 { return &c.LateIdle }, false},
		{"timer interrupt after the hard expiry, busy CPU", "now= of hrtimer_interrupt() - expires", func(c *costSamples) *[]int64 { return &c.LateBusy }, false},
		{"hrtimer_expire_entry -> sched_waking", "hrtimer_wakeup()", func(c *costSamples) *[]int64 { return &c.ExpireToWaking }, false},
		{"sched_waking -> sched_wakeup", "try_to_wake_up() on the local CPU", func(c *costSamples) *[]int64 { return &c.WakingToWakeup }, false},
		{"timer interrupt with one wakeup, idle CPU (entry -> exit)", "hrtimer_interrupt(): expiry, wakeup, reprogram", func(c *costSamples) *[]int64 { return &c.IRQWakeIdle }, false},
		{"timer interrupt with one wakeup, busy CPU (entry -> exit)", "the same, time taken from the running task", func(c *costSamples) *[]int64 { return &c.IRQWakeBusy }, false},
		{"tick interrupt alone, busy CPU (entry -> exit)", "tick_nohz_handler(), reprogram", func(c *costSamples) *[]int64 { return &c.IRQTickBusy }, false},
		{"clock-event write (hrtimer event -> write_msr 6e0)", "tick_program_event() -> lapic_next_deadline()", func(c *costSamples) *[]int64 { return &c.ClockWrite }, false},
		{"interrupt exit -> sched_switch to the wakee, idle CPU, tick running", "cpuidle exit, do_idle(), schedule_idle()", func(c *costSamples) *[]int64 { return &c.ExitToSwitchIdl }, false},
		{"cpu_idle exit -> sched_switch, tick running", "do_idle() exit, schedule_idle() up to the switch", func(c *costSamples) *[]int64 { return &c.IdleExitSwitch }, false},
		{"interrupt exit -> sched_switch to the wakee, idle CPU, tick restarted", "as above with tick_nohz_idle_exit()", func(c *costSamples) *[]int64 { return &c.ExitToSwitchRst }, false},
		{"tick restart (hrtimer_cancel -> its last write_msr 6e0)", "tick_nohz_restart_sched_tick()", func(c *costSamples) *[]int64 { return &c.TickRestart }, false},
		{"TSC-deadline writes per tick restart", "", func(c *costSamples) *[]int64 { return &c.TickRestartMSR }, true},
		{"tick stop (tick_stop -> cpu_idle entering the state)", "tick_nohz_stop_tick() and the rest of the idle entry", func(c *costSamples) *[]int64 { return &c.TickStop }, false},
		{"TSC-deadline writes per tick stop", "", func(c *costSamples) *[]int64 { return &c.TickStopMSR }, true},
		{"interrupt exit -> sched_switch curr -> wakee, busy CPU", "irqentry_exit() -> schedule(): the pick", func(c *costSamples) *[]int64 { return &c.ExitToSwitchBsy }, false},
		{"sched_switch -> the woken task's first event", "context_switch(), return to user, next syscall (upper bound of the switch)", func(c *costSamples) *[]int64 { return &c.SwitchToFirst }, false},
		{"ipi_send_cpu -> the sender's ICR write done (write_msr 830)", "smp_call_function_single / smp_send_reschedule sender side", func(c *costSamples) *[]int64 { return &c.ICRWrite }, false},
		{"ICR write -> handler entry, idle target", "IPI delivery to a halted vCPU", func(c *costSamples) *[]int64 { return &c.IPIIdle }, false},
		{"ICR write -> handler entry, busy target", "IPI delivery to a running vCPU", func(c *costSamples) *[]int64 { return &c.IPIBusy }, false},
		{"ipi_send_cpu -> handler entry, idle target", "", func(c *costSamples) *[]int64 { return &c.SendToEntryIdle }, false},
		{"ipi_send_cpu -> handler entry, busy target", "", func(c *costSamples) *[]int64 { return &c.SendToEntryBusy }, false},
	}
}

// dist is a sample's summary.
type dist struct {
	N                    int
	Median, P10, P90, Mn float64
}

func summarize(v []int64) dist {
	if len(v) == 0 {
		return dist{}
	}
	s := slices.Clone(v)
	slices.Sort(s)
	q := func(p float64) float64 { return float64(s[int(p*float64(len(s)-1)+0.5)]) }
	var sum float64
	for _, x := range s {
		sum += float64(x)
	}
	return dist{N: len(s), Median: q(0.5), P10: q(0.1), P90: q(0.9), Mn: sum / float64(len(s))}
}

// costsMarkdown renders the samples as the docs/costs.md table.
func costsMarkdown(cs costSamples, title string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n| quantity | kernel path | n | median | p10-p90 | mean |\n|---|---|--:|--:|--:|--:|\n", title)
	for _, q := range costQuantities() {
		d := summarize(*q.get(&cs))
		if d.N == 0 {
			fmt.Fprintf(&b, "| %s | %s | 0 | | | |\n", q.Name, q.Path)
			continue
		}
		f := func(x float64) string { return fmt.Sprintf("%.1f us", x/1000) }
		if q.count {
			f = func(x float64) string { return fmt.Sprintf("%.1f", x) }
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s-%s | %s |\n", q.Name, q.Path, d.N, f(d.Median), f(d.P10), f(d.P90), f(d.Mn))
	}
	fmt.Fprintf(&b, "\nBusy-CPU timer wakeups whose wakee did not run at the interrupt's exit: %d (of %d)\n",
		cs.BusyNotAtOnce, cs.BusyNotAtOnce+len(cs.ExitToSwitchBsy))
	return b.String()
}

// runVMCosts is the -vmcosts / -vmcosts-trace mode of main.
func runVMCosts(measure bool, d time.Duration, traces, tasks, only, traceDir, out string) error {
	if measure == (traces != "") {
		return fmt.Errorf("give -vmcosts or -vmcosts-trace FILES, not both")
	}
	if d <= 0 {
		return fmt.Errorf("-vmcosts-duration %v: want a positive duration", d)
	}
	var b strings.Builder
	if measure {
		root, err := repoRoot()
		if err != nil {
			return err
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		sweepStale()
		ws, err := selectVMWorkloads(only)
		if err != nil {
			return err
		}
		cs, files, err := measureVMCosts(ctx, root, ws, d, traceDir)
		if err != nil {
			return err
		}
		m := gatherMachineInfo()
		fmt.Fprintf(&b, "Measured %s: Linux %s, %s, %d CPUs, HZ=%d, load average before %s; %v per workload (%s).\n\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"),
			m.Kernel, m.CPUModel, m.CPUs, m.HZ, m.LoadAvg, d, strings.Join(baseNames(files), ", "))
		var ids []string
		for _, w := range ws {
			ids = append(ids, w.ID)
		}
		b.WriteString(costsMarkdown(cs, "Micro-workloads "+strings.Join(ids, ", ")))
	} else {
		prefixes := strings.Split(tasks, ",")
		watched := func(comm string) bool {
			return slices.ContainsFunc(prefixes, func(p string) bool { return p != "" && strings.HasPrefix(comm, p) })
		}
		for _, f := range strings.Split(traces, ",") {
			cs, err := costsOfFile(f, watched)
			if err != nil {
				return err
			}
			b.WriteString(costsMarkdown(cs, f))
			b.WriteString("\n")
		}
	}
	if out == "" {
		_, err := os.Stdout.WriteString(b.String())
		return err
	}
	return writeAtomic(out, []byte(b.String()))
}

func baseNames(paths []string) []string {
	var out []string
	for _, p := range paths {
		out = append(out, filepath.Base(p))
	}
	return out
}
