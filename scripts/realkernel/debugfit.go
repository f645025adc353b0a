//go:build linux

package main

// -fit-debug FILE: the group entity weights sampled by -sample-debug
// (debugfs.go) against two readings of calc_group_shares() (kernel/sched/
// fair.c, v6.18), computed from each sample's own fields:
//
//	load      = max(scale_load_down(grq->load.weight), grq->avg.load_avg)   (the source)
//	load      = grq->avg.load_avg                                            (the alternative)
//	tg_weight = tg->load_avg - grq->tg_load_avg_contrib + load
//	shares    = clamp(tg->shares * load / tg_weight, MIN_SHARES, tg->shares)
//
// sched/debug prints .load (grq->load.weight) and .se->load.weight scaled
// by 1024 (scale_load(), 64-bit), the averages unscaled. The weight in a
// sample was set by the group entity's last update_cfs_group() (enqueue,
// dequeue, and the tick while one of the group's tasks runs), the other
// fields are current, so a fresh weight equals its prediction and a stale
// one lags it: the fit counts both and how often the weight changes between
// two samples. A sample decides between the two readings only when they
// differ (the group's runqueue holds more runnable weight than its load
// average); those are counted apart.
//
// It also prints what the periodic balance compares at each level, the
// ratio of the largest to the smallest CPU's group entity weight and root
// cfs_rq load_avg (cpu_load()), and the rest of the machine's load on each
// root cfs_rq, over the samples from -fit-from seconds on.

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// debugBlock is one cfs_rq block of a sample.
type debugBlock struct {
	CPU    int
	Path   string
	Fields map[string]string
}

// debugSample is one read of sched/debug as -sample-debug keeps it.
type debugSample struct {
	At       float64 // seconds since the workers' release
	SchedClk int64   // ns, the sample's sched_clk line: the trace's local clock (0 if absent)
	Blocks   []debugBlock
}

// debugSamples is a parsed -sample-debug file.
type debugSamples struct {
	Shares  map[string]int64 // tg->shares per group path, unscaled
	Samples []debugSample
}

// parseDebugSamples reads a -sample-debug file.
func parseDebugSamples(r io.Reader) (debugSamples, error) {
	ds := debugSamples{Shares: map[string]int64{}}
	var cur *debugBlock
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for ln := 1; sc.Scan(); ln++ {
		line := sc.Text()
		bad := func(want string) error { return fmt.Errorf("line %d: %q: want %s", ln, line, want) }
		switch {
		case strings.HasPrefix(line, "# shares "):
			f := strings.Fields(line)
			n, err := strconv.ParseInt(f[len(f)-1], 10, 64)
			if len(f) != 4 || err != nil || n <= 0 {
				return ds, bad("# shares PATH N with N > 0")
			}
			ds.Shares[f[2]] = n
		case strings.HasPrefix(line, "# sample "):
			f := strings.Fields(line)
			at, err := strconv.ParseFloat(strings.TrimPrefix(f[len(f)-1], "+"), 64)
			if len(f) != 4 || err != nil {
				return ds, bad("# sample N +SECONDS")
			}
			ds.Samples = append(ds.Samples, debugSample{At: at})
			cur = nil
		case strings.HasPrefix(line, "cfs_rq["):
			if len(ds.Samples) == 0 {
				return ds, bad("a # sample line first")
			}
			num, path, ok := strings.Cut(strings.TrimPrefix(line, "cfs_rq["), "]:")
			cpu, err := strconv.Atoi(num)
			if !ok || err != nil {
				return ds, bad("cfs_rq[CPU]:PATH")
			}
			s := &ds.Samples[len(ds.Samples)-1]
			s.Blocks = append(s.Blocks, debugBlock{CPU: cpu, Path: path, Fields: map[string]string{}})
			cur = &s.Blocks[len(s.Blocks)-1]
		case strings.HasPrefix(line, "  ."):
			if cur == nil {
				continue // a cpu#N summary line
			}
			k, v, ok := strings.Cut(line[3:], ":")
			if !ok {
				return ds, bad(".key : value")
			}
			cur.Fields[strings.TrimSpace(k)] = strings.TrimSpace(v)
		case strings.HasPrefix(line, "sched_clk") && len(ds.Samples) > 0:
			_, v, _ := strings.Cut(line, ":")
			ms, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return ds, bad("sched_clk : MILLISECONDS")
			}
			ds.Samples[len(ds.Samples)-1].SchedClk = int64(ms * 1e6)
			cur = nil
		default:
			cur = nil // the other header clocks, cpu#N lines
		}
	}
	return ds, sc.Err()
}

// int field of a block; ok is false when absent or not an integer.
func (b debugBlock) int(key string) (int64, bool) {
	n, err := strconv.ParseInt(b.Fields[key], 10, 64)
	return n, err == nil
}

// groupShares is calc_group_shares() on the sampled fields, in scaled
// units (as .se->load.weight prints), with load from the chosen reading.
func groupShares(tgShares, load, tgLoadAvg, contrib int64) int64 {
	const minShares = 2
	scaled := tgShares << 10
	tgWeight := tgLoadAvg - contrib + load
	shares := scaled * load
	if tgWeight != 0 {
		shares /= tgWeight
	}
	return min(max(shares, minShares), scaled)
}

