//go:build linux

package main

// Spreads for the mixed cases (mixed.go): several real runs and the
// simulator's seeds each give one value per task and quantity; the table
// shows their mean and their range (min-max).
//
// Wait per slice is the time runnable but not running divided by the number
// of times the task got a CPU. On the real side that is run_delay / pcount
// of /proc/PID/schedstat (sched_info_arrive() adds the delay and counts the
// arrival, kernel/sched/stats.h); the simulator's metrics have no arrival
// count, so its side is wait_ns / switches (every arrival but a run's last
// ends in a switch-out, so the two differ by at most one per task).

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// spread is the mean and range of one quantity over runs or seeds.
type spread struct {
	Mean float64 `json:"mean"`
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
	N    int     `json:"n"`
}

// spreadOf summarises vals; NaN values (a quantity a run could not give)
// are left out, and no values give N = 0.
func spreadOf(vals []float64) spread {
	s := spread{Min: math.Inf(1), Max: math.Inf(-1)}
	for _, v := range vals {
		if math.IsNaN(v) {
			continue
		}
		s.Mean += v
		s.Min, s.Max = min(s.Min, v), max(s.Max, v)
		s.N++
	}
	if s.N == 0 {
		return spread{}
	}
	s.Mean /= float64(s.N)
	return s
}

// cell renders a spread as "mean (min-max)" with the given decimals, or
// the mean alone for a single value, or "n/a".
func (s spread) cell(decimals int) string {
	if s.N == 0 {
		return "n/a"
	}
	f := func(v float64) string { return fmt.Sprintf("%.*f", decimals, v) }
	if s.N == 1 {
		return f(s.Mean)
	}
	return f(s.Mean) + " (" + f(s.Min) + "-" + f(s.Max) + ")"
}

// perSliceUS is wait / slices in microseconds, NaN without slices.
func perSliceUS(waitNS, slices int64) float64 {
	if slices <= 0 || waitNS < 0 {
		return math.NaN()
	}
	return float64(waitNS) / float64(slices) / 1e3
}

// taskSpreads are a task's quantities over real runs or simulator seeds.
type taskSpreads struct {
	SharePct    spread `json:"share_pct"`
	WaitSliceUS spread `json:"wait_per_slice_us"`
	Migrations  spread `json:"migrations"`
	Switches    spread `json:"switches"`
	Involuntary spread `json:"involuntary"`
	WaitMS      spread `json:"wait_ms"`
}

// realSpreads summarises the real runs of one task.
func realSpreads(runs []realTask) taskSpreads {
	var share, ws, mig, sw, inv, wait []float64
	for _, r := range runs {
		d := r.Delta
		share = append(share, r.SharePct)
		ws = append(ws, perSliceUS(d.RunDelayNS, d.Timeslices))
		mig = append(mig, float64(d.Migrations))
		sw = append(sw, float64(d.Switches))
		inv = append(inv, float64(d.Involuntary))
		wait = append(wait, float64(d.RunDelayNS)/1e6)
	}
	return taskSpreads{SharePct: spreadOf(share), WaitSliceUS: spreadOf(ws), Migrations: spreadOf(mig),
		Switches: spreadOf(sw), Involuntary: spreadOf(inv), WaitMS: spreadOf(wait)}
}

// simSpreads summarises one task over the simulator's seeds.
func simSpreads(seeds []simTask, durationNS int64) taskSpreads {
	var share, ws, mig, sw, inv, wait []float64
	for _, t := range seeds {
		share = append(share, 100*float64(t.RuntimeNS)/float64(durationNS))
		ws = append(ws, perSliceUS(t.WaitNS, t.Switches))
		mig = append(mig, float64(t.Migrations))
		sw = append(sw, float64(t.Switches))
		inv = append(inv, float64(t.InvoluntarySwitches))
		wait = append(wait, float64(t.WaitNS)/1e6)
	}
	return taskSpreads{SharePct: spreadOf(share), WaitSliceUS: spreadOf(ws), Migrations: spreadOf(mig),
		Switches: spreadOf(sw), Involuntary: spreadOf(inv), WaitMS: spreadOf(wait)}
}

