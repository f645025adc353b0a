//go:build linux

package main

// The cgroup cases: the same hogs and periodic tasks, placed in cgroups of
// the cpu controller, measured for their CPU share and for each group's
// cpu.stat (nr_periods, nr_throttled, throttled time, nr_bursts, burst
// time), beside the simulator's metrics "cgroups" (docs/scenario-format.md
// "Cgroups").
//
// The groups are created under a scratch parent of the run's own,
// /schedplay-realkernel-NS-PID (scripts/internal/scratch: two runs at once
// do not share it; a dead run's is removed at start, staleness.go), on the
// hierarchy the cpu controller is mounted on (cgroup v1 on this
// project's machine, cgroup v2 elsewhere), with the case's interface files
// converted for it as scenario.CgroupWrites does, and removed afterwards.
// The scratch parent has the largest weight (cpu.shares 262144, cpu.weight
// 10000) so that the rest of the machine's load, which lives in other
// top-level groups and autogroups, takes little of the case's CPU; inside
// it the groups compete exactly as the case says.

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	corescenario "schedplay/core/scenario"
	"schedplay/scripts/internal/scratch"
)

// cgroupDef is one cgroup of a case: its path and interface files in the
// scenario format's canonical form.
type cgroupDef struct {
	Path  string
	Files map[string]string
}

// cgroupCases are the cgroup comparison cases (issue 17's list).
func cgroupCases() []caseSpec {
	hog := func(name string, n int, group string) taskSpec {
		return taskSpec{Name: name, Instances: n, Policy: "SCHED_OTHER", CPUs: []int{1}, Cgroup: group}
	}
	burst := func(id, desc string, files map[string]string) caseSpec {
		return caseSpec{id, desc, []taskSpec{{Name: "svc", Instances: 1, Policy: "SCHED_OTHER", CPUs: []int{1}, Cgroup: "/Q",
			RunUS: 40000, PeriodUS: 200000}}, []cgroupDef{{"/Q", files}}}
	}
	return []caseSpec{
		{"cg-1-vs-4", "One hog in /A against four in /B, all pinned to CPU 1: the groups share the CPU by weight (50 % each), the four split /B's half.",
			[]taskSpec{hog("a", 1, "/A"), hog("b", 4, "/B")}, []cgroupDef{{"/A", nil}, {"/B", nil}}},
		{"cg-weight-100-vs-300", "A hog in /L (cpu.weight 100) and one in /H (cpu.weight 300) on CPU 1: 25 % and 75 %.",
			[]taskSpec{hog("l", 1, "/L"), hog("h", 1, "/H")},
			[]cgroupDef{{"/L", map[string]string{"cpu.weight": "100"}}, {"/H", map[string]string{"cpu.weight": "300"}}}},
		{"cg-nested", "Nested groups on CPU 1: /P/X (cpu.weight 200) and /P/Y (100) share /P's half against /Q's: 33.3 %, 16.7 % and 50 %.",
			[]taskSpec{hog("x", 1, "/P/X"), hog("y", 1, "/P/Y"), hog("q", 1, "/Q")},
			[]cgroupDef{{"/P/X", map[string]string{"cpu.weight": "200"}}, {"/P/Y", map[string]string{"cpu.weight": "100"}}, {"/Q", nil}}},
		{"cg-max-25", "A hog alone on CPU 1 in /Q with cpu.max \"25000 100000\": 25 %, throttled in nearly every period for 75 ms.",
			[]taskSpec{hog("q", 1, "/Q")}, []cgroupDef{{"/Q", map[string]string{"cpu.max": "25000 100000"}}}},
		burst("cg-burst-off", "A bursty service in /Q (40 ms of CPU every 200 ms, 20 % on average) under cpu.max \"25000 100000\" without burst: each 40 ms burst exceeds one period's quota and is throttled.",
			map[string]string{"cpu.max": "25000 100000"}),
		burst("cg-burst-on", "The same service with cpu.max.burst 20000: the quota it left unused in the quiet periods carries over (up to 20 ms), so the 40 ms bursts run without throttling.",
			map[string]string{"cpu.max": "25000 100000", "cpu.max.burst": "20000"}),
		{"cg-idle", "A hog in /I (cpu.idle 1) against a hog in /N on CPU 1: the idle group's entity weighs 3 (WEIGHT_IDLEPRIO) against 1024, 0.3 % and 99.7 %.",
			[]taskSpec{hog("i", 1, "/I"), hog("n", 1, "/N")},
			[]cgroupDef{{"/I", map[string]string{"cpu.idle": "1"}}, {"/N", nil}}},
	}
}

