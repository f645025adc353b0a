//go:build linux

package main

// -replay-passes TRACE -replay-debug FILE: each periodic pass of a real
// capture (passes.go) decided again by the rules of
// sched_balance_find_src_group() and calculate_imbalance() (v6.18
// kernel/sched/fair.c, docs/kernel-rules.md section 9), from the state the
// capture and the -sample-debug file give at the pass, against the outcome
// the softirq spacing shows (docs/real-kernel-notes.md item 4).
//
// At a pass on CPU c: the runnable tasks of each CPU come from the trace
// (a wakeup makes a task runnable on its target CPU, a switch-out in a
// state other than R ends it, a migration moves it); the group fields
// (/mix and its parent: load_avg, tg_load_avg, tg_load_avg_contrib) and
// the other load on the root (its load_avg less the parent entity's)
// come from the latest sample before the pass. The group entity weights
// are calc_group_shares() at each level with the /mix runqueue's
// load.weight taken from the traced runnable count, either as the code
// has it (max(load.weight, load_avg)) or with load_avg alone. A CPU with
// more than one runnable task is group_overloaded, with one
// group_fully_busy (both CPUs run at full utilisation in these mixes);
// CPU capacities are either equal or 1024 less the CPU's RT utilisation
// (the harness's sampler runs SCHED_FIFO on CPU 0; scale_rt_capacity()
// takes it off). Abstracted: the weights are those of
// the instant, not of the last update_cfs_group(), and delayed-dequeue
// entities, which stay in load.weight, are not in the traced count (the
// report says how often a sample's .load exceeds it).

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// replayLevel is the group whose runqueue holds the mix tasks and its
// parent, as the harness creates them (cgroups.go).
const (
	replayMixGroup    = "/" + scratchParent + "/mix"
	replayParentGroup = "/" + scratchParent
	replayImbPct      = 117 // the two-CPU domain's imbalance_pct
)

// groupFields are one CPU's sampled fields of a group's cfs_rq.
type groupFields struct {
	loadAvg, tgLoadAvg, contrib int64
}

// passVerdict is one pass decided both ways and as the trace shows it.
type passVerdict struct {
	at     int64 // ns since time zero
	cpu    int
	real   bool                 // imbalance found, by the gap
	nl, nb int                  // runnable tasks of the local and the other CPU
	pred   [replayReadings]bool // imbalance predicted, per reading (replayReadingNames)
}

// The readings a pass is decided by: calc_group_shares() with max() or with
// load_avg alone, and CPU capacities equal or reduced by the RT time.
const replayReadings = 3

var replayReadingNames = [replayReadings]string{
	"max(load.weight, load_avg), equal capacities",
	"max(load.weight, load_avg), capacity less RT time",
	"load_avg alone, capacity less RT time",
}

// shareOf is calc_group_shares() in unscaled units (tg shares unscaled,
// load the cfs_rq's load as chosen).
func shareOf(tgShares, load int64, f groupFields) int64 {
	return groupShares(tgShares, load, f.tgLoadAvg, f.contrib) >> 10
}

// predictImbalance decides the pass of local against busiest from their
// runnable counts, root loads (cpu_load()) and capacities.
func predictImbalance(local, busiest cpuState, lLoad, bLoad, lCap, bCap int64) bool {
	const fullyBusy, overloaded = 1, 2
	typ := func(s cpuState) int {
		if s.mix+s.other > 1 {
			return overloaded
		}
		return fullyBusy
	}
	if busiest.mix+busiest.other == 0 || typ(busiest) != overloaded {
		return false // a busy CPU does not pull from a group that is not overloaded
	}
	lAvg, bAvg := lLoad*1024/lCap, bLoad*1024/bCap
	avg := (lLoad + bLoad) * 1024 / (lCap + bCap)
	if lAvg >= bAvg || lAvg >= avg {
		return false
	}
	if typ(local) == overloaded && 100*bAvg <= replayImbPct*lAvg {
		return false
	}
	return min((bAvg-avg)*bCap, (avg-lAvg)*lCap)/1024 > 0
}

