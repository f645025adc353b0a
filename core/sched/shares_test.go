package sched

// CPU shares follow load weights. Over a long run, the fair class divides a
// CPU among always-runnable tasks in proportion to their weights
// (sched_prio_to_weight[]: nice 0 = 1024, nice 5 = 335; WEIGHT_IDLEPRIO = 3),
// in every kernel version: CFS by vruntime = runtime * 1024 / w, EEVDF by
// zero-lag placement around the weighted average. Only the run-time split is
// checked, from the switch events, so the test does not depend on how
// either class reaches it.

import (
	"fmt"
	"testing"
)

const sharesTolerancePP = 0.1 // percentage points

// sharesDuration is long enough for the 4ms tick quantum (HZ=250) to be
// well under the tolerance: 4ms / 10s = 0.04 pp.
func sharesDuration(t *testing.T) Time { return 10 * Second }

// pinnedHogs runs one always-running task per (nice, policy) pair on CPU 0
// of smp-1 and returns each task's share of the run in percent.
func pinnedHogs(t *testing.T, kernel string, dur Time, tasks ...hogSpec) []float64 {
	t.Helper()
	b := newRun(t).topology("smp-1").kernel(kernel).duration(dur)
	for i, h := range tasks {
		b.task(fmt.Sprintf("h%d", i)).nice(h.nice).policy(h.policy).cpus(0).run(Forever)
	}
	r := b.build()
	r.runFor(dur)
	rt, err := r.rec.runtimes(dur)
	if err != nil {
		t.Fatal(err)
	}
	var out []float64
	var total Time
	for i := range tasks {
		id := r.id(fmt.Sprintf("h%d", i))
		out = append(out, 100*float64(rt[id])/float64(dur))
		total += rt[id]
	}
	// The CPU is never idle with a hog on it: the shares add up to the run.
	if total != dur {
		t.Errorf("%s: runtimes add up to %s, want the whole run %s", kernel, total, dur)
	}
	return out
}

type hogSpec struct {
	nice   int
	policy Policy
}

func checkShares(t *testing.T, kernel string, got, want []float64) {
	t.Helper()
	for i := range want {
		if d := got[i] - want[i]; d > sharesTolerancePP || d < -sharesTolerancePP {
			t.Errorf("%s: task %d share %.3f%%, want %.3f%% ± %.1f pp", kernel, i, got[i], want[i], sharesTolerancePP)
		}
	}
}

func TestSharesNice0VsNice5(t *testing.T) {
	// 1024/(1024+335) = 75.349%, 335/1359 = 24.651%.
	want := []float64{100 * 1024.0 / 1359, 100 * 335.0 / 1359}
	for _, k := range ProfileNames() {
		t.Run(k, func(t *testing.T) {
			got := pinnedHogs(t, k, sharesDuration(t), hogSpec{0, SchedOther}, hogSpec{5, SchedOther})
			checkShares(t, k, got, want)
		})
	}
}

func TestSharesNice0VsSchedIdle(t *testing.T) {
	// SCHED_IDLE has WEIGHT_IDLEPRIO = 3: 1024/1027 = 99.708%, 3/1027 = 0.292%.
	want := []float64{100 * 1024.0 / 1027, 100 * 3.0 / 1027}
	for _, k := range ProfileNames() {
		t.Run(k, func(t *testing.T) {
			got := pinnedHogs(t, k, sharesDuration(t), hogSpec{0, SchedOther}, hogSpec{0, SchedIdle})
			checkShares(t, k, got, want)
		})
	}
}

func TestSharesThreeEqualHogs(t *testing.T) {
	want := []float64{100.0 / 3, 100.0 / 3, 100.0 / 3}
	for _, k := range ProfileNames() {
		t.Run(k, func(t *testing.T) {
			got := pinnedHogs(t, k, sharesDuration(t), hogSpec{0, SchedOther}, hogSpec{0, SchedOther}, hogSpec{0, SchedOther})
			checkShares(t, k, got, want)
		})
	}
}

func TestSharesBatchIsNotFavoured(t *testing.T) {
	// SCHED_BATCH only changes wakeup preemption; its weight is its nice
	// level's, so a nice-0 batch hog and a nice-0 normal hog split evenly.
	for _, k := range ProfileNames() {
		t.Run(k, func(t *testing.T) {
			got := pinnedHogs(t, k, sharesDuration(t), hogSpec{0, SchedOther}, hogSpec{0, SchedBatch})
			checkShares(t, k, got, []float64{50, 50})
		})
	}
}
