//go:build linux

package main

// Result records (the -json file) and the Markdown report (-o).

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// results is the whole -json file.
type results struct {
	Schema  string       `json:"schema"`
	Command string       `json:"command"`
	Machine machineInfo  `json:"machine"`
	Cases   []caseResult `json:"cases"`
	Pipe    *pipeResult  `json:"pipe,omitempty"`
}

type caseResult struct {
	ID          string       `json:"id"`
	Description string       `json:"description"`
	DurationNS  int64        `json:"duration_ns"`
	CPUs        int          `json:"cpus"` // CPUs the tasks may use
	CaseFile    string       `json:"scenario"`
	Noise       noise        `json:"noise"`
	SimError    string       `json:"sim_error,omitempty"`
	Tasks       []taskResult `json:"tasks"`
}

type taskResult struct {
	Name        string   `json:"name"`
	Policy      string   `json:"policy"`
	Nice        int      `json:"nice"`
	CPUs        []int    `json:"cpus"`
	Workload    string   `json:"workload"`
	IdealPct    float64  `json:"ideal_share_pct"`
	Real        realTask `json:"real"`
	Sim         *simTask `json:"sim,omitempty"`
	SimSharePct float64  `json:"sim_share_pct,omitempty"`
}

// markdown renders the report.
func (r results) markdown() string {
	var b strings.Builder
	m := r.Machine
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("# Real kernel vs simulator\n\n")
	p("Simple workloads measured on the Linux kernel of the machine that generated this\n")
	p("report, next to the simulator's result for the same scenario. Regenerate with:\n\n")
	p("    go run ./scripts/realkernel -o docs/real-kernel.md\n\n")
	p("This report was produced by `%s`.\n\n", r.Command)
	p("| | |\n|---|---|\n")
	p("| date | %s |\n", m.Date)
	p("| kernel | %s (`%s`) |\n", m.Kernel, m.KernelBuild)
	p("| HZ | %d (tick every %v) |\n", m.HZ, tickOf(m.HZ))
	p("| preemption | %s, from %s; Kconfig: %s |\n", m.Preempt, m.PreemptSource, m.PreemptConfig)
	p("| base slice | %v (se.slice of a default task) |\n", time.Duration(m.BaseSliceNS))
	hv := ""
	if m.Hypervisor {
		hv = ", virtual machine"
	}
	p("| CPU | %s, %d CPUs%s |\n", m.CPUModel, m.CPUs, hv)
	p("| autogroup | %s (all workers share the harness's session, hence one group) |\n", m.Autogroup)
	p("| schedstats | %s |\n", m.Schedstats)
	p("| load average before | %s |\n\n", m.LoadAvg)
	p("CPU share is `se.sum_exec_runtime` gained during the run divided by wall time, in %% of\n")
	p("one CPU; switches are `nr_switches`, involuntary `nr_involuntary_switches`, migrations\n")
	p("`se.nr_migrations` (all from /proc/PID/sched, differences over the run); wait is the time\n")
	p("runnable but not running (`run_delay` of /proc/PID/schedstat; the simulator's `wait_ns`). Real numbers\n")
	p("include noise: other processes, interrupts and kernel threads also run on these CPUs,\n")
	p("and on a virtual machine time stolen by the host is not charged to any task.\n")
	p("The simulator runs `scripts/realkernel/cases/<id>.json` on topology smp-2; its column is the mean over\n")
	p("seeds 1-%d, which place the jiffies grid at different points relative to the workload's start.\n", simSeeds)
	for _, c := range r.Cases {
		c.markdown(&b, m.HZ)
	}
	if r.Pipe != nil {
		r.Pipe.markdown(&b)
	}
	return b.String()
}

func (c caseResult) markdown(b *strings.Builder, hz int) {
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	p("\n## %s\n\n%s Duration %v, scenario `%s`.\n\n", c.ID, c.Description, time.Duration(c.DurationNS), c.CaseFile)
	p("| task | real CPU share %% | sim CPU share %% | real switches | sim switches | real involuntary | sim involuntary | real migrations | sim migrations | real wait ms | sim wait ms |\n")
	p("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	na := "n/a"
	var ideal, periodic []string
	var realSum, simSw, realSw float64
	maxDiff, maxTask := 0.0, ""
	for _, t := range c.Tasks {
		d := t.Real.Delta
		simShare, simS, simI, simM, simW := na, na, na, na, na
		realW := na
		if d.RunDelayNS >= 0 {
			realW = fmt.Sprintf("%.1f", float64(d.RunDelayNS)/1e6)
		}
		if t.Sim != nil {
			simW = fmt.Sprintf("%.1f", float64(t.Sim.WaitNS)/1e6)
			simShare = fmt.Sprintf("%.1f", t.SimSharePct)
			simS, simI, simM = fmt.Sprint(t.Sim.Switches), fmt.Sprint(t.Sim.InvoluntarySwitches), fmt.Sprint(t.Sim.Migrations)
			simSw += float64(t.Sim.Switches)
			if diff := math.Abs(t.SimSharePct - t.Real.SharePct); diff >= maxDiff {
				maxDiff, maxTask = diff, t.Name
			}
		}
		realSw += float64(d.Switches)
		realSum += t.Real.SharePct
		p("| %s | %.1f | %s | %d | %s | %d | %s | %d | %s | %s | %s |\n", t.Name, t.Real.SharePct, simShare,
			d.Switches, simS, d.Involuntary, simI, d.Migrations, simM, realW, simW)
		ideal = append(ideal, fmt.Sprintf("%s %.1f %%", t.Name, t.IdealPct))
		if d.Voluntary > 0 && strings.HasPrefix(t.Workload, "periodic") {
			periodic = append(periodic, fmt.Sprintf("%s used %v of CPU per sleep (the run time plus the sleep/wakeup path)",
				t.Name, time.Duration(d.SumExecNS/d.Voluntary).Round(time.Microsecond)))
		}
	}
	secs := max(float64(c.Tasks[0].Real.ElapsedNS)/1e9, 1e-9)
	p("\nIdeal (weight-fair) shares: %s. Real: the tasks got %.1f %% of the %d CPU(s) they may use; %.0f switches/s in total (HZ=%d gives %d ticks/s per CPU).\n",
		strings.Join(ideal, ", "), realSum/float64(c.CPUs), c.CPUs, realSw/secs, hz, hz)
	if len(periodic) > 0 {
		p("Real: %s.\n", strings.Join(periodic, "; "))
	}
	p("\nNoise: %d context switches machine-wide during the run, %d of them by these tasks; %d ms of steal time on their CPUs.\n",
		c.Noise.MachineSwitches, c.Noise.TaskSwitches, c.Noise.StealMS)
	if c.SimError != "" {
		p("\nAgreement: sim not available (%s).\n", strings.ReplaceAll(c.SimError, "\n", " / "))
		return
	}
	ratio := "n/a (no real switches)"
	if realSw > 0 {
		ratio = fmt.Sprintf("%.2f", simSw/realSw)
	}
	p("\nAgreement: max CPU share difference %.1f pp (%s); switch count ratio sim/real %s (sim %.0f, real %.0f).\n",
		maxDiff, maxTask, ratio, simSw, realSw)
}

func tickOf(hz int) time.Duration {
	if hz <= 0 {
		return 0
	}
	return time.Second / time.Duration(hz)
}
