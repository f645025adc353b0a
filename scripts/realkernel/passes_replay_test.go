//go:build linux

package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestPredictImbalance: the busy-CPU cases of sched_balance_find_src_group()
// and calculate_imbalance() on two one-CPU groups, derived by hand from
// fair.c's tests.
func TestPredictImbalance(t *testing.T) {
	one, two, three := cpuState{mix: 1}, cpuState{mix: 2}, cpuState{mix: 2, other: 1}
	cases := []struct {
		name           string
		local, busiest cpuState
		lLoad, bLoad   int64
		want           bool
	}{
		// fully_busy local: no imbalance_pct test, any lower load pulls.
		{"1 against 2, lighter", one, two, 500, 540, true},
		{"1 against 2, heavier", one, two, 560, 540, false},
		// overloaded local: 100 * busiest > 117 * local is needed.
		{"2 against 3 at 123 %", two, three, 540, 667, true},
		{"2 against 3 at 114 %", two, three, 560, 640, false},
		// a busiest group that is not overloaded is left alone by a busy CPU.
		{"2 against 1", two, one, 300, 900, false},
	}
	// A capacity reduced by RT time raises that CPU's avg_load: 560 on 960
	// is 597, above the two tasks' 580 that pull at full capacity.
	if !predictImbalance(one, two, 560, 580, 1024, 1024) || predictImbalance(one, two, 560, 580, 960, 1024) {
		t.Error("1 against 2 at 560 and 580: want an imbalance at capacity 1024 and none at 960")
	}
	for _, c := range cases {
		if got := predictImbalance(c.local, c.busiest, c.lLoad, c.bLoad, 1024, 1024); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

// TestRootLoads: calc_group_shares() at both levels with max() and with
// load_avg alone, values worked out by hand.
func TestRootLoads(t *testing.T) {
	shares := map[string]int64{replayMixGroup: 1024, replayParentGroup: 1024}
	st := [2]cpuState{{mix: 3}, {mix: 2}}
	mix := [2]groupFields{{loadAvg: 1900, tgLoadAvg: 3600, contrib: 1800}, {loadAvg: 1700, tgLoadAvg: 3600, contrib: 1800}}
	// The parent holds only /mix: its tg_load_avg less this CPU's contribution
	// is the other CPU's, 600 in both.
	parent := [2]groupFields{{loadAvg: 500, tgLoadAvg: 1200, contrib: 600}, {loadAvg: 500, tgLoadAvg: 1200, contrib: 600}}
	other := [2]int64{10, 0}
	// max(): CPU 0's /mix weight is 1024*3072/(1800+3072) = 645, the parent's
	// 1024*645/(600+645) = 530; CPU 1: 1024*2048/(1800+2048) = 544 (scaled
	// units truncated by scale_load_down()), then 1024*544/(600+544) = 486.
	if got := rootLoads(st, mix, parent, other, shares, true); got != [2]int64{540, 486} {
		t.Errorf("max(): %v, want [540 486]", got)
	}
	// load_avg alone: 1024*1900/3600 = 540 and 1024*1700/3500 = 497 at /mix
	// are not used: the parent's load_avg, 500, is: 1024*500/1100 = 465.
	if got := rootLoads(st, mix, parent, other, shares, false); got != [2]int64{475, 465} {
		t.Errorf("load_avg alone: %v, want [475 465]", got)
	}
}

// replaySample is one -sample-debug read at sched_clk ms with the same
// group fields on both CPUs.
func replaySample(n int, clkMS float64, mixAvg, mixTG, mixContrib, parAvg, parTG, parContrib, rootAvg, parSE int64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# sample %d +%.6f\nsched_clk                               : %.6f\n", n, clkMS/1000-100, clkMS)
	for cpu := range 2 {
		fmt.Fprintf(&b, "cfs_rq[%d]:%s\n  .load_avg : %d\n  .tg_load_avg : %d\n  .tg_load_avg_contrib : %d\n", cpu, replayMixGroup, mixAvg, mixTG, mixContrib)
		fmt.Fprintf(&b, "  .load : %d\n", 2<<20)
		fmt.Fprintf(&b, "cfs_rq[%d]:%s\n  .load_avg : %d\n  .tg_load_avg : %d\n  .tg_load_avg_contrib : %d\n  .se->avg.load_avg : %d\n", cpu, replayParentGroup, parAvg, parTG, parContrib, parSE)
		fmt.Fprintf(&b, "cfs_rq[%d]:/\n  .load_avg : %d\n  .tg_load_avg : 0\n  .tg_load_avg_contrib : 0\n", cpu, rootAvg)
	}
	return b.String()
}

// TestReplayPasses: a pass of CPU 0 with one mix task against CPU 1's
// three, taken from the trace, with the sample before it, predicts the
// imbalance the 28 ms gap shows; CPU 1's pass against CPU 0 predicts none,
// as its 60 ms gap shows.
func TestReplayPasses(t *testing.T) {
	text := passTrace(
		"W 0 0 hog-1", "W 1 0 hog-0", "W 1 0 rsa-3", "W 1 0 rsb-4",
		"S 0 100", "S 1 102", "S 0 128", "S 1 162", "S 0 188", "S 1 222",
	)
	recs, _, err := parseTrace(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	// Trace time zero is 100 s: the samples at 100.050 s and 100.150 s; each
	// CPU's /mix contributes 1800 of 3600, the parent 600 of 1200.
	samples := "# shares " + replayParentGroup + " 1024\n# shares " + replayMixGroup + " 1024\n" +
		replaySample(0, 100050, 1800, 3600, 1800, 600, 1200, 600, 600, 600) +
		replaySample(1, 100150, 1800, 3600, 1800, 600, 1200, 600, 600, 600)
	ds, err := parseDebugSamples(strings.NewReader(samples))
	if err != nil {
		t.Fatal(err)
	}
	if got := ds.Samples[1].SchedClk; got != 100150e6 {
		t.Fatalf("sched_clk of sample 1: %d ns, want 100150000000", got)
	}
	vs, heavier, compared, err := replayPasses(recs, ds, []string{"hog-", "rsa-", "rsb-"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	// CPU 0: 1 task, /mix weight 1024*1800/3600 = 512 (load_avg above 1024),
	// parent 1024*600/1200 = 512; CPU 1: 3 tasks, 1024*3072/4872 = 645, parent
	// 1024*645/1245 = 530: CPU 0 pulls, CPU 1 (overloaded, 530 against
	// CPU 0's fully busy 512) does not.
	// With load_avg alone both CPUs weigh the same (the samples are equal):
	// no imbalance. The last pass of each CPU has no outcome.
	pull := [replayReadings]bool{true, true, false}
	want := []passVerdict{
		{at: 100e6, cpu: 0, real: true, nl: 1, nb: 3, pred: pull}, // 28 ms to the next pass
		{at: 102e6, cpu: 1, real: false, nl: 3, nb: 1},            // 60 ms
		{at: 128e6, cpu: 0, real: false, nl: 1, nb: 3, pred: pull},
		{at: 162e6, cpu: 1, real: false, nl: 3, nb: 1},
	}
	if len(vs) != len(want) {
		t.Fatalf("verdicts %+v, want %+v", vs, want)
	}
	for i := range vs {
		if vs[i] != want[i] {
			t.Errorf("pass %d: %+v, want %+v", i, vs[i], want[i])
		}
	}
	// The second sample (at +150 ms) sees 2 tasks in .load on each CPU:
	// CPU 0 has one runnable, so it is heavier than the trace there.
	if compared != 2 || heavier != 1 {
		t.Errorf("load against the trace: %d of %d heavier, want 1 of 2", heavier, compared)
	}
}
