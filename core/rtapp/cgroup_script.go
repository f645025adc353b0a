package rtapp

// The shell script that creates a scenario's cgroups on a real machine
// (schedplay export-rtapp -cgroups FILE). rt-app creates the groups its
// threads name but writes no controller file, and it attaches threads
// through the cgroup v1 "tasks" file of the cpu controller's mount
// (rt-app_taskgroups.c cgroup_attach_task()); so the script configures the
// cpu controller where rt-app will find it: on its v1 hierarchy when the
// cpu controller is mounted as cgroup v1 (and cpuset settings on the v1
// cpuset hierarchy), else on the cgroup v2 hierarchy, enabling +cpu and
// +cpuset down the tree. "$0 remove" removes the groups again, deepest
// first. The values are converted between v1 and v2 as the kernel relates
// them (scenario.CgroupWrites).

import (
	"fmt"
	"sort"
	"strings"

	"schedplay/core/scenario"
)

// CgroupScript returns the POSIX shell script that creates the cgroups of
// sc with their settings, and warnings for settings that do not carry over
// to one of the hierarchies. A scenario without cgroups has none ("").
func CgroupScript(sc *scenario.Scenario) (string, []Warning, error) {
	paths, err := sc.CgroupPaths()
	if err != nil {
		return "", nil, err
	}
	if len(paths) == 0 {
		return "", nil, nil
	}
	files := map[string]map[string]string{}
	for _, cg := range sc.Cgroups {
		files[cg.Path] = cg.Files
	}
	var warns []Warning
	var b strings.Builder
	name := sc.Name
	if name == "" {
		name = "(unnamed)"
	}
	fmt.Fprintf(&b, `#!/bin/sh
# The cgroups of scenario %s, for rt-app's "taskgroup" threads.
# Written by schedplay export-rtapp -cgroups. Run as root before rt-app;
# "%s remove" removes the groups afterwards (deepest first).
# rt-app attaches threads through the "tasks" file of the cpu controller's
# cgroup v1 mount; with the cpu controller on cgroup v2 only, the groups
# are configured for threads attached by other means (cgroup.threads).
# CGROUP_PARENT=/name creates them below that group instead of the root
# (rt-app's taskgroups then need the prefix too).
set -e
P=${CGROUP_PARENT:-}
cpu=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/mounts)
cpuset=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpuset(,|$)/ { print $2; exit }' /proc/mounts)
v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
r_cpu=$cpu r_cpuset=$cpuset r_v2=$v2
[ -n "$cpu" ] && cpu=$cpu$P
[ -n "$cpuset" ] && cpuset=$cpuset$P
[ -n "$v2" ] && v2=$v2$P
`, shellQuote(name), "$0")
	rev := append([]string(nil), paths...)
	sort.Sort(sort.Reverse(sort.StringSlice(rev)))
	b.WriteString("if [ \"$1\" = remove ]; then\n")
	for _, p := range rev {
		fmt.Fprintf(&b, "\tfor h in \"$cpu\" \"$cpuset\" \"$v2\"; do if [ -n \"$h\" ] && [ -d \"$h%s\" ]; then rmdir \"$h%s\"; fi; done\n", p, p)
	}
	b.WriteString("\tif [ -n \"$P\" ]; then for h in \"$cpu\" \"$cpuset\" \"$v2\"; do if [ -n \"$h\" ] && [ -d \"$h\" ]; then rmdir \"$h\" || true; fi; done; fi\n")
	b.WriteString("\texit 0\nfi\n")
	// cgroup v1.
	b.WriteString("if [ -n \"$cpu\" ]; then\n")
	b.WriteString("\tmkdir -p \"$cpu\"\n")
	usesCpuset := false
	for _, p := range paths {
		fmt.Fprintf(&b, "\tmkdir -p \"$cpu%s\"\n", p)
		writes, notes := scenario.CgroupWrites(files[p], true)
		for _, n := range notes {
			warns = append(warns, Warning{Path: "cgroups." + p, Msg: "cgroup v1: " + n})
		}
		for _, w := range writes {
			if w.Hier == "cpuset" {
				usesCpuset = true
				continue
			}
			fmt.Fprintf(&b, "\techo %s > \"$cpu%s/%s\"\n", shellQuote(w.Value), p, w.File)
		}
	}
	if usesCpuset {
		warns = append(warns, Warning{Path: "cgroups", Msg: "cgroup v1: the cpuset settings go to the cpuset hierarchy, where rt-app does not attach its threads (it uses the cpu controller's mount only, unless cpu and cpuset are mounted together)"})
		b.WriteString("\tif [ -n \"$cpuset\" ]; then\n")
		b.WriteString("\t\tif [ -n \"$P\" ]; then mkdir -p \"$cpuset\"; cat \"$r_cpuset/cpuset.mems\" > \"$cpuset/cpuset.mems\"; cat \"$r_cpuset/cpuset.cpus\" > \"$cpuset/cpuset.cpus\"; fi\n")
		for _, p := range paths {
			writes, _ := scenario.CgroupWrites(files[p], true)
			parent := p[:strings.LastIndexByte(p, '/')]
			fmt.Fprintf(&b, "\t\tmkdir -p \"$cpuset%s\"\n", p)
			fmt.Fprintf(&b, "\t\tcat \"$cpuset%s/cpuset.mems\" > \"$cpuset%s/cpuset.mems\"\n", parent, p)
			fmt.Fprintf(&b, "\t\t[ -s \"$cpuset%s/cpuset.cpus\" ] || cat \"$cpuset%s/cpuset.cpus\" > \"$cpuset%s/cpuset.cpus\"\n", p, parent, p)
			for _, w := range writes {
				if w.Hier == "cpuset" {
					fmt.Fprintf(&b, "\t\techo %s > \"$cpuset%s/%s\"\n", shellQuote(w.Value), p, w.File)
				}
			}
		}
		b.WriteString("\tfi\n")
	}
	// cgroup v2.
	b.WriteString("elif [ -n \"$v2\" ]; then\n")
	ctl := "+cpu"
	for _, p := range paths {
		if w, _ := scenario.CgroupWrites(files[p], false); hasCpuset(w) {
			ctl = "+cpu +cpuset"
		}
	}
	parents := map[string]bool{"": true}
	for _, p := range paths {
		parents[p[:strings.LastIndexByte(p, '/')]] = true
	}
	fmt.Fprintf(&b, "\td=$r_v2; echo %s > \"$d/cgroup.subtree_control\"\n", shellQuote(ctl))
	fmt.Fprintf(&b, "\tfor c in $(echo \"$P\" | tr / ' '); do d=$d/$c; mkdir -p \"$d\"; echo %s > \"$d/cgroup.subtree_control\"; done\n", shellQuote(ctl))
	for _, p := range paths {
		fmt.Fprintf(&b, "\tmkdir -p \"$v2%s\"\n", p)
		if parents[p] {
			fmt.Fprintf(&b, "\techo %s > \"$v2%s/cgroup.subtree_control\"\n", shellQuote(ctl), p)
		}
		writes, notes := scenario.CgroupWrites(files[p], false)
		for _, n := range notes {
			warns = append(warns, Warning{Path: "cgroups." + p, Msg: "cgroup v2: " + n})
		}
		for _, w := range writes {
			fmt.Fprintf(&b, "\techo %s > \"$v2%s/%s\"\n", shellQuote(w.Value), p, w.File)
		}
	}
	b.WriteString("else\n\techo \"$0: no cgroup cpu controller mounted\" >&2\n\texit 1\nfi\n")
	return b.String(), warns, nil
}

func hasCpuset(ws []scenario.CgroupWrite) bool {
	for _, w := range ws {
		if strings.HasPrefix(w.File, "cpuset.") {
			return true
		}
	}
	return false
}

// shellQuote quotes s for sh when it holds anything but safe characters.
func shellQuote(s string) string {
	safe := s != ""
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./,:@+", c)) {
			safe = false
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
