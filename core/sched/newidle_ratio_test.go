package sched

import "testing"

// TestNewidleStatsHalve: update_newidle_stats() from sd_init()'s 50 %
// start: with no success the ratio halves every 512 calls.
func TestNewidleStatsHalve(t *testing.T) {
	var n niState
	n.init()
	want := []int64{256, 128, 64, 32}
	for k, w := range want {
		for range 512 {
			n.update(0)
		}
		if n.ratio != w || n.call != 512 {
			t.Fatalf("after %d x 512 failed calls: ratio %d call %d, want ratio %d call 512", k+1, n.ratio, n.call, w)
		}
	}
}

// TestNewidleDiceProportional: the die lets a balance run with
// probability (2 + ratio)/1024, and weighting a success by the inverse of
// that probability makes the ratio estimate 1024 x P(pull | run): a domain
// whose every balance pulls climbs to about 1024, one whose balances pull
// a quarter of the time settles near 256.
func TestNewidleDiceProportional(t *testing.T) {
	s := &Sim{cfg: Config{Seed: 7}, feat: featureSetOf(NIRandom)}
	rq := &rq{cpu: 1}
	sd := &schedDomain{}
	for _, ratio := range []int64{0, 30, 512} {
		sd.ni = niState{call: 512, success: ratio / 2, ratio: ratio}
		runs := 0
		const n = 200000
		for range n {
			sd.ni.ratio = ratio // hold it: measure the die alone
			if run, _ := s.newidleDice(rq, sd); run {
				runs++
			}
		}
		want := float64(n) * float64(ratio+2) / 1024
		if d := float64(runs) - want; d*d > 25*want { // 5 sigma of a binomial count, roughly
			t.Errorf("ratio %d: %d runs in %d dice, want about %.0f", ratio, runs, n, want)
		}
	}
	for _, c := range []struct {
		every  int // a run pulls once in every this many runs
		lo, hi int64
	}{{1, 900, 1024 + 64}, {4, 180, 330}} {
		sd.ni.init()
		runs := 0
		for range 200000 {
			run, w := s.newidleDice(rq, sd)
			if !run {
				continue
			}
			runs++
			var succ int64
			if runs%c.every == 0 {
				succ = w
			}
			sd.ni.update(succ)
		}
		if sd.ni.ratio < c.lo || sd.ni.ratio > c.hi {
			t.Errorf("a pull every %d runs: ratio %d, want %d..%d", c.every, sd.ni.ratio, c.lo, c.hi)
		}
	}
}
