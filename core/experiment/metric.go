package experiment

// The metric catalogue and the measurement of one run.
//
// A metric name is a base name, optionally qualified with "@": a task
// group ("latency.p50@task_idle", over that group's tasks) or a CPU
// ("busy@cpu2"). Unqualified task metrics are over all tasks.

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"schedplay/core/metrics"
	"schedplay/core/quote"
	"schedplay/core/sched"
)

// Better says which direction of a change is an improvement.
type Better string

// Directions.
const (
	Lower  Better = "lower"
	Higher Better = "higher"
	None   Better = "none" // a distribution, not a figure of merit (CPU share, busy time)
)

// scope says which qualifiers a base metric takes.
type scope uint8

const (
	scopeRun    scope = iota // whole run only
	scopeTask                // all tasks, or @GROUP
	scopeGroup               // @GROUP only (bare name expands to every group)
	scopeCPU                 // whole machine, or @cpuN
	scopeCgroup              // @/PATH only: a cgroup of the scenario (cgroup_metric.go)
)

// Def describes a base metric.
type Def struct {
	Name   string
	Unit   string
	Better Better
	Help   string
	scope  scope
}

var catalogue = []Def{
	{"share", "%", None, "task group's share of all tasks' CPU time", scopeGroup},
	{"completion", "ms", Lower, "total runtime of a fixed amount of work: when the last task exited (workloads whose tasks all exit)", scopeRun},
	{"throughput", "cpus", Higher, "work done per second: tasks' CPU time / elapsed time (completion, or the duration when tasks keep running)", scopeRun},
	{"latency.p50", "us", Lower, "wakeup latency (sched_wakeup to switch-in), median (nearest rank) of the samples", scopeTask},
	{"latency.p99", "us", Lower, "wakeup latency, 99th percentile (nearest rank)", scopeTask},
	{"latency.max", "us", Lower, "wakeup latency, maximum", scopeTask},
	{"timer_latency.p50", "us", Lower, "timer latency (cyclictest's: hrtimer expiry to switch-in, including an interrupt held off by an irqs-off span), median", scopeTask},
	{"timer_latency.p99", "us", Lower, "timer latency, 99th percentile (nearest rank)", scopeTask},
	{"timer_latency.max", "us", Lower, "timer latency, maximum (cyclictest/rteval Max)", scopeTask},
	{"sys_share", "%", None, "tasks' sys time as a percentage of the elapsed time (completion, or the duration), as time(1)'s sys / real: summed over the tasks, so above 100 % when they are in the kernel on several CPUs at once", scopeTask},
	{"sys", "ms", Lower, "tasks' kernel (sys) time, as time(1) reports it: the sum of the tasks' sys_ns (modelled kernel costs, sys steps, csd spins; on v3.11 scaled to sum_exec_runtime)", scopeTask},
	{"user", "ms", None, "tasks' user time: the sum of the tasks' user_ns (their sum_exec_runtime minus sys)", scopeTask},
	{"switches", "count", Lower, "context switches (nr_switches: voluntary + involuntary)", scopeTask},
	{"involuntary_switches", "count", Lower, "involuntary context switches (preemptions)", scopeTask},
	{"migrations", "count", Lower, "task migrations (se.nr_migrations)", scopeTask},
	{"busy", "%", None, "CPU busy time as a percentage of the run (@cpuN: one CPU; bare: the whole machine)", scopeCPU},
	{"cgroup.cpu", "%", None, "@/PATH: the cgroup's CPU usage (cpu.stat usage_usec) as a percentage of one CPU over the run", scopeCgroup},
	{"cgroup.usage", "ms", None, "@/PATH: the cgroup's CPU usage (cpu.stat usage_usec)", scopeCgroup},
	{"cgroup.nr_periods", "count", None, "@/PATH: bandwidth periods with the group runnable (cpu.stat nr_periods)", scopeCgroup},
	{"cgroup.nr_throttled", "count", Lower, "@/PATH: periods in which the group was throttled (cpu.stat nr_throttled)", scopeCgroup},
	{"cgroup.throttled", "ms", Lower, "@/PATH: time the group's cfs_rqs spent throttled (cpu.stat throttled_usec)", scopeCgroup},
	{"cgroup.nr_bursts", "count", None, "@/PATH: periods in which the group used burst (cpu.stat nr_bursts)", scopeCgroup},
	{"cgroup.burst", "ms", None, "@/PATH: run time taken from burst (cpu.stat burst_usec)", scopeCgroup},
	{"cgroup.wait", "ms", Lower, "@/PATH: wait time (runnable, not running) of the tasks that started in the group or below", scopeCgroup},
	{"cgroup.latency.p99", "us", Lower, "@/PATH: wakeup latency of those tasks, 99th percentile", scopeCgroup},
	{"cgroup.latency.max", "us", Lower, "@/PATH: wakeup latency of those tasks, maximum", scopeCgroup},
}

