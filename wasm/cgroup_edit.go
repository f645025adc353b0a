package main

// The cgroup tree's edits (cgroup-tree.go shows them): the scenario's
// "cgroups" object (docs/scenario-format.md "Cgroups") edited as a tree of
// groups, as one would mkdir, rename, rmdir and write interface files
// under /sys/fs/cgroup. Each edit works on a copy of the scenario and
// comes back as an error the scenario layer wrote (a value checked by
// Scenario.Set, a path by the cgroups decoder), so a bad value never
// reaches the scenario, and nothing here panics on user input.
//
// The tree holds every group the scenario has: the "cgroups" object's and
// those the tasks name (taskgroup), which the engine creates with
// defaults (Scenario.CgroupPaths).

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"schedplay/core/scenario"
)

// CgroupRow is one cgroup as the tree shows it.
type CgroupRow struct {
	Index       int
	Path, Name  string
	Depth       int
	Weight      string // the files' canonical values, "" = the default
	Quota       string // cpu.max's quota: "max" or µs ("" = no cpu.max)
	Period      string // cpu.max's period in µs
	Burst, CPUs string
	Idle        bool
	Other       string // files the tree does not edit (v1 names, partition): "file=value, ..."
	Tasks       string // the task groups and generators that start here
	Errs        map[string]string
	Texts       map[string]string // rejected text per field, shown in place of the value
	Implicit    bool              // named by a task only (not in the cgroups object)
	Indent      string            // the row's indentation by depth (a style)
}

// cgFieldErr is the last rejected field of the tree: its text and why.
// Field names the interface file (or "name", or "row" for an add or a
// remove); TextField the input that holds Text when it is not Field
// ("quota" or "period" of cpu.max).
type cgFieldErr struct {
	Path, Field, TextField, Text, Msg string
}

// treeFiles are the interface files the tree edits (the others are listed).
var treeFiles = []string{"cpu.weight", "cpu.max", "cpu.max.burst", "cpu.idle", "cpuset.cpus"}

// cgroupRows builds the tree of sc, parents before children; ferr is the
// last rejected field (nil if none), pathErr the scenario's validation
// error (nil if none), shown at the field its path names.
func cgroupRows(sc *scenario.Scenario, ferr *cgFieldErr, pathErr *scenario.Error) []CgroupRow {
	paths, err := sc.CgroupPaths()
	if err != nil {
		// A path the decoder would refuse cannot be in a decoded
		// scenario; list the object's groups as they are.
		paths = nil
		for _, cg := range sc.Cgroups {
			paths = append(paths, cg.Path)
		}
	}
	starts := map[string][]string{}
	for _, t := range sc.Tasks {
		g := cleanPath(t.Cgroup)
		starts[g] = append(starts[g], t.Name)
	}
	for _, w := range sc.Workloads {
		if g := cleanPath(w.Cgroup); g != "/" {
			starts[g] = append(starts[g], w.Name+" ("+w.Kind+")")
		}
	}
	var out []CgroupRow
	for i, p := range paths {
		r := CgroupRow{Index: i, Path: p, Name: p[strings.LastIndexByte(p, '/')+1:], Depth: strings.Count(p, "/") - 1,
			Errs: map[string]string{}, Texts: map[string]string{}, Tasks: strings.Join(starts[p], ", ")}
		r.Indent = fmt.Sprintf("padding-left:%dem", r.Depth)
		k := slices.IndexFunc(sc.Cgroups, func(c scenario.Cgroup) bool { return c.Path == p })
		r.Implicit = k < 0
		if k >= 0 {
			fs := sc.Cgroups[k].Files
			r.Weight, r.Burst, r.CPUs, r.Idle = fs["cpu.weight"], fs["cpu.max.burst"], fs["cpuset.cpus"], fs["cpu.idle"] == "1"
			if m, ok := fs["cpu.max"]; ok {
				r.Quota, r.Period, _ = strings.Cut(m, " ")
			}
			var other []string
			for _, name := range sortedFiles(fs) {
				if !slices.Contains(treeFiles, name) {
					other = append(other, name+"="+fs[name])
				}
			}
			r.Other = strings.Join(other, ", ")
		}
		for _, f := range []string{"cpu.weight", "cpu.max", "cpu.max.burst", "cpu.idle", "cpuset.cpus", "name"} {
			if pathErr != nil && pathErr.Path == "cgroups."+p+"."+f {
				r.Errs[f] = pathErr.Msg
			}
		}
		if pathErr != nil && pathErr.Path == "cgroups."+p {
			r.Errs["name"] = pathErr.Msg
		}
		if ferr != nil && ferr.Path == p {
			r.Errs[ferr.Field] = ferr.Msg
			switch {
			case ferr.TextField != "":
				r.Texts[ferr.TextField] = ferr.Text
			case ferr.Field != "row": // "row": an add or remove, no field's text
				r.Texts[ferr.Field] = ferr.Text
			}
		}
		out = append(out, r)
	}
	return out
}

