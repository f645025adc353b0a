package scenario

// The "cgroups" object of a scenario (scenario-format.md "Cgroups"): cgroup
// paths and the interface files written into them, as a container runtime
// or systemd writes /sys/fs/cgroup/PATH/cpu.max. Decoding checks each path
// and file value (cgroup_files.go); Build (cgroup_build.go) resolves the
// hierarchy, the groups the tasks name and the cross-file rules into
// sched.CgroupSpec, the engine's task groups.

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// Bounds of the cgroup tree of a scenario. The kernel bounds it by
// cgroup.max.depth and cgroup.max.descendants (unlimited by default);
// these keep a scenario, its URL and the engine's per-CPU runqueues small.
const (
	MaxCgroupDepth = 16
	MaxCgroups     = 256
)

// Cgroup is one entry of the "cgroups" object.
type Cgroup struct {
	// Path is the absolute cgroup path, "/A/B" (below the hierarchy root).
	Path string
	// Files maps interface file names to their canonical values
	// (cgroupFile.canonical); nil or empty = a group with defaults.
	Files map[string]string
}

// checkCgroupPath checks an absolute cgroup path: "/" + components of
// 1-64 characters of A-Z a-z 0-9 _ . - : @ (not "." or ".."), at most
// MaxCgroupDepth deep. The root itself has no cpu interface files.
func checkCgroupPath(p, path string) error {
	if path == "/" {
		return errAt(p, "the root cgroup has no cpu.weight or cpu.max (it is not configurable); use a path like \"/A\"")
	}
	if !strings.HasPrefix(path, "/") {
		return errAt(p, "%q: want an absolute cgroup path like \"/A\" or \"/P/B\"", path)
	}
	comps := strings.Split(path[1:], "/")
	if len(comps) > MaxCgroupDepth {
		return errAt(p, "%q is %d levels deep; the limit is %d", path, len(comps), MaxCgroupDepth)
	}
	for _, c := range comps {
		if c == "" {
			return errAt(p, "%q: empty path component (no \"//\" or trailing \"/\")", path)
		}
		if c == "." || c == ".." || !cgroupNameOK(c) {
			return errAt(p, "%q: component %q: want 1-64 characters of A-Z a-z 0-9 _ . - : @ (not . or ..)", path, c)
		}
	}
	return nil
}

func cgroupNameOK(c string) bool {
	if len(c) > 64 {
		return false
	}
	for i := 0; i < len(c); i++ {
		ch := c[i]
		if !('a' <= ch && ch <= 'z' || 'A' <= ch && ch <= 'Z' || '0' <= ch && ch <= '9' || strings.IndexByte("_.-:@", ch) >= 0) {
			return false
		}
	}
	return true
}

// checkTaskgroup checks the value of a "taskgroup" key: an absolute path
// of the cpu controller's hierarchy ("" and "/" are the root cgroup).
func checkTaskgroup(p, g string) error {
	if g == "" || g == "/" {
		return nil
	}
	if ctl, _, ok := strings.Cut(g, ":"); ok && !strings.HasPrefix(g, "/") {
		return errAt(p, "%q names a group of the %q hierarchy: want a cgroup of the cpu controller, an absolute path like \"/A\"", g, ctl)
	}
	return checkCgroupPath(p, g)
}

// decodeCgroups reads the "cgroups" object.
func decodeCgroups(v any) ([]Cgroup, error) {
	m, err := asObject("cgroups", v)
	if err != nil {
		return nil, errAt("cgroups", "want an object of cgroup paths, e.g. {\"/A\": {\"cpu.weight\": 50}}")
	}
	if len(m) > MaxCgroups {
		return nil, errAt("cgroups", "%d cgroups; the limit is %d", len(m), MaxCgroups)
	}
	var out []Cgroup
	for _, path := range sortedKeys(m) {
		p := "cgroups." + path
		if err := checkCgroupPath(p, path); err != nil {
			return nil, err
		}
		fm, err := asObject(p, m[path])
		if err != nil {
			return nil, errAt(p, "want an object of interface files, e.g. {\"cpu.max\": \"25000 100000\"}")
		}
		cg := Cgroup{Path: path, Files: map[string]string{}}
		for _, name := range sortedKeys(fm) {
			fp := p + "." + name
			f := cgroupFileByName(name)
			if f == nil {
				return nil, errAt(fp, "unknown interface file (known: %s)", cgroupFileNames())
			}
			var text string
			switch x := fm[name].(type) {
			case string:
				text = x
			case json.Number:
				text = x.String()
			default:
				return nil, errAt(fp, "want a number or a string (the text written to the file)")
			}
			if cg.Files[name], err = f.canonical(fp, text); err != nil {
				return nil, err
			}
		}
		out = append(out, cg)
	}
	return out, nil
}