// Catalogue lists the base metrics, for help text.
func Catalogue() []Def { return slices.Clone(catalogue) }

// Lookup returns the definition of a full metric name (base plus
// qualifier), named as given.
func Lookup(name string) (Def, bool) {
	base, _, _ := strings.Cut(name, "@")
	for _, d := range catalogue {
		if d.Name == base {
			d.Name = name
			return d, true
		}
	}
	return Def{}, false
}

// Values are one run's measurements by full metric name. A metric the
// run cannot give (completion while tasks keep running, a CPU the machine
// does not have) is absent.
type Values map[string]float64

// Run is one finished run as the CLI hands it over.
type Run struct {
	Report metrics.Report
	// Groups is the task group of each task, indexed like Report.Tasks.
	Groups []string
	// GroupOrder is the scenario's task groups in scenario order.
	GroupOrder []string
	Rec        *metrics.Samples
}

// Measure computes every metric of the catalogue for a run.
func Measure(r Run) Values {
	v := Values{}
	rep := &r.Report
	dur := float64(rep.DurationNs)
	var total int64
	byGroup := map[string]int64{}
	for i, t := range rep.Tasks {
		total += t.RuntimeNs
		byGroup[r.Groups[i]] += t.RuntimeNs
	}
	for _, g := range r.GroupOrder {
		if total > 0 {
			v["share@"+g] = 100 * float64(byGroup[g]) / float64(total)
		} else {
			v["share@"+g] = 0
		}
	}
	elapsed := dur
	if r.Rec.Exits() == len(rep.Tasks) && len(rep.Tasks) > 0 {
		elapsed = float64(r.Rec.LastExit())
		v["completion"] = elapsed / 1e6
	}
	if elapsed > 0 {
		v["throughput"] = float64(total) / elapsed
	}
	measureTasks(v, "", r, func(string) bool { return true }, elapsed)
	for _, g := range r.GroupOrder {
		measureTasks(v, "@"+g, r, func(tg string) bool { return tg == g }, elapsed)
	}
	var busy int64
	for _, c := range rep.CPUs {
		busy += c.BusyNs
		if dur > 0 {
			v["busy@cpu"+strconv.Itoa(c.ID)] = 100 * float64(c.BusyNs) / dur
		}
	}
	if dur > 0 && len(rep.CPUs) > 0 {
		v["busy"] = 100 * float64(busy) / (dur * float64(len(rep.CPUs)))
	}
	measureCgroups(v, rep) // cgroup_metric.go
	return v
}

// measureTasks sets the task metrics over the tasks whose group passes in.
// elapsed (ns) is the run's elapsed time, the base of sys_share.
func measureTasks(v Values, suffix string, r Run, in func(group string) bool, elapsed float64) {
	var lat, tlat []*metrics.Hist
	var sw, inv, mig, sys, user int64
	for i, t := range r.Report.Tasks {
		if !in(r.Groups[i]) {
			continue
		}
		sys += t.SysNs
		user += t.UserNs
		sw += t.Switches
		inv += t.InvoluntarySwitches
		mig += t.Migrations
		lat = append(lat, r.Rec.Latencies(sched.TaskID(i)))
		tlat = append(tlat, r.Rec.TimerLatencies(sched.TaskID(i)))
	}
	// Pooled losslessly (metrics.Pool): exact when every task's is.
	lp, tp := metrics.Pool(lat...), metrics.Pool(tlat...)
	v["timer_latency.p50"+suffix] = us(tp.Quantile(50))
	v["timer_latency.p99"+suffix] = us(tp.Quantile(99))
	v["timer_latency.max"+suffix] = us(tp.Quantile(100))
	v["latency.p50"+suffix] = us(lp.Quantile(50))
	v["latency.p99"+suffix] = us(lp.Quantile(99))
	v["latency.max"+suffix] = us(lp.Quantile(100))
	v["sys"+suffix] = float64(sys) / 1e6
	if elapsed > 0 {
		v["sys_share"+suffix] = 100 * float64(sys) / elapsed
	}
	v["user"+suffix] = float64(user) / 1e6
	v["switches"+suffix] = float64(sw)
	v["involuntary_switches"+suffix] = float64(inv)
	v["migrations"+suffix] = float64(mig)
}

func us(ns int64) float64 { return float64(ns) / 1e3 }

