package main

// Workload: the task-group table for the common cases. Each row edits a
// group's instances, policy, nice and affinity; a program of one of the
// three common shapes (hog: run forever; run/sleep; periodic: run + timer)
// is edited through its run, sleep and period fields, anything else through
// the JSON editor.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"schedplay/core/scenario"
	"schedplay/wasm/view"
)

// Workload is the task table.
type Workload struct {
	App *App `vugu:"data"`
}

// policies lists the scheduling policies the table offers.
var policies = []string{"SCHED_OTHER", "SCHED_BATCH", "SCHED_IDLE", "SCHED_FIFO", "SCHED_RR", "SCHED_DEADLINE"}

// isRT reports whether a policy takes an RT priority instead of nice.
func isRT(policy string) bool { return policy == "SCHED_FIFO" || policy == "SCHED_RR" }

// GroupRow is one task group as the table shows it.
type GroupRow struct {
	Index     int
	Name      string
	Instances int
	Policy    string
	Nice      int    // nice, or rt_priority for RT policies
	Level     string // what Nice holds: "nice" or "rt_priority"
	CPUs      string
	Cgroup    string // taskgroup as a path ("/" = the root)
	Shape     string // hog, run/sleep, periodic, custom
	Run       string
	Sleep     string
	Period    string
	Color     string
	// DL: a SCHED_DEADLINE group, edited by its runtime, deadline and
	// period instead of nice/priority.
	DL                              bool
	DLRuntime, DLDeadline, DLPeriod string
}

func (c *Workload) rows() []GroupRow {
	var out []GroupRow
	for i, t := range c.App.Sc.Tasks {
		r := GroupRow{Index: i, Name: t.Name, Instances: max(t.Instances, 1), Policy: t.Policy, Nice: t.Nice,
			CPUs: formatCPUs(t.CPUs), Cgroup: cleanPath(t.Cgroup), Shape: "custom", Color: view.TaskColor(t.Name + "-0").Hex()}
		if r.Policy == "" {
			r.Policy = "SCHED_OTHER"
		}
		r.Level = "nice"
		if isRT(r.Policy) {
			r.Nice, r.Level = t.Priority, "rt_priority"
		}
		if r.Policy == "SCHED_DEADLINE" {
			r.DL = true
			r.DLRuntime, r.DLDeadline, r.DLPeriod = durText(t.DLRuntime), durText(t.DLDeadline), durText(t.DLPeriod)
		}
		p := t.Program
		switch {
		case len(p) == 1 && p[0].Kind == "run":
			r.Shape, r.Run = "hog", durText(p[0].Run)
		case len(p) == 2 && p[0].Kind == "run" && p[1].Kind == "sleep":
			r.Shape, r.Run, r.Sleep = "run/sleep", durText(p[0].Run), durText(p[1].Sleep)
		case len(p) == 2 && p[0].Kind == "run" && p[1].Kind == "timer":
			r.Shape, r.Run, r.Period = "periodic", durText(p[0].Run), durText(p[1].Timer.Period)
		}
		out = append(out, r)
	}
	return out
}

func durText(d scenario.Duration) string {
	if d < 0 {
		return "forever"
	}
	return scenario.FormatDuration(d)
}

func formatCPUs(cpus []int) string {
	if cpus == nil {
		return "all"
	}
	parts := make([]string, len(cpus))
	for i, c := range cpus {
		parts[i] = strconv.Itoa(c)
	}
	return strings.Join(parts, ",")
}

// edit applies f to group i and revalidates.
func (c *Workload) edit(i int, f func(t *scenario.Task) error) {
	if i < 0 || i >= len(c.App.Sc.Tasks) {
		return
	}
	if err := f(&c.App.Sc.Tasks[i]); err != nil {
		c.App.JSONErr = &scenario.Error{Path: fmt.Sprintf("tasks[%d]", i), Msg: err.Error()}
		c.App.Notice = c.App.JSONErr.Error()
		return
	}
	c.App.edited()
}

func (c *Workload) setInt(i int, field, v string) {
	c.edit(i, func(t *scenario.Task) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("%s %q: want an integer", field, v)
		}
		if field == "nice" && isRT(t.Policy) {
			t.Priority = n
		} else if field == "nice" {
			t.Nice = n
		} else {
			t.Instances = n
		}
		return nil
	})
}

