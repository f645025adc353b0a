package main

// schedplay placement: where N CPU-bound tasks settle on a machine, for
// N over a range, under configurations A and B. Each run starts N
// unpinned hogs (run forever) from the launcher's CPU, runs -settle, then
// watches -window: a task's CPU is the one it ran on longest in the window
// (a task that spent less than 90% of its running time there is marked
// "*", it still moves). The summary per row counts busy SMT cores by
// how many threads run, and tasks per cluster (CPUs sharing an L2) for the
// clusters of more than one core. Placement is emergent: nothing here
// steers it, the kernel rules of core/sched decide.

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"schedplay/core/quote"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/core/topology"
)

func cmdPlacement(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("placement", flag.ContinueOnError)
	fs.SetOutput(stderr)
	topo := fs.String("topology", "alderlake-6p8e", "machine preset")
	kernel := fs.String("kernel", "v6.6", "kernel profile")
	tasks := fs.String("tasks", "1-20", "task counts: N, N-M or a comma list")
	settle := fs.String("settle", "2s", "time before the window (balancing settles)")
	window := fs.String("window", "1s", "the observed window")
	seed := fs.Uint64("seed", 1, "seed")
	a := fs.String("a", "", "configuration A: 'KEY=VALUE ...'")
	b := fs.String("b", "", "configuration B: 'KEY=VALUE ...' (empty: A only)")
	if err := fs.Parse(args); err != nil {
		return badInput("%v", err)
	}
	if fs.NArg() != 0 {
		return badInput("unexpected argument %q", fs.Arg(0))
	}
	m, err := topology.Preset(*topo)
	if err != nil {
		return badInput("-topology: %v", err)
	}
	counts, err := parseCounts(*tasks, m.NumCPUs())
	if err != nil {
		return badInput("-tasks %q: %v", *tasks, err)
	}
	st, err := scenario.ParseDuration("-settle", *settle)
	if err != nil {
		return badInput("%v", err)
	}
	win, err := scenario.ParseDuration("-window", *window)
	if err != nil || win <= 0 {
		return badInput("-window %q: want a positive duration", *window)
	}
	type cfgRow struct {
		label, flag string
		sets        []string
	}
	var cfgs []cfgRow
	for _, c := range []cfgRow{{"A", "-a", nil}, {"B", "-b", nil}} {
		v := *a
		if c.label == "B" {
			if *b == "" {
				break
			}
			v = *b
		}
		if c.sets, err = splitSets(c.flag, v); err != nil {
			return err
		}
		cfgs = append(cfgs, c)
	}
	fmt.Fprintf(stdout, "placement of N CPU-bound tasks on %s, kernel %s, seed %d: CPU of each task over [%s, %s]\n",
		*topo, *kernel, *seed, scenario.FormatDuration(st), scenario.FormatDuration(st+win))
	for _, c := range cfgs {
		desc := strings.Join(c.sets, " ")
		if desc == "" {
			desc = "(profile defaults)"
		}
		fmt.Fprintf(stdout, "%s: %s\n", c.label, desc)
	}
	fmt.Fprintln(stdout)
	fmt.Fprint(stdout, "| N |")
	for _, c := range cfgs {
		fmt.Fprintf(stdout, " %s: SMT cores 2thr/1thr | %s: per cluster | %s: CPUs |", c.label, c.label, c.label)
	}
	fmt.Fprint(stdout, "\n|---|")
	for range cfgs {
		fmt.Fprint(stdout, "---|---|---|")
	}
	fmt.Fprintln(stdout)
	for _, n := range counts {
		fmt.Fprintf(stdout, "| %d |", n)
		for _, c := range cfgs {
			sc, err := placementScenario(*topo, *kernel, n, st+win, *seed)
			if err != nil {
				return err
			}
			for _, kv := range c.sets {
				if err := sc.Set(kv); err != nil {
					return badInput("%s %q: %v", c.flag, kv, err)
				}
			}
			cpus, err := runPlacement(sc, st)
			if err != nil {
				return fmt.Errorf("%s, N=%d: %v", c.label, n, err)
			}
			fmt.Fprintf(stdout, " %s |", summarisePlacement(&m, cpus))
		}
		fmt.Fprintln(stdout)
	}
	return nil
}

// parseCounts parses "N", "N-M" or "a,b,c" (1..max).
func parseCounts(s string, maxN int) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		if err != nil {
			return nil, quote.Errorf("%q is not a number", lo)
		}
		z := a
		if isRange {
			if z, err = strconv.Atoi(strings.TrimSpace(hi)); err != nil {
				return nil, quote.Errorf("%q is not a number", hi)
			}
		}
		if a < 1 || z < a || z > 4*maxN {
			return nil, fmt.Errorf("want counts in 1..%d, low before high", 4*maxN)
		}
		for n := a; n <= z; n++ {
			out = append(out, n)
		}
	}
	return out, nil
}