func sortedFiles(fs map[string]string) []string {
	names := make([]string, 0, len(fs))
	for n := range fs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// cleanPath is a taskgroup value as a path ("" and "/" are the root).
func cleanPath(g string) string {
	g = strings.TrimRight(g, "/")
	if g == "" {
		return "/"
	}
	return g
}

// cgAdd adds a group with defaults under parent ("/" = the root), named
// g1, g2, ... (the first name free there), and returns its path.
func cgAdd(sc *scenario.Scenario, parent string) (string, error) {
	paths, _ := sc.CgroupPaths()
	base := strings.TrimRight(parent, "/")
	for n := 1; ; n++ {
		p := fmt.Sprintf("%s/g%d", base, n)
		if !slices.Contains(paths, p) {
			cgs, err := checkedCgroups(append(cloneGroups(sc.Cgroups), scenario.Cgroup{Path: p, Files: map[string]string{}}))
			if err != nil {
				return "", err
			}
			sc.Cgroups = cgs
			return p, nil
		}
	}
}

// checkedCgroups runs the groups through the cgroups decoder (its path
// checks and limits, its messages) and returns them in its order.
func checkedCgroups(cgs []scenario.Cgroup) ([]scenario.Cgroup, error) {
	obj := map[string]any{}
	for _, cg := range cgs {
		fs := map[string]any{}
		for k, v := range cg.Files {
			fs[k] = v
		}
		obj[cg.Path] = fs
	}
	return scenario.DecodeCgroups(obj)
}

func cloneGroups(cgs []scenario.Cgroup) []scenario.Cgroup {
	out := make([]scenario.Cgroup, len(cgs))
	for i, cg := range cgs {
		fs := make(map[string]string, len(cg.Files))
		for k, v := range cg.Files {
			fs[k] = v
		}
		out[i] = scenario.Cgroup{Path: cg.Path, Files: fs}
	}
	return out
}

// under reports whether path is p or below it.
func under(path, p string) bool { return path == p || strings.HasPrefix(path, p+"/") }

// cgRename renames the group at path (its last component) to name: the
// groups below it, the task groups, program steps and generators that
// name them move with it.
func cgRename(sc *scenario.Scenario, path, name string) error {
	name = strings.TrimSpace(name)
	np := path[:strings.LastIndexByte(path, '/')] + "/" + name
	if np == path {
		return nil
	}
	if strings.Contains(name, "/") {
		return &scenario.Error{Path: "cgroups." + np, Msg: fmt.Sprintf("%q: a name, not a path (no \"/\")", name)}
	}
	paths, _ := sc.CgroupPaths()
	if slices.Contains(paths, np) {
		return &scenario.Error{Path: "cgroups." + np, Msg: "a cgroup of that name exists already"}
	}
	move := func(p string) string {
		if under(p, path) {
			return np + p[len(path):]
		}
		return p
	}
	cgs := cloneGroups(sc.Cgroups)
	for i := range cgs {
		cgs[i].Path = move(cgs[i].Path)
	}
	if !slices.ContainsFunc(cgs, func(c scenario.Cgroup) bool { return c.Path == np }) {
		cgs = append(cgs, scenario.Cgroup{Path: np, Files: map[string]string{}}) // a task-named group: checked too
	}
	cgs, err := checkedCgroups(cgs)
	if err != nil {
		return err
	}
	tasks := slices.Clone(sc.Tasks) // shared with clones of the scenario
	for i := range tasks {
		if tasks[i].Cgroup != "" {
			tasks[i].Cgroup = move(cleanPath(tasks[i].Cgroup))
		}
		tasks[i].Program = moveSteps(tasks[i].Program, move)
	}
	wls := slices.Clone(sc.Workloads)
	for i := range wls {
		if wls[i].Cgroup != "" {
			wls[i].Cgroup = move(cleanPath(wls[i].Cgroup))
		}
	}
	sc.Cgroups, sc.Tasks, sc.Workloads = cgs, tasks, wls
	return nil
}

// moveSteps returns steps with the taskgroup steps' groups moved (a copy
// where any changes: the program is shared with clones).
func moveSteps(steps []scenario.Step, move func(string) string) []scenario.Step {
	var out []scenario.Step
	for i, st := range steps {
		n := st
		switch {
		case st.Kind == "taskgroup" && st.Group != "" && st.Group != "/":
			n.Group = move(cleanPath(st.Group))
		case st.Kind == "loop" && st.Loop != nil:
			if sub := moveSteps(st.Loop.Program, move); sub != nil {
				l := *st.Loop
				l.Program = sub
				n.Loop = &l
			}
		}
		if n.Group != st.Group || n.Loop != st.Loop {
			if out == nil {
				out = slices.Clone(steps)
			}
			out[i] = n
		}
	}
	if out == nil {
		return steps
	}
	return out
}

// cgRemove removes the group at path and the groups below it, unless a
// task group, program step or generator names one of them: rmdir of a
// cgroup with tasks fails (EBUSY), so the tasks have to move first.
func cgRemove(sc *scenario.Scenario, path string) error {
	var users []string
	for _, t := range sc.Tasks {
		if under(cleanPath(t.Cgroup), path) || slices.ContainsFunc(stepGroups(t.Program, nil), func(g string) bool { return under(cleanPath(g), path) }) {
			users = append(users, t.Name)
		}
	}
	for _, w := range sc.Workloads {
		if w.Cgroup != "" && under(cleanPath(w.Cgroup), path) {
			users = append(users, w.Name)
		}
	}
	if len(users) > 0 {
		return &scenario.Error{Path: "cgroups." + path, Msg: fmt.Sprintf("%s has tasks (%s): move them to another cgroup first (rmdir of a busy cgroup fails with EBUSY)", path, strings.Join(users, ", "))}
	}
	cgs := slices.DeleteFunc(cloneGroups(sc.Cgroups), func(c scenario.Cgroup) bool { return under(c.Path, path) })
	if len(cgs) == 0 {
		cgs = nil
	}
	sc.Cgroups = cgs
	return nil
}

func stepGroups(steps []scenario.Step, out []string) []string {
	for _, st := range steps {
		switch {
		case st.Kind == "taskgroup":
			out = append(out, st.Group)
		case st.Kind == "loop" && st.Loop != nil:
			out = stepGroups(st.Loop.Program, out)
		}
	}
	return out
}

// cgSetFile writes text into the group's interface file (the scenario
// layer's -set key cgroups.PATH.FILE, so the check and the message are
// its own); empty text takes the file back to its default. The group is
// created in the cgroups object if only a task named it.
func cgSetFile(sc *scenario.Scenario, path, file, text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		k := slices.IndexFunc(sc.Cgroups, func(c scenario.Cgroup) bool { return c.Path == path })
		if k >= 0 {
			cgs := cloneGroups(sc.Cgroups)
			delete(cgs[k].Files, file) // the group stays, with its defaults
			sc.Cgroups = cgs
		}
		return nil
	}
	trial := sc.Clone()
	if err := trial.Set("cgroups." + path + "." + file + "=" + text); err != nil {
		return err
	}
	sc.Cgroups = trial.Cgroups
	return nil
}

// cpuMaxText composes cpu.max from the tree's quota and period fields
// ("" and "" = no cpu.max; an empty quota is "max", an empty period the
// default 100000).
func cpuMaxText(quota, period string) string {
	quota, period = strings.TrimSpace(quota), strings.TrimSpace(period)
	if quota == "" && period == "" {
		return ""
	}
	if quota == "" {
		quota = "max"
	}
	if period == "" {
		period = "100000"
	}
	return quota + " " + period
}

// cgAssign puts task group i (taskgroup, "/" = the root) in cgroup path.
func cgAssign(sc *scenario.Scenario, i int, path string) error {
	if i < 0 || i >= len(sc.Tasks) {
		return fmt.Errorf("no task group %d", i)
	}
	if path == "/" {
		path = ""
	}
	tasks := slices.Clone(sc.Tasks)
	tasks[i].Cgroup = path
	sc.Tasks = tasks
	return nil
}
