package main

// GeneratorForm: the scenario's workload generators (the "workloads"
// array, docs/workloads.md) as forms inside the workload panel. Every form
// is generated from the generator's parameter table in core/scenario
// (scenario.WorkloadKinds: the same table the decoder, `-set` and
// `schedplay workloads` use), so there is no hand-written form per kind:
// an integer is a number field with the range, a duration a text field, a
// bool or an enumeration a select, each with the default as placeholder
// and the help as its tooltip and line. A field left empty is the
// generator's default (not written into the scenario, so the share URL
// keeps the short form: kind, name and the parameters given).
//
// A value is checked as the decoder checks it (Param.Check) before it
// reaches the scenario; a bad one stays in its field with the error under
// it, and the scenario is unchanged. An error of the whole expansion
// (e.g. hackbench groups x fds over the task limit) is shown at the field
// its path names. Each form previews its expansion: task groups and tasks
// (scenario.WorkloadSizes). Untrusted strings (names, values from a pasted
// scenario) go through vg-content and attribute values only.

import (
	"fmt"
	"strings"

	"schedplay/core/scenario"
)

// GeneratorForm is the list of generator forms and the "add" row.
type GeneratorForm struct {
	App *App `vugu:"data"`
}

// genFieldErr is a field's rejected text and why (the scenario keeps its
// previous value).
type genFieldErr struct {
	Index       int
	Field, Text string
	Msg         string
}

// GenForm is one workload as its form shows it.
type GenForm struct {
	Index              int
	Kind, Name, Models string
	Cgroup             string // taskgroup as a path ("/" = the root)
	Fields             []GenField
	Size               string // "expands to ..."
	NameErr, NameText  string
	Err                string // an error of the workload not at one field
}

// GenField is one parameter.
type GenField struct {
	ID, Param   string
	Input       string   // "number", "text" or "select"
	Value       string   // the text shown: given, rejected, or "" (default)
	Placeholder string   // the default, or how it is derived
	Options     []string // select: "" (default) first
	Min, Max    string   // number: the range
	Help, Range string
	Err         string
}

// genForms builds the forms of sc's workloads; ferr is the last rejected
// field (nil if none), pathErr the scenario's validation error (nil if
// none).
func genForms(sc *scenario.Scenario, ferr *genFieldErr, pathErr *scenario.Error) []GenForm {
	kinds := map[string]scenario.WorkloadKind{}
	for _, k := range scenario.WorkloadKinds() {
		kinds[k.Kind] = k
	}
	sizes, sizeErr := scenario.WorkloadSizes(sc)
	var sizePE *scenario.Error
	if sizeErr != nil {
		sizePE = asPathError(sizeErr)
	}
	errAt := func(path string) string {
		for _, e := range []*scenario.Error{pathErr, sizePE} {
			if e != nil && e.Path == path {
				return e.Msg
			}
		}
		return ""
	}
	var out []GenForm
	for i, w := range sc.Workloads {
		k := kinds[w.Kind]
		f := GenForm{Index: i, Kind: w.Kind, Name: w.Name, NameText: w.Name, Models: k.Models, Cgroup: cleanPath(w.Cgroup)}
		prefix := fmt.Sprintf("workloads[%d]", i)
		shown := false // the expansion error is shown at a field
		for _, p := range k.Params {
			fd := GenField{ID: fmt.Sprintf("gen-%d-%s", i, p.Name), Param: p.Name, Value: w.Params[p.Name],
				Placeholder: p.Default, Help: p.Help, Range: p.Range()}
			if fd.Placeholder == "" {
				fd.Placeholder = "auto"
			}
			switch p.Type {
			case scenario.PInt:
				fd.Input, fd.Min, fd.Max = "number", fmt.Sprint(p.Min), fmt.Sprint(p.Max)
			case scenario.PBool:
				fd.Input, fd.Options = "select", []string{"", "true", "false"}
			case scenario.PEnum:
				fd.Input, fd.Options = "select", append([]string{""}, p.Enum...)
			default:
				fd.Input = "text"
			}
			if ferr != nil && ferr.Index == i && ferr.Field == p.Name {
				fd.Value, fd.Err = ferr.Text, ferr.Msg
			} else if fd.Err = errAt(prefix + "." + p.Name); fd.Err != "" && sizePE != nil && sizePE.Path == prefix+"."+p.Name {
				shown = true
			}
			f.Fields = append(f.Fields, fd)
		}
		if ferr != nil && ferr.Index == i && ferr.Field == "name" {
			f.NameText, f.NameErr = ferr.Text, ferr.Msg
		} else if f.NameErr = errAt(prefix + ".name"); f.NameErr != "" && sizePE != nil && sizePE.Path == prefix+".name" {
			shown = true
		}
		switch {
		case sizeErr == nil:
			f.Size = sizeText(sizes[i])
		case sizePE.Path == prefix || strings.HasPrefix(sizePE.Path, prefix+".") || strings.HasPrefix(sizePE.Path, prefix+" "):
			if !shown {
				f.Err = sizePE.Error()
			}
			f.Size = "does not expand (see the error)"
		default:
			f.Size = "not expanded: another part of the scenario has an error"
		}
		out = append(out, f)
	}
	return out
}

