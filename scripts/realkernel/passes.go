//go:build linux

package main

// -passes FILE,...: the periodic load balancer's outcomes and the mix
// tasks' migrations, counted by one walk that reads a real tracefs capture
// (-trace DIR -trace-softirq) and the simulator's ftrace text (schedplay
// run -trace FILE -trace-softirq) alike (docs/real-kernel-notes.md item 4).
//
// The outcome of a periodic pass is in the spacing of its CPU's SCHED
// softirqs: sched_balance_rq() sets sd->balance_interval back to
// min_interval when it found an imbalance (moved or not) and doubles it up
// to max_interval when it found none; get_sd_balance_interval() multiplies
// it by busy_factor 16 and takes one jiffy off, and the tick raises the
// next softirq when jiffies reach rq->next_balance. For the two-CPU domain
// of the mix cases (min_interval 2 ms, max_interval 4 ms) at HZ 250 that is
// 28 ms after an imbalance and 60 ms after a balanced pass, and a jiffy
// more when the tick that raises it comes late (32, 64 ms). Gaps outside
// both bands (a CPU going idle, the nohz idle balance) count as other.
//
// Time zero is the first wakeup of a mix task (the release of the workers
// on the machine, the scenario's start in the simulator).

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Gap bands of a pass on a busy CPU at HZ 250 (see the file comment), with
// a millisecond either side for the tick's own jitter.
const (
	passImbalancedLo, passImbalancedHi = 27e6, 33e6 // 28 or 32 ms
	passBalancedLo, passBalancedHi     = 59e6, 65e6 // 60 or 64 ms
	// passPullWindow: a migration onto the pass's CPU this soon after the
	// softirq's entry is that pass's pull.
	passPullWindow = 1e6
	// episodeGap: migrations closer than this belong to one episode.
	episodeGap = 500e6
)

// passCount is what one trace shows from the chosen time on.
type passCount struct {
	Passes, Imbalanced, Balanced, Other int
	Pulls                               int // imbalanced passes followed by a pull of a mix task
	Migrations                          int // of the mix tasks
	Episodes                            []episode
	LastAt                              int64 // ns, the last event (the trace's length)
	// States splits the passes by the runnable mix tasks of the pass's CPU
	// and of the other CPU at the softirq's entry; ByAge splits them
	// further by how long both counts had held (ageBucket).
	States map[[2]int]*stateCount
	ByAge  map[ageKey]*stateCount
	// Placement is the most common placement of the mix tasks from the
	// chosen time on (rqTracker.placement) and PlacementShare its share of
	// that time.
	Placement      string
	PlacementShare float64
}

// stateCount is the passes of one state and their outcomes.
type stateCount struct {
	Passes, Imbalanced, Pulls int
}

// episode is a run of migrations less than episodeGap apart.
type episode struct {
	From, To int64 // ns since time zero
	N        int
}

// isMixTask reports whether comm starts with one of prefixes.
func isMixTask(comm string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(comm, p) {
			return true
		}
	}
	return false
}

// timeZero is the time of the first wakeup of a mix task.
func timeZero(recs []traceRec, prefixes []string) (int64, error) {
	for _, r := range recs {
		if (r.Event == "sched_wakeup" || r.Event == "sched_wakeup_new") && isMixTask(r.field("comm"), prefixes) {
			return r.TS, nil
		}
	}
	return 0, fmt.Errorf("no wakeup of a task named %s*", strings.Join(prefixes, "*, "))
}

