package scenario

// Decoding: JSON -> Scenario, walking a generic tree so that every error
// names its path (e.g. `tasks[1].program[0].timer.period`).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strconv"
	"strings"

	"schedplay/core/quote"
	"schedplay/core/sched"
)

// MaxInput bounds the size of a scenario document.
const MaxInput = 1 << 20

// Error is a decoding or validation error at a JSON path.
type Error struct {
	Path string // e.g. "tasks[0].nice"
	Msg  string
}

// Error renders the path bounded (quote.Path: a long key's segment is
// cut); Path itself stays whole for the playground to find the field.
func (e *Error) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return quote.Path(e.Path) + ": " + e.Msg
}

// errAt is an error at path; its %q arguments are quoted bounded
// (quote.Short), so an error never echoes a 40 KB name whole.
func errAt(path, format string, args ...any) error {
	return &Error{Path: path, Msg: quote.Sprintf(format, args...)}
}

// Decode parses and validates a scenario document.
func Decode(data []byte) (*Scenario, error) {
	if len(data) > MaxInput {
		return nil, errAt("", "scenario is %d bytes; the limit is %d", len(data), MaxInput)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return nil, errAt("", "not valid JSON: %v", err)
	}
	if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
		return nil, errAt("", "trailing data after the JSON document")
	}
	m, ok := root.(map[string]any)
	if !ok {
		return nil, errAt("", "want a JSON object at the top level")
	}
	sc, err := decodeScenario(m)
	if err != nil {
		return nil, err
	}
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	return sc, nil
}

func decodeScenario(m map[string]any) (*Scenario, error) {
	sc := New()
	if err := decodeKeys(m, sc); err != nil { // keys_codec.go
		return nil, err
	}
	_, tasks := m["tasks"]
	if _, wl := m["workloads"]; !tasks && !wl {
		return nil, errAt("tasks", "missing; want an array of task groups (or a workloads array)")
	}
	return sc, nil
}

// validName reports whether s is 1..max characters of [A-Za-z0-9_] (and
// '.' if dot): task names match ^[A-Za-z0-9_.]{1,64}$, workload names
// ^[A-Za-z0-9_]{1,32}$. A loop, not a regexp: compiling the counted
// repetitions at package init delayed the browser's first render in WASM
// (docs/playground-perf.md, "First render").
func validName(s string, max int, dot bool) bool {
	if len(s) < 1 || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || dot && c == '.') {
			return false
		}
	}
	return true
}

