//go:build linux

package main

// The report: per case the workload's tasks, the trace beside the replay,
// each target met or missed.

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"schedplay/core/quote"
	"schedplay/core/replay"
)

type report struct {
	Schema     string `json:"schema"`
	Command    string `json:"command"`
	Date       string `json:"date"`
	LoadBefore string `json:"loadavg_before,omitempty"`
	// TraceKernel is uname -r when the traces were recorded ("" for a
	// recording that did not note it), SchedCmdline the sched*
	// parameters of its command line (main.go recording).
	TraceKernel  string       `json:"trace_kernel,omitempty"`
	SchedCmdline []string     `json:"sched_cmdline,omitempty"`
	Machine      machineInfo  `json:"machine"`
	Cases        []caseResult `json:"cases"`
}

func (r *report) json() ([]byte, error) {
	r.Schema = "schedplay.replayfidelity/v1"
	b, err := json.MarshalIndent(r, "", "  ")
	return append(b, '\n'), err
}

func yes(ok bool) string {
	if ok {
		return "ok"
	}
	return "**miss**"
}

func (r *report) markdown() string {
	var b strings.Builder
	b.WriteString("# Trace replay on this machine\n\n")
	b.WriteString("Known workloads traced on this machine's kernel with tracefs, their workload inferred from the trace alone " +
		"(core/replay) and rerun by the simulator on the matching profile and topology; the trace's own figures beside the " +
		"replay's, per task. Regenerate with `make replay-fidelity` (as root: it records new traces) or `" + r.Command + "`.\n\n")
	fmt.Fprintf(&b, "| | |\n|---|---|\n| recorded | %s |\n| kernel | %s |\n| CPU | %s, %d CPUs |\n",
		r.Date, r.kernelRow(), r.Machine.CPU, r.Machine.CPUs)
	if r.LoadBefore != "" {
		fmt.Fprintf(&b, "| load average before | %s |\n", r.LoadBefore)
	}
	if len(r.Cases) > 0 {
		fmt.Fprintf(&b, "| replayed on | %s (%s) |\n", r.Cases[0].Topology, r.Cases[0].TopologyWhy)
	}
	b.WriteString("\nRecorded once: whatever else ran on the machine is in the traces and is replayed with the " +
		"workload (the *other tasks* line of each case). A quiet machine gives cleaner numbers; a loaded one (see the load " +
		"average) gives the workload's tasks a fraction of the CPU they ask for, and wakeups that meet busy CPUs.\n\n")
	b.WriteString(method)
	fmt.Fprintf(&b, "Targets: CPU share (%% of one CPU) within %.0f points of the trace; switch counts within %d %%; "+
		"wakeup-latency median within a factor of %.0f where the trace has at least %d wakeups. CPU share and switches are "+
		"the metrics of `schedplay trace-metrics` on the trace and of the replay's run.\n\n",
		replay.ShareTolPoints, replay.SwitchTolPct, replay.LatencyFactor, replay.LatencyMinWakes)
	for _, c := range r.Cases {
		fmt.Fprintf(&b, "## %s\n\n%s Traced %.3f s: %d lines, %d sched events, %d tasks, %d warnings.", c.ID, c.Description,
			float64(c.DurationNs)/1e9, c.Lines, c.Events, c.Tasks, c.Warnings)
		if c.SpanNs > 0 {
			fmt.Fprintf(&b, " Replayed its first %.3f s: %s, so the harness replays nine tenths of that (the %d sched events after it are left out; both columns are the span's).",
				float64(c.SpanNs)/1e9, c.Bound, c.Lost)
		}
		fmt.Fprintf(&b, " Replayed on %s (%s), %s; score %.1f/100 over all tasks.\n\n", c.Topology, c.TopologyWhy, c.Kernel, c.Score)
		if len(c.Periods) > 0 {
			var ps []string
			for g, p := range c.Periods {
				ps = append(ps, fmt.Sprintf("%s %d us", g, p))
			}
			sort.Strings(ps)
			fmt.Fprintf(&b, "Periodic timers found: %s.\n\n", strings.Join(ps, ", "))
		}
		b.WriteString("| task | trace CPU % | replay CPU % | share | trace switches | replay switches | switches | trace wakeups | replay wakeups | trace lat p50 us | replay lat p50 us | latency |\n")
		b.WriteString("|---|--:|--:|---|--:|--:|---|--:|--:|--:|--:|---|\n")
		var misses []string
		for _, row := range c.Rows {
			lat := "n/a (< 100 wakeups)"
			if row.LatencyOK != nil {
				lat = yes(*row.LatencyOK)
			}
			fmt.Fprintf(&b, "| %s | %.1f | %.1f | %s | %d | %d | %s | %d | %d | %.1f | %.1f | %s |\n", row.Group,
				row.Trace.Share, row.Replay.Share, yes(row.ShareOK), row.Trace.Switches, row.Replay.Switches, yes(row.SwitchOK),
				row.Trace.Wakeups, row.Replay.Wakeups, float64(row.Trace.LatP50Ns)/1e3, float64(row.Replay.LatP50Ns)/1e3, lat)
			if !row.ShareOK || !row.SwitchOK || (row.LatencyOK != nil && !*row.LatencyOK) {
				misses = append(misses, row.Group)
			}
		}
		fmt.Fprintf(&b, "\nOther tasks: %d, %.1f ms of CPU in the trace, %.1f ms in the replay.\n\n", c.Other.Tasks,
			float64(c.Other.TraceRuntimeNs)/1e6, float64(c.Other.ReplayRuntimeNs)/1e6)
		b.WriteString(c.inferred())
		if l := placementLine(c.TracePlacement, c.ReplayPlacement); l != "" {
			b.WriteString(l + "\n\n")
		}
		if len(c.Rows) == 0 {
			b.WriteString("**miss**: the workload's tasks are not in the trace.\n\n")
		} else if len(misses) > 0 {
			fmt.Fprintf(&b, "**Misses** (%s): %s\n\n", strings.Join(misses, ", "), c.why())
		} else {
			b.WriteString("Every target met.\n\n")
		}
	}
	return b.String()
}