// rootLoads returns each CPU's cpu_load() for the pass: the parent
// entity's weight from the mix runqueue's load (max() with load_avg when
// withMax) plus the sample's other load.
func rootLoads(st [2]cpuState, mix, parent [2]groupFields, other [2]int64, shares map[string]int64, withMax bool) [2]int64 {
	var out [2]int64
	for c := range 2 {
		l := int64(st[c].mix) * 1024
		if withMax {
			l = max(l, mix[c].loadAvg)
		} else {
			l = mix[c].loadAvg
		}
		w := shareOf(shares[replayMixGroup], l, mix[c])
		if withMax {
			w = max(w, parent[c].loadAvg)
		} else {
			w = parent[c].loadAvg
		}
		out[c] = shareOf(shares[replayParentGroup], w, parent[c]) + other[c]
	}
	return out
}

// sampleFields extracts the two groups' fields and the other root load of
// a sample, per CPU; ok is false when a block or field is missing.
func sampleFields(s debugSample) (mix, parent [2]groupFields, other [2]int64, ok bool) {
	var seen int
	parentSE := [2]int64{}
	rootAvg := [2]int64{}
	for _, b := range s.Blocks {
		if b.CPU < 0 || b.CPU > 1 {
			continue
		}
		la, ok1 := b.int("load_avg")
		tg, ok2 := b.int("tg_load_avg")
		ct, ok3 := b.int("tg_load_avg_contrib")
		if !ok1 || !ok2 || !ok3 {
			continue
		}
		switch b.Path {
		case replayMixGroup:
			mix[b.CPU] = groupFields{la, tg, ct}
			seen |= 1 << b.CPU
		case replayParentGroup:
			parent[b.CPU] = groupFields{la, tg, ct}
			if v, ok := b.int("se->avg.load_avg"); ok {
				parentSE[b.CPU] = v
			}
			seen |= 4 << b.CPU
		case "/":
			rootAvg[b.CPU] = la
			seen |= 16 << b.CPU
		}
	}
	for c := range 2 {
		other[c] = max(rootAvg[c]-parentSE[c], 0)
	}
	return mix, parent, other, seen == 63
}

// replayPasses walks the capture once, deciding each pass after from.
// It also counts the samples whose /mix .load exceeds the traced runnable
// count (delayed-dequeue entities, or a state the trace missed).
func replayPasses(recs []traceRec, ds debugSamples, prefixes []string, from int64) (vs []passVerdict, heavier, compared int, err error) {
	if len(ds.Samples) == 0 || ds.Samples[0].SchedClk == 0 {
		return nil, 0, 0, fmt.Errorf("the debug samples have no sched_clk lines")
	}
	if ds.Shares[replayMixGroup] == 0 || ds.Shares[replayParentGroup] == 0 {
		return nil, 0, 0, fmt.Errorf("the debug samples lack # shares lines for %s and %s", replayMixGroup, replayParentGroup)
	}
	t0, err := timeZero(recs, prefixes)
	if err != nil {
		return nil, 0, 0, err
	}
	rq := newRQTracker(prefixes)
	si := 0
	last := map[int]int{} // CPU -> index in vs of its latest pass
	for _, r := range recs {
		for si+1 < len(ds.Samples) && ds.Samples[si+1].SchedClk <= r.TS {
			si++
			if ds.Samples[si].SchedClk-t0 >= from {
				st := rq.counts()
				for _, b := range ds.Samples[si].Blocks {
					if b.Path == replayMixGroup && b.CPU >= 0 && b.CPU <= 1 {
						if l, ok := b.int("load"); ok {
							compared++
							if l>>20 > int64(st[b.CPU].mix) {
								heavier++
							}
						}
					}
				}
			}
		}
		if err := rq.apply(r); err != nil {
			return nil, 0, 0, err
		}
		switch r.Event {
		case "softirq_entry":
			at := r.TS - t0
			if r.field("vec") != "7" || at < from || r.CPU < 0 || r.CPU > 1 {
				continue
			}
			if i, ok := last[r.CPU]; ok {
				gap := at - vs[i].at
				vs[i].real = gap >= passImbalancedLo && gap <= passImbalancedHi
				if !vs[i].real && (gap < passBalancedLo || gap > passBalancedHi) {
					vs[i].cpu = -1 // neither band: no outcome to compare
				}
			}
			st := rq.counts()
			if st[r.CPU].mix+st[r.CPU].other == 0 {
				delete(last, r.CPU) // an idle CPU's pass is not a busy pass
				continue
			}
			mix, parent, other, ok := sampleFields(ds.Samples[si])
			if !ok {
				return nil, 0, 0, fmt.Errorf("sample %d (+%.6f s): want the %s, %s and / blocks of both CPUs", si, ds.Samples[si].At, replayMixGroup, replayParentGroup)
			}
			b := 1 - r.CPU
			lm := rootLoads(st, mix, parent, other, ds.Shares, true)
			la := rootLoads(st, mix, parent, other, ds.Shares, false)
			var capRT [2]int64
			for c := range 2 {
				capRT[c] = max(1024-int64(rq.rtUtil(c, r.TS)), 1)
			}
			v := passVerdict{at: at, cpu: r.CPU, nl: st[r.CPU].mix, nb: st[b].mix}
			v.pred[0] = predictImbalance(st[r.CPU], st[b], lm[r.CPU], lm[b], 1024, 1024)
			v.pred[1] = predictImbalance(st[r.CPU], st[b], lm[r.CPU], lm[b], capRT[r.CPU], capRT[b])
			v.pred[2] = predictImbalance(st[r.CPU], st[b], la[r.CPU], la[b], capRT[r.CPU], capRT[b])
			vs = append(vs, v)
			last[r.CPU] = len(vs) - 1
		}
	}
	// The last pass of each CPU has no outcome.
	lastIdx := make([]int, 0, len(last))
	for _, i := range last {
		lastIdx = append(lastIdx, i)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(lastIdx)))
	for _, i := range lastIdx {
		vs = append(vs[:i], vs[i+1:]...)
	}
	out := vs[:0]
	for _, v := range vs {
		if v.cpu >= 0 {
			out = append(out, v)
		}
	}
	return out, heavier, compared, nil
}

