package view

// Figures derived from a timeline for the charts: the wakeup-latency
// histogram (log-spaced buckets, because latencies span microseconds to
// tens of milliseconds) with its CDF, per-CPU utilisation over time, and the
// metrics table as CSV.

import (
	"bytes"
	"encoding/csv"
	"strconv"

	"schedplay/core/metrics"
	"schedplay/core/sched"
	"schedplay/wasm/report"
)

// Bucket is one histogram bar: latencies in [Lo, Hi) ns.
type Bucket struct {
	Lo, Hi int64
	Count  int
	CDF    float64 // share of latencies below Hi
}

// LatencyHistogram groups latencies into buckets of 4 per decade from 1 us
// (everything below 1 us in the first). It counts in one pass without
// sorting: a million latencies cost milliseconds, not a long task.
func LatencyHistogram(lat []int64) []Bucket {
	var h LatHist
	for _, v := range lat {
		h.Add(v)
	}
	return h.Buckets()
}

// UtilBuckets is the number of time buckets of the utilisation chart
// (folded while a run streams in: Timeline.SetUtilGrid).
const UtilBuckets = 120

// Utilisation returns, per CPU, the busy share of each of n equal buckets
// of [0, end): from the grid folded during the run when it matches, else
// by a walk over every slice.
func Utilisation(tl *Timeline, end sched.Time, n int) [][]float64 {
	if u, ok := tl.gridUtilisation(end, n); ok {
		return u // folded while the run streamed in (fold.go)
	}
	return utilisationWalk(tl, end, n)
}

// utilisationWalk computes Utilisation from the lanes' slices.
func utilisationWalk(tl *Timeline, end sched.Time, n int) [][]float64 {
	out := make([][]float64, len(tl.Lanes))
	if end <= 0 || n <= 0 {
		return out
	}
	// Integer bucket edges: edge(k) = end*k/n, so no float rounding can
	// stall the walk.
	edge := func(k int) sched.Time { return sched.Time(int64(end) * int64(k) / int64(n)) }
	for c := range tl.Lanes {
		u := make([]float64, n)
		for i := range tl.Lanes[c].Slices {
			s := &tl.Lanes[c].Slices[i]
			a, b := s.Start, min(tl.end(s), end)
			k := int(int64(a) * int64(n) / int64(end))
			for a < b && k < n {
				hi := min(b, edge(k+1))
				u[k] += float64(hi-a) / float64(edge(k+1)-edge(k))
				a = hi
				k++
			}
		}
		out[c] = u
	}
	return out
}

// TasksCSV renders the per-task metrics as CSV.
func TasksCSV(r *metrics.Report) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"name", "pid", "policy", "nice", "runtime_ns", "wait_ns", "sleep_ns", "switches",
		"involuntary_switches", "migrations", "wakeups", "lat_mean_ns", "lat_p50_ns", "lat_p90_ns", "lat_p99_ns", "lat_max_ns"})
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, t := range r.Tasks {
		l := t.WakeupLatencyNs
		w.Write([]string{t.Name, strconv.Itoa(t.PID), t.Policy, strconv.Itoa(t.Nice), i64(t.RuntimeNs),
			i64(t.WaitNs), i64(t.SleepNs), i64(t.Switches), i64(t.InvoluntarySwitches), i64(t.Migrations),
			i64(t.Wakeups), i64(l.Mean), i64(l.P50), i64(l.P90), i64(l.P99), i64(l.Max)})
	}
	w.Flush()
	return b.Bytes()
}

// FormatDur renders ns compactly for tables and axes (report.FormatDur:
// the worker's reports and the page's views print durations alike).
func FormatDur(ns int64) string { return report.FormatDur(ns) }
