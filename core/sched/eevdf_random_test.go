package sched

// Randomized workloads checked against the brute-force references at every
// event (eevdf_check_test.go). Each run is a pure function of its seed
// (math/rand/v2 PCG); a failure prints the seed and the command that replays
// it alone:
//
//	go test ./core/sched -run 'TestFairAgainstReference' -seed=N -v

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"
)

var seedFlag = flag.Uint64("seed", 0, "replay one seed of the randomized fair-class tests")

// randomRun builds a random mix of hogs, sleepers, periodic tasks, yielders
// and a forker, with random nice levels, SCHED_BATCH/SCHED_IDLE, affinities,
// custom slices (v6.12+), HZ, preemption model and fair features.
func randomRun(t testing.TB, seed uint64, kernel, machine string, dur Time) *testRun {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	pick := func(n int) int { return rng.IntN(n) }
	between := func(lo, hi Time) Time { return lo + Time(rng.Int64N(int64(hi-lo)+1)) }
	b := newRun(t).topology(machine).kernel(kernel).duration(dur).seed(seed)
	b.hz([]int{100, 250, 300, 1000}[pick(4)])
	prof, _ := ProfileByName(kernel)
	model := []string{"none", "voluntary", "full", "lazy"}[pick(4)]
	if model == "lazy" && !rulesFor(prof.Version()).lazyPreempt {
		model = "full" // the lazy model arrived in v6.13
	}
	b.preempt(model)
	for _, f := range togglable(prof.Name) {
		if pick(5) == 0 {
			b.feature(f, !prof.Features.Has(f))
		}
	}
	ncpu := 1
	if machine == "smp-2" {
		ncpu = 2
	}
	n := 2 + pick(5)
	for i := range n {
		b.task(fmt.Sprintf("t%d", i))
		b.nice(pick(40) - 20)
		switch pick(7) {
		case 0:
			b.policy(SchedBatch)
		case 1:
			b.policy(SchedIdle)
		}
		if ncpu > 1 && pick(2) == 0 {
			b.cpus(pick(ncpu))
		}
		if rulesFor(prof.Version()).preemptShort && pick(5) == 0 { // custom slices came with PREEMPT_SHORT (v6.12)
			b.slice(between(100*Microsecond, 5*Millisecond))
		}
		if pick(3) == 0 {
			b.slack(0)
		}
		b.start(between(0, 5*Millisecond))
		switch pick(6) {
		case 0:
			b.run(Forever)
		case 1, 2:
			b.run(between(10*Microsecond, 5*Millisecond)).sleep(between(50*Microsecond, 20*Millisecond))
		case 3:
			mode := TimerMode(pick(2))
			b.run(between(10*Microsecond, 4*Millisecond)).timer("p", between(500*Microsecond, 16*Millisecond), mode)
		case 4:
			b.run(between(10*Microsecond, 2*Millisecond)).yield()
		case 5:
			b.run(between(10*Microsecond, 2*Millisecond)).fork(fmt.Sprintf("c%d", i)).
				sleep(between(2*Millisecond, 10*Millisecond))
			b.task(fmt.Sprintf("c%d", i)).parent(fmt.Sprintf("t%d", i)).loop(1).
				nice(pick(40) - 20).run(between(10*Microsecond, 3*Millisecond))
		}
	}
	return b.build()
}

// togglable lists the fair features that exist in the named profile's
// kernel (features.h, docs/kernel-rules.md §3), which the random runs may
// flip. Keyed by profile so that it stays an independent transcription.
func togglable(profile string) []Feature {
	switch profile {
	case "v3.11", "v5.8":
		return []Feature{GentleFairSleepers, StartDebit, NextBuddy, LastBuddy, WakeupPreemption, SchedIdleNoSleeperCredit}
	case "v6.6":
		return []Feature{PlaceLag, PlaceDeadlineInitial, RunToParity, NextBuddy, WakeupPreemption}
	case "v6.12":
		return []Feature{PlaceLag, PlaceDeadlineInitial, PlaceRelDeadline, RunToParity, PreemptShort,
			NextBuddy, DelayDequeue, DelayZero, WakeupPreemption}
	}
	return []Feature{PlaceLag, PlaceDeadlineInitial, PlaceRelDeadline, RunToParity, PreemptShort,
		NextBuddy, PickBuddy, DelayDequeue, DelayZero, WakeupPreemption}
}

