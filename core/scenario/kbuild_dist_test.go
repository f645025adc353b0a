package scenario

import (
	"bufio"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"schedplay/core/sched"
)

const kbuildData = "../../docs/data/kbuild-6.1-defconfig-jobs.tsv"

// TestKbuildDistMatchesData: the "kbuild61" factors are the octile means
// of the measured compile times over their mean, as kbuild_dist.go says.
func TestKbuildDistMatchesData(t *testing.T) {
	f, err := os.Open(kbuildData)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var xs []float64
	col := -1
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		fs := strings.Split(l, "\t")
		if col < 0 {
			col = slices.Index(fs, "cpu_s")
			continue
		}
		v, err := strconv.ParseFloat(fs[col], 64)
		if err != nil {
			t.Fatalf("%s: %q: %v", kbuildData, l, err)
		}
		xs = append(xs, v)
	}
	if len(xs) < 80 {
		t.Fatalf("%s: %d samples, want at least 80", kbuildData, len(xs))
	}
	slices.Sort(xs)
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(len(xs))
	var total int64
	for c := range kbuildClasses {
		lo, hi := c*len(xs)/kbuildClasses, (c+1)*len(xs)/kbuildClasses
		s := 0.0
		for _, x := range xs[lo:hi] {
			s += x
		}
		want := int64(math.Round(1000 * s / float64(hi-lo) / mean))
		if kbuild61Permille[c] != want {
			t.Errorf("class %d: factor %d per mille, the data give %d", c, kbuild61Permille[c], want)
		}
		total += kbuild61Permille[c]
	}
	if total < 8000-kbuildClasses || total > 8000+kbuildClasses {
		t.Errorf("factors sum to %d per mille, want 8000 (mean 1) within rounding", total)
	}
}

// TestKbuildDistWork: under "kbuild61" the build has the work of `jobs`
// bursts of mean `run` (within the factors' rounding), its classes are
// sorted and skewed (the mean above the median class pair), and the
// default stays the uniform shape.
func TestKbuildDistWork(t *testing.T) {
	run := 100 * sched.Millisecond
	var sum Duration
	for c := range kbuildClasses {
		b := kbuildBurst("kbuild61", run, c)
		if c > 0 && b < kbuildBurst("kbuild61", run, c-1) {
			t.Errorf("class %d shorter than class %d", c, c-1)
		}
		sum += b
		if u := kbuildBurst("uniform", run, c); u != run*Duration(2*c+1)/8 {
			t.Errorf("uniform class %d: %s", c, u)
		}
	}
	if d := sum - 8*run; d < -8*sched.Millisecond/10 || d > 8*sched.Millisecond/10 {
		t.Errorf("kbuild61 classes sum to %s, want 8 x %s", sum, run)
	}
	if med := (kbuildBurst("kbuild61", run, 3) + kbuildBurst("kbuild61", run, 4)) / 2; med >= run {
		t.Errorf("kbuild61: middle classes %s not below the mean %s (no long tail)", med, run)
	}
	in := wdoc("smp-4", "20s", `{"kind":"kbuild","name":"kb","jobs":64,"run":"10ms","io":"0s","spawn":"0s","dist":"kbuild61"}`)
	r := runDoc(t, in)
	var total int64
	for i, task := range r.rep.Tasks {
		if strings.HasPrefix(r.groups[i], "kb.cc") {
			total += task.UserNs
		}
	}
	var want int64
	for c := range kbuildClasses {
		want += 8 * int64(kbuildBurst("kbuild61", 10*sched.Millisecond, c))
	}
	if total != want {
		t.Errorf("kbuild61 build: %dns of work, want %dns", total, want)
	}
}
