package main

// Summary statistics of a measured sample (kbuildjobs summary): the
// numbers docs/placement.md quotes and the octile means the kbuild
// generator's dist "kbuild61" uses (core/scenario/kbuild_dist.go).

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

// readCPU reads the cpu_s column of a kbuildjobs measure TSV.
func readCPU(path string) ([]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var xs []float64
	col := -1
	sc := bufio.NewScanner(f)
	for ln := 1; sc.Scan(); ln++ {
		t := sc.Text()
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		fs := strings.Split(t, "\t")
		if col < 0 {
			col = slices.Index(fs, "cpu_s")
			if col < 0 {
				return nil, fmt.Errorf("%s:%d: header has no cpu_s column", path, ln)
			}
			continue
		}
		if col >= len(fs) {
			return nil, fmt.Errorf("%s:%d: want %d columns", path, ln, col+1)
		}
		v, err := strconv.ParseFloat(fs[col], 64)
		if err != nil || v < 0 {
			return nil, fmt.Errorf("%s:%d: cpu_s %q is not a non-negative number", path, ln, fs[col])
		}
		xs = append(xs, v)
	}
	if len(xs) == 0 {
		return nil, fmt.Errorf("%s: no samples", path)
	}
	return xs, sc.Err()
}

// quantile of sorted xs by linear interpolation between order statistics.
func quantile(xs []float64, q float64) float64 {
	p := q * float64(len(xs)-1)
	i := int(p)
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[i] + (p-float64(i))*(xs[i+1]-xs[i])
}

// octileMeans splits sorted xs into 8 groups of (nearly) equal size,
// shortest first, and returns each group's mean.
func octileMeans(xs []float64) [8]float64 {
	var m [8]float64
	for c := range 8 {
		lo, hi := c*len(xs)/8, (c+1)*len(xs)/8
		s := 0.0
		for _, x := range xs[lo:hi] {
			s += x
		}
		m[c] = s / float64(max(hi-lo, 1))
	}
	return m
}

func cmdSummary(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: kbuildjobs summary FILE.tsv")
	}
	xs, err := readCPU(args[0])
	if err != nil {
		return err
	}
	slices.Sort(xs)
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(len(xs))
	fmt.Printf("n %d, total %.1f CPU-s, mean %.3f s, median %.3f s, min %.3f s, max %.3f s\n",
		len(xs), sum, mean, quantile(xs, 0.5), xs[0], xs[len(xs)-1])
	fmt.Print("deciles (s):")
	for d := 1; d <= 9; d++ {
		fmt.Printf(" %.3f", quantile(xs, float64(d)/10))
	}
	fmt.Println()
	top := xs[len(xs)-len(xs)/10:]
	ts := 0.0
	for _, x := range top {
		ts += x
	}
	fmt.Printf("tail: longest 10%% (%d jobs) hold %.0f%% of the CPU; p95 %.3f s, max/mean %.2f\n",
		len(top), 100*ts/sum, quantile(xs, 0.95), xs[len(xs)-1]/mean)
	om := octileMeans(xs)
	fmt.Print("octile means / mean:")
	for _, m := range om {
		fmt.Printf(" %.3f", m/mean)
	}
	fmt.Println()
	return nil
}
