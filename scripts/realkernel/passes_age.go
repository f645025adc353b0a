//go:build linux

package main

// The passes of -passes split by the age of their state (passes.go): how
// long both CPUs had held their counts of runnable mix tasks when the
// SCHED softirq ran. A group entity's weight follows a change of its CPU's
// tasks only through PELT (load_avg, a 32 ms half-life) and through
// update_tg_load_avg(), which publishes a cfs_rq's contribution to
// tg->load_avg at most once a millisecond and only after a 1/64 change
// (calc_group_shares() reads it): a young state is weighed with the
// weights of the one before. If the real and the simulated balancer find a
// state imbalanced equally often at the same age, a difference in the
// state's overall rate comes from how long the states last, not from a
// rule of the balancer (docs/real-kernel-notes.md item 4).

import (
	"fmt"
	"io"
)

// ageBounds are the upper ends of the age buckets of a state, in ns: the
// time since either CPU's count of runnable mix tasks last changed (in
// these mixes a count seldom holds for more than 8 ms). The first is
// update_tg_load_avg()'s 1 ms rate limit.
var ageBounds = []int64{1e6, 2e6, 4e6, 8e6}

// ageKey is a state and the bucket of its age (len(ageBounds): older).
type ageKey struct {
	State  [2]int
	Bucket int
}

// ageBucket is the bucket of age (ns).
func ageBucket(age int64) int {
	for i, b := range ageBounds {
		if age < b {
			return i
		}
	}
	return len(ageBounds)
}

// ageLabel names bucket i.
func ageLabel(i int) string {
	switch {
	case i == 0:
		return fmt.Sprintf("< %d ms", ageBounds[0]/1e6)
	case i == len(ageBounds):
		return fmt.Sprintf(">= %d ms", ageBounds[i-1]/1e6)
	}
	return fmt.Sprintf("%d-%d ms", ageBounds[i-1]/1e6, ageBounds[i]/1e6)
}

// printAges prints, for each state that some group finds imbalanced at
// 10 % of its passes or more, its passes by age bucket: passes, %
// imbalanced, pulls per group.
func printAges(w io.Writer, keys [][2]int, sums []map[[2]int]*stateCount, ages []map[ageKey]*stateCount) {
	fmt.Fprintln(w, "\nThe same passes by the age of their state (time since either CPU's count of runnable mix tasks last changed), for the states some group finds imbalanced at 10 % or more: passes, % imbalanced, pulls:")
	fmt.Fprintln(w)
	fmt.Fprint(w, "| state | age |")
	for g := range sums {
		fmt.Fprintf(w, " group %d |", g+1)
	}
	fmt.Fprint(w, "\n|---|---|")
	for range sums {
		fmt.Fprint(w, "--:|")
	}
	fmt.Fprintln(w)
	for _, k := range keys {
		shown := false
		for _, m := range sums {
			if sc := m[k]; sc != nil && sc.Passes > 0 && 10*sc.Imbalanced >= sc.Passes {
				shown = true
			}
		}
		if !shown {
			continue
		}
		for b := 0; b <= len(ageBounds); b++ {
			fmt.Fprintf(w, "| %d against %d | %s |", k[0], k[1], ageLabel(b))
			for _, m := range ages {
				sc := m[ageKey{k, b}]
				if sc == nil || sc.Passes == 0 {
					fmt.Fprint(w, " - |")
					continue
				}
				fmt.Fprintf(w, " %d, %.0f %%, %d |", sc.Passes, 100*float64(sc.Imbalanced)/float64(sc.Passes), sc.Pulls)
			}
			fmt.Fprintln(w)
		}
	}
}