func replayCmd(seed uint64) string {
	return fmt.Sprintf("go test ./core/sched -run 'TestFairAgainstReference' -seed=%d -v", seed)
}

// runChecked runs one random workload with the checker attached.
func runChecked(t *testing.T, seed uint64, kernel, machine string, dur Time) checkStats {
	t.Helper()
	r := randomRun(t, seed, kernel, machine, dur)
	c := newFairChecker(t, r.Sim, replayCmd(seed))
	r.Attach(c)
	r.RunUntil(dur)
	if err := r.Err(); err != nil {
		t.Errorf("seed %d: run failed: %v\n\treplay: %s", seed, err, replayCmd(seed))
	}
	if c.fails > maxCheckFailures {
		t.Errorf("seed %d: %d more failures not shown", seed, c.fails-maxCheckFailures)
	}
	return c.stats
}

// seedCase is one randomized run: the seed decides the profile and the
// machine too, so that -seed=N alone replays it.
func seedCase(seed uint64) (kernel, machine string) {
	names := ProfileNames()
	return names[seed%uint64(len(names))], []string{"smp-1", "smp-2"}[(seed/uint64(len(names)))%2]
}

func TestFairAgainstReference(t *testing.T) {
	dur := 250 * Millisecond
	seeds := 150
	if testing.Short() {
		seeds, dur = 40, 100*Millisecond
	}
	var first uint64 = 1
	if *seedFlag != 0 {
		first, seeds = *seedFlag, 1
	}
	var total checkStats
	perKernel := map[string]int{}
	for seed := first; seed < first+uint64(seeds); seed++ {
		kernel, machine := seedCase(seed)
		t.Run(fmt.Sprintf("seed=%d/%s/%s", seed, kernel, machine), func(t *testing.T) {
			st := runChecked(t, seed, kernel, machine, dur)
			total.add(st)
			perKernel[kernel]++
		})
	}
	t.Logf("checked %d events, %d picks, %d placements, %d exact dequeue lags (%d clamped, %d only bounded), %d delayed dequeues",
		total.events, total.picks, total.placements, total.lagExact, total.lagClamped, total.lagAmbiguous, total.delayedZero)
	if *seedFlag != 0 {
		return
	}
	// The references must have been exercised, or the test proves nothing.
	for _, k := range ProfileNames() {
		if perKernel[k] == 0 {
			t.Errorf("no randomized run for %s", k)
		}
	}
	if total.lagExact == 0 || total.lagClamped == 0 || total.delayedZero == 0 || total.picks == 0 || total.placements == 0 {
		t.Errorf("the randomized runs did not exercise every check: %+v", total)
	}
}

// TestTogglableAgreesWithFeatureRanges: the fair sched_feats that the
// random runs flip per version (features.h, kernel-rules.md §3) are the
// ones the profile accepts (feature_versions.go), and those that exist in
// no version's list here are refused.
func TestTogglableAgreesWithFeatureRanges(t *testing.T) {
	fair := map[Feature]bool{}
	for _, p := range Profiles() {
		for _, f := range togglable(p.Name) {
			fair[f] = true
		}
	}
	for _, p := range Profiles() {
		in := map[Feature]bool{}
		for _, f := range togglable(p.Name) {
			in[f] = true
		}
		for f := range numFeatures {
			if fair[f] && f.AppliesTo(p.Version()) != in[f] {
				t.Errorf("%s: %s AppliesTo=%v, features.h has it: %v", p.Name, f, f.AppliesTo(p.Version()), in[f])
			}
		}
	}
}