// kernelRow names the kernel the traces were recorded on and where HZ
// and the preemption model come from (docs/real-kernel.json, measured by
// scripts/realkernel on the kernel it names).
func (r *report) kernelRow() string {
	hz := fmt.Sprintf("HZ=%d, preempt %s", r.Machine.HZ, r.Machine.Preempt)
	var s string
	tk := quote.Clip(r.TraceKernel) // recorded.json's, read back
	switch {
	case r.TraceKernel == "":
		s = fmt.Sprintf("%s, %s (real-kernel.json's; the recording did not note its kernel)", r.Machine.Kernel, hz)
	case r.TraceKernel == r.Machine.Kernel:
		s = fmt.Sprintf("%s, %s", tk, hz)
	default:
		s = fmt.Sprintf("%s at the recording; %s as real-kernel.json found them on %s", tk, hz, r.Machine.Kernel)
	}
	if len(r.SchedCmdline) > 0 {
		s += "; command line " + quoteAll(r.SchedCmdline)
	}
	return s
}

func quoteAll(ss []string) string {
	var q []string
	for _, s := range ss[:min(len(ss), 16)] {
		q = append(q, "`"+strings.ReplaceAll(quote.Clip(s), "`", "'")+"`")
	}
	return strings.Join(q, " ")
}

