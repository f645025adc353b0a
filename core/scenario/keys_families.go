package scenario

// The families of the key table (keys.go): features.NAME (sched_feat and
// the patches of the experiments), sysctl.NAME (kernel sysctls with their
// units), hw.NAME (the machine model), tasks.NAME.instances and
// workloads.NAME.PARAM (workload_codec.go). Each is one family value:
// its members for `schedplay keys`, its JSON codec and its -set rule.

import (
	"fmt"
	"maps"
	"strconv"
	"strings"

	"schedplay/core/sched"
)

var featuresFamily = &family{
	members: func() []KeyInfo {
		var out []KeyInfo
		for _, f := range sched.Features() {
			status := ""
			if !f.Modelled() {
				status = " [accepted, not modelled yet]"
			}
			if !f.AllProfiles() {
				status += " [profiles " + strings.Join(f.Profiles(), ", ") + " only]"
			}
			out = append(out, KeyInfo{Key: "features." + f.String(), Type: "on|off", Help: f.Help(), Notes: status, Choices: onOffChoices()})
		}
		return out
	},
	decode: func(sc *Scenario, v any) error {
		m, err := asObject("features", v)
		if err != nil {
			return err
		}
		for _, k := range sortedKeys(m) {
			on, err := asOnOff("features."+k, m[k])
			if err != nil {
				return err
			}
			sc.Features[k] = on
		}
		return nil
	},
	encode: func(w *jw, sc *Scenario) bool {
		if len(sc.Features) == 0 {
			return false
		}
		f := true
		w.b.WriteByte('{')
		for _, k := range sortedBoolKeys(sc.Features) {
			w.key(k, &f)
			w.str(onOffText(sc.Features[k]))
		}
		w.b.WriteByte('}')
		return true
	},
	set: func(sc *Scenario, key, name, val string) error {
		if _, ok := sched.FeatureByName(name); !ok {
			return errAt(key, "unknown feature (see `schedplay keys`)")
		}
		on, err := asOnOff(key, val)
		if err != nil {
			return err
		}
		sc.Features[name] = on
		return nil
	},
	clear: func(sc *Scenario, name string) bool { delete(sc.Features, name); return true },
	value: func(sc *Scenario, name string) (string, bool) {
		on, ok := sc.Features[name]
		return onOffText(on), ok
	},
	clone: func(dst, src *Scenario) { dst.Features = maps.Clone(src.Features) },
}

var sysctlFamily = &family{
	members: func() []KeyInfo {
		var out []KeyInfo
		for _, k := range sched.SysctlKeys() {
			status := ""
			if !k.Modelled {
				status = " [accepted, not modelled yet]"
			}
			out = append(out, KeyInfo{Key: "sysctl." + k.Name, Type: fmt.Sprintf("%s (%d..%d)", k.Unit, k.Min, k.Max), Help: k.Help, Notes: status})
		}
		return out
	},
	decode: func(sc *Scenario, v any) error {
		m, err := asObject("sysctl", v)
		if err != nil {
			return err
		}
		for _, k := range sortedKeys(m) {
			n, err := asInt64("sysctl."+k, m[k])
			if err != nil {
				return err
			}
			sc.Sysctl[k] = n
		}
		return nil
	},
	encode: func(w *jw, sc *Scenario) bool {
		if len(sc.Sysctl) == 0 {
			return false
		}
		f := true
		w.b.WriteByte('{')
		for _, k := range sortedIntKeys(sc.Sysctl) {
			w.key(k, &f)
			w.b.WriteString(strconv.FormatInt(sc.Sysctl[k], 10))
		}
		w.b.WriteByte('}')
		return true
	},
	set: func(sc *Scenario, key, name, val string) error {
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			return errAt(key, "%q: want an integer in the sysctl's unit", val)
		}
		var probe sched.Sysctls
		if err := probe.Set(name, n); err != nil {
			return errAt(key, "%v", err)
		}
		sc.Sysctl[name] = n
		return nil
	},
	clear: func(sc *Scenario, name string) bool { delete(sc.Sysctl, name); return true },
	value: func(sc *Scenario, name string) (string, bool) {
		n, ok := sc.Sysctl[name]
		return strconv.FormatInt(n, 10), ok
	},
	clone: func(dst, src *Scenario) { dst.Sysctl = maps.Clone(src.Sysctl) },
}

