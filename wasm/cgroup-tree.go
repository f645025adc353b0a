package main

// CgroupTree: the scenario's cgroups as a tree in the workload panel
// (docs/scenario-format.md "Cgroups"): add a group at the root or inside
// another, rename it, remove it (with the groups inside it, unless tasks
// are in them), and write its cpu.weight, cpu.max (quota and period),
// cpu.max.burst, cpu.idle and cpuset.cpus. The task table and the
// generator forms put task groups and generators in a group. With
// kernel.autogroup on, a second table sets each session's autogroup nice
// (autogroup_edit.go). The edits
// are cgroup_edit.go's; a rejected value stays in its field with the
// scenario layer's message under the tree, and the scenario is unchanged.
// Paths, names and values are user input: they reach the page through
// attribute values and vg-content only.

import (
	"strconv"

	"schedplay/core/scenario"
)

// CgroupTree is the cgroup tree's component.
type CgroupTree struct {
	App *App `vugu:"data"`
}

// cgState is the tree's own state: the last rejected field.
type cgState struct {
	Err   *cgFieldErr
	AgErr *cgFieldErr // the last rejected autogroup nice (Path = the session)
}

func (c *CgroupTree) st() *cgState {
	if c.App.CG == nil {
		c.App.CG = &cgState{}
	}
	return c.App.CG
}

func (c *CgroupTree) rows() []CgroupRow { return cgroupRows(c.App.Sc, c.st().Err, c.App.JSONErr) }

// cgErr is one message under the tree, with its element id.
type cgErr struct{ ID, Msg string }

// errs lists the rows' field errors, in row order, one per row.
func (c *CgroupTree) errs() []cgErr {
	var out []cgErr
	for _, r := range c.rows() {
		for _, f := range []string{"row", "name", "cpu.weight", "cpu.max", "cpu.max.burst", "cpu.idle", "cpuset.cpus"} {
			if m := r.Errs[f]; m != "" {
				out = append(out, cgErr{ID: cgID(r, "err"), Msg: m})
				break // one per row: the edit's, or the scenario's
			}
		}
	}
	return out
}

// cgID is an element id of row r's field (ids by row, not by path: a
// path is user text).
func cgID(r CgroupRow, field string) string { return "cg-" + strconv.Itoa(r.Index) + "-" + field }

// fieldText is what a field shows: its rejected text, or the value.
func fieldText(r CgroupRow, field, value string) string {
	if t, ok := r.Texts[field]; ok {
		return t
	}
	return value
}

// cgField is one text field of a row: one template element for all of
// them (each element of a Vugu template is generated code in main.wasm).
type cgField struct {
	Key, ID, Class, Placeholder, Value string
}

// cgFields lists row r's text fields: weight, quota, period, burst, cpus.
func cgFields(r CgroupRow) []cgField {
	return []cgField{
		{"cpu.weight", cgID(r, "weight"), "num " + badIf(r, "cpu.weight"), "100", fieldText(r, "cpu.weight", r.Weight)},
		{"quota", cgID(r, "quota"), "num " + badIf(r, "cpu.max"), "max", fieldText(r, "quota", r.Quota)},
		{"period", cgID(r, "period"), "num " + badIf(r, "cpu.max"), "100000", fieldText(r, "period", r.Period)},
		{"cpu.max.burst", cgID(r, "burst"), "num " + badIf(r, "cpu.max.burst"), "0", fieldText(r, "cpu.max.burst", r.Burst)},
		{"cpuset.cpus", cgID(r, "cpus"), "cpus " + badIf(r, "cpuset.cpus"), "parent's", fieldText(r, "cpuset.cpus", r.CPUs)},
	}
}