// Resolve checks -metric names against the catalogue and the scenario's
// task groups and CPU count, and expands a bare "share" to every group.
// The error names the offending metric.
func Resolve(specs []string, groups []string, ncpu int) ([]string, error) {
	var out []string
	for _, spec := range specs {
		base, q, qualified := strings.Cut(spec, "@")
		d, ok := Lookup(base)
		if !ok {
			return nil, quote.Errorf("unknown metric %q (known: %s; qualify task metrics with @GROUP and busy with @cpuN)", spec, strings.Join(baseNames(), ", "))
		}
		switch {
		case !qualified && d.scope == scopeCgroup:
			return nil, checkCgroupQualifier(spec, q, qualified)
		case !qualified && d.scope == scopeGroup:
			for _, g := range groups {
				out = append(out, base+"@"+g)
			}
			continue
		case !qualified:
		case d.scope == scopeTask || d.scope == scopeGroup:
			if !slices.Contains(groups, q) {
				return nil, quote.Errorf("metric %q: no task group %q (groups: %s)", spec, q, quote.List(groups))
			}
		case d.scope == scopeCgroup:
			if err := checkCgroupQualifier(spec, q, qualified); err != nil {
				return nil, err
			}
		case d.scope == scopeCPU:
			n, err := strconv.Atoi(strings.TrimPrefix(q, "cpu"))
			if !strings.HasPrefix(q, "cpu") || err != nil || n < 0 || strconv.Itoa(n) != strings.TrimPrefix(q, "cpu") {
				return nil, quote.Errorf("metric %q: want busy@cpuN", spec)
			}
			if n >= ncpu {
				return nil, quote.Errorf("metric %q: CPU %d does not exist (CPUs 0-%d)", spec, n, ncpu-1)
			}
		default:
			return nil, quote.Errorf("metric %q: %s takes no @ qualifier", spec, base)
		}
		if !slices.Contains(out, spec) {
			out = append(out, spec)
		}
	}
	return out, nil
}

func baseNames() []string {
	var n []string
	for _, d := range catalogue {
		n = append(n, d.Name)
	}
	return n
}

// maxDefaultCPUs bounds the per-CPU busy rows of the default table.
const maxDefaultCPUs = 16

// maxDefaultGroups bounds the per-group rows of the default table: a
// generated workload (hackbench, cyclictest on a big machine) can have
// hundreds of task groups; ask for them with -metric.
const maxDefaultGroups = 16

// Defaults picks the metrics of a table when -metric is not given, from
// the runs of every configuration: group shares and per-group latencies
// when there is more than one group (latencies only of groups that woke
// up; scenarios of at most 16 groups), completion when every run's tasks
// all exited, the run-wide figures, and per-CPU busy time for the CPUs
// that were busy in some run (machines of at most 16 CPUs).
func Defaults(groups []string, ncpu int, runs []Values) []string {
	present := func(name string) bool {
		for _, r := range runs {
			if _, ok := r[name]; !ok {
				return false
			}
		}
		return len(runs) > 0
	}
	nonzero := func(name string) bool {
		for _, r := range runs {
			if x := r[name]; x != 0 && !math.IsNaN(x) {
				return true
			}
		}
		return false
	}
	var out []string
	multi := len(groups) > 1 && len(groups) <= maxDefaultGroups
	if multi {
		for _, g := range groups {
			out = append(out, "share@"+g)
		}
	}
	if present("completion") {
		out = append(out, "completion")
	}
	out = append(out, "throughput", "latency.p50", "latency.p99", "latency.max")
	if multi {
		for _, g := range groups {
			if nonzero("latency.max@" + g) {
				out = append(out, "latency.p50@"+g, "latency.p99@"+g, "latency.max@"+g)
			}
		}
	}
	if nonzero("sys") {
		out = append(out, "sys", "user")
	}
	out = append(out, "switches", "involuntary_switches", "migrations", "busy")
	if ncpu <= maxDefaultCPUs {
		for c := 0; c < ncpu; c++ {
			if n := "busy@cpu" + strconv.Itoa(c); nonzero(n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// DefaultCandidates lists every metric Defaults can pick for these task
// groups and CPU count, in its order: a superset to measure when the runs
// are not made yet (the playground's A/B over N seeds asks the worker for
// these and picks Defaults from the values that come back).
func DefaultCandidates(groups []string, ncpu int) []string {
	all := Values{"completion": 1, "sys": 1}
	for _, g := range groups {
		all["latency.max@"+g] = 1
	}
	for c := 0; c < ncpu; c++ {
		all["busy@cpu"+strconv.Itoa(c)] = 1
	}
	return Defaults(groups, ncpu, []Values{all})
}