// method says how the replay is built, for every case alike.
const method = "How each trace is replayed, the same way for every case (core/replay, docs/cli.md): the workload is inferred " +
	"from the sched events alone; the replay charges no modelled context-switch or pick cost (`hw.ctx_switch_ns` and " +
	"`hw.pick_ns` are 0: the trace's CPU time of a task is its sum_exec_runtime and already holds the switches it paid); " +
	"the replay runs on the preset of the machine the traces were recorded on: `vm-2vcpu` on this 2-vCPU guest (its idle " +
	"states POLL and haltpoll's HLT, whose exit latency is the halted vCPU's measured delay, and its measured costs, " +
	"docs/costs.md; scripts/replaytrace/machine.go), `smp-N` elsewhere; " +
	"when the trace has at least 20 wakeups of a task onto an idle CPU by a task running on another CPU, their median " +
	"waking-to-switch-in time (from the waker's sched_waking) is the machine's cost of that path; where at least 20 of them " +
	"went through the target's wake list (sched_wakeup printed by the target's IPI handler after the idle exit, " +
	"ttwu_queue_wakelist() and sched_ttwu_pending()), the path is fitted in its two parts, each to its own median: " +
	"sched_waking to sched_wakeup (the IPI and the idle state's exit latency) sets the replay's `hw.ipi_latency_ns`, and " +
	"sched_wakeup to switch-in (the rest of the handler, the idle exit with the tick's restart, schedule_idle()) its " +
	"`hw.idle_exit_ns`, each less what the simulated path spends there without it (measured by a two-CPU ping-pong probe " +
	"on the replay's machine and profile, core/replay/costs.go); otherwise the whole path sets `hw.idle_exit_ns`. A wakeup " +
	"whose switch-in the importer added (scripts/replaytrace/idleswitch.go) is left out of these samples: its time is the " +
	"woken task's first line, not the switch. Where the remote wakeups do not fit it, at least 20 wakeups of a task by " +
	"an interrupt on its own idle CPU (a timer: hrtimer_wakeup() in the idle task's interrupt, then do_idle()'s exit and " +
	"schedule_idle()) set `hw.idle_exit_ns` to their median sched_wakeup-to-switch-in time less the simulated path's " +
	"without it (a probe of a task woken by its own timer on an idle CPU of the replay's machine and profile, idle as long " +
	"as the trace's CPUs were before those wakeups: core/replay/costs_timer.go). Likewise " +
	"the median of at least 20 remote wakeups that preempted the task running on the target CPU at once becomes the " +
	"replay's `hw.ipi_latency_ns` (the simulated path of such a wakeup), before the idle path's fit; the median of at least 20 wakeups by an interrupt " +
	"on the wakee's own CPU that preempted the task running there at once (a timer: hrtimer_interrupt(), its return, " +
	"__schedule()) becomes the replay's `hw.timer_irq_ns`, the time such an interrupt takes from the running task before " +
	"the preemption (core/sched/timer_irq.go); the replay's HZ is the trace's tick spacing where it shows one " +
	"(core/replay/hz.go); and a " +
	"task preempted by the task it had just woken, resumed when that task blocked, where that task's traced wakeups " +
	"answered at least half of the first one's requests, " +
	"is given the reply the trace cannot show (a pipe read that found its data: core/replay/hidden.go). " +
	"A wakeup whose sched_wakeup the wakee's CPU printed after the waker had blocked (the wake list's IPI) is still the " +
	"waker's signal, at its sched_waking (core/replay/queued.go). " +
	"The traces also record the interrupt entries (irq_vectors, irq_handler_entry): a preemption with no interrupt entry and " +
	"no wakeup made on its CPU in the 20 us before it is a *self-preemption*, need_resched set by the task's own system call " +
	"(scripts/replaytrace/selfpreempt.go). " +
	"From the same entries the inference finds the tasks that read their CPU clock (core/replay/selfpoll.go): counting " +
	"only the causes since the task was switched in, a task with at least 3 " +
	"self-preemptions making at least a quarter of its preemptions is given `cpu_clock_poll` " +
	"1 us (the self-preemptions show that it polls, not how often; that is the trace's timestamp " +
	"precision), or, where the trace has sched_stat_runtime (recorded with -stat-runtime), the median interval of the " +
	"task's updates that only a read of its clock explains, for a task whose reads span at least half its CPU time; " +
	"a trace without timer interrupt entries or sched_stat_runtime gives no task the key. " +
	"For the workload's tasks free to run on every CPU, the *Placement* line counts the wakeups that found the wakee's " +
	"previous CPU running another task and another CPU idle, and how many the trace's target_cpu and the replay's " +
	"select_task_rq() kept on the busy CPU or moved to the idle one (scripts/replaytrace/placement.go): a kernel that " +
	"keeps them where the replay moves them makes switches the replay does not.\n\n"

