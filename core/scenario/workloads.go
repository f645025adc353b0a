package scenario

// Workload generators: the "workloads" array of a scenario. Each entry
// names a generator (kind), gives the instance a name and sets some of the
// generator's parameters:
//
//	"workloads": [ { "kind": "hackbench", "name": "hb", "groups": 4, "mode": "pipe" } ]
//
// When the scenario is built, every workload is expanded, deterministically,
// into ordinary task groups (named "<name>" or "<name>.<part>", so tasks
// are "<name>.<part>-<index>" as rt-app names them) and, for the
// generators that queue messages, counting semaphores. The expansion is
// appended after the scenario's own tasks. The scenario keeps the workload
// form: Encode writes the parameters given, not the expansion, so share
// URLs stay short and keep their meaning if a generator is refined.
//
// A generator's parameters are typed (workload_params.go) and bounded; every
// error names the JSON path, e.g. `workloads[0].groups`. Randomness (only
// kbuild uses any) comes from a PCG stream of its own seeded from the
// scenario's seed and the workload's name, drawn at expansion time, so the
// amount of work is the same whatever the scheduler does with it.
//
// The generators, one file each: workload_pipe.go, workload_hackbench.go,
// workload_schbench.go, workload_cyclictest.go, workload_kbuild.go,
// workload_multimedia.go, workload_hog.go, workload_ipistorm.go.

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sort"
	"strings"

	"schedplay/core/topology"
)

// Workload is one generator instance of a scenario.
type Workload struct {
	Kind string
	Name string
	// Cgroup is the workload's "taskgroup": the cgroup its task groups
	// start in, unless a generator gives one its own ("" = the root).
	Cgroup string
	// Params holds the canonical text of the parameters given (defaults
	// are left out, so they are not frozen into URLs).
	Params map[string]string
}

// generator is one workload kind.
type generator struct {
	kind   string
	models string // what it models and how faithfully, one paragraph
	params []Param
	expand func(x *expander) error
}

// generators lists the kinds in the order `schedplay workloads` shows them.
var generators = []*generator{genPipe, genHackbench, genSchbench, genCyclictest, genKbuild, genMultimedia, genHog, genIPIStorm}

func generatorByKind(kind string) *generator {
	for _, g := range generators {
		if g.kind == kind {
			return g
		}
	}
	return nil
}

func kindNames() string {
	var ks []string
	for _, g := range generators {
		ks = append(ks, g.kind)
	}
	return strings.Join(ks, ", ")
}

// Limits of the workloads array.
const (
	MaxWorkloads      = 64
	maxWorkloadTasks  = 20000 // tasks one workload may start (sched.DefaultLimits' MaxTasks)
	maxWorkloadGroups = 4096  // task groups one workload may produce
	// maxExpandedSteps bounds the program steps all workloads expand to
	// (kbuild's make has three per job), so that a hostile URL cannot make
	// the build of a scenario slow or large.
	maxExpandedSteps = 100_000
)

// expansion is a scenario's task groups with its workloads expanded.
type expansion struct {
	Tasks      []Task
	Semaphores map[string]int
	origin     []int // per task group: -1 for the scenario's own, else the workload's index
}

// path names task group i in errors: tasks[i] for the scenario's own,
// "workloads[k] (task group NAME)" for an expanded one.
func (ex *expansion) path(i int) string {
	if ex.origin[i] < 0 {
		return fmt.Sprintf("tasks[%d]", i)
	}
	return fmt.Sprintf("workloads[%d] (task group %s)", ex.origin[i], ex.Tasks[i].Name)
}