// cgroupShares is the ideal share (% of one CPU) of each task of a case
// whose tasks all share one CPU: the hierarchy divides the CPU by weight
// level by level (a group's weight: cpu.weight, WEIGHT_IDLEPRIO for an
// idle group), a quota caps a group at quota/period, and a periodic task
// takes run/period.
func (c caseSpec) cgroupShares() map[string]float64 {
	files := map[string]map[string]string{}
	for _, g := range c.Cgroups {
		files[g.Path] = g.Files
	}
	gweight := func(path string) float64 {
		f := files[path]
		if f["cpu.idle"] == "1" {
			return 3
		}
		if w, err := strconv.Atoi(f["cpu.weight"]); err == nil {
			return float64(w) * 1024 / 100
		}
		return 1024
	}
	capOf := func(path string) float64 {
		q, p, ok := strings.Cut(files[path]["cpu.max"], " ")
		qn, err1 := strconv.ParseFloat(q, 64)
		pn, err2 := strconv.ParseFloat(p, 64)
		if !ok || err1 != nil || err2 != nil {
			return 100
		}
		return 100 * qn / pn
	}
	out := map[string]float64{}
	ts := c.tasks()
	// under: is task t below group path g ("" = the root)?
	under := func(t task, g string) bool {
		return g == "" || t.Spec.Cgroup == g || strings.HasPrefix(t.Spec.Cgroup, g+"/")
	}
	var share func(g string, avail float64)
	share = func(g string, avail float64) {
		avail = min(avail, capOf(g))
		type ent struct {
			child string // a child group, or "" for a task
			t     task
			w     float64
		}
		var ents []ent
		seen := map[string]bool{}
		for _, t := range ts {
			if !under(t, g) {
				continue
			}
			if t.Spec.Cgroup == g {
				if t.Spec.PeriodUS > 0 {
					out[t.Name] = min(avail, 100*float64(t.Spec.RunUS)/float64(t.Spec.PeriodUS))
					continue
				}
				ents = append(ents, ent{t: t, w: weight(t.Spec)})
				continue
			}
			rest := strings.TrimPrefix(t.Spec.Cgroup, g+"/")
			if g == "" {
				rest = strings.TrimPrefix(t.Spec.Cgroup, "/")
			}
			child := g + "/" + strings.SplitN(rest, "/", 2)[0]
			if !seen[child] {
				seen[child] = true
				ents = append(ents, ent{child: child, w: gweight(child)})
			}
		}
		total := 0.0
		for _, e := range ents {
			total += e.w
		}
		for _, e := range ents {
			if e.child == "" {
				out[e.t.Name] = avail * e.w / total
			} else {
				share(e.child, avail*e.w/total)
			}
		}
	}
	share("", 100)
	return out
}

// cgroupMount finds the cpu controller's hierarchy: the v1 mount with the
// cpu option, else the cgroup v2 mount (v2 reports the controller in
// cgroup.controllers).
func cgroupMount() (dir string, v1 bool, err error) {
	b, err := os.ReadFile("/proc/mounts")
	if err != nil {
		return "", false, err
	}
	v2 := ""
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 4 {
			continue
		}
		if f[2] == "cgroup" {
			for _, o := range strings.Split(f[3], ",") {
				if o == "cpu" {
					return f[1], true, nil
				}
			}
		}
		if f[2] == "cgroup2" && v2 == "" {
			v2 = f[1]
		}
	}
	if v2 == "" {
		return "", false, fmt.Errorf("no cgroup cpu controller mounted")
	}
	return v2, false, nil
}

// cgroupSet is a case's groups on the machine.
type cgroupSet struct {
	root string // the scratch parent
	v1   bool
	dirs []string // every group, parents first
	defs []cgroupDef
}

// scratchParent is the scratch parent's base name; the run's own is
// scratch.Self().Name(scratchParent), and what the harness writes (the
// shares lines, the kept sched/debug blocks) says "/"+scratchParent, so
// that the samples of different runs read alike.
const scratchParent = "schedplay-realkernel"

