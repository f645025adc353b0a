//go:build linux

package main

import "testing"

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
