package sched

import (
	"testing"
)

// TestWithinMargin: within_margin(x, 10) is |x| < 10.
func TestWithinMargin(t *testing.T) {
	for _, c := range []struct {
		v    int64
		want bool
	}{{0, true}, {9, true}, {-9, true}, {10, false}, {-10, false}, {500, false}, {-500, false}} {
		if got := withinMargin(c.v, utilEstMargin); got != c.want {
			t.Errorf("withinMargin(%d, 10) = %v, want %v", c.v, got, c.want)
		}
	}
}

// TestUtilEstUpdateEWMA: the v6.8+ util_est_update() against hand-worked
// numbers (flag 0x80000000, weight 1/4, margin 10).
func TestUtilEstUpdateEWMA(t *testing.T) {
	const f = utilAvgUnchangedMSB
	for _, c := range []struct {
		name                 string
		ewma                 uint32
		util, runnable, capa uint64
		want                 uint32
	}{
		// 0.75*400 + 0.25*200 = 350
		{"decay a quarter of the way", 400, 200, 200, 1024, 350 | f},
		// 0.75*401 + 0.25*0 = 300.75: the shifts truncate to 300
		{"truncates", 401, 0, 0, 1024, 300 | f},
		{"jumps up", 100, 300, 300, 1024, 300 | f},
		{"equal jumps (ewma <= dequeued)", 300, 300, 300, 1024, 300 | f},
		{"within the margin: kept, flagged", 400, 391, 391, 1024, 400 | f},
		{"ten below is outside the margin", 400, 390, 390, 1024, (1600-10)>>2 | f},
		{"flag set: no update", 400 | f, 100, 100, 1024, 400 | f},
		{"sample above capacity: no write", 1000, 500, 500, 381, 1000},
		{"runnable well above: kept, flagged", 400, 200, 211, 1024, 400 | f},
		{"runnable within the margin: updated", 400, 200, 210, 1024, 350 | f},
	} {
		ue := utilEst{ewma: c.ewma}
		utilEstUpdateEWMA(&ue, c.util, c.runnable, c.capa)
		if ue.ewma != c.want {
			t.Errorf("%s: ewma %d util %d runnable %d cap %d -> %#x, want %#x", c.name, c.ewma, c.util, c.runnable, c.capa, ue.ewma, c.want)
		}
	}
}

// TestUtilEstUpdatePair: the v5.13-v6.7 form ({enqueued, ewma}, flag in
// the MSB of enqueued, last_enqueued_diff, runnable test).
func TestUtilEstUpdatePair(t *testing.T) {
	const f = utilAvgUnchangedMSB
	for _, c := range []struct {
		name           string
		in             utilEst
		util, runnable uint64
		fastup         bool
		want           utilEst
	}{
		// diff = 200-400 = -200: ewma = (1600-200)>>2 = 350
		{"decay", utilEst{300, 400}, 200, 200, true, utilEst{200 | f, 350}},
		{"fastup jumps", utilEst{0, 100}, 300, 300, true, utilEst{300 | f, 300}},
		// without FASTUP: diff = +200, ewma = (400+200)>>2 = 150
		{"no fastup: a quarter up", utilEst{0, 100}, 300, 300, false, utilEst{300 | f, 150}},
		// |200-205| < 10 but enqueued moved 300 -> 200: stored, ewma kept
		{"ewma within, enqueued moved", utilEst{300, 205}, 200, 200, true, utilEst{200 | f, 205}},
		{"both within: no write", utilEst{203, 205}, 200, 200, true, utilEst{203, 205}},
		{"flag set: no update", utilEst{300 | f, 400}, 100, 100, true, utilEst{300 | f, 400}},
		{"runnable well above: enqueued only", utilEst{300, 400}, 200, 300, true, utilEst{200 | f, 400}},
	} {
		ue := c.in
		utilEstUpdatePair(&ue, c.util, c.runnable, 1024, c.fastup, true, true)
		if ue != c.want {
			t.Errorf("%s: %+v util %d -> %+v, want %+v", c.name, c.in, c.util, ue, c.want)
		}
	}
}

