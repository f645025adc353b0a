package scenario

// The JSON and `-set` forms of the "workloads" array and the "semaphores"
// object (scenario-format.md "Workloads", docs/workloads.md).

import (
	"fmt"
	"strconv"
	"strings"

	"schedplay/core/quote"
)

// MaxSemaphoreCount bounds a semaphore's initial count.
const MaxSemaphoreCount = 1 << 20

// decodeWorkloads reads the "workloads" array.
func decodeWorkloads(v any) ([]Workload, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, errAt("workloads", "want an array of workloads ({\"kind\": ..., \"name\": ..., parameters})")
	}
	if len(arr) > MaxWorkloads {
		return nil, errAt("workloads", "%d workloads; the limit is %d", len(arr), MaxWorkloads)
	}
	var out []Workload
	for i, e := range arr {
		p := fmt.Sprintf("workloads[%d]", i)
		m, err := asObject(p, e)
		if err != nil {
			return nil, err
		}
		kv, ok := m["kind"]
		if !ok {
			return nil, errAt(p+".kind", "missing; want one of %s (schedplay workloads)", kindNames())
		}
		kind, ok := kv.(string)
		if !ok {
			return nil, errAt(p+".kind", "want a string: one of %s", kindNames())
		}
		g := generatorByKind(kind)
		if g == nil {
			return nil, errAt(p+".kind", "%q: want one of %s", kind, kindNames())
		}
		w := Workload{Kind: kind, Name: kind, Params: map[string]string{}}
		if err := optString(m, "name", p+".", &w.Name); err != nil {
			return nil, err
		}
		if err := optString(m, "taskgroup", p+".", &w.Cgroup); err != nil {
			return nil, err
		}
		if err := checkTaskgroup(p+".taskgroup", w.Cgroup); err != nil {
			return nil, err
		}
		for _, k := range sortedKeys(m) {
			if k == "kind" || k == "name" || k == "taskgroup" {
				continue
			}
			par, ok := g.param(k)
			if !ok {
				return nil, errAt(p+"."+k, "unknown parameter of %s (known: %s)", kind, g.paramNames())
			}
			t, err := par.fromJSON(p+"."+k, m[k])
			if err != nil {
				return nil, err
			}
			w.Params[k] = t
		}
		out = append(out, w)
	}
	return out, nil
}

// encodeWorkloads writes the "workloads" array: kind, name, then the
// parameters given, in the generator's order.
func encodeWorkloads(w *jw, wls []Workload) {
	w.b.WriteByte('[')
	for i, wl := range wls {
		if i > 0 {
			w.b.WriteByte(',')
		}
		f := true
		w.b.WriteByte('{')
		w.key("kind", &f)
		w.str(wl.Kind)
		w.key("name", &f)
		w.str(wl.Name)
		if wl.Cgroup != "" {
			w.key("taskgroup", &f)
			w.str(wl.Cgroup)
		}
		if g := generatorByKind(wl.Kind); g != nil {
			for _, p := range g.params {
				if t, ok := wl.Params[p.Name]; ok {
					w.key(p.Name, &f)
					p.encodeJSON(w, t)
				}
			}
		}
		w.b.WriteByte('}')
	}
	w.b.WriteByte(']')
}

// decodeSemaphores reads the "semaphores" object: resource name -> initial
// count.
func decodeSemaphores(v any) (map[string]int, error) {
	m, err := asObject("semaphores", v)
	if err != nil {
		return nil, err
	}
	if len(m) == 0 {
		return nil, nil
	}
	out := map[string]int{}
	for _, k := range sortedKeys(m) {
		p := "semaphores." + k
		if !resNameOK(k) {
			return nil, errAt(p, "want a resource name of 1-64 printable characters")
		}
		n, err := asInt(p, m[k])
		if err != nil {
			return nil, err
		}
		if n < 0 || n > MaxSemaphoreCount {
			return nil, errAt(p, "%d: want an initial count 0..%d", n, MaxSemaphoreCount)
		}
		out[k] = n
	}
	return out, nil
}

func encodeSemaphores(w *jw, sems map[string]int) {
	f := true
	w.b.WriteByte('{')
	for _, k := range sortedSemKeys(sems) {
		w.key(k, &f)
		w.b.WriteString(strconv.Itoa(sems[k]))
	}
	w.b.WriteByte('}')
}

// setWorkload applies `-set workloads.NAME.PARAM=VALUE`. PARAM "kind"
// adds a workload of that kind named NAME (or checks an existing one's);
// PARAM "taskgroup" puts its task groups in a cgroup.
func (sc *Scenario) setWorkload(key, rest, val string) error {
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 || i == len(rest)-1 {
		return errAt(key, "want workloads.NAME.PARAM (schedplay workloads lists the parameters)")
	}
	name, param := rest[:i], rest[i+1:]
	// Copy the slice (and below the map): scenarios cloned for compare and
	// sweep share them.
	sc.Workloads = append([]Workload(nil), sc.Workloads...)
	k := -1
	for j, w := range sc.Workloads {
		if w.Name == name {
			k = j
		}
	}
	if param == "kind" {
		g := generatorByKind(val)
		if g == nil {
			return errAt(key, "%q: want one of %s", val, kindNames())
		}
		if k >= 0 {
			if sc.Workloads[k].Kind != val {
				return errAt(key, "workload %q is a %s", name, sc.Workloads[k].Kind)
			}
			return nil
		}
		if !validName(name, 32, false) {
			return errAt(key, "%q: want a workload name of 1-32 characters of A-Z a-z 0-9 _", name)
		}
		sc.Workloads = append(sc.Workloads, Workload{Kind: val, Name: name, Params: map[string]string{}})
		return nil
	}
	if k < 0 {
		return errAt(key, "no workload named %q (add one with workloads.%s.kind=KIND)", name, quote.Path(name))
	}
	w := &sc.Workloads[k]
	if param == "taskgroup" {
		if err := checkTaskgroup(key, val); err != nil {
			return err
		}
		w.Cgroup = val
		return nil
	}
	g := generatorByKind(w.Kind)
	if g == nil {
		return errAt(key, "workload %q has an unknown kind %q", name, w.Kind)
	}
	p, ok := g.param(param)
	if !ok {
		return errAt(key, "unknown parameter of %s (known: %s)", w.Kind, g.paramNames())
	}
	t, err := p.fromText(key, val)
	if err != nil {
		return err
	}
	params := map[string]string{}
	for pk, pv := range w.Params {
		params[pk] = pv
	}
	params[param] = t
	w.Params = params
	return nil
}

// decodeWorkloadKeys reads the optional top-level "workloads" and
// "semaphores" keys into sc.
func decodeWorkloadKeys(m map[string]any, sc *Scenario) error {
	var err error
	if v, ok := m["workloads"]; ok {
		if sc.Workloads, err = decodeWorkloads(v); err != nil {
			return err
		}
	}
	if v, ok := m["semaphores"]; ok {
		if sc.Semaphores, err = decodeSemaphores(v); err != nil {
			return err
		}
	}
	return nil
}