func (c *Workload) setPolicy(i int, v string) {
	c.edit(i, func(t *scenario.Task) error {
		// Switching between fair and RT moves the level: nice and the RT
		// priority are exclusive in the scenario format.
		switch {
		case isRT(v) && !isRT(t.Policy):
			t.Nice, t.Priority = 0, 50
		case !isRT(v) && isRT(t.Policy):
			t.Priority = 0
		}
		if v == "SCHED_DEADLINE" && t.Policy != v {
			// A reservation of 10% that admission control accepts on
			// any machine; a deadline task's affinity spans all CPUs.
			t.Nice, t.CPUs = 0, nil
			t.DLRuntime, t.DLDeadline, t.DLPeriod = 10e6, 100e6, 100e6
		} else if v != "SCHED_DEADLINE" {
			t.DLRuntime, t.DLDeadline, t.DLPeriod = 0, 0, 0
		}
		t.Policy = v
		return nil
	})
}

func (c *Workload) setCPUs(i int, v string) {
	c.edit(i, func(t *scenario.Task) error {
		v = strings.TrimSpace(v)
		if v == "" || v == "all" {
			t.CPUs = nil
			return nil
		}
		var cpus []int
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return fmt.Errorf("cpus %q: want a comma-separated list of CPU numbers or \"all\"", v)
			}
			cpus = append(cpus, n)
		}
		t.CPUs = cpus
		return nil
	})
}

// setCgroup puts group i's tasks in cgroup path (cgroup-tree.go).
func (c *Workload) setCgroup(i int, path string) {
	if err := cgAssign(c.App.Sc, i, path); err != nil {
		c.App.Notice = err.Error()
		return
	}
	c.App.edited()
}

// setDL edits a SCHED_DEADLINE group's runtime, deadline or period.
func (c *Workload) setDL(i int, field, v string) {
	c.edit(i, func(t *scenario.Task) error {
		d, err := scenario.ParseDuration("dl_"+field, strings.TrimSpace(v))
		if err != nil {
			return err
		}
		switch field {
		case "runtime":
			t.DLRuntime = d
		case "deadline":
			t.DLDeadline = d
		case "period":
			t.DLPeriod = d
		}
		return nil
	})
}

// setStep edits the run, sleep or period field of a common-shape program.
func (c *Workload) setStep(i int, field, v string) {
	c.edit(i, func(t *scenario.Task) error {
		var d scenario.Duration = -1
		if v != "forever" {
			var err error
			if d, err = scenario.ParseDuration(field, strings.TrimSpace(v)); err != nil {
				return err
			}
		}
		switch field {
		case "run":
			t.Program[0].Run = d
		case "sleep":
			t.Program[1].Sleep = d
		case "period":
			t.Program[1].Timer.Period = d
		}
		return nil
	})
}

// addGroup appends a task group of the given shape.
func (c *Workload) addGroup(shape string) {
	name := fmt.Sprintf("%s%d", strings.ReplaceAll(shape, "/", ""), len(c.App.Sc.Tasks))
	t := scenario.Task{Name: name, Instances: 1, Loop: -1}
	switch shape {
	case "hog":
		t.Program = []scenario.Step{{Kind: "run", Run: -1}}
	case "periodic":
		t.Program = []scenario.Step{{Kind: "run", Run: 1e6},
			{Kind: "timer", Timer: &scenario.Timer{Ref: "t", Period: 10e6, Mode: "absolute"}}}
	default:
		t.Program = []scenario.Step{{Kind: "run", Run: 2e6}, {Kind: "sleep", Sleep: 5e6}}
	}
	c.App.Sc.Tasks = append(c.App.Sc.Tasks, t)
	c.App.edited()
}

// remove drops task group i if the scenario stays valid without it;
// otherwise the group stays and the notice says why.
func (c *Workload) remove(i int) {
	tasks, err := withoutGroup(c.App.Sc, i)
	if err != nil {
		c.App.Notice = err.Error()
		return
	}
	c.App.Sc.Tasks = tasks
	c.App.edited()
}

// withoutGroup returns sc's task groups without group i, or why that
// scenario would be invalid: the last group with no workload to provide
// tasks, a group another one forks or an experiment names. The result is
// a new slice (clones of the scenario share the old one).
func withoutGroup(sc *scenario.Scenario, i int) ([]scenario.Task, error) {
	if i < 0 || i >= len(sc.Tasks) {
		return nil, fmt.Errorf("no task group %d", i)
	}
	trial := sc.Clone()
	trial.Tasks = slices.Delete(slices.Clone(sc.Tasks), i, i+1)
	if err := trial.Validate(); err != nil {
		return nil, fmt.Errorf("task group %q stays: without it, %v", sc.Tasks[i].Name, err)
	}
	return trial.Tasks, nil
}

func swatch(color string) string { return "background:" + color }
