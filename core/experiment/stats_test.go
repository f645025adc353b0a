package experiment

import (
	"math"
	"testing"

	"schedplay/core/metrics"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*max(1, math.Abs(b)) }

// TestStatsKnownData checks the helpers on textbook data: 2 4 4 4 5 5 7 9
// has mean 5, median 4.5, population stddev 2 and sample stddev
// sqrt(32/7).
func TestStatsKnownData(t *testing.T) {
	v := []float64{9, 4, 2, 4, 5, 4, 7, 5} // unsorted on purpose
	if m := Mean(v); m != 5 {
		t.Errorf("Mean = %v, want 5", m)
	}
	if m := Median(v); m != 4.5 {
		t.Errorf("Median = %v, want 4.5", m)
	}
	if s := Stddev(v); !near(s, math.Sqrt(32.0/7)) {
		t.Errorf("Stddev = %v, want sqrt(32/7) = %v", s, math.Sqrt(32.0/7))
	}
	if v[0] != 9 {
		t.Errorf("Median sorted its argument in place: %v", v)
	}
	if m := Median([]float64{3, 1, 2}); m != 2 {
		t.Errorf("Median(3 1 2) = %v, want 2", m)
	}
	if s := Stddev([]float64{42}); s != 0 {
		t.Errorf("Stddev of one value = %v, want 0", s)
	}
	if !math.IsNaN(Mean(nil)) || !math.IsNaN(Median(nil)) {
		t.Errorf("Mean/Median of nothing should be NaN")
	}
	// Equal values: exactly that value and no deviation, so tables of
	// deterministic runs show 0.00% and "same" rather than rounding noise.
	eq := []float64{99.99375, 99.99375, 99.99375}
	if s := Summarize(eq); s.Mean != 99.99375 || s.Stddev != 0 || s.StddevPct != 0 {
		t.Errorf("Summarize(equal values) = %+v", s)
	}
	s := Summarize([]float64{10, 12, 14})
	if s.Mean != 12 || s.Median != 12 || s.Stddev != 2 || !near(s.StddevPct, 100*2.0/12) || s.Min != 10 || s.Max != 14 {
		t.Errorf("Summarize(10 12 14) = %+v", s)
	}
	if s.Of(CenterMean) != 12 || Summarize([]float64{1, 2, 9}).Of(CenterMedian) != 2 {
		t.Errorf("Of picks the wrong centre")
	}
}

// TestVerdicts checks the noise rule: a change within the larger stddev
// of the two sides is noise; outside it, the direction decides.
func TestVerdicts(t *testing.T) {
	side := func(vals ...float64) Side {
		var s Side
		for _, v := range vals {
			s = append(s, Values{"latency.p50": v, "throughput": v, "share@g": v})
		}
		return s
	}
	tests := []struct {
		name   string
		metric string
		a, b   Side
		want   Verdict
		pct    float64
	}{
		{"identical", "latency.p50", side(10, 10), side(10, 10), Same, 0},
		{"within noise", "latency.p50", side(9, 11), side(10, 12), Noise, 10},
		{"lower is better", "latency.p50", side(10, 10), side(8, 8), Improved, -20},
		{"lower, got worse", "latency.p50", side(10, 10), side(12, 12), Worse, 20},
		{"higher is better", "throughput", side(10, 10), side(12, 12), Improved, 20},
		{"no direction", "share@g", side(10, 10), side(12, 12), Changed, 20},
	}
	for _, tc := range tests {
		rows := Compare([]string{tc.metric}, tc.a, tc.b, CenterMean)
		r := rows[0]
		if r.Verdict != tc.want || r.ChangePct == nil || !near(*r.ChangePct, tc.pct) {
			t.Errorf("%s: verdict %s change %v, want %s %v", tc.name, r.Verdict, r.ChangePct, tc.want, tc.pct)
		}
	}
	rows := Compare([]string{"latency.p50"}, side(0, 0), side(1, 1), CenterMean)
	if rows[0].ChangePct != nil {
		t.Errorf("change from 0 should have no percentage, got %v", *rows[0].ChangePct)
	}
	rows = Compare([]string{"busy@cpu9"}, side(1), side(1), CenterMean)
	if rows[0].Verdict != Missing || rows[0].A != nil {
		t.Errorf("metric no run has: %+v", rows[0])
	}
}

func TestResolve(t *testing.T) {
	groups := []string{"a", "b.c"}
	got, err := Resolve([]string{"share", "latency.p99@b.c", "busy@cpu3", "throughput", "throughput"}, groups, 4)
	want := []string{"share@a", "share@b.c", "latency.p99@b.c", "busy@cpu3", "throughput"}
	if err != nil || len(got) != len(want) {
		t.Fatalf("Resolve = %v, %v; want %v", got, err, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Resolve[%d] = %q, want %q", i, got[i], want[i])
		}
	}
	for _, bad := range []string{"bogus", "latency.p50@nope", "busy@cpu4", "busy@2", "busy@cpu01", "throughput@a"} {
		if _, err := Resolve([]string{bad}, groups, 4); err == nil {
			t.Errorf("Resolve(%q): no error", bad)
		}
	}
}

// TestPooledRank: the pooled percentiles of Measure's task metrics are
// the nearest ranks of all the samples (here two tasks' 1..50 and 51..100).
func TestPooledRank(t *testing.T) {
	var a, b metrics.Hist
	for i := int64(1); i <= 50; i++ {
		a.Add(i, nil)
		b.Add(i+50, nil)
	}
	p := metrics.Pool(&a, nil, &b)
	if p.Quantile(50) != 50 || p.Quantile(99) != 99 || p.Quantile(100) != 100 || p.Quantile(1) != 1 {
		t.Errorf("nearest rank of the pool wrong: p50 %d p99 %d max %d", p.Quantile(50), p.Quantile(99), p.Quantile(100))
	}
	var e metrics.Hist
	if e.Quantile(50) != 0 {
		t.Errorf("no samples: p50 %d, want 0", e.Quantile(50))
	}
}

// TestDefaultCandidates: whatever the runs measured, Defaults picks from
// DefaultCandidates, in its order.
func TestDefaultCandidates(t *testing.T) {
	groups := []string{"a", "b"}
	cand := DefaultCandidates(groups, 2)
	pos := map[string]int{}
	for i, n := range cand {
		pos[n] = i
	}
	for _, runs := range [][]Values{
		{{"latency.max@a": 3, "busy@cpu1": 50}},
		{{"completion": 1, "sys": 2, "latency.max@b": 1, "busy@cpu0": 1}, {"sys": 0}},
	} {
		last := -1
		for _, n := range Defaults(groups, 2, runs) {
			i, ok := pos[n]
			if !ok || i <= last {
				t.Fatalf("Defaults picked %s (at %d after %d), not in candidates %v in order", n, i, last, cand)
			}
			last = i
		}
	}
	if _, ok := pos["completion"]; !ok {
		t.Errorf("completion missing from %v", cand)
	}
}