// encodeCgroups writes the "cgroups" object: paths in order, files in name
// order, integer files as JSON numbers.
func encodeCgroups(w *jw, cgs []Cgroup) {
	sorted := append([]Cgroup(nil), cgs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	f := true
	w.b.WriteByte('{')
	for _, cg := range sorted {
		w.key(cg.Path, &f)
		ff := true
		w.b.WriteByte('{')
		for _, name := range sortedStringKeys(cg.Files) {
			w.key(name, &ff)
			v := cg.Files[name]
			if cgroupFileByName(name).kind == "int" {
				if _, err := strconv.ParseInt(v, 10, 64); err == nil {
					w.b.WriteString(v)
					continue
				}
			}
			w.str(v)
		}
		w.b.WriteByte('}')
	}
	w.b.WriteByte('}')
}

// cgroupIndex returns the index of path in cgs, or -1.
func cgroupIndex(cgs []Cgroup, path string) int {
	for i := range cgs {
		if cgs[i].Path == path {
			return i
		}
	}
	return -1
}

// splitCgroupKey splits the REST of `cgroups.REST` into the path and the
// interface file: the longest file name REST ends in.
func splitCgroupKey(key, rest string) (path, file string, err error) {
	for _, f := range cgroupFiles {
		if strings.HasSuffix(rest, "."+f.name) && len(f.name) > len(file) {
			file = f.name
		}
	}
	if file == "" {
		return "", "", errAt(key, "want cgroups./PATH.FILE with FILE one of %s", cgroupFileNames())
	}
	path = strings.TrimSuffix(rest, "."+file)
	if err := checkCgroupPath(key, path); err != nil {
		return "", "", err
	}
	return path, file, nil
}

// cloneCgroups copies the groups and their files (scenarios cloned for
// compare, sweep and experiment variants share them otherwise).
func cloneCgroups(src []Cgroup) []Cgroup {
	if src == nil {
		return nil
	}
	cgs := make([]Cgroup, len(src))
	for i, cg := range src {
		files := make(map[string]string, len(cg.Files))
		for k, x := range cg.Files {
			files[k] = x
		}
		cgs[i] = Cgroup{Path: cg.Path, Files: files}
	}
	return cgs
}

// setCgroupFile applies `-set cgroups./PATH.FILE=VALUE`; the group is
// created if the scenario has none at that path.
func (sc *Scenario) setCgroupFile(key, rest, val string) error {
	path, file, err := splitCgroupKey(key, rest)
	if err != nil {
		return err
	}
	v, err := cgroupFileByName(file).canonical(key, val)
	if err != nil {
		return err
	}
	if i := cgroupIndex(sc.Cgroups, path); i >= 0 && file == "cpu.max" && len(strings.Fields(val)) == 1 {
		// A quota alone keeps the group's period, as cpu_max_write()
		// does (so compare's space-separated -a/-b can change a quota).
		if old, ok := sc.Cgroups[i].Files[file]; ok {
			q, _, _ := strings.Cut(v, " ")
			_, per, _ := strings.Cut(old, " ")
			v = q + " " + per
		}
	}
	cgs := cloneCgroups(sc.Cgroups)
	i := cgroupIndex(cgs, path)
	if i < 0 {
		if len(cgs) >= MaxCgroups {
			return errAt(key, "%d cgroups already; the limit is %d", len(cgs), MaxCgroups)
		}
		cgs = append(cgs, Cgroup{Path: path, Files: map[string]string{}})
		sort.Slice(cgs, func(a, b int) bool { return cgs[a].Path < cgs[b].Path })
		i = cgroupIndex(cgs, path)
	}
	cgs[i].Files[file] = v
	sc.Cgroups = cgs
	return nil
}

// clearCgroupFile drops one file of a group (back to its default), and
// the group with its last file; false when the scenario does not give it.
func (sc *Scenario) clearCgroupFile(rest string) bool {
	path, file, err := splitCgroupKey("", rest)
	if err != nil {
		return false
	}
	i := cgroupIndex(sc.Cgroups, path)
	if i < 0 {
		return false
	}
	if _, ok := sc.Cgroups[i].Files[file]; !ok {
		return false
	}
	cgs := cloneCgroups(sc.Cgroups)
	delete(cgs[i].Files, file)
	if len(cgs[i].Files) == 0 { // a group -set created: gone with its last file
		cgs = append(cgs[:i], cgs[i+1:]...)
	}
	if len(cgs) == 0 {
		cgs = nil
	}
	sc.Cgroups = cgs
	return true
}

// cgroupFileValue is the canonical text of one file, and whether the
// scenario gives it.
func (sc *Scenario) cgroupFileValue(rest string) (string, bool) {
	path, file, err := splitCgroupKey("", rest)
	if err != nil {
		return "", false
	}
	if i := cgroupIndex(sc.Cgroups, path); i >= 0 {
		v, ok := sc.Cgroups[i].Files[file]
		return v, ok
	}
	return "", false
}

// cgroupFileUnit names the value type of a file for `schedplay keys`.
func cgroupFileUnit(f cgroupFile) string {
	switch f.kind {
	case "max":
		return "\"QUOTA PERIOD\"|\"max PERIOD\" µs"
	case "cpus":
		return "cpulist"
	case "partition":
		return "member|root|isolated"
	}
	return "integer " + strconv.FormatInt(f.min, 10) + ".." + strconv.FormatInt(f.max, 10)
}

// setTaskgroup applies `-set tasks.NAME.taskgroup=PATH`.
func (sc *Scenario) setTaskgroup(key, group, val string) error {
	if err := checkTaskgroup(key, val); err != nil {
		return err
	}
	sc.Tasks = append([]Task(nil), sc.Tasks...) // shared with clones
	found := false
	for i := range sc.Tasks {
		if sc.Tasks[i].Name == group {
			sc.Tasks[i].Cgroup, found = val, true
		}
	}
	if !found {
		return errAt(key, "no task group %q in the scenario", group)
	}
	return nil
}

// DecodeCgroups reads a "cgroups" object given as decoded JSON (objects as
// map[string]any, numbers as json.Number), as the rt-app importer has it.
func DecodeCgroups(v any) ([]Cgroup, error) { return decodeCgroups(v) }
