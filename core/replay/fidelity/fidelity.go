package fidelity

// The fidelity report: the trace's own metrics beside the replay's, task
// by task, and a score, so a user sees how far to trust a what-if run on
// the same inferred workload. The targets are those of docs/cli.md
// ("schedplay replay"): CPU share within 2 points, switches within 20 %,
// wakeup-latency medians within a factor of 2 where the trace has at
// least 100 wakeups.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"schedplay/core/metrics"
	"schedplay/core/sched"
)

// Targets of a fidelity row.
const (
	ShareTolPoints  = 2.0 // CPU share (% of one CPU), points
	SwitchTolPct    = 20  // switch count, %
	LatencyFactor   = 2.0 // wakeup-latency median, factor
	LatencyMinWakes = 100 // wakeups the trace needs for the latency target
)

// Side is one task's figures on one side (trace or replay).
type Side struct {
	RuntimeNs, WaitNs             int64
	Share                         float64 // % of all CPU time of the side's tasks
	Switches, Migrations, Wakeups int64
	LatP50Ns, LatP99Ns            int64
}

// Row is one task of the fidelity table.
type Row struct {
	Group         string // the replay's task group
	PID           int
	Comm          string
	Trace, Replay Side
	// Found: the replay has the task (false: it never ran there).
	Found bool
	// ShareOK, SwitchOK, LatencyOK: the row's targets (LatencyOK is nil
	// below LatencyMinWakes trace wakeups).
	ShareOK, SwitchOK bool
	LatencyOK         *bool
}

// Fidelity is the table and its score.
type Fidelity struct {
	Rows []Row
	// Score is 0..100: the mean over the rows, weighted by trace CPU time,
	// of how close each figure came (1 - |r-t|/max(r,t) for CPU time,
	// switches and, where measured, the latency median).
	Score float64
	// Met counts the rows meeting every target, of Rows.
	Met int
}

func side(t *metrics.Task, dur int64) Side {
	s := Side{RuntimeNs: t.RuntimeNs, WaitNs: t.WaitNs, Switches: t.Switches, Migrations: t.Migrations,
		Wakeups: t.Wakeups, LatP50Ns: t.WakeupLatencyNs.P50, LatP99Ns: t.WakeupLatencyNs.P99}
	if dur > 0 {
		s.Share = 100 * float64(t.RuntimeNs) / float64(dur)
	}
	return s
}

// TaskKey pairs a traced task with its replay: what [CompareKeys] needs of
// the workload, small enough to travel without it (the playground's
// page, which runs the replay's scenario and has the two reports).
type TaskKey struct {
	ID      sched.TaskID `json:"id"` // in the imported trace
	Group   string       `json:"group"`
	PID     int          `json:"pid"`
	Comm    string       `json:"comm"`
	KeepPID bool         `json:"keep_pid,omitempty"`
}

// CompareKeys compares the trace's metrics with the replay's, task by
// task, pairing them through keys.
func CompareKeys(keys []TaskKey, trace, replay *metrics.Report) Fidelity {
	byGroup := map[string]*metrics.Task{}
	byPID := map[int]*metrics.Task{}
	for i := range replay.Tasks {
		rt := &replay.Tasks[i]
		byGroup[GroupOf(rt.Name)] = rt
		if _, dup := byPID[rt.PID]; !dup {
			byPID[rt.PID] = rt
		}
	}
	var f Fidelity
	var wsum, score float64
	for _, t := range keys {
		if t.ID < 0 || int(t.ID) >= len(trace.Tasks) {
			continue
		}
		row := Row{Group: t.Group, PID: t.PID, Comm: t.Comm, Trace: side(&trace.Tasks[t.ID], trace.DurationNs)}
		rt, ok := byGroup[t.Group]
		if t.KeepPID {
			rt, ok = byPID[t.PID]
		}
		if ok {
			row.Found, row.Replay = true, side(rt, replay.DurationNs)
		}
		row.ShareOK = math.Abs(row.Replay.Share-row.Trace.Share) <= ShareTolPoints
		row.SwitchOK = math.Abs(float64(row.Replay.Switches-row.Trace.Switches)) <= float64(row.Trace.Switches)*SwitchTolPct/100
		agree := []float64{closeness(float64(row.Trace.RuntimeNs), float64(row.Replay.RuntimeNs)),
			closeness(float64(row.Trace.Switches), float64(row.Replay.Switches))}
		if row.Trace.Wakeups >= LatencyMinWakes {
			a, b := float64(row.Trace.LatP50Ns), float64(row.Replay.LatP50Ns)
			ok := b <= a*LatencyFactor && a <= b*LatencyFactor
			row.LatencyOK = &ok
			agree = append(agree, closeness(a, b))
		}
		if row.ShareOK && row.SwitchOK && (row.LatencyOK == nil || *row.LatencyOK) {
			f.Met++
		}
		var m float64
		for _, a := range agree {
			m += a
		}
		wt := float64(row.Trace.RuntimeNs) + 1
		score += wt * m / float64(len(agree))
		wsum += wt
		f.Rows = append(f.Rows, row)
	}
	if wsum > 0 {
		f.Score = 100 * score / wsum
	}
	return f
}