// hwFamily stores hw.NAME as text: Build checks it (hw.go), as only it
// knows the machine.
var hwFamily = &family{
	members: func() []KeyInfo {
		out := []KeyInfo{
			{Key: "hw.cstates", Type: "on|off", Choices: onOffChoices(), Default: "on", Help: "C-states: off models C-states disabled in the BIOS: POLL and the driver's C1, or the machine's own BIOS-off table (xeon-2s8c-2013: POLL and ACPI C1 = HLT); default on; tables per machine in `schedplay topologies`/core/topology/cstates.go"},
			{Key: "hw.idle_disable", Type: "state names, comma-separated", Help: "idle states disabled on every CPU (cpuidle stateN/disable), applied after hw.cstates, e.g. C2; default none"},
			{Key: "hw.smt", Type: "on|off", Choices: onOffChoices(), Default: "on", Help: "SMT: off takes every SMT sibling but the first thread of each core offline (/sys/devices/system/cpu/smt/control), as with hyperthreading disabled; default on"},
		}
		for _, k := range sched.HWKeys() {
			per := ""
			for _, mc := range k.MachineDefaults() {
				per += fmt.Sprintf("; %s: %d (%s)", mc.Machine, mc.Value, mc.Source)
			}
			out = append(out, KeyInfo{Key: "hw." + k.Name, Type: k.Unit, Help: k.Help,
				Notes: fmt.Sprintf("; default %s%s; source: %s", strconv.FormatInt(k.Default(nil), 10), per, k.Source)})
		}
		return out
	},
	decode: func(sc *Scenario, v any) error {
		m, err := asObject("hw", v)
		if err != nil {
			return err
		}
		for _, k := range sortedKeys(m) {
			sc.HW[k] = fmt.Sprint(m[k])
		}
		return nil
	},
	encode: func(w *jw, sc *Scenario) bool {
		if len(sc.HW) == 0 {
			return false
		}
		f := true
		w.b.WriteByte('{')
		for _, k := range sortedStringKeys(sc.HW) {
			w.key(k, &f)
			w.str(sc.HW[k])
		}
		w.b.WriteByte('}')
		return true
	},
	set:   func(sc *Scenario, _, name, val string) error { sc.HW[name] = val; return nil },
	clear: func(sc *Scenario, name string) bool { delete(sc.HW, name); return true },
	value: func(sc *Scenario, name string) (string, bool) {
		v, ok := sc.HW[name]
		return v, ok
	},
	clone: func(dst, src *Scenario) { dst.HW = maps.Clone(src.HW) },
}

var tasksFamily = &family{
	members: func() []KeyInfo {
		return []KeyInfo{{Key: "tasks.NAME.instances", Type: "integer", Help: "how many copies of task group NAME run (the group's instances); e.g. a workload size in an experiment variant"},
			{Key: "tasks.NAME.taskgroup", Type: "cgroup path", Help: "the cgroup task group NAME starts in (\"/\" = the root cgroup); created with defaults if \"cgroups\" does not define it"},
			{Key: "tasks.NAME.autogroup_nice", Type: "integer", Help: "the autogroup nice (-20..19) of task group NAME's session (/proc/<pid>/autogroup; needs kernel.autogroup=on)"},
			{Key: "tasks.NAME.cpu_clock_poll", Type: "duration (100ns..1s, 0 = never)", Help: "task group NAME reads its thread CPU clock (clock_gettime(CLOCK_THREAD_CPUTIME_ID)) after every this much CPU time of its run steps; on v3.19+ each read runs update_curr(), which on EEVDF ends a used-up slice between ticks"}}
	},
	decode: func(sc *Scenario, v any) error {
		arr, ok := v.([]any)
		if !ok {
			return errAt("tasks", "want an array of task groups")
		}
		for i, e := range arr {
			t, err := decodeTask(fmt.Sprintf("tasks[%d]", i), e)
			if err != nil {
				return err
			}
			sc.Tasks = append(sc.Tasks, t)
		}
		return nil
	},
	encode: func(w *jw, sc *Scenario) bool {
		if len(sc.Tasks) == 0 && len(sc.Workloads) > 0 {
			return false
		}
		w.b.WriteByte('[')
		for i, t := range sc.Tasks {
			if i > 0 {
				w.b.WriteByte(',')
			}
			encodeTask(w, t)
		}
		w.b.WriteByte(']')
		return true
	},
	set:  setInstances,
	late: true,
}