// scratchParentFile is the scratch parent's weight file, on cgroup v1 or
// v2, in the scenario format's canonical form (also written to the
// machine): the largest weight each hierarchy allows.
func scratchParentFile(v1 bool) map[string]string {
	if v1 {
		return map[string]string{"cpu.shares": "262144"}
	}
	return map[string]string{"cpu.weight": "10000"}
}

// simGroup is the path a case's group has in its scenario file. A mix's
// groups lie under the scratch parent there as on the machine (mixed.go):
// the parent's weight decides how the balancer weighs the two CPUs
// (calc_group_shares() of the parent's entity). The cgroup cases keep their
// groups at the root, where their single-CPU shares are the same.
func (c caseSpec) simGroup(path string) string {
	if path == "" || !c.mixed() {
		return path
	}
	return "/" + scratchParent + path
}

// setupCgroups creates the scratch parent and the case's groups (and
// their parents), with their files.
func setupCgroups(c caseSpec) (*cgroupSet, error) {
	mnt, v1, err := cgroupMount()
	if err != nil {
		return nil, err
	}
	cs := &cgroupSet{root: filepath.Join(mnt, scratch.Self().Name(scratchParent)), v1: v1}
	if err := os.Mkdir(cs.root, 0o755); err != nil && !os.IsExist(err) {
		return nil, err
	}
	write := func(dir, file, val string) error {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(val), 0o644); err != nil {
			return fmt.Errorf("echo %q > %s/%s: %v", val, dir, file, err)
		}
		return nil
	}
	if v1 {
		err = write(cs.root, "cpu.shares", scratchParentFile(true)["cpu.shares"])
	} else {
		if err = write(mnt, "cgroup.subtree_control", "+cpu"); err == nil {
			if err = write(cs.root, "cpu.weight", scratchParentFile(false)["cpu.weight"]); err == nil {
				err = write(cs.root, "cgroup.subtree_control", "+cpu")
			}
		}
	}
	if err != nil {
		cs.remove()
		return nil, err
	}
	paths := map[string]bool{}
	for _, g := range c.Cgroups {
		for p := g.Path; p != ""; p = p[:strings.LastIndexByte(p, '/')] {
			paths[p] = true
		}
	}
	for _, t := range c.Tasks {
		for p := t.Cgroup; p != ""; p = p[:strings.LastIndexByte(p, '/')] {
			paths[p] = true
		}
	}
	var all []string
	for p := range paths {
		all = append(all, p)
	}
	sort.Strings(all)
	files := map[string]map[string]string{}
	for _, g := range c.Cgroups {
		files[g.Path] = g.Files
	}
	for _, p := range all {
		dir := cs.root + p
		if err := os.Mkdir(dir, 0o755); err != nil {
			cs.remove()
			return nil, err
		}
		cs.dirs = append(cs.dirs, dir)
		if !v1 {
			if err := write(dir, "cgroup.subtree_control", "+cpu"); err != nil && hasChild(all, p) {
				cs.remove()
				return nil, err
			}
		}
		writes, _ := corescenario.CgroupWrites(files[p], v1)
		for _, w := range writes {
			if w.Hier == "cpuset" {
				cs.remove()
				return nil, fmt.Errorf("%s: cpuset files are not supported by the harness", p)
			}
			if err := write(dir, w.File, w.Value); err != nil {
				cs.remove()
				return nil, err
			}
		}
	}
	cs.defs = c.Cgroups
	return cs, nil
}

func hasChild(all []string, p string) bool {
	for _, q := range all {
		if strings.HasPrefix(q, p+"/") {
			return true
		}
	}
	return false
}

// attach moves a process into group path.
func (cs *cgroupSet) attach(pid int, path string) error {
	return os.WriteFile(filepath.Join(cs.root+path, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644)
}

// shares returns each group's tg->shares in the kernel's unscaled units,
// the scratch parent first, as "PATH N" pairs with PATH as sched/debug
// prints it (/schedplay-realkernel/...): cpu.shares on cgroup v1, on v2
// cpu.weight * 1024 / 100 rounded (sched_weight_from_cgroup()).
func (cs *cgroupSet) shares() ([]string, error) {
	var out []string
	for _, dir := range append([]string{cs.root}, cs.dirs...) {
		file := "cpu.shares"
		if !cs.v1 {
			file = "cpu.weight"
		}
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			return nil, err
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %q is not a number", dir, file, b)
		}
		if !cs.v1 {
			n = (n*1024 + 50) / 100
		}
		out = append(out, fmt.Sprintf("/%s%s %d", scratchParent, strings.TrimPrefix(dir, cs.root), n))
	}
	return out, nil
}