// inferred lists what the inference found in the case's trace.
func (c *caseResult) inferred() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Inferred: HZ %d from %s", c.HZ, c.HZFrom)
	if c.HZTicks > 0 {
		fmt.Fprintf(&b, " (%d tick intervals)", c.HZTicks)
	}
	fmt.Fprintf(&b, "; %d hidden replies; %d remote wakeups of idle CPUs", c.HiddenReplies, c.IdleWakes)
	if c.IdleWakes > 0 {
		fmt.Fprintf(&b, ", median %.1f us", float64(c.IdleWakeP50Ns)/1e3)
	}
	split := c.QueuedWakes >= replay.MinCostSamples && c.IdleWakes >= replay.MinCostSamples
	switch {
	case split:
		fmt.Fprintf(&b, ", %d of them through the wake list: sched_waking to sched_wakeup %.1f us, sched_wakeup to switch-in %.1f us",
			c.QueuedWakes, float64(c.QueuedWakingNs)/1e3, float64(c.QueuedSwitchNs)/1e3)
		if c.BusyWakes < replay.MinCostSamples && c.IPILatencyNs != "" {
			fmt.Fprintf(&b, " (replay's hw.ipi_latency_ns %s, hw.idle_exit_ns %s)", c.IPILatencyNs, c.IdleExitNs)
		} else {
			fmt.Fprintf(&b, " (replay's hw.idle_exit_ns %s; the IPI latency the preset's or the busy wakeups')", c.IdleExitNs)
		}
	case c.IdleExitNs != "" && c.IdleWakes >= replay.MinCostSamples:
		fmt.Fprintf(&b, " (replay's hw.idle_exit_ns %s)", c.IdleExitNs)
	default:
		fmt.Fprintf(&b, " (fewer than %d: not fitted from them)", replay.MinCostSamples)
	}
	fmt.Fprintf(&b, "; %d wakeups by an interrupt on the wakee's own idle CPU (a timer)", c.OwnIdleWakes)
	if c.OwnIdleWakes > 0 {
		fmt.Fprintf(&b, ", median %.1f us from sched_wakeup to switch-in after %.1f ms idle", float64(c.OwnIdleWakeP50Ns)/1e3, float64(c.OwnIdleGapP50Ns)/1e6)
	}
	switch {
	case c.OwnIdleWakes < replay.MinCostSamples:
		fmt.Fprintf(&b, " (fewer than %d: not fitted)", replay.MinCostSamples)
	case c.IdleWakes >= replay.MinCostSamples:
		b.WriteString(" (the remote wakeups' fit kept)")
	case c.IdleExitNs != "":
		fmt.Fprintf(&b, " (replay's hw.idle_exit_ns %s)", c.IdleExitNs)
	}
	if c.SkippedSamples > 0 {
		fmt.Fprintf(&b, "; %d wakeups left out of the cost samples (their switch-in added by the importer)", c.SkippedSamples)
	}
	fmt.Fprintf(&b, "; %d remote wakeups preempting a busy CPU's task", c.BusyWakes)
	if c.BusyWakes > 0 {
		fmt.Fprintf(&b, ", median %.1f us", float64(c.BusyWakeP50Ns)/1e3)
	}
	if c.IPILatencyNs != "" && c.BusyWakes >= replay.MinCostSamples {
		fmt.Fprintf(&b, " (replay's hw.ipi_latency_ns %s)", c.IPILatencyNs)
	} else {
		fmt.Fprintf(&b, " (fewer than %d: the preset's)", replay.MinCostSamples)
	}
	fmt.Fprintf(&b, "; %d wakeups by an interrupt on the wakee's own busy CPU, preempting its task", c.IRQWakes)
	if c.IRQWakes > 0 {
		fmt.Fprintf(&b, ", median %.1f us", float64(c.IRQWakeP50Ns)/1e3)
	}
	if c.TimerIRQNs != "" {
		fmt.Fprintf(&b, " (replay's hw.timer_irq_ns %s)", c.TimerIRQNs)
	} else {
		fmt.Fprintf(&b, " (fewer than %d: not charged)", replay.MinCostSamples)
	}
	b.WriteString(".")
	if c.Preempt != nil {
		var ps []string
		for _, comm := range sortedKeys(c.Preempt) {
			p := c.Preempt[comm]
			ps = append(ps, fmt.Sprintf("%s %d of %d", comm, p.Self, p.Preemptions))
		}
		fmt.Fprintf(&b, " Self-preemptions of the workload's tasks: %s.", strings.Join(ps, ", "))
	}
	switch {
	case !c.ClockEvidence:
		b.WriteString(" The trace has no timer interrupt entries: which tasks read their CPU clock cannot be inferred, and no task is given cpu_clock_poll.")
	case len(c.ClockPollNs) == 0:
		b.WriteString(" No task's self-preemptions infer a CPU clock reader.")
	default:
		var ps []string
		for _, g := range sortedKeys(c.ClockPollNs) {
			ps = append(ps, fmt.Sprintf("%s %.1f us", g, float64(c.ClockPollNs[g])/1e3))
		}
		fmt.Fprintf(&b, " Inferred to read their CPU clock (cpu_clock_poll): %s", strings.Join(ps, ", "))
		if len(c.ClockPollTraced) > 0 {
			fmt.Fprintf(&b, " (the intervals of %s from the trace's sched_stat_runtime, the tracer's cost included).", strings.Join(c.ClockPollTraced, ", "))
		} else {
			b.WriteString(" (a default: the trace has no sched_stat_runtime to show how often they read).")
		}
	}
	if cpus := silentIdleCPUs(c.IdleSwitches); len(cpus) > 0 {
		var ps []string
		for _, cpu := range cpus {
			ps = append(ps, fmt.Sprintf("CPU %d (%d switches to idle)", cpu, c.IdleSwitches[cpu].ToIdle))
		}
		fmt.Fprintf(&b, " No switch from idle on %s: this kernel records none of the idle task's own events there "+
			"(scripts/replaytrace/idleswitch.go); the importer added %d missed switches, each at the woken task's first "+
			"line of any kind, so the trace's CPU time of a task woken there is short, and its wakeup latency long, by the time "+
			"before that line.", strings.Join(ps, ", "), c.MissedSwitches)
		if c.MissedAtSwitchOut > 0 {
			fmt.Fprintf(&b, " %d of them are at the task's own switch out (no line of it before: that run has no CPU time in "+
				"the trace); a recording with -stat-runtime has the task's sched_stat_runtime lines within microseconds of "+
				"its switch-in.", c.MissedAtSwitchOut)
		}
	}
	b.WriteString("\n\n")
	return b.String()
}