// printReplayPasses replays trace against the samples of debug and prints
// the agreement of each reading with the real outcomes.
func printReplayPasses(w io.Writer, trace, debug string, prefixes []string, from int64) error {
	f, err := os.Open(trace)
	if err != nil {
		return err
	}
	recs, _, err := parseTrace(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %v", trace, err)
	}
	g, err := os.Open(debug)
	if err != nil {
		return err
	}
	ds, err := parseDebugSamples(g)
	g.Close()
	if err != nil {
		return fmt.Errorf("%s: %v", debug, err)
	}
	vs, heavier, compared, err := replayPasses(recs, ds, prefixes, from)
	if err != nil {
		return fmt.Errorf("%s: %v", trace, err)
	}
	var real int
	var pred, hit, agree [replayReadings]int
	for _, v := range vs {
		if v.real {
			real++
		}
		for i, p := range v.pred {
			if p {
				pred[i]++
				if v.real {
					hit[i]++
				}
			}
			if p == v.real {
				agree[i]++
			}
		}
	}
	fmt.Fprintf(w, "%s: %d busy passes after %.2f s with an outcome, %d imbalanced by the spacing\n", trace, len(vs), float64(from)/1e9, real)
	for i, name := range replayReadingNames {
		fmt.Fprintf(w, "  %-50s %3d predicted imbalanced (%3d of them real), agrees at %d of %d\n", name+":", pred[i], hit[i], agree[i], len(vs))
	}
	type split struct{ passes, real, pred, hit int }
	by := map[[2]int]*split{}
	var keys [][2]int
	for _, v := range vs {
		k := [2]int{v.nl, v.nb}
		if by[k] == nil {
			by[k] = &split{}
			keys = append(keys, k)
		}
		sp := by[k]
		sp.passes++
		if v.real {
			sp.real++
		}
		if v.pred[1] {
			sp.pred++
			if v.real {
				sp.hit++
			}
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
	})
	for _, k := range keys {
		sp := by[k]
		fmt.Fprintf(w, "  %d mix tasks runnable against %d: %3d passes, %3d imbalanced, %3d predicted (%s), %3d of them real\n",
			k[0], k[1], sp.passes, sp.real, sp.pred, replayReadingNames[1], sp.hit)
	}
	fmt.Fprintf(w, "  samples whose %s .load exceeds the traced runnable count: %d of %d\n", replayMixGroup, heavier, compared)
	return nil
}
