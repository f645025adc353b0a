//go:build linux

package main

// The text -fit-debug prints (debugfit.go): Markdown tables of the weight
// fit per group, of the per-level ratios, and of the other load per CPU.

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// printDebugFit parses path and prints the fit, and the per-level ratios
// and the other load over the samples from from seconds on.
func printDebugFit(w io.Writer, path string, from float64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	ds, err := parseDebugSamples(f)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	if len(ds.Samples) == 0 || len(ds.Shares) == 0 {
		return fmt.Errorf("%s: no samples or no # shares lines (a -sample-debug file of a case with cgroups?)", path)
	}
	fits, err := fitWeights(ds)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	fmt.Fprintf(w, "%d samples, +%.3f to +%.3f s\n\n", len(ds.Samples), ds.Samples[0].At, ds.Samples[len(ds.Samples)-1].At)
	fmt.Fprintln(w, "| group | shares | samples (empty runqueue, not fitted) | median (p90) error, max() | median (p90) error, load_avg | within 0.1 % of max() | decisive | nearer max() / load_avg | within 1 % of max() / load_avg | weight moved between samples |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, ft := range fits {
		if ft.N == 0 {
			fmt.Fprintf(w, "| %s | %d | 0 (%d) | | | | | | | |\n", ft.Path, ds.Shares[ft.Path], ft.Empty)
			continue
		}
		fmt.Fprintf(w, "| %s | %d | %d (%d) | %.2f %% (%.2f %%) | %.2f %% (%.2f %%) | %d | %d | %d / %d | %d / %d | %d of %d |\n",
			ft.Path, ds.Shares[ft.Path], ft.N, ft.Empty,
			100*quantile(ft.ErrMax, 0.5), 100*quantile(ft.ErrMax, 0.9),
			100*quantile(ft.ErrAvg, 0.5), 100*quantile(ft.ErrAvg, 0.9),
			ft.FreshMax, ft.Decisive, ft.CloserMax, ft.CloserAvg, ft.MatchMax, ft.MatchAvg, ft.Changed, ft.Pairs)
	}
	ncpu := 0
	for _, b := range ds.Samples[0].Blocks {
		if b.Path == "/" {
			ncpu++
		}
	}
	lr := levelRatios(ds, from, ncpu)
	var levels []string
	for p := range lr {
		levels = append(levels, p)
	}
	sort.Strings(levels)
	fmt.Fprintf(w, "\nlargest / smallest over the %d CPUs, samples from +%.3f s: each group's entity weight and the root cfs_rq's load_avg (cpu_load()); 1.17 is imbalance_pct 117:\n\n", ncpu, from)
	fmt.Fprintln(w, "| level | samples | median | p90 | above 1.17 |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|")
	for _, p := range levels {
		xs := lr[p]
		above := 0
		for _, x := range xs {
			if x > 1.17 {
				above++
			}
		}
		name := p + " entity weight"
		if p == "/" {
			name = "root load_avg"
		}
		fmt.Fprintf(w, "| %s | %d | %.3f | %.3f | %d |\n", name, len(xs), quantile(xs, 0.5), quantile(xs, 0.9), above)
	}
	ol := otherLoad(ds, "/"+scratchParent, from)
	var cpus []int
	for c := range ol {
		cpus = append(cpus, c)
	}
	sort.Ints(cpus)
	fmt.Fprintln(w, "\nthe rest of the machine's runnable load on the root cfs_rq (load.weight less the case's entities), per CPU:")
	fmt.Fprintln(w, "\n| CPU | samples | median | p90 |")
	fmt.Fprintln(w, "|--:|--:|--:|--:|")
	for _, c := range cpus {
		fmt.Fprintf(w, "| %d | %d | %.0f | %.0f |\n", c, len(ol[c]), quantile(ol[c], 0.5), quantile(ol[c], 0.9))
	}
	return nil
}