// countPasses walks recs (parseTrace) from from ns after time zero on.
func countPasses(recs []traceRec, prefixes []string, from int64) (passCount, error) {
	var pc passCount
	t0, err := timeZero(recs, prefixes)
	if err != nil {
		return pc, err
	}
	type pass struct {
		at     int64
		pulled bool
		state  [2]int
		age    int64 // ns both CPUs' mix counts had held (ageBounds)
	}
	passes := map[int][]pass{}
	var migs []int64
	rq := newRQTracker(prefixes)
	var held [2]int     // each CPU's runnable mix tasks
	var heldSince int64 // when either count last changed
	inPlace := map[string]int64{}
	place, placeSince := "", from
	for _, r := range recs {
		at := r.TS - t0
		pc.LastAt = max(pc.LastAt, at)
		if err := rq.apply(r); err != nil {
			return pc, err
		}
		if st := rq.counts(); st[0].mix != held[0] || st[1].mix != held[1] {
			held, heldSince = [2]int{st[0].mix, st[1].mix}, at
		}
		if p := rq.placement(); p != place {
			if at > placeSince && place != "" {
				inPlace[place] += at - placeSince
			}
			place, placeSince = p, max(at, from)
		}
		switch r.Event {
		case "softirq_entry":
			if r.field("vec") == "7" && at >= from && r.CPU >= 0 && r.CPU <= 1 {
				st := rq.counts()
				passes[r.CPU] = append(passes[r.CPU], pass{at: at, state: [2]int{st[r.CPU].mix, st[1-r.CPU].mix}, age: at - heldSince})
			}
		case "sched_migrate_task":
			if at < from || !isMixTask(r.field("comm"), prefixes) {
				continue
			}
			migs = append(migs, at)
			dest, ok := r.intField("dest_cpu")
			if !ok {
				return pc, fmt.Errorf("sched_migrate_task at %.6f: no dest_cpu", float64(r.TS)/1e9)
			}
			if ps := passes[int(dest)]; len(ps) > 0 && at-ps[len(ps)-1].at <= passPullWindow {
				ps[len(ps)-1].pulled = true
			}
		}
	}
	cpus := make([]int, 0, len(passes))
	for c := range passes {
		cpus = append(cpus, c)
	}
	sort.Ints(cpus)
	pc.States, pc.ByAge = map[[2]int]*stateCount{}, map[ageKey]*stateCount{}
	for _, c := range cpus {
		ps := passes[c]
		for i := 0; i+1 < len(ps); i++ { // the last pass has no next one to tell its outcome
			pc.Passes++
			sc := pc.States[ps[i].state]
			if sc == nil {
				sc = &stateCount{}
				pc.States[ps[i].state] = sc
			}
			ak := ageKey{ps[i].state, ageBucket(ps[i].age)}
			sa := pc.ByAge[ak]
			if sa == nil {
				sa = &stateCount{}
				pc.ByAge[ak] = sa
			}
			sc.Passes++
			sa.Passes++
			switch gap := ps[i+1].at - ps[i].at; {
			case gap >= passImbalancedLo && gap <= passImbalancedHi:
				pc.Imbalanced++
				sc.Imbalanced++
				sa.Imbalanced++
				if ps[i].pulled {
					pc.Pulls++
					sc.Pulls++
					sa.Pulls++
				}
			case gap >= passBalancedLo && gap <= passBalancedHi:
				pc.Balanced++
			default:
				pc.Other++
			}
		}
	}
	if pc.LastAt > placeSince && place != "" {
		inPlace[place] += pc.LastAt - placeSince
	}
	var total int64
	for p, d := range inPlace {
		total += d
		if d > inPlace[pc.Placement] || d == inPlace[pc.Placement] && p < pc.Placement {
			pc.Placement = p
		}
	}
	if total > 0 {
		pc.PlacementShare = float64(inPlace[pc.Placement]) / float64(total)
	}
	pc.Migrations = len(migs)
	for i, at := range migs {
		if i == 0 || at-migs[i-1] >= episodeGap {
			pc.Episodes = append(pc.Episodes, episode{From: at, To: at})
		}
		e := &pc.Episodes[len(pc.Episodes)-1]
		e.To, e.N = at, e.N+1
	}
	return pc, nil
}