// TestUtilEstUpdateLSB: the v5.5-v5.12 form (flag in the LSB of
// enqueued, set in the sample; a sample within the margin is not stored).
func TestUtilEstUpdateLSB(t *testing.T) {
	for _, c := range []struct {
		name string
		in   utilEst
		util uint64
		capa uint64
		want utilEst
	}{
		// sample 200|1 = 201; diff = 201-401 = -200: (1604-200)>>2 = 351
		{"decay", utilEst{300, 401}, 200, 1024, utilEst{201, 351}},
		{"fastup jumps to the flagged sample", utilEst{0, 100}, 300, 1024, utilEst{301, 301}},
		{"within the margin: no write", utilEst{300, 205}, 200, 1024, utilEst{300, 205}},
		{"flag set: no update", utilEst{301, 400}, 100, 1024, utilEst{301, 400}},
		{"sample above capacity: no write", utilEst{300, 1000}, 500, 381, utilEst{300, 1000}},
	} {
		ue := c.in
		utilEstUpdateLSB(&ue, c.util, c.capa, true)
		if ue != c.want {
			t.Errorf("%s: %+v util %d -> %+v, want %+v", c.name, c.in, c.util, ue, c.want)
		}
	}
}

// TestTaskUtilEstForms: _task_util_est() per profile form.
func TestTaskUtilEstForms(t *testing.T) {
	p := &Task{}
	p.se.avg.utilAvg = 100
	for _, c := range []struct {
		kernel   string
		ue       utilEst
		raw      int64
		estimate int64
	}{
		{"v5.8", utilEst{200, 350}, 351, 351}, // max | LSB
		{"v6.6", utilEst{400 | utilAvgUnchangedMSB, 350}, 400, 400},
		{"v6.18", utilEst{0, 350 | utilAvgUnchangedMSB}, 350, 350},
		{"v3.11", utilEst{0, 350}, 351, 100}, // no util_est: util_avg alone
	} {
		prof, err := ProfileByName(c.kernel)
		if err != nil {
			t.Fatal(err)
		}
		s := &Sim{rules: rulesFor(prof.version)}
		p.se.avg.ue = c.ue
		if got := int64(s.taskUtilEstRaw(p)); got != c.raw {
			t.Errorf("%s: _task_util_est(%+v) = %d, want %d", c.kernel, c.ue, got, c.raw)
		}
		if got := s.taskUtilEst(p); got != c.estimate {
			t.Errorf("%s: task_util_est = %d, want %d", c.kernel, got, c.estimate)
		}
	}
}

// TestUtilEstSumMatchesQueuedTasks runs a mixed load on every profile
// with UTIL_EST and checks, at many instants, that each CPU's util_est sum
// is the sum of the estimates of its enqueued fair tasks (delayed ones
// left out from v6.12), and zero with UTIL_EST off.
func TestUtilEstSumMatchesQueuedTasks(t *testing.T) {
	for _, k := range []string{"v5.8", "v6.6", "v6.12", "v6.18"} {
		for _, on := range []bool{true, false} {
			b := newRun(t).kernel(k).topology("smp-2").duration(2e9).feature(UtilEst, on)
			b.task("hog").loop(1).run(-1)
			b.task("burst").instances(3).loop(-1).run(7e6).sleep(23e6)
			b.task("short").instances(2).loop(-1).run(1e6).sleep(2e6)
			r := b.build()
			nonzero := 0
			for at := Time(5e6); at <= 2e9; at += 5e6 {
				r.RunUntil(at)
				for c := range r.rqs {
					var want uint32
					for _, p := range r.tasks {
						if p.cpu != CPUID(c) || !p.se.onRq || p.isRT() || p.isDL() {
							continue
						}
						if p.se.delayed && r.rules.utilEstSkipDelayedMove {
							continue
						}
						want += r.taskUtilEstRaw(p)
					}
					if !on {
						want = 0
					}
					if got := r.rqs[c].cfs.avg.ue.enqueued; got != want {
						t.Fatalf("%s UTIL_EST=%v at %s: cpu%d util_est sum %d, tasks give %d", k, on, at, c, got, want)
					}
					if want != 0 {
						nonzero++
					}
				}
			}
			if err := r.Err(); err != nil {
				t.Fatalf("%s: %v", k, err)
			}
			if on && nonzero < 100 {
				t.Errorf("%s: only %d instants with a non-zero util_est sum", k, nonzero)
			}
		}
	}
}
