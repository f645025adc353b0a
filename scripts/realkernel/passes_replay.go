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
// CPU capacities are taken as equal. Abstracted: the weights are those of
// the instant, not of the last update_cfs_group(), and delayed-dequeue
// entities, which stay in load.weight, are not in the traced count (the
// report says how often a sample's .load exceeds it).

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// replayLevel is the group whose runqueue holds the mix tasks and its
// parent, as the harness creates them (cgroups.go).
const (
	replayMixGroup    = "/" + scratchParent + "/mix"
	replayParentGroup = "/" + scratchParent
	replayImbPct      = 117 // the two-CPU domain's imbalance_pct
)

// cpuState is one CPU at a pass: the runnable tasks the trace shows.
type cpuState struct {
	mix, other int // runnable mix tasks, runnable other tasks
}

// groupFields are one CPU's sampled fields of a group's cfs_rq.
type groupFields struct {
	loadAvg, tgLoadAvg, contrib int64
}

// passVerdict is one pass decided both ways and as the trace shows it.
type passVerdict struct {
	at                  int64 // ns since time zero
	cpu                 int
	real, withMax, avgO bool // imbalance found: by the gap, predicted with max(), with load_avg alone
}

// shareOf is calc_group_shares() in unscaled units (tg shares unscaled,
// load the cfs_rq's load as chosen).
func shareOf(tgShares, load int64, f groupFields) int64 {
	return groupShares(tgShares, load, f.tgLoadAvg, f.contrib) >> 10
}

// predictImbalance decides the pass of local against busiest from their
// runnable counts and root loads (cpu_load()).
func predictImbalance(local, busiest cpuState, lLoad, bLoad int64) bool {
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
	avg := (lLoad + bLoad) / 2
	if lLoad >= bLoad || lLoad >= avg {
		return false
	}
	if typ(local) == overloaded && 100*bLoad <= replayImbPct*lLoad {
		return false
	}
	return min(bLoad-avg, avg-lLoad) > 0
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
	type taskState struct {
		cpu      int
		runnable bool
		mix      bool
	}
	tasks := map[int64]*taskState{}
	get := func(pid int64, comm string) *taskState {
		t := tasks[pid]
		if t == nil {
			t = &taskState{cpu: -1, mix: isMixTask(comm, prefixes)}
			tasks[pid] = t
		}
		return t
	}
	state := func() [2]cpuState {
		var st [2]cpuState
		for _, t := range tasks {
			if !t.runnable || t.cpu < 0 || t.cpu > 1 {
				continue
			}
			if t.mix {
				st[t.cpu].mix++
			} else {
				st[t.cpu].other++
			}
		}
		return st
	}
	si := 0
	last := map[int]int{} // CPU -> index in vs of its latest pass
	for _, r := range recs {
		for si+1 < len(ds.Samples) && ds.Samples[si+1].SchedClk <= r.TS {
			si++
			if ds.Samples[si].SchedClk-t0 >= from {
				st := state()
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
		switch r.Event {
		case "sched_wakeup", "sched_wakeup_new":
			pid, ok := r.intField("pid")
			cpu, ok2 := r.intField("target_cpu")
			if !ok || !ok2 {
				return nil, 0, 0, fmt.Errorf("%s at %.6f: want pid= and target_cpu=", r.Event, float64(r.TS)/1e9)
			}
			t := get(pid, r.field("comm"))
			t.cpu, t.runnable = int(cpu), true
		case "sched_migrate_task":
			pid, ok := r.intField("pid")
			cpu, ok2 := r.intField("dest_cpu")
			if !ok || !ok2 {
				return nil, 0, 0, fmt.Errorf("sched_migrate_task at %.6f: want pid= and dest_cpu=", float64(r.TS)/1e9)
			}
			get(pid, r.field("comm")).cpu = int(cpu)
		case "sched_switch":
			prev, ok := r.intField("prev_pid")
			next, ok2 := r.intField("next_pid")
			if !ok || !ok2 {
				return nil, 0, 0, fmt.Errorf("sched_switch at %.6f: want prev_pid= and next_pid=", float64(r.TS)/1e9)
			}
			if prev != 0 {
				t := get(prev, r.field("prev_comm"))
				t.cpu = r.CPU
				t.runnable = strings.HasPrefix(r.field("prev_state"), "R")
			}
			if next != 0 {
				t := get(next, r.field("next_comm"))
				t.cpu, t.runnable = r.CPU, true
			}
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
			st := state()
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
			v := passVerdict{at: at, cpu: r.CPU,
				withMax: predictImbalance(st[r.CPU], st[b], lm[r.CPU], lm[b]),
				avgO:    predictImbalance(st[r.CPU], st[b], la[r.CPU], la[b])}
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
	var real, pm, pa, agreeM, agreeA, hitM, hitA int
	for _, v := range vs {
		if v.real {
			real++
		}
		if v.withMax {
			pm++
			if v.real {
				hitM++
			}
		}
		if v.avgO {
			pa++
			if v.real {
				hitA++
			}
		}
		if v.withMax == v.real {
			agreeM++
		}
		if v.avgO == v.real {
			agreeA++
		}
	}
	fmt.Fprintf(w, "%s: %d busy passes after %.2f s with an outcome, %d imbalanced by the spacing\n", trace, len(vs), float64(from)/1e9, real)
	fmt.Fprintf(w, "  max(load.weight, load_avg): %d predicted imbalanced (%d of them real), agrees at %d of %d\n", pm, hitM, agreeM, len(vs))
	fmt.Fprintf(w, "  load_avg alone:             %d predicted imbalanced (%d of them real), agrees at %d of %d\n", pa, hitA, agreeA, len(vs))
	fmt.Fprintf(w, "  samples whose %s .load exceeds the traced runnable count: %d of %d\n", replayMixGroup, heavier, compared)
	return nil
}
