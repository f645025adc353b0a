package rtapp

// Task groups in rt-app files.
//
// rt-app's "taskgroup" (thread and phase level, src/rt-app_parse_config.c
// parse_taskgroup_data()) names a cgroup of the cpu controller, which must
// start with "/"; rt-app creates the groups it names (mkdir, nested) under
// the cpu controller's cgroup v1 mount and writes each thread's tid into
// the group's "tasks" file at the thread's start and at every phase whose
// taskgroup differs from the current one (set_thread_taskgroup(): a phase
// without one keeps the thread where it is). It refuses a taskgroup for a
// thread whose policy is not SCHED_OTHER or SCHED_IDLE
// (check_taskgroup_policy_dep(): "No taskgroup support for policy"). It
// writes no controller file: the weights and limits are the machine's.
//
// Import maps the thread's taskgroup to the task's, and a phase's to a
// taskgroup step at the phase's start (outside its loop: inside it the
// group does not change). A top-level "cgroups" object, which rt-app
// ignores, carries the settings in the scenario format's own form, so a
// scenario exported and imported again keeps them; the thread keys
// "session" and "autogroup_nice" (rt-app ignores both) carry the
// scenario's autogroup session and its nice the same way. Export writes the
// same, and [CgroupScript] writes the shell script that creates the
// groups with their settings on a real machine before rt-app runs.

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"schedplay/core/quote"
	"schedplay/core/scenario"
)

// taskgroupOK reports whether rt-app accepts a taskgroup for policy pol.
func taskgroupOK(pol string) bool {
	return pol == "" || pol == "SCHED_OTHER" || pol == "SCHED_NORMAL" || pol == "SCHED_IDLE"
}

// taskgroupAt reads a "taskgroup" member ("" when absent or empty).
func taskgroupAt(path string, v *Value) (string, error) {
	m := v.Get("taskgroup")
	if m == nil {
		return "", nil
	}
	p := join(path, "taskgroup")
	if m.Val == nil || m.Val.Kind != String {
		return "", errAt(p, "want a cgroup path string like \"/A\"")
	}
	g := m.Val.Str
	if g != "" && !strings.HasPrefix(g, "/") {
		return "", errAt(p, "%q: rt-app exits: \"Taskgroup [%s] has to start with [/]\"", g, quote.Clip(g))
	}
	if g != "" && g != "/" {
		if _, err := scenario.DecodeCgroups(map[string]any{g: map[string]any{}}); err != nil {
			return "", errAt(p, "%v", err)
		}
	}
	return g, nil
}

// sessionAt reads the thread key "session", the scenario's autogroup
// session, which export writes and rt-app ignores ("" when absent).
func sessionAt(path string, v *Value) (string, error) {
	m := v.Get("session")
	if m == nil {
		return "", nil
	}
	if m.Val == nil || m.Val.Kind != String || m.Val.Str == "" || len(m.Val.Str) > 64 {
		return "", errAt(join(path, "session"), "want a session name of 1-64 characters (the scenario's session key; rt-app ignores it)")
	}
	return m.Val.Str, nil
}

// autogroupNiceAt reads the thread key "autogroup_nice", the scenario's
// per-session autogroup nice, which export writes and rt-app ignores (nil
// when absent).
func autogroupNiceAt(path string, v *Value) (*int, error) {
	m := v.Get("autogroup_nice")
	if m == nil {
		return nil, nil
	}
	p := join(path, "autogroup_nice")
	n, err := intAt(p, m.Val)
	if err != nil {
		return nil, err
	}
	if n < -20 || n > 19 {
		return nil, errAt(p, "%d: want an autogroup nice -20..19 (sched_autogroup_set_nice(); the scenario's autogroup_nice key, which rt-app ignores)", n)
	}
	nice := int(n)
	return &nice, nil
}

// autogroupOn turns kernel.autogroup on when a thread carries an
// autogroup nice: the nice belongs to an autogroup, as on the machine the
// export came from (rt-app files have no kernel settings).
func (im *importer) autogroupOn(sc *scenario.Scenario) {
	for i := range sc.Tasks {
		if sc.Tasks[i].AutogroupNice != nil {
			on := true
			sc.Kernel.Autogroup = &on
			im.warn(fmt.Sprintf("tasks.%s.autogroup_nice", sc.Tasks[i].Name), "an autogroup nice: simulating with kernel.autogroup=on (sched_autogroup_enabled)")
			return
		}
	}
}

// checkTaskgroupPolicy is check_taskgroup_policy_dep().
func checkTaskgroupPolicy(path, pol, group string) error {
	if group != "" && !taskgroupOK(pol) {
		return errAt(join(path, "taskgroup"), "%q with policy %s: rt-app exits: \"No taskgroup support for policy %s\" (only SCHED_OTHER and SCHED_IDLE threads may name a taskgroup)", group, quote.Clip(pol), quote.Clip(pol))
	}
	return nil
}

// importCgroups reads a top-level "cgroups" object.
func importCgroups(v *Value) ([]scenario.Cgroup, error) {
	return scenario.DecodeCgroups(plain(v))
}

// plain converts a parsed value to decoded JSON (numbers as json.Number).
func plain(v *Value) any {
	if v == nil {
		return nil
	}
	switch v.Kind {
	case Object:
		m := map[string]any{}
		for _, mem := range v.Members {
			m[mem.Key] = plain(mem.Val)
		}
		return m
	case Array:
		var out []any
		for _, e := range v.Elems {
			out = append(out, plain(e))
		}
		return out
	case Number:
		return json.Number(v.Num)
	case String:
		return v.Str
	case Bool:
		return v.Bool
	}
	return nil
}

// exportCgroups writes the top-level "cgroups" member (before "global").
func exportCgroups(b *strings.Builder, cgs []scenario.Cgroup) {
	if len(cgs) == 0 {
		return
	}
	b.WriteString("\t\"cgroups\" : {\n")
	for i, cg := range cgs {
		fmt.Fprintf(b, "\t\t%s : {", jsonStr(cg.Path))
		names := make([]string, 0, len(cg.Files))
		for k := range cg.Files {
			names = append(names, k)
		}
		sort.Strings(names)
		for j, k := range names {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(b, " %s : %s", jsonStr(k), jsonStr(cg.Files[k]))
		}
		b.WriteString(" }")
		if i < len(cgs)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("\t},\n")
}