// weightFit is the fit of one group's entity weights over all samples and CPUs.
type weightFit struct {
	Path                 string
	N                    int       // samples with the entity's weight and a non-empty runqueue
	Empty                int       // samples of an empty runqueue: update_cfs_group() keeps the weight
	ErrMax, ErrAvg       []float64 // |weight / prediction - 1| per sample
	Decisive             int       // samples whose two predictions differ by more than 5 %
	CloserMax, CloserAvg int       // of those, nearer to each prediction
	MatchMax, MatchAvg   int       // of those, within 1 % of each
	Pairs, Changed       int       // consecutive samples of one CPU, and those whose weight moved
	FreshMax             int       // samples within 0.1 % of the max() prediction
}

// fitWeights fits every group of ds that has known shares.
func fitWeights(ds debugSamples) ([]weightFit, error) {
	var paths []string
	for p := range ds.Shares {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var out []weightFit
	for _, p := range paths {
		f := weightFit{Path: p}
		last := map[int]int64{}
		for si, s := range ds.Samples {
			for _, b := range s.Blocks {
				if b.Path != p {
					continue
				}
				w, ok1 := b.int("se->load.weight")
				lw, ok2 := b.int("load")
				la, ok3 := b.int("load_avg")
				c, ok4 := b.int("tg_load_avg_contrib")
				tg, ok5 := b.int("tg_load_avg")
				if !(ok1 && ok2 && ok3 && ok4 && ok5) {
					return nil, fmt.Errorf("sample %d, cfs_rq[%d]:%s: want integer se->load.weight, load, load_avg, tg_load_avg_contrib and tg_load_avg", si, b.CPU, p)
				}
				if lw == 0 {
					f.Empty++
					continue
				}
				pm := groupShares(ds.Shares[p], max(lw>>10, la), tg, c)
				pa := groupShares(ds.Shares[p], la, tg, c)
				em, ea := relErr(w, pm), relErr(w, pa)
				f.N++
				f.ErrMax, f.ErrAvg = append(f.ErrMax, em), append(f.ErrAvg, ea)
				if em <= 0.001 {
					f.FreshMax++
				}
				if relErr(pm, pa) > 0.05 {
					f.Decisive++
					if em < ea {
						f.CloserMax++
					} else {
						f.CloserAvg++
					}
					if em <= 0.01 {
						f.MatchMax++
					}
					if ea <= 0.01 {
						f.MatchAvg++
					}
				}
				if prev, ok := last[b.CPU]; ok {
					f.Pairs++
					if prev != w {
						f.Changed++
					}
				}
				last[b.CPU] = w
			}
		}
		out = append(out, f)
	}
	return out, nil
}

// relErr is |a/b - 1| (b > 0 for every caller: shares are at least MIN_SHARES).
func relErr(a, b int64) float64 {
	r := float64(a)/float64(b) - 1
	if r < 0 {
		return -r
	}
	return r
}

// quantile of xs (sorted in place), q in [0, 1].
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sort.Float64s(xs)
	return xs[int(q*float64(len(xs)-1)+0.5)]
}

// levelRatios returns, for the samples at or after from seconds, the
// ratio of the largest to the smallest per-CPU value of what the periodic
// balance ends up comparing at each level: each group's entity weight
// (.se->load.weight) and the root cfs_rq's load_avg (cpu_load()), keyed
// by group path ("/" for the root). A sample counts for a level only when
// every one of ncpu CPUs has that level's block.
func levelRatios(ds debugSamples, from float64, ncpu int) map[string][]float64 {
	out := map[string][]float64{}
	for _, s := range ds.Samples {
		if s.At < from {
			continue
		}
		vals := map[string][]int64{}
		for _, b := range s.Blocks {
			key := "se->load.weight"
			if b.Path == "/" {
				key = "load_avg"
			}
			if v, ok := b.int(key); ok && v > 0 {
				vals[b.Path] = append(vals[b.Path], v)
			}
		}
		for p, vs := range vals {
			if len(vs) != ncpu {
				continue
			}
			out[p] = append(out[p], float64(slices.Max(vs))/float64(slices.Min(vs)))
		}
	}
	return out
}

// otherLoad returns, per CPU, the root cfs_rq's load.weight less the
// weights of the scratch parent's entities: the rest of the machine's
// runnable load beside the case, unscaled.
func otherLoad(ds debugSamples, parent string, from float64) map[int][]float64 {
	out := map[int][]float64{}
	for _, s := range ds.Samples {
		if s.At < from {
			continue
		}
		root, case_ := map[int]int64{}, map[int]int64{}
		for _, b := range s.Blocks {
			switch b.Path {
			case "/":
				if v, ok := b.int("load"); ok {
					root[b.CPU] = v
				}
			case parent:
				if v, ok := b.int("se->load.weight"); ok {
					case_[b.CPU] = v
				}
			}
		}
		for cpu, r := range root {
			out[cpu] = append(out[cpu], float64((r-case_[cpu])>>10))
		}
	}
	return out
}
