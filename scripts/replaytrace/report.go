//go:build linux

package main

// The report: per case the workload's tasks, the trace beside the replay,
// each target met or missed.

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"schedplay/core/replay"
)

type report struct {
	Schema     string       `json:"schema"`
	Command    string       `json:"command"`
	Date       string       `json:"date"`
	LoadBefore string       `json:"loadavg_before,omitempty"`
	Machine    machineInfo  `json:"machine"`
	Cases      []caseResult `json:"cases"`
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
	fmt.Fprintf(&b, "| | |\n|---|---|\n| recorded | %s |\n| kernel | %s, HZ=%d, preempt %s |\n| CPU | %s, %d CPUs |\n",
		r.Date, r.Machine.Kernel, r.Machine.HZ, r.Machine.Preempt, r.Machine.CPU, r.Machine.CPUs)
	if r.LoadBefore != "" {
		fmt.Fprintf(&b, "| load average before | %s |\n", r.LoadBefore)
	}
	b.WriteString("\nRecorded once on a machine shared with other work: everything else that ran is in the traces " +
		"and is replayed with the workload (the *other tasks* line of each case). A quiet machine gives cleaner numbers.\n\n")
	fmt.Fprintf(&b, "Targets: CPU share (%% of one CPU) within %.0f points of the trace; switch counts within %d %%; "+
		"wakeup-latency median within a factor of %.0f where the trace has at least %d wakeups. CPU share and switches are "+
		"the metrics of `schedplay trace-metrics` on the trace and of the replay's run.\n\n",
		replay.ShareTolPoints, replay.SwitchTolPct, replay.LatencyFactor, replay.LatencyMinWakes)
	for _, c := range r.Cases {
		fmt.Fprintf(&b, "## %s\n\n%s Traced %.3f s: %d lines, %d sched events, %d tasks, %d warnings. Replayed on %s, %s; score %.1f/100 over all tasks.\n\n",
			c.ID, c.Description, float64(c.DurationNs)/1e9, c.Lines, c.Events, c.Tasks, c.Warnings, c.Topology, c.Kernel, c.Score)
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
		if len(c.Rows) == 0 {
			b.WriteString("**miss**: the workload's tasks are not in the trace.\n\n")
		} else if len(misses) > 0 {
			fmt.Fprintf(&b, "**Misses** (%s): %s\n\n", strings.Join(misses, ", "), why(c.ID))
		} else {
			b.WriteString("Every target met.\n\n")
		}
	}
	return b.String()
}

// why says what is known to keep a case from its targets; it is printed
// only for a case that misses one.
func why(id string) string {
	common := "Switch counts follow the model's preemption (v6.18 EEVDF slices and wakeup preemption on the replayed load), " +
		"while each task keeps its traced CPU time: on this shared machine the workload's tasks were preempted far more often " +
		"by short wakeups of other tasks than the model preempts them."
	switch id {
	case "pipe-pingpong-pinned":
		return "The replay blocks less often: the partner's signal is counted, so a wait that comes after its signal passes " +
			"without a switch, and within a round trip of a few microseconds which comes first follows the model's wakeup " +
			"preemption, not the recorded kernel's (about half the trace's switches are involuntary). " + common
	case "pipe-pingpong-cross":
		return "The wakeup latency across CPUs is the simulated machine's IPI and idle-exit cost (smp-2's `hw.*` defaults, " +
			"docs/costs.md, about 1 us), this virtual machine's is several microseconds; the chain itself (switches, wakeups) is kept. " + common
	}
	return common
}
