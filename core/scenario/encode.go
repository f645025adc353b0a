package scenario

// Encoding: Scenario -> canonical JSON (stable key order, durations as
// strings), so that Decode(Encode(sc)) == sc and share URLs are stable.

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// FormatDuration renders d exactly in the largest unit that keeps it
// short: "16ms", "1.5ms", "250us", "1000.001ms"; what it writes,
// ParseDuration reads back to the same value.
func FormatDuration(d Duration) string {
	if d == 0 {
		return "0s"
	}
	n := int64(d)
	units := []struct {
		name string
		ns   int64
	}{{"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1}}
	for _, u := range units {
		if n < u.ns {
			continue
		}
		whole, frac := n/u.ns, n%u.ns
		if frac == 0 {
			return strconv.FormatInt(whole, 10) + u.name
		}
		fs := strconv.FormatInt(frac+u.ns, 10)[1:] // zero-padded fraction
		for fs[len(fs)-1] == '0' {
			fs = fs[:len(fs)-1]
		}
		if len(fs) <= 3 {
			return strconv.FormatInt(whole, 10) + "." + fs + u.name
		}
	}
	return strconv.FormatInt(n, 10) + "ns"
}

type jw struct{ b bytes.Buffer }

func (w *jw) str(s string) {
	v, _ := json.Marshal(s)
	w.b.Write(v)
}

// ints writes an array of integers (CPU lists).
func (w *jw) ints(xs []int) {
	w.b.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			w.b.WriteByte(',')
		}
		w.b.WriteString(strconv.Itoa(x))
	}
	w.b.WriteByte(']')
}

func (w *jw) key(k string, first *bool) {
	if !*first {
		w.b.WriteByte(',')
	}
	*first = false
	w.str(k)
	w.b.WriteByte(':')
}

// Encode renders the scenario as canonical JSON: the keys of the key
// table (keys.go) in its order.
func (sc *Scenario) Encode() []byte {
	var w jw
	w.b.WriteByte('{')
	encodeKeys(&w, sc) // keys_codec.go
	w.b.WriteByte('}')
	return w.b.Bytes()
}

func encodeTask(w *jw, t Task) {
	f := true
	w.b.WriteByte('{')
	w.key("name", &f)
	w.str(t.Name)
	if t.Instances != 1 {
		w.key("instances", &f)
		w.b.WriteString(strconv.Itoa(t.Instances))
	}
	if t.Policy != "" {
		w.key("policy", &f)
		w.str(t.Policy)
	}
	if t.Nice != 0 {
		w.key("nice", &f)
		w.b.WriteString(strconv.Itoa(t.Nice))
	}
	if t.Priority != 0 {
		w.key("priority", &f)
		w.b.WriteString(strconv.Itoa(t.Priority))
	}
	if t.InstancesPerCPU > 0 {
		w.key("instances_per_cpu", &f)
		w.b.WriteString(strconv.FormatFloat(t.InstancesPerCPU, 'g', -1, 64))
	}
	if t.PerCPU {
		w.key("per_cpu", &f)
		w.b.WriteString("true")
	}
	if t.CPUs != nil {
		w.key("cpus", &f)
		w.ints(t.CPUs)
	}
	if t.SpreadNodes {
		w.key("nodes", &f)
		w.str("spread")
	} else if t.Nodes != nil {
		w.key("nodes", &f)
		w.b.WriteByte('[')
		for i, n := range t.Nodes {
			if i > 0 {
				w.b.WriteByte(',')
			}
			w.b.WriteString(strconv.Itoa(n))
		}
		w.b.WriteByte(']')
	}
	if t.Start != 0 {
		w.key("start", &f)
		w.str(FormatDuration(t.Start))
	}
	if t.Parent != "" {
		w.key("parent", &f)
		w.str(t.Parent)
	}
	if t.TimerSlack != nil {
		w.key("timer_slack", &f)
		w.str(FormatDuration(*t.TimerSlack))
	}
	if t.CPUClockPoll != 0 {
		w.key("cpu_clock_poll", &f)
		w.str(FormatDuration(t.CPUClockPoll))
	}
	if t.Slice != 0 {
		w.key("slice", &f)
		w.str(FormatDuration(t.Slice))
	}
	for _, d := range []struct {
		key string
		v   Duration
	}{{"dl_runtime", t.DLRuntime}, {"dl_deadline", t.DLDeadline}, {"dl_period", t.DLPeriod}} {
		if d.v != 0 {
			w.key(d.key, &f)
			w.str(FormatDuration(d.v))
		}
	}
	if t.Cgroup != "" {
		w.key("taskgroup", &f)
		w.str(t.Cgroup)
	}
	if t.Session != "" {
		w.key("session", &f)
		w.str(t.Session)
	}
	if t.AutogroupNice != nil {
		w.key("autogroup_nice", &f)
		w.b.WriteString(strconv.Itoa(*t.AutogroupNice))
	}
	if t.PID != 0 {
		w.key("pid", &f)
		w.b.WriteString(strconv.Itoa(t.PID))
	}
	if t.Comm != "" {
		w.key("comm", &f)
		w.str(t.Comm)
	}
	w.key("loop", &f)
	w.b.WriteString(strconv.Itoa(t.Loop))
	w.key("program", &f)
	encodeProgram(w, t.Program)
	w.b.WriteByte('}')
}