// printPasses counts each file and prints one Markdown row per file, then
// for each group of files (groups separated by ";" in -passes) the passes
// split by state.
func printPasses(w io.Writer, groups [][]string, prefixes []string, from int64) error {
	fmt.Fprintf(w, "Periodic balance passes and migrations of the tasks %s* from %.2f s on (scripts/realkernel/passes.go):\n\n",
		strings.Join(prefixes, "*, "), float64(from)/1e9)
	fmt.Fprintln(w, "| trace | passes | imbalanced (28-32 ms) | balanced (60-64 ms) | other | imbalanced with a pull | migrations | episodes (from-to s: migrations) | most common placement (share of the time) |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|---|---|")
	sums := make([]map[[2]int]*stateCount, len(groups))
	ages := make([]map[ageKey]*stateCount, len(groups))
	for g, files := range groups {
		sums[g], ages[g] = map[[2]int]*stateCount{}, map[ageKey]*stateCount{}
		for _, path := range files {
			pc, err := countFile(path, prefixes, from)
			if err != nil {
				return err
			}
			var eps []string
			for _, e := range pc.Episodes {
				eps = append(eps, fmt.Sprintf("%.2f-%.2f: %d", float64(e.From)/1e9, float64(e.To)/1e9, e.N))
			}
			fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %d | %s | %s (%.0f %%) |\n", path, pc.Passes, pc.Imbalanced, pc.Balanced,
				pc.Other, pc.Pulls, pc.Migrations, strings.Join(eps, ", "), pc.Placement, 100*pc.PlacementShare)
			for k, sc := range pc.States {
				t := sums[g][k]
				if t == nil {
					t = &stateCount{}
					sums[g][k] = t
				}
				t.add(sc)
			}
			for k, sc := range pc.ByAge {
				t := ages[g][k]
				if t == nil {
					t = &stateCount{}
					ages[g][k] = t
				}
				t.add(sc)
			}
		}
	}
	fmt.Fprintln(w, "\nPasses by the runnable mix tasks of the balancing CPU against the other CPU's at the softirq, per group of traces: passes, % of all passes of the group, % of them imbalanced, pulls:")
	fmt.Fprintln(w)
	var keys [][2]int
	seen := map[[2]int]bool{}
	for _, m := range sums {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
	})
	fmt.Fprint(w, "| state |")
	for g := range groups {
		fmt.Fprintf(w, " group %d (%d traces) |", g+1, len(groups[g]))
	}
	fmt.Fprint(w, "\n|---|")
	for range groups {
		fmt.Fprint(w, "--:|")
	}
	fmt.Fprintln(w)
	for _, k := range keys {
		fmt.Fprintf(w, "| %d against %d |", k[0], k[1])
		for _, m := range sums {
			total := 0
			for _, sc := range m {
				total += sc.Passes
			}
			sc := m[k]
			if sc == nil || total == 0 {
				fmt.Fprint(w, " - |")
				continue
			}
			fmt.Fprintf(w, " %d, %.1f %%, %.0f %% imb., %d pulls |", sc.Passes, 100*float64(sc.Passes)/float64(total),
				100*float64(sc.Imbalanced)/float64(sc.Passes), sc.Pulls)
		}
		fmt.Fprintln(w)
	}
	printAges(w, keys, sums, ages) // passes_age.go
	return nil
}

// add adds o's counts to sc.
func (sc *stateCount) add(o *stateCount) {
	sc.Passes += o.Passes
	sc.Imbalanced += o.Imbalanced
	sc.Pulls += o.Pulls
}

// countFile reads and counts one trace.
func countFile(path string, prefixes []string, from int64) (passCount, error) {
	f, err := os.Open(path)
	if err != nil {
		return passCount{}, err
	}
	recs, _, err := parseTrace(f)
	f.Close()
	if err != nil {
		return passCount{}, fmt.Errorf("%s: %v", path, err)
	}
	pc, err := countPasses(recs, prefixes, from)
	if err != nil {
		return pc, fmt.Errorf("%s: %v", path, err)
	}
	if pc.Passes == 0 {
		return pc, fmt.Errorf("%s: no SCHED softirq after %.2f s (recorded without -trace-softirq?)", path, float64(from)/1e9)
	}
	return pc, nil
}
