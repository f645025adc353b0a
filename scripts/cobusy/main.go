// Command cobusy measures how much CPU time of a run was spent next to a
// busy SMT sibling or a busy core of the same shared-L2 cluster: the
// inputs of the contention model (core/sched/contention.go,
// hw.smt_slowdown_pct, hw.l2_contention_pct). No kernel function: it reads
// the sched_switch lines of an ftrace text file written by
// `schedplay run -trace FILE` and rebuilds each CPU's busy (a task is
// current) and idle intervals, as the contention model sees them.
//
// Per file it adds up, in CPU-seconds:
//   - smt_alone / smt_paired: busy time of CPUs with SMT siblings, with no
//     sibling busy / with a sibling busy;
//   - l2_kN: busy time of CPUs of a multi-core L2 cluster while N other cores
//     of the cluster are busy;
//   - lost_smt / lost_l2: the work (in CPU-seconds at capacity 1024) the
//     contention model takes off for that time with the given percentages.
//
// With several files it prints their mean. docs/placement.md uses it for the
// seed/cluster-hybrid analysis (S3 in docs/VALIDATION.md):
//
//	go run ./core/cmd/schedplay run -preset seed/cluster-hybrid -seed 1 -trace /tmp/t1.txt
//	go run ./scripts/cobusy -topology alderlake-6p8e /tmp/t1.txt ...
//
// SIMPLIFIED: only sched_switch is read (the busy state of a CPU changes
// there); lost work multiplies the SMT and L2 factors like contention.go but
// counts each separately.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strconv"

	"schedplay/core/topology"
)

func main() {
	topo := flag.String("topology", "alderlake-6p8e", "machine preset the traces were recorded on")
	smtPct := flag.Float64("smt", 42, "hw.smt_slowdown_pct for lost_smt")
	l2Pct := flag.Float64("l2", 5, "hw.l2_contention_pct for lost_l2")
	flag.Parse()
	if err := run(*topo, *smtPct, *l2Pct, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "cobusy:", err)
		os.Exit(1)
	}
}

func run(name string, smtPct, l2Pct float64, files []string) error {
	m, err := topology.Preset(name)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("want at least one trace file")
	}
	sh := shapeOf(m)
	var sum acc
	for _, f := range files {
		a, err := analyzeFile(f, sh, smtPct, l2Pct)
		if err != nil {
			return err
		}
		sum.add(&a)
	}
	sum.print(os.Stdout, float64(len(files)))
	return nil
}

// shape is what the contention model looks at: per CPU its SMT siblings, its
// L2 mates (CPUs of other cores in the same multi-core cluster), capacity.
type shape struct {
	smt, l2 [][]int
	cap     []float64
}

func shapeOf(m topology.Machine) shape {
	n := len(m.CPUs)
	sh := shape{smt: make([][]int, n), l2: make([][]int, n), cap: make([]float64, n)}
	cores := map[int]map[int]bool{}
	for _, c := range m.CPUs {
		if cores[c.Cluster] == nil {
			cores[c.Cluster] = map[int]bool{}
		}
		cores[c.Cluster][c.Core] = true
	}
	for i, c := range m.CPUs {
		sh.cap[i] = float64(c.Capacity) / 1024
		for j, o := range m.CPUs {
			if j == i {
				continue
			}
			if o.Core == c.Core {
				sh.smt[i] = append(sh.smt[i], j)
			} else if o.Cluster == c.Cluster && len(cores[c.Cluster]) > 1 {
				sh.l2[i] = append(sh.l2[i], j)
			}
		}
	}
	return sh
}

var switchRE = regexp.MustCompile(`\[(\d+)\][^:]*\s(\d+\.\d+): sched_switch: .*next_pid=(\d+)`)

func analyzeFile(path string, sh shape, smtPct, l2Pct float64) (acc, error) {
	f, err := os.Open(path)
	if err != nil {
		return acc{}, err
	}
	defer f.Close()
	busy := make([]bool, len(sh.cap))
	var a acc
	t0 := 0.0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		m := switchRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		cpu, _ := strconv.Atoi(m[1])
		t, _ := strconv.ParseFloat(m[2], 64)
		if cpu >= len(busy) {
			return acc{}, fmt.Errorf("%s:%d: CPU %d outside the %d-CPU machine", path, line, cpu, len(busy))
		}
		a.interval(busy, sh, t-t0, smtPct, l2Pct)
		t0 = t
		busy[cpu] = m[3] != "0"
	}
	a.end = t0
	return a, sc.Err()
}