func sizeText(s scenario.WorkloadSize) string {
	t := fmt.Sprintf("expands to %d task group%s, %d task%s", s.Groups, plural(s.Groups), s.Tasks, plural(s.Tasks))
	switch {
	case s.ForksForever:
		t += " + forks while it runs"
	case s.Forked > 0:
		t += fmt.Sprintf(" + %d forked while it runs", s.Forked)
	}
	return t
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// genState is the forms' own state: the last rejected field and the kind
// the "add" row offers.
type genState struct {
	Err  *genFieldErr
	Kind string
}

func (c *GeneratorForm) st() *genState {
	if c.App.Gen == nil {
		c.App.Gen = &genState{Kind: "hackbench"}
	}
	return c.App.Gen
}

func (c *GeneratorForm) forms() []GenForm {
	return genForms(c.App.Sc, c.st().Err, c.App.JSONErr)
}

func (c *GeneratorForm) kinds() []string {
	var out []string
	for _, k := range scenario.WorkloadKinds() {
		out = append(out, k.Kind)
	}
	return out
}

// addGen appends a workload of the chosen kind with its defaults.
func (c *GeneratorForm) addGen() {
	sc := c.App.Sc
	if len(sc.Workloads) >= scenario.MaxWorkloads {
		c.App.Notice = fmt.Sprintf("at most %d workloads", scenario.MaxWorkloads)
		return
	}
	kind := c.st().Kind
	sc.Workloads = append(append([]scenario.Workload(nil), sc.Workloads...),
		scenario.Workload{Kind: kind, Name: scenario.NewWorkloadName(sc, kind), Params: map[string]string{}})
	c.st().Err = nil
	c.App.edited()
}

// removeGen drops workload i.
func (c *GeneratorForm) removeGen(i int) {
	sc := c.App.Sc
	if i < 0 || i >= len(sc.Workloads) {
		return
	}
	sc.Workloads = append(append([]scenario.Workload(nil), sc.Workloads[:i]...), sc.Workloads[i+1:]...)
	c.st().Err = nil
	c.App.edited()
}

// setParam checks a field's text as the decoder would and, if it is good,
// writes it into the scenario ("" = back to the default) and reruns.
func (c *GeneratorForm) setParam(i int, param, text string) {
	c.apply(applyParam(c.App.Sc, i, param, text))
}

// setCgroup puts workload i's task groups in cgroup path ("/" = the
// root; cgroup-tree.go has the tree).
func (c *GeneratorForm) setCgroup(i int, path string) {
	sc := c.App.Sc
	if i < 0 || i >= len(sc.Workloads) {
		return
	}
	if path == "/" {
		path = ""
	}
	sc.Workloads = append([]scenario.Workload(nil), sc.Workloads...) // shared with clones
	sc.Workloads[i].Cgroup = path
	c.App.edited()
}

// setName renames workload i (its task groups are renamed with it).
func (c *GeneratorForm) setName(i int, text string) {
	c.apply(applyName(c.App.Sc, i, text))
}

// apply records a rejected field, or reruns the edited scenario.
func (c *GeneratorForm) apply(ferr *genFieldErr, changed bool) {
	c.st().Err = ferr
	if changed {
		c.App.edited()
	}
}

func inputClass(f GenField) string {
	if f.Err != "" {
		return "bad"
	}
	return ""
}

// optionText labels a select option ("" is the default).
func optionText(o string, f GenField) string {
	if o == "" {
		return "default (" + f.Placeholder + ")"
	}
	return o
}