// closeness is 1 - |a-b|/max(a,b), 1 when both are 0.
func closeness(a, b float64) float64 {
	m := math.Max(a, b)
	if m <= 0 {
		return 1
	}
	return 1 - math.Abs(a-b)/m
}

// Text renders the table: per task the trace's figure, then the replay's.
func (f *Fidelity) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-28s %7s %15s %13s %15s %11s %9s %17s %17s  %s\n", "task (trace | replay)", "pid",
		"cpu_ms", "share%", "wait_ms", "switches", "migr", "lat_p50_us", "lat_p99_us", "targets")
	for _, r := range f.Rows {
		marks := mark(r.ShareOK, "share") + " " + mark(r.SwitchOK, "switches")
		if r.LatencyOK != nil {
			marks += " " + mark(*r.LatencyOK, "latency")
		}
		if !r.Found {
			marks += " (not run in the replay)"
		}
		fmt.Fprintf(&b, "%-28s %7d %7.1f|%-7.1f %6.1f|%-6.1f %7.1f|%-7.1f %5d|%-5d %4d|%-4d %8.1f|%-8.1f %8.1f|%-8.1f  %s\n",
			trunc(r.Group, 28), r.PID, ms(r.Trace.RuntimeNs), ms(r.Replay.RuntimeNs), r.Trace.Share, r.Replay.Share,
			ms(r.Trace.WaitNs), ms(r.Replay.WaitNs),
			r.Trace.Switches, r.Replay.Switches, r.Trace.Migrations, r.Replay.Migrations,
			usf(r.Trace.LatP50Ns), usf(r.Replay.LatP50Ns), usf(r.Trace.LatP99Ns), usf(r.Replay.LatP99Ns), marks)
	}
	b.WriteString("\n" + f.Summary() + "\n")
	return b.String()
}

// Summary is the table's last line: the score and the tasks meeting
// every target.
func (f *Fidelity) Summary() string {
	return fmt.Sprintf("score %.1f/100 (CPU-time weighted agreement of CPU time, switches and latency medians); %d of %d tasks meet every target (share within %.0f points, switches within %d%%, latency p50 within %.0fx at >= %d wakeups)",
		f.Score, f.Met, len(f.Rows), ShareTolPoints, SwitchTolPct, LatencyFactor, LatencyMinWakes)
}

func mark(ok bool, what string) string {
	if ok {
		return what + ":ok"
	}
	return what + ":MISS"
}

func trunc(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

func ms(ns int64) float64  { return float64(ns) / 1e6 }
func usf(ns int64) float64 { return float64(ns) / 1e3 }

// GroupOf is the task group of a replayed task's name ("sh_1642-0" ->
// "sh_1642"): the name without its instance suffix.
func GroupOf(name string) string {
	if k := strings.LastIndexByte(name, '-'); k > 0 {
		if _, err := strconv.Atoi(name[k+1:]); err == nil {
			return name[:k]
		}
	}
	return name
}