func decodeTask(path string, v any) (Task, error) {
	var t Task
	m, err := asObject(path, v)
	if err != nil {
		return t, err
	}
	if err := onlyKeys(path, m, "name", "instances", "policy", "nice", "priority", "cpus", "nodes", "per_cpu", "instances_per_cpu", "start", "parent", "timer_slack", "slice", "loop", "program", "dl_runtime", "dl_deadline", "dl_period", "taskgroup", "session", "autogroup_nice", "pid", "comm", "cpu_clock_poll"); err != nil {
		return t, err
	}
	t.Instances, t.Loop = 1, -1
	if x, ok := m["pid"]; ok {
		n, err := asInt(path+".pid", x)
		if err != nil {
			return t, err
		}
		if n < 1 || n > sched.MaxPID {
			return t, errAt(path+".pid", "%d: want 1..%d", n, sched.MaxPID)
		}
		t.PID = n
	}
	if err := optString(m, "comm", path+".", &t.Comm); err != nil {
		return t, err
	}
	if _, ok := m["comm"]; ok && !commOK(t.Comm) {
		return t, errAt(path+".comm", "%q: want 1-15 printable bytes (TASK_COMM_LEN)", t.Comm)
	}
	if err := optString(m, "name", path+".", &t.Name); err != nil {
		return t, err
	}
	if err := optString(m, "policy", path+".", &t.Policy); err != nil {
		return t, err
	}
	if err := optString(m, "parent", path+".", &t.Parent); err != nil {
		return t, err
	}
	if err := optString(m, "taskgroup", path+".", &t.Cgroup); err != nil {
		return t, err
	}
	if err := checkTaskgroup(path+".taskgroup", t.Cgroup); err != nil {
		return t, err
	}
	if err := optString(m, "session", path+".", &t.Session); err != nil {
		return t, err
	}
	if _, ok := m["session"]; ok && !resNameOK(t.Session) {
		return t, errAt(path+".session", "%q: want a session name of 1-64 printable characters", t.Session)
	}
	if x, ok := m["autogroup_nice"]; ok {
		n, err := asInt(path+".autogroup_nice", x)
		if err != nil {
			return t, err
		}
		if n < -20 || n > 19 {
			return t, errAt(path+".autogroup_nice", "%d: want an autogroup nice -20..19 (sched_autogroup_set_nice())", n)
		}
		t.AutogroupNice = &n
	}
	for _, f := range []struct {
		key string
		dst *int
	}{{"instances", &t.Instances}, {"nice", &t.Nice}, {"priority", &t.Priority}, {"loop", &t.Loop}} {
		key, dst := f.key, f.dst
		if x, ok := m[key]; ok {
			if *dst, err = asInt(path+"."+key, x); err != nil {
				return t, err
			}
		}
	}
	if x, ok := m["instances_per_cpu"]; ok {
		n, ok := x.(json.Number)
		var f float64
		var err error
		if ok {
			f, err = n.Float64()
		}
		if !ok || err != nil || !(f > 0 && f <= 64) {
			return t, errAt(path+".instances_per_cpu", "want a number above 0 and at most 64")
		}
		t.InstancesPerCPU = f
	}
	if x, ok := m["per_cpu"]; ok {
		b, ok := x.(bool)
		if !ok {
			return t, errAt(path+".per_cpu", "want true or false")
		}
		t.PerCPU = b
	}
	if x, ok := m["nodes"]; ok {
		if err := decodeNodes(path+".nodes", x, &t); err != nil {
			return t, err
		}
	}
	if x, ok := m["cpus"]; ok {
		arr, ok := x.([]any)
		if !ok {
			return t, errAt(path+".cpus", "want an array of CPU numbers")
		}
		t.CPUs = []int{}
		for i, c := range arr {
			n, err := asInt(fmt.Sprintf("%s.cpus[%d]", path, i), c)
			if err != nil {
				return t, err
			}
			t.CPUs = append(t.CPUs, n)
		}
	}
	for _, f := range []struct {
		key string
		dst *Duration
	}{{"start", &t.Start}, {"slice", &t.Slice}, {"dl_runtime", &t.DLRuntime}, {"dl_deadline", &t.DLDeadline}, {"dl_period", &t.DLPeriod}, {"cpu_clock_poll", &t.CPUClockPoll}} {
		key, dst := f.key, f.dst
		if x, ok := m[key]; ok {
			d, err := asDuration(path+"."+key, x)
			if err != nil {
				return t, err
			}
			*dst = d
		}
	}
	if x, ok := m["timer_slack"]; ok {
		d, err := asDuration(path+".timer_slack", x)
		if err != nil {
			return t, err
		}
		t.TimerSlack = &d
	}
	pv, ok := m["program"]
	if !ok {
		return t, errAt(path+".program", "missing; want an array of events")
	}
	if t.Program, err = decodeProgram(path+".program", pv, 0); err != nil {
		return t, err
	}
	return t, nil
}

const maxNesting = 8