// setField writes text into row r's field key (quota and period make
// cpu.max together).
func (c *CgroupTree) setField(r CgroupRow, key, text string) {
	switch key {
	case "quota", "period":
		q, p := text, r.Period
		if key == "period" {
			q, p = r.Quota, text
		}
		c.apply(r.Path, "cpu.max", text, cgSetFile(c.App.Sc, r.Path, "cpu.max", cpuMaxText(q, p)))
		if c.st().Err != nil {
			c.st().Err.TextField = key // the rejected text stays in its own input
		}
	default:
		c.setFile(r.Path, key, text)
	}
}

func badIf(r CgroupRow, field string) string {
	if r.Errs[field] != "" {
		return "bad"
	}
	return ""
}

// apply records the outcome of an edit of the group at path: a rejected
// field keeps its text and message; a good edit reruns.
func (c *CgroupTree) apply(path, field, text string, err error) {
	if err != nil {
		msg := err.Error()
		if pe := asPathError(err); pe.Path != "" {
			msg = pe.Path + ": " + pe.Msg
		}
		c.st().Err = &cgFieldErr{Path: path, Field: field, Text: text, Msg: msg}
		c.App.Notice = msg
		return
	}
	c.st().Err = nil
	c.App.edited()
}

func (c *CgroupTree) add(parent string) {
	_, err := cgAdd(c.App.Sc, parent)
	c.apply(parent, "row", "", err)
}

func (c *CgroupTree) rename(path, name string) {
	c.apply(path, "name", name, cgRename(c.App.Sc, path, name))
}

func (c *CgroupTree) remove(path string) {
	c.apply(path, "row", "", cgRemove(c.App.Sc, path))
}

func (c *CgroupTree) setFile(path, file, text string) {
	c.apply(path, file, text, cgSetFile(c.App.Sc, path, file, text))
}

func (c *CgroupTree) setIdle(path string, on bool) {
	v := ""
	if on {
		v = "1"
	}
	c.setFile(path, "cpu.idle", v)
}

// autogroupOn reports whether kernel.autogroup is on (the autogroup table
// shows then).
func (c *CgroupTree) autogroupOn() bool {
	a := c.App.Sc.Kernel.Autogroup
	return a != nil && *a
}

func (c *CgroupTree) agRows() []agRow { return autogroupRows(c.App.Sc) } // autogroup_edit.go

// agID is an element id of autogroup row r's field (by row: a session
// name is user text).
func agID(r agRow, field string) string { return "ag-" + strconv.Itoa(r.Index) + "-" + field }

// agNiceText is what row r's nice field shows: the rejected text of the
// last edit of that session, or the value.
func (c *CgroupTree) agNiceText(r agRow) string {
	if e := c.st().AgErr; e != nil && e.Path == r.Session {
		return e.Text
	}
	return r.Nice
}

// agErrText is the message of the last rejected nice of row r's session.
func (c *CgroupTree) agErrText(r agRow) string {
	if e := c.st().AgErr; e != nil && e.Path == r.Session {
		return e.Msg
	}
	return ""
}

// agBad marks row r's nice field when its last edit was refused.
func (c *CgroupTree) agBad(r agRow) string {
	if c.agErrText(r) != "" {
		return "bad"
	}
	return ""
}

// setAgNice writes the autogroup nice of session (docs/scenario-format.md).
func (c *CgroupTree) setAgNice(session, text string) {
	if err := agSetNice(c.App.Sc, session, text); err != nil {
		msg := err.Error()
		if pe := asPathError(err); pe.Path != "" {
			msg = pe.Path + ": " + pe.Msg
		}
		c.st().AgErr = &cgFieldErr{Path: session, Field: "autogroup_nice", Text: text, Msg: msg}
		c.App.Notice = msg
		return
	}
	c.st().AgErr = nil
	c.App.edited()
}

// cgroupOptions are the groups a task group or generator can start in:
// the root, then the scenario's groups.
func cgroupOptions(sc *scenario.Scenario) []string {
	paths, _ := sc.CgroupPaths()
	return append([]string{"/"}, paths...)
}
