package scenario

// The rows of the key table (keys.go) for task groups: kernel.autogroup,
// kernel.rt_group_sched (cgroup_kernel.go) and the "cgroups" family
// (cgroups.go), keyed by path: `-set cgroups./PATH.FILE=VALUE`. A
// scenario without them encodes as before.

var autogroupRow = keyDef{name: "kernel.autogroup", typ: "on|off",
	help:  "sched_autogroup_enabled: root-cgroup tasks grouped by session (task key \"session\"); default off on every profile (scenario-format.md says why)",
	field: func(sc *Scenario) any { return &sc.Kernel.Autogroup }, choices: onOffChoices, def: "off"}

var rtGroupSchedRow = keyDef{name: "kernel.rt_group_sched", typ: "on|off",
	help:  "CONFIG_RT_GROUP_SCHED: RT bandwidth per cgroup (cpu.rt_runtime_us, cpu.rt_period_us); default off on every profile, as the common distributions build",
	field: func(sc *Scenario) any { return &sc.Kernel.RTGroupSched }, choices: onOffChoices, def: "off"}

var cgroupsFamily = &family{
	members: func() []KeyInfo {
		var out []KeyInfo
		for _, f := range cgroupFiles {
			out = append(out, KeyInfo{Key: "cgroups./PATH." + f.name, Type: cgroupFileUnit(f), Help: f.help})
		}
		return out
	},
	decode: func(sc *Scenario, v any) (err error) { sc.Cgroups, err = decodeCgroups(v); return err },
	encode: func(w *jw, sc *Scenario) bool {
		if len(sc.Cgroups) == 0 {
			return false
		}
		encodeCgroups(w, sc.Cgroups)
		return true
	},
	set:   func(sc *Scenario, key, rest, val string) error { return sc.setCgroupFile(key, rest, val) },
	clear: func(sc *Scenario, rest string) bool { return sc.clearCgroupFile(rest) },
	value: func(sc *Scenario, rest string) (string, bool) { return sc.cgroupFileValue(rest) },
	clone: func(dst, src *Scenario) { dst.Cgroups = cloneCgroups(src.Cgroups) },
}