func decodeProgram(path string, v any, depth int) ([]Step, error) {
	if depth > maxNesting {
		return nil, errAt(path, "loops nested deeper than %d", maxNesting)
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, errAt(path, "want an array of events")
	}
	var out []Step
	for i, e := range arr {
		p := fmt.Sprintf("%s[%d]", path, i)
		m, err := asObject(p, e)
		if err != nil {
			return nil, err
		}
		var st Step
		if err := decodeModifiers(p, m, &st); err != nil {
			return nil, err
		}
		if err := decodeTaskModifier(p, m, &st); err != nil { // setattr.go
			return nil, err
		}
		if len(m) != 1 {
			return nil, errAt(p, "want exactly one of run, sys, sleep, timer, yield, fork, exec, exit, loop, wait, signal, broadcast, barrier, lock, unlock, ipi, affinity, taskgroup, setattr, nice; got %d keys", len(m))
		}
		for k, x := range m {
			kp := p + "." + k
			switch k {
			case "run":
				if n, ok := x.(json.Number); ok && n.String() == "-1" {
					st.Run = Duration(sched.Forever)
				} else if st.Run, err = asDuration(kp, x); err != nil {
					return nil, err
				}
				st.Kind = "run"
			case "sys":
				if st.Sys, err = asDuration(kp, x); err != nil {
					return nil, err
				}
				st.Kind = "sys"
			case "ipi":
				im, err := asObject(kp, x)
				if err != nil {
					return nil, err
				}
				if err := onlyKeys(kp, im, "cpu", "wait"); err != nil {
					return nil, err
				}
				st.IPI = &IPI{Wait: true}
				cv, ok := im["cpu"]
				if !ok {
					return nil, errAt(kp+".cpu", "missing; want the target CPU number")
				}
				if st.IPI.CPU, err = asInt(kp+".cpu", cv); err != nil {
					return nil, err
				}
				if wv, ok := im["wait"]; ok {
					b, ok := wv.(bool)
					if !ok {
						return nil, errAt(kp+".wait", "want true or false")
					}
					st.IPI.Wait = b
				}
				st.Kind = "ipi"
			case "sleep":
				if st.Sleep, err = asDuration(kp, x); err != nil {
					return nil, err
				}
				st.Kind = "sleep"
			case "affinity":
				if st.Affinity, err = decodeAffinity(kp, x); err != nil {
					return nil, err
				}
				st.Kind = "affinity"
			case "timer":
				tm, err := asObject(kp, x)
				if err != nil {
					return nil, err
				}
				if err := onlyKeys(kp, tm, "ref", "period", "mode"); err != nil {
					return nil, err
				}
				st.Timer = &Timer{Ref: "timer", Mode: "absolute"}
				if err := optString(tm, "ref", kp+".", &st.Timer.Ref); err != nil {
					return nil, err
				}
				if err := optString(tm, "mode", kp+".", &st.Timer.Mode); err != nil {
					return nil, err
				}
				pv, ok := tm["period"]
				if !ok {
					return nil, errAt(kp+".period", "missing; want a duration")
				}
				if st.Timer.Period, err = asDuration(kp+".period", pv); err != nil {
					return nil, err
				}
				st.Kind = "timer"
			case "yield", "exit", "exec":
				if b, ok := x.(bool); !ok || !b {
					return nil, errAt(kp, "want true")
				}
				st.Kind = k
			case "fork":
				s, ok := x.(string)
				if !ok {
					return nil, errAt(kp, "want the name of a task group")
				}
				st.Fork, st.Kind = s, "fork"
			case "loop":
				lm, err := asObject(kp, x)
				if err != nil {
					return nil, err
				}
				if err := onlyKeys(kp, lm, "count", "program"); err != nil {
					return nil, err
				}
				st.Loop = &Loop{Count: 1}
				if cv, ok := lm["count"]; ok {
					if st.Loop.Count, err = asInt(kp+".count", cv); err != nil {
						return nil, err
					}
				}
				pv, ok := lm["program"]
				if !ok {
					return nil, errAt(kp+".program", "missing; want an array of events")
				}
				if st.Loop.Program, err = decodeProgram(kp+".program", pv, depth+1); err != nil {
					return nil, err
				}
				st.Kind = "loop"
			case "taskgroup":
				g, ok := x.(string)
				if !ok {
					return nil, errAt(kp, "want a cgroup path like \"/A\" (\"/\" = the root cgroup)")
				}
				if err := checkTaskgroup(kp, g); err != nil {
					return nil, err
				}
				st.Group, st.Kind = g, "taskgroup"
			case "setattr":
				if st.SetAttr, err = decodeSetAttr(kp, x); err != nil {
					return nil, err
				}
				st.Kind = k
			case "nice":
				if st.Nice, err = decodeNice(kp, x); err != nil {
					return nil, err
				}
				st.Kind = k
			case "wait", "signal", "broadcast", "barrier", "lock", "unlock":
				name, ok := x.(string)
				if !ok {
					return nil, errAt(kp, "want the name of a resource")
				}
				st.Res, st.Kind = name, k
			default:
				return nil, errAt(kp, "unknown event; want run, sys, sleep, timer, yield, fork, exec, exit, loop, wait, signal, broadcast, barrier, lock, unlock, ipi, affinity, taskgroup, setattr or nice")
			}
		}
		out = append(out, st)
	}
	return out, nil
}