// setInstances applies -set tasks.NAME.instances=N (and
// tasks.NAME.taskgroup=PATH, tasks.NAME.autogroup_nice=N,
// tasks.NAME.cpu_clock_poll=D).
func setInstances(sc *Scenario, key, rest, val string) error {
	if group, ok := strings.CutSuffix(rest, ".taskgroup"); ok {
		return sc.setTaskgroup(key, group, val) // cgroups.go
	}
	if group, ok := strings.CutSuffix(rest, ".autogroup_nice"); ok {
		return sc.setAutogroupNice(key, group, val) // cgroup_tasks.go
	}
	if group, ok := strings.CutSuffix(rest, ".cpu_clock_poll"); ok {
		return sc.setClockPoll(key, group, val)
	}
	group, ok := strings.CutSuffix(rest, ".instances")
	if !ok {
		return errUnknownKey(key)
	}
	n, err := strconv.Atoi(val)
	if err != nil || n < 1 {
		return errAt(key, "%q: want a positive integer", val)
	}
	// Copy the slice first: scenarios cloned for compare, sweep and
	// experiment variants share it.
	sc.Tasks = append([]Task(nil), sc.Tasks...)
	found := false
	for i := range sc.Tasks {
		if sc.Tasks[i].Name == group {
			sc.Tasks[i].Instances, found = n, true
		}
	}
	if !found {
		return errAt(key, "no task group %q in the scenario", group)
	}
	return nil
}

var workloadsFamily = &family{
	members: func() []KeyInfo {
		return []KeyInfo{{Key: "workloads.NAME.PARAM", Type: "per generator", Help: "a parameter of workload NAME (`schedplay workloads` lists the generators and their parameters); workloads.NAME.kind=KIND adds a workload"},
			{Key: "workloads.NAME.taskgroup", Type: "cgroup path", Help: "the cgroup the task groups of workload NAME start in (\"/\" = the root cgroup); created with defaults if \"cgroups\" does not define it"}}
	},
	decode: func(sc *Scenario, v any) (err error) { sc.Workloads, err = decodeWorkloads(v); return err },
	encode: func(w *jw, sc *Scenario) bool {
		if len(sc.Workloads) == 0 {
			return false
		}
		encodeWorkloads(w, sc.Workloads)
		return true
	},
	set: func(sc *Scenario, key, rest, val string) error { return sc.setWorkload(key, rest, val) },
}

// decodeVersion checks the format version: only 1 exists.
func decodeVersion(_ *Scenario, v any) error {
	ver, err := asInt("version", v)
	if err != nil {
		return err
	}
	if ver != 1 {
		return errAt("version", "unsupported version %d; this build reads version 1", ver)
	}
	return nil
}

func onOffChoices() []string { return []string{"on", "off"} }

func onOffText(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// setClockPoll applies -set tasks.NAME.cpu_clock_poll=D (0 = never); the
// bounds are checked where the scenario is built, as for the JSON key.
func (sc *Scenario) setClockPoll(key, group, val string) error {
	d, err := ParseDuration(key, val)
	if err != nil {
		return err
	}
	// Copy the slice first: cloned scenarios share it.
	sc.Tasks = append([]Task(nil), sc.Tasks...)
	found := false
	for i := range sc.Tasks {
		if sc.Tasks[i].Name == group {
			sc.Tasks[i].CPUClockPoll, found = d, true
		}
	}
	if !found {
		return errAt(key, "no task group %q in the scenario", group)
	}
	return nil
}