// remove removes the groups (deepest first) and the scratch parent; the
// workers must have exited.
func (cs *cgroupSet) remove() {
	for i := len(cs.dirs) - 1; i >= 0; i-- {
		os.Remove(cs.dirs[i])
	}
	os.Remove(cs.root)
}

// cpuStat is a group's cpu.stat (times in ns; cgroup v1 reports
// throttled_time and burst_time in ns, v2 throttled_usec and burst_usec).
type cpuStat struct {
	NrPeriods   int64 `json:"nr_periods"`
	NrThrottled int64 `json:"nr_throttled"`
	ThrottledNS int64 `json:"throttled_ns"`
	NrBursts    int64 `json:"nr_bursts"`
	BurstNS     int64 `json:"burst_ns"`
}

func (cs *cgroupSet) readStat(path string) (cpuStat, error) {
	var st cpuStat
	b, err := os.ReadFile(filepath.Join(cs.root+path, "cpu.stat"))
	if err != nil {
		return st, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, " ")
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if !ok || err != nil {
			continue
		}
		switch k {
		case "nr_periods":
			st.NrPeriods = n
		case "nr_throttled":
			st.NrThrottled = n
		case "throttled_time":
			st.ThrottledNS = n
		case "throttled_usec":
			st.ThrottledNS = n * 1000
		case "nr_bursts":
			st.NrBursts = n
		case "burst_time":
			st.BurstNS = n
		case "burst_usec":
			st.BurstNS = n * 1000
		}
	}
	return st, nil
}

func (a cpuStat) sub(b cpuStat) cpuStat {
	return cpuStat{a.NrPeriods - b.NrPeriods, a.NrThrottled - b.NrThrottled, a.ThrottledNS - b.ThrottledNS,
		a.NrBursts - b.NrBursts, a.BurstNS - b.BurstNS}
}

// snapshot reads every configured group's cpu.stat.
func (cs *cgroupSet) snapshot() ([]cpuStat, error) {
	var out []cpuStat
	for _, g := range cs.defs {
		st, err := cs.readStat(g.Path)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

// cgroupResult is one group of a case, real and simulated.
type cgroupResult struct {
	Path      string     `json:"path"`
	RealUsage float64    `json:"real_share_pct"` // its tasks' CPU share, % of one CPU
	Real      cpuStat    `json:"real"`
	Sim       *simCgroup `json:"sim,omitempty"`
	SimUsage  float64    `json:"sim_share_pct,omitempty"`
}

// markdownCgroups renders a case's group table.
func (c caseResult) markdownCgroups(b *strings.Builder) {
	if len(c.Cgroups) == 0 {
		return
	}
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	p("\n| cgroup | real CPU share %% | sim CPU share %% | real nr_periods | sim nr_periods | real nr_throttled | sim nr_throttled | real throttled ms | sim throttled ms | real nr_bursts | sim nr_bursts | real burst ms | sim burst ms |\n")
	p("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, g := range c.Cgroups {
		s := []string{"n/a", "n/a", "n/a", "n/a", "n/a", "n/a"}
		if g.Sim != nil {
			s = []string{fmt.Sprintf("%.1f", g.SimUsage), fmt.Sprint(g.Sim.NrPeriods), fmt.Sprint(g.Sim.NrThrottled),
				fmt.Sprintf("%.1f", float64(g.Sim.ThrottledNS)/1e6), fmt.Sprint(g.Sim.NrBursts), fmt.Sprintf("%.1f", float64(g.Sim.BurstNS)/1e6)}
		}
		p("| %s | %.1f | %s | %d | %s | %d | %s | %.1f | %s | %d | %s | %.1f | %s |\n", g.Path, g.RealUsage, s[0],
			g.Real.NrPeriods, s[1], g.Real.NrThrottled, s[2], float64(g.Real.ThrottledNS)/1e6, s[3],
			g.Real.NrBursts, s[4], float64(g.Real.BurstNS)/1e6, s[5])
	}
}