// polled reports whether the replay gave a task of one of comms its
// cpu_clock_poll.
func (c *caseResult) polled(comms []string) bool {
	for _, r := range c.Rows {
		if slices.Contains(comms, r.Comm) && c.ClockPollNs[r.Group] > 0 {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// selfPreempting lists the comms at least a quarter of whose preemptions
// are self-preemptions (the hogs, which make no system call, have a few
// percent: interrupts that left no entry within the window).
func (c *caseResult) selfPreempting() []string {
	var out []string
	for _, comm := range sortedKeys(c.Preempt) {
		if p := c.Preempt[comm]; p.Preemptions >= 20 && 4*p.Self >= p.Preemptions {
			out = append(out, comm)
		}
	}
	return out
}

// why says what is known to keep a case from its targets, from what the
// rows and the trace show; it is printed only for a case that misses one.
func (c *caseResult) why() string {
	var out []string
	var sw, lat, share bool
	for _, r := range c.Rows {
		sw = sw || !r.SwitchOK
		lat = lat || (r.LatencyOK != nil && !*r.LatencyOK)
		share = share || !r.ShareOK
	}
	if sw {
		if self := c.selfPreempting(); len(self) > 0 && c.polled(self) {
			out = append(out, fmt.Sprintf("Switches: many preemptions of %s are self-preemptions (counts above): worker.c's CPU burn polls "+
				"clock_gettime(CLOCK_THREAD_CPUTIME_ID), whose task_sched_runtime() runs update_curr() and ends the slice "+
				"between ticks. The replay reads the clock at the inferred interval (cpu_clock_poll: the trace's where it has "+
				"sched_stat_runtime, else a default), and the slices end where the replayed load puts them.", strings.Join(self, ", ")))
		} else if len(self) > 0 {
			out = append(out, fmt.Sprintf("Switches: many preemptions of %s are self-preemptions (counts above): worker.c's CPU burn polls "+
				"clock_gettime(CLOCK_THREAD_CPUTIME_ID), whose task_sched_runtime() runs update_curr() and ends the slice "+
				"between ticks. The trace shows that the task polls, not how often, and the replayed run step does not poll, so "+
				"the replay preempts these tasks at ticks only.", strings.Join(self, ", ")))
		} else if c.Preempt == nil {
			out = append(out, "Switches: the trace has no interrupt entries, so whether the missing preemptions were the "+
				"tasks' own (a polling system call) or other tasks' wakeups cannot be told.")
		}
		if p := c.placementWhy(); p != "" {
			out = append(out, p)
		}
		out = append(out, "Switch counts follow the model's preemption (v6.18 EEVDF slices and wakeup preemption on the "+
			"replayed load), while each task keeps its traced CPU time: the other tasks of a shared machine preempt the "+
			"workload at their own wakeups, which the replay moves.")
	}
	if lat {
		if c.IdleWakes < replay.MinCostSamples && c.BusyWakes < replay.MinCostSamples && c.OwnIdleWakes < replay.MinCostSamples {
			out = append(out, fmt.Sprintf("Latency: the trace has %d remote wakeups of idle CPUs and %d of busy ones, too "+
				"few to estimate the machine's wakeup cost, so the replay charges the preset's.", c.IdleWakes, c.BusyWakes))
		}
		if c.IdleWakes >= replay.MinCostSamples && c.QueuedWakes < replay.MinCostSamples {
			out = append(out, "Latency: the trace's remote wakeups of idle CPUs did not go through the wake list (or too "+
				"few did), so the replay fits their whole sched_waking-to-switch-in path to `hw.idle_exit_ns`, after "+
				"the simulator's sched_wakeup: a kernel whose wakeup line comes later holds less of it in its latency.")
		}
		if (c.QueuedWakes >= replay.MinCostSamples || c.OwnIdleWakes >= replay.MinCostSamples) && len(silentIdleCPUs(c.IdleSwitches)) > 0 {
			out = append(out, "Latency: a task woken on a CPU whose switches from idle are missing (above) has a trace "+
				"latency long by the time before its first line (a trace without sched_stat_runtime may show none before "+
				"the task's switch out); the replay's is the machine's, fitted to the other CPU's real switches.")
		}
		if c.TimerIRQNs == "" {
			out = append(out, fmt.Sprintf("Latency: a wakeup by an interrupt on the task's own busy CPU (a timer) costs "+
				"nothing in the replay: the trace has %d such wakeups that preempted at once, too few to set hw.timer_irq_ns.", c.IRQWakes))
		}
		idle := "the preset's idle exit"
		if c.IdleWakes >= replay.MinCostSamples {
			idle = "the idle exit fitted to the remote wakeups"
		} else if c.OwnIdleWakes >= replay.MinCostSamples {
			idle = "the idle exit fitted to the trace's timer wakeups of idle CPUs (one median for every task)"
		}
		out = append(out, "Latency: a wakeup that waits behind other runnable tasks follows the model's preemption on the "+
			"replayed load, and a timer wakeup of an idle CPU pays "+idle+".")
	}
	if share {
		if m := c.migrationsWhy(); m != "" {
			out = append(out, m)
		}
		out = append(out, "CPU share: each task keeps its CPU time, but the other tasks of the shared machine, allowed "+
			"on every CPU, are placed by the model's balancer, which can put them on the workload's CPU where the traced "+
			"kernel kept them elsewhere: the workload's tasks then get less of the trace's span.")
	}
	return strings.Join(out, " ")
}

// migrationsWhy names the share-missing tasks whose migrations differ
// between the trace and the replay by more than half of the larger count
// (at least 4): with more runnable tasks than CPUs, which task keeps a CPU
// to itself is decided by the few balance passes that move one.
func (c *caseResult) migrationsWhy() string {
	var ms []string
	for _, r := range c.Rows {
		t, p := r.Trace.Migrations, r.Replay.Migrations
		if r.ShareOK || max(t, p) < 4 || 2*abs64(t-p) <= max(t, p) {
			continue
		}
		ms = append(ms, fmt.Sprintf("%s %d in the trace, %d in the replay", r.Comm, t, p))
	}
	if len(ms) == 0 {
		return ""
	}
	return "Migrations differ (" + strings.Join(ms, "; ") + "): where more tasks are runnable than there are CPUs, " +
		"which task keeps a CPU to itself, and so its share, is decided by the few balance passes that move one " +
		"(load_balance() with its cache-hot test, task_hot(), and nr_balance_failed); the replay's passes moved other " +
		"tasks than the traced kernel's."
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