// decodeModifiers takes the optional "sync" and "cond" flags of a signal
// or broadcast out of m.
func decodeModifiers(p string, m map[string]any, st *Step) error {
	if x, ok := m["mutex"]; ok {
		if _, w := m["wait"]; !w {
			return errAt(p+".mutex", "only a wait event takes mutex (the mutex it releases while waiting)")
		}
		name, ok := x.(string)
		if !ok {
			return errAt(p+".mutex", "want the name of a mutex")
		}
		st.Mutex = name
		delete(m, "mutex")
	}
	for _, k := range [...]string{"sync", "cond"} {
		x, ok := m[k]
		if !ok {
			continue
		}
		_, sig := m["signal"]
		_, bc := m["broadcast"]
		if !sig && !(bc && k == "sync") {
			if k == "sync" {
				return errAt(p+"."+k, "only a signal or broadcast event takes sync")
			}
			return errAt(p+"."+k, "only a signal event takes cond")
		}
		b, ok := x.(bool)
		if !ok {
			return errAt(p+"."+k, "want true or false")
		}
		if k == "sync" {
			st.Sync = b
		} else {
			st.Cond = b
		}
		delete(m, k)
	}
	return nil
}

func onlyKeys(path string, m map[string]any, keys ...string) error {
	for _, k := range sortedKeys(m) {
		found := false
		for _, w := range keys {
			if k == w {
				found = true
				break
			}
		}
		if !found {
			p := k
			if path != "" {
				p = path + "." + k
			}
			return errAt(p, "unknown key (known here: %s)", strings.Join(keys, ", "))
		}
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func asObject(path string, v any) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errAt(path, "want a JSON object")
	}
	return m, nil
}

func optString(m map[string]any, key, prefix string, dst *string) error {
	v, ok := m[key]
	if !ok {
		return nil
	}
	s, ok := v.(string)
	if !ok {
		return errAt(prefix+key, "want a string")
	}
	*dst = s
	return nil
}

func asInt(path string, v any) (int, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, errAt(path, "want an integer")
	}
	i, err := n.Int64()
	if err != nil || i > math.MaxInt32 || i < math.MinInt32 {
		if f, ferr := n.Float64(); ferr == nil && f == math.Trunc(f) && math.Abs(f) < math.MaxInt32 {
			return int(f), nil
		}
		return 0, errAt(path, "want an integer between %d and %d, got %s", math.MinInt32, math.MaxInt32, n)
	}
	return int(i), nil
}

func asInt64(path string, v any) (int64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, errAt(path, "want an integer")
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		return 0, errAt(path, "want a 64-bit integer, got %s", n)
	}
	return i, nil
}

func asOnOff(path string, v any) (bool, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case string:
		switch x {
		case "on", "true", "1":
			return true, nil
		case "off", "false", "0":
			return false, nil
		}
	}
	return false, errAt(path, `want "on" or "off"`)
}

// MaxDurationValue bounds every duration in a scenario (about 11.6 days),
// so that simulated time can never overflow.
const MaxDurationValue Duration = 1e15