// meanReal is the mean of several real runs of one task (counters rounded),
// so that the fields every case reports hold the mean for a repeated case.
func meanReal(runs []realTask) realTask {
	if len(runs) == 1 {
		return runs[0]
	}
	out := runs[0]
	n := int64(len(runs))
	var share float64
	sum := schedCounters{}
	var elapsed int64
	for _, r := range runs {
		share += r.SharePct
		elapsed += r.ElapsedNS
		d := r.Delta
		sum.SumExecNS += d.SumExecNS
		sum.Switches += d.Switches
		sum.Voluntary += d.Voluntary
		sum.Involuntary += d.Involuntary
		sum.Migrations += d.Migrations
		sum.RunDelayNS += d.RunDelayNS
		sum.Timeslices += d.Timeslices
	}
	div := func(v int64) int64 { return (v + n/2) / n }
	out.SharePct = share / float64(n)
	out.ElapsedNS = div(elapsed)
	d := &out.Delta
	d.SumExecNS, d.Switches, d.Voluntary = div(sum.SumExecNS), div(sum.Switches), div(sum.Voluntary)
	d.Involuntary, d.Migrations = div(sum.Involuntary), div(sum.Migrations)
	d.RunDelayNS, d.Timeslices = div(sum.RunDelayNS), div(sum.Timeslices)
	d.WaitSumNS, d.WaitCount = -1, -1 // not averaged
	return out
}

// markdownMixed renders a mixed case: per task the real runs' spread, the
// simulator's seeds' spread after and before issue 18's fixes.
func (c caseResult) markdownMixed(b *strings.Builder, hz int) {
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	p("\n## %s\n\n%s Duration %v, %d real runs, scenario `%s`.\n\n", c.ID, c.Description,
		time.Duration(c.DurationNS), c.Repeats, c.CaseFile)
	p("Each cell is the mean and, in brackets, the range (min-max) over the real runs or the simulator's seeds. ")
	p("*sim* is this code, *before* the simulator before issue 18's fixes (%s).\n\n", c.beforeLabel())
	p("| task | workload | quantity | real | sim | before |\n|---|---|---|--:|--:|--:|\n")
	for _, t := range c.Tasks {
		rs := realSpreads(t.RealRuns)
		var ss, bs taskSpreads
		if len(t.SimSeeds) > 0 {
			ss = simSpreads(t.SimSeeds, c.SimDurationNS)
		}
		if len(t.BeforeSeeds) > 0 {
			bs = simSpreads(t.BeforeSeeds, c.SimDurationNS)
		}
		rows := []struct {
			name       string
			r, s, bf   spread
			decimals   int
			firstOfRow bool
		}{
			{"CPU share %", rs.SharePct, ss.SharePct, bs.SharePct, 1, true},
			{"wait per slice us", rs.WaitSliceUS, ss.WaitSliceUS, bs.WaitSliceUS, 0, false},
			{"wait ms", rs.WaitMS, ss.WaitMS, bs.WaitMS, 0, false},
			{"migrations", rs.Migrations, ss.Migrations, bs.Migrations, 0, false},
			{"switches", rs.Switches, ss.Switches, bs.Switches, 0, false},
			{"involuntary", rs.Involuntary, ss.Involuntary, bs.Involuntary, 0, false},
		}
		for _, r := range rows {
			name, w := "", ""
			if r.firstOfRow {
				name, w = t.Name, t.Workload
			}
			p("| %s | %s | %s | %s | %s | %s |\n", name, w, r.name, r.r.cell(r.decimals), r.s.cell(r.decimals), r.bf.cell(r.decimals))
		}
	}
	var ideal []string
	var realSum float64
	for _, t := range c.Tasks {
		ideal = append(ideal, fmt.Sprintf("%s %.1f %%", t.Name, t.IdealPct))
		realSum += t.Real.SharePct
	}
	p("\nAsked for (hogs: the weight-fair rest of the CPUs): %s. Real: the tasks got %.1f %% of the %d CPUs on average.\n",
		strings.Join(ideal, ", "), realSum/float64(c.CPUs), c.CPUs)
	p("\nNoise (mean per run): %d context switches machine-wide, %d of them by these tasks; %d ms of steal time (HZ=%d).\n",
		c.Noise.MachineSwitches, c.Noise.TaskSwitches, c.Noise.StealMS, hz)
	if c.SimError != "" {
		p("\nsim not available (%s).\n", strings.ReplaceAll(c.SimError, "\n", " / "))
	}
	if c.BeforeError != "" {
		p("\nbefore not available (%s).\n", strings.ReplaceAll(c.BeforeError, "\n", " / "))
	}
}

// beforeLabel says what the before column was built from.
func (c caseResult) beforeLabel() string {
	if c.BeforeRev == "" {
		return "not run"
	}
	return "commit " + c.BeforeRev + ", see docs/real-kernel-notes.md"
}