func encodeProgram(w *jw, steps []Step) {
	w.b.WriteByte('[')
	for i, st := range steps {
		if i > 0 {
			w.b.WriteByte(',')
		}
		f := true
		w.b.WriteByte('{')
		w.key(st.Kind, &f)
		switch st.Kind {
		case "run":
			if st.Run < 0 {
				w.b.WriteString("-1")
			} else {
				w.str(FormatDuration(st.Run))
			}
		case "sys":
			w.str(FormatDuration(st.Sys))
		case "ipi":
			w.b.WriteString(`{"cpu":` + strconv.Itoa(st.IPI.CPU) + `,"wait":` + strconv.FormatBool(st.IPI.Wait) + `}`)
		case "sleep":
			w.str(FormatDuration(st.Sleep))
		case "affinity":
			if st.Affinity == nil {
				w.str("all")
				break
			}
			w.ints(st.Affinity)
		case "timer":
			tf := true
			w.b.WriteByte('{')
			w.key("ref", &tf)
			w.str(st.Timer.Ref)
			w.key("period", &tf)
			w.str(FormatDuration(st.Timer.Period))
			w.key("mode", &tf)
			w.str(st.Timer.Mode)
			w.b.WriteByte('}')
		case "yield", "exit", "exec":
			w.b.WriteString("true")
		case "fork":
			w.str(st.Fork)
		case "loop":
			lf := true
			w.b.WriteByte('{')
			w.key("count", &lf)
			w.b.WriteString(strconv.Itoa(st.Loop.Count))
			w.key("program", &lf)
			encodeProgram(w, st.Loop.Program)
			w.b.WriteByte('}')
		case "lock", "unlock":
			w.str(st.Res)
		case "taskgroup":
			w.str(st.Group)
		case "setattr":
			encodeSetAttr(w, st.SetAttr) // setattr.go
		case "nice":
			w.b.WriteString(strconv.Itoa(st.Nice))
		case "wait", "signal", "broadcast", "barrier":
			w.str(st.Res)
			if st.Mutex != "" {
				w.key("mutex", &f)
				w.str(st.Mutex)
			}
			if st.Sync {
				w.key("sync", &f)
				w.b.WriteString("true")
			}
			if st.Cond {
				w.key("cond", &f)
				w.b.WriteString("true")
			}
		}
		if st.Task != "" {
			w.key("task", &f)
			w.str(st.Task)
		}
		w.b.WriteByte('}')
	}
	w.b.WriteByte(']')
}