// asDuration accepts a Go duration string or an integer of nanoseconds.
func asDuration(path string, v any) (Duration, error) {
	switch x := v.(type) {
	case json.Number:
		i, err := strconv.ParseInt(string(x), 10, 64)
		if err != nil || i < 0 || Duration(i) > MaxDurationValue {
			return 0, errAt(path, "want a non-negative integer of nanoseconds (at most %d) or a duration string like \"1.5ms\"", int64(MaxDurationValue))
		}
		return Duration(i), nil
	case string:
		return ParseDuration(path, x)
	}
	return 0, errAt(path, "want a duration: a string like \"1.5ms\" or an integer of nanoseconds")
}

// ParseDuration parses Go duration syntax ("1.5ms", "250us", "1m30s") into
// simulated time, exactly (fractions are truncated to the nanosecond, as
// time.ParseDuration does), up to MaxDurationValue.
func ParseDuration(path, s string) (Duration, error) {
	bad := errAt(path, "want a non-negative duration like \"250us\", \"1.5ms\" or \"10s\" (at most %s), got %q", FormatDuration(MaxDurationValue), s)
	if s == "" || len(s) > 64 {
		return 0, bad
	}
	if s == "0" {
		return 0, nil
	}
	units := []struct {
		name string
		ns   uint64
	}{{"ns", 1}, {"us", 1e3}, {"µs", 1e3}, {"μs", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"m", 60e9}, {"h", 3600e9}}
	var total uint64
	for s != "" {
		i := 0
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
			i++
		}
		num := s[:i]
		s = s[i:]
		j := 0
		for j < len(s) && !(s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
			j++
		}
		unit := s[:j]
		s = s[j:]
		var mult uint64
		for _, u := range units {
			if u.name == unit {
				mult = u.ns
			}
		}
		whole, frac, _ := strings.Cut(num, ".")
		if mult == 0 || strings.Contains(frac, ".") || (whole == "" && frac == "") {
			return 0, bad
		}
		var w uint64
		for _, c := range whole {
			w = w*10 + uint64(c-'0')
			if w > uint64(MaxDurationValue) {
				return 0, bad
			}
		}
		if w > uint64(MaxDurationValue)/mult {
			return 0, bad
		}
		v := w * mult
		// The fraction, exactly: digits/10^k * mult, truncated. Digits past
		// the 18th cannot change a nanosecond count below 1e15 ns... except
		// through carries, so keep 18 and truncate the rest.
		var f, den uint64 = 0, 1
		for _, c := range frac {
			if den >= 1e18 {
				break
			}
			f = f*10 + uint64(c-'0')
			den *= 10
		}
		hi, lo := bits.Mul64(f, mult)
		q, _ := bits.Div64(hi%den, lo, den)
		if hi >= den {
			return 0, bad
		}
		v += q
		total += v
		if total > uint64(MaxDurationValue) {
			return 0, bad
		}
	}
	return Duration(total), nil
}

// decodeAffinity reads an affinity step: a non-empty array of CPU numbers
// (duplicates dropped, kept in order) or "all" (nil).
func decodeAffinity(kp string, x any) ([]int, error) {
	if str, ok := x.(string); ok && str == "all" {
		return nil, nil
	}
	arr, ok := x.([]any)
	if !ok || len(arr) == 0 {
		return nil, errAt(kp, "want a non-empty array of CPU numbers or \"all\" (sched_setaffinity() refuses an empty mask)")
	}
	out := []int{}
	seen := map[int]bool{}
	for i, c := range arr {
		n, err := asInt(fmt.Sprintf("%s[%d]", kp, i), c)
		if err != nil {
			return nil, err
		}
		if n < 0 {
			return nil, errAt(fmt.Sprintf("%s[%d]", kp, i), "%d: want a CPU number (0 or more)", n)
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

// commOK: a task comm of 1-15 printable ASCII bytes (TASK_COMM_LEN 16 with
// its NUL).
func commOK(s string) bool {
	if len(s) < 1 || len(s) > 15 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}