// expand returns the scenario's task groups followed by those of its
// workloads, on a machine of ncpu CPUs.
func (sc *Scenario) expand(ncpu int) (*expansion, error) {
	ex := &expansion{Tasks: append([]Task(nil), sc.Tasks...)}
	for range sc.Tasks {
		ex.origin = append(ex.origin, -1)
	}
	if len(sc.Semaphores) > 0 {
		ex.Semaphores = map[string]int{}
		for k, v := range sc.Semaphores {
			ex.Semaphores[k] = v
		}
	}
	if len(sc.Workloads) > MaxWorkloads {
		return nil, errAt("workloads", "%d workloads; the limit is %d", len(sc.Workloads), MaxWorkloads)
	}
	names := map[string]string{} // task group -> where it comes from
	for i, t := range sc.Tasks {
		names[t.Name] = fmt.Sprintf("tasks[%d]", i)
	}
	seen := map[string]bool{}
	steps := 0
	for k, w := range sc.Workloads {
		p := fmt.Sprintf("workloads[%d]", k)
		g := generatorByKind(w.Kind)
		if g == nil {
			return nil, errAt(p+".kind", "%q: want one of %s", w.Kind, kindNames())
		}
		if !validName(w.Name, 32, false) {
			return nil, errAt(p+".name", "%q: want 1-32 characters of A-Z a-z 0-9 _", w.Name)
		}
		if seen[w.Name] {
			return nil, errAt(p+".name", "%q is used by another workload", w.Name)
		}
		seen[w.Name] = true
		x := &expander{path: p, w: w, gen: g, ncpu: ncpu, seed: sc.Seed}
		if err := x.check(); err != nil {
			return nil, err
		}
		if err := g.expand(x); err != nil {
			return nil, err
		}
		if len(x.tasks) > maxWorkloadGroups {
			return nil, errAt(p, "expands to %d task groups; the limit is %d", len(x.tasks), maxWorkloadGroups)
		}
		if len(ex.Tasks)+len(x.tasks) > maxWorkloadTasks {
			return nil, errAt(p, "the scenario's task groups come to %d with this workload; the limit is %d", len(ex.Tasks)+len(x.tasks), maxWorkloadTasks)
		}
		n := 0
		for _, t := range x.tasks {
			if t.Cgroup == "" {
				t.Cgroup = w.Cgroup // the workload's taskgroup (the root if none)
			}
			if steps += countSteps(t.Program); steps > maxExpandedSteps {
				return nil, errAt(p, "the workloads expand to more than %d program steps", maxExpandedSteps)
			}
			if t.Parent == "" {
				n += t.Instances
			}
			if prev, dup := names[t.Name]; dup {
				return nil, errAt(p+".name", "task group %q of this workload is also defined by %s", t.Name, prev)
			}
			names[t.Name] = p
			ex.Tasks = append(ex.Tasks, t)
			ex.origin = append(ex.origin, k)
		}
		if n > maxWorkloadTasks {
			return nil, errAt(p, "starts %d tasks; the limit is %d", n, maxWorkloadTasks)
		}
		for _, name := range sortedSemKeys(x.sems) {
			if ex.Semaphores == nil {
				ex.Semaphores = map[string]int{}
			}
			if _, dup := ex.Semaphores[name]; dup {
				return nil, errAt(p+".name", "semaphore %q of this workload is also declared elsewhere", name)
			}
			ex.Semaphores[name] = x.sems[name]
		}
	}
	return ex, nil
}

// Expanded returns a copy of the scenario with its workloads replaced by
// the task groups and semaphores they expand to (on the scenario's
// machine): an ordinary scenario that runs the same.
func (sc *Scenario) Expanded() (*Scenario, error) {
	m, err := topology.Preset(sc.Topology)
	if err != nil {
		return nil, errAt("topology", "%v", err)
	}
	ex, err := sc.expand(m.NumCPUs())
	if err != nil {
		return nil, err
	}
	c := *sc
	c.Tasks, c.Semaphores, c.Workloads = ex.Tasks, ex.Semaphores, nil
	return &c, nil
}

// expander is the context of one workload's expansion.
type expander struct {
	path  string // "workloads[k]"
	w     Workload
	gen   *generator
	ncpu  int
	seed  uint64
	tasks []Task
	sems  map[string]int
}

// group returns the name of the workload's task group or resource part
// ("" = the workload's own name).
func (x *expander) group(part string) string {
	if part == "" {
		return x.w.Name
	}
	return x.w.Name + "." + part
}

// add appends a task group.
func (x *expander) add(t Task) { x.tasks = append(x.tasks, t) }

// sem declares a counting semaphore with an initial count.
func (x *expander) sem(name string, initial int) {
	if x.sems == nil {
		x.sems = map[string]int{}
	}
	x.sems[name] = initial
}

// fail is an error at one of the workload's parameters.
func (x *expander) fail(param, format string, args ...any) error {
	return errAt(x.path+"."+param, format, args...)
}

// rng is the workload's own random stream: PCG seeded from the
// scenario's seed and the workload's name.
func (x *expander) rng() *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(x.w.Name))
	return rand.New(rand.NewPCG(x.seed, h.Sum64()))
}

// semaphores marks the named resources as counting semaphores.
func (rs *resTable) semaphores(sems map[string]int) error {
	for _, name := range sortedSemKeys(sems) {
		i, ok := rs.index[name]
		if !ok {
			return errAt("semaphores."+name, "no task waits on or signals this resource")
		}
		if rs.barrier[i] {
			return errAt("semaphores."+name, "resource %q is a barrier; a semaphore is used with wait/signal", name)
		}
		rs.list[i].Semaphore, rs.list[i].Initial = true, sems[name]
	}
	return nil
}

func sortedSemKeys(m map[string]int) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// countSteps counts the steps of a program, loop bodies included.
func countSteps(prog []Step) int {
	n := len(prog)
	for _, st := range prog {
		if st.Loop != nil {
			n += countSteps(st.Loop.Program)
		}
	}
	return n
}