func placementScenario(topo, kernel string, n int, dur sched.Time, seed uint64) (*scenario.Scenario, error) {
	js := fmt.Sprintf(`{"version":1,"name":"placement","topology":%q,"kernel":{"version":%q},"duration":%q,"seed":%d,
"tasks":[{"name":"hog","instances":%d,"loop":-1,"program":[{"run":-1}]}]}`,
		topo, kernel, scenario.FormatDuration(dur), seed, n)
	sc, err := scenario.Decode([]byte(js))
	if err != nil {
		return nil, badInput("%v", err)
	}
	return sc, nil
}

// placementSink sums each task's running time per CPU from `from` on.
type placementSink struct {
	from    sched.Time
	curr    []sched.TaskID
	since   []sched.Time
	runtime map[[2]int]sched.Time
}

func (p *placementSink) Event(e *sched.Event) {
	if e.Kind != sched.EvSwitch {
		return
	}
	c := int(e.CPU)
	p.account(c, e.Time)
	p.curr[c], p.since[c] = e.Next, e.Time
}

func (p *placementSink) account(c int, now sched.Time) {
	if t := p.curr[c]; t != sched.NoTask {
		if d := now - max(p.since[c], p.from); d > 0 {
			p.runtime[[2]int{int(t), c}] += d
		}
	}
}

// runPlacement runs sc and returns, per task, its CPU in the window (-1
// when it never ran there) and whether it stayed put (>= 90%).
func runPlacement(sc *scenario.Scenario, from sched.Time) ([]placed, error) {
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		return nil, badInput("%v", err)
	}
	sim, err := sched.New(cfg)
	if err != nil {
		return nil, err
	}
	n := sim.NumCPUs()
	k := &placementSink{from: from, curr: make([]sched.TaskID, n), since: make([]sched.Time, n), runtime: map[[2]int]sched.Time{}}
	for i := range k.curr {
		k.curr[i] = sched.NoTask
	}
	sim.Attach(k)
	if err := sim.Run(); err != nil {
		return nil, err
	}
	for c := 0; c < n; c++ {
		k.account(c, sim.Now())
	}
	out := make([]placed, sim.NumTasks())
	for t := range out {
		var best, total sched.Time
		out[t] = placed{cpu: -1}
		for c := 0; c < n; c++ {
			d := k.runtime[[2]int{t, c}]
			total += d
			if d > best {
				best, out[t].cpu = d, c
			}
		}
		out[t].stable = total > 0 && best*10 >= total*9
	}
	return out, nil
}

type placed struct {
	cpu    int
	stable bool
}

// summarisePlacement renders "a/b | cl... | cpus" for one run.
func summarisePlacement(m *topology.Machine, ps []placed) string {
	perCPU := map[int]int{}
	var cpus []string
	sort.Slice(ps, func(i, j int) bool { return ps[i].cpu < ps[j].cpu })
	for _, p := range ps {
		perCPU[p.cpu]++
		s := strconv.Itoa(p.cpu)
		if !p.stable {
			s += "*"
		}
		cpus = append(cpus, s)
	}
	// SMT cores: how many of their threads are busy.
	coreThreads, coreBusy := map[int]int{}, map[int]int{}
	clusterCores, clusterBusy := map[int]map[int]bool{}, map[int]int{}
	for _, c := range m.CPUs {
		coreThreads[c.Core]++
		if clusterCores[c.Cluster] == nil {
			clusterCores[c.Cluster] = map[int]bool{}
		}
		clusterCores[c.Cluster][c.Core] = true
		if perCPU[c.ID] > 0 {
			coreBusy[c.Core]++
			clusterBusy[c.Cluster] += perCPU[c.ID]
		}
	}
	two, one := 0, 0
	for core, th := range coreThreads {
		if th < 2 {
			continue
		}
		switch {
		case coreBusy[core] >= 2:
			two++
		case coreBusy[core] == 1:
			one++
		}
	}
	var clusters []int
	for cl, cores := range clusterCores {
		if len(cores) > 1 {
			clusters = append(clusters, cl)
		}
	}
	sort.Ints(clusters)
	var cl []string
	for _, c := range clusters {
		cl = append(cl, strconv.Itoa(clusterBusy[c]))
	}
	return fmt.Sprintf("%d/%d | %s | %s", two, one, strings.Join(cl, "+"), strings.Join(cpus, " "))
}
