//go:build browser

package browsertest

// Reading a Chrome trace (trace_test.go) for the long tasks of the page's
// main thread: each top-level task over a threshold on a renderer main
// thread, the trace events inside it (script, GC, style, layout, paint,
// compilation; by name, summed), and the functions V8's sampling profiler
// saw in it, by self and by inclusive samples.

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

type traceEvent struct {
	Name string          `json:"name"`
	Cat  string          `json:"cat"`
	Ph   string          `json:"ph"`
	Ts   float64         `json:"ts"`   // microseconds
	Dur  float64         `json:"dur"`  // microseconds (ph "X")
	Tdur float64         `json:"tdur"` // thread (CPU) time, microseconds
	Pid  int             `json:"pid"`
	Tid  int             `json:"tid"`
	ID   json.RawMessage `json:"id"`
	Args json.RawMessage `json:"args"`
}

type threadKey struct{ pid, tid int }

// longTask is one long top-level task and what ran inside it.
type longTask struct {
	thread    threadKey
	start     float64     // trace clock, us
	ms, cpuMs float64     // wall time and the thread's CPU time
	inside    []nameTotal // trace events inside, by name (inclusive ms, summed)
	self, inc []nameTotal // profiler samples (ms) by leaf and by function on the stack
	roots     []nameTotal // profiler samples by what runs: GC, or the goroutine's entry
}

type nameTotal struct {
	name  string
	ms    float64
	count int
}

// cpuProfile is one V8 sampling profile (one isolate's thread).
type cpuProfile struct {
	thread  threadKey
	nodes   map[int]profNode
	times   []float64 // sample times, trace clock (us)
	samples []int     // node ids
}

type profNode struct {
	name   string
	parent int
}

// analyzeTrace returns the top-level tasks of renderer main threads longer
// than minMs, or with more than minMs/2 of CPU time (a loaded machine
// stretches wall time), in time order.
func analyzeTrace(data []byte, minMs float64) ([]longTask, error) {
	evs, mains, err := parseTrace(data)
	if err != nil {
		return nil, err
	}
	byThread := map[threadKey][]traceEvent{}
	for _, e := range evs {
		k := threadKey{e.Pid, e.Tid}
		if mains[k] && e.Ph == "X" {
			byThread[k] = append(byThread[k], e)
		}
	}
	profiles := readProfiles(evs)

	var out []longTask
	for k, list := range byThread {
		sort.SliceStable(list, func(i, j int) bool { return list[i].Ts < list[j].Ts })
		end := -1.0
		for i, e := range list {
			if !strings.Contains(e.Cat, "toplevel") || e.Ts < end || (e.Dur < minMs*1000 && e.Tdur < minMs*500) {
				continue
			}
			end = e.Ts + e.Dur
			lt := longTask{thread: k, start: e.Ts, ms: e.Dur / 1000, cpuMs: e.Tdur / 1000}
			sums := map[string]*nameTotal{}
			for _, c := range list[i+1:] {
				if c.Ts >= end {
					break
				}
				if strings.Contains(c.Cat, "toplevel") || c.Dur < 100 {
					continue
				}
				n := sums[c.Name]
				if n == nil {
					n = &nameTotal{name: c.Name}
					sums[c.Name] = n
				}
				n.ms += c.Dur / 1000
				n.count++
			}
			lt.inside = sortTotals(sums)
			for _, p := range profiles {
				if p.thread == k {
					self, inc, roots := p.between(e.Ts, end)
					lt.self, lt.inc, lt.roots = append(lt.self, self...), append(lt.inc, inc...), append(lt.roots, roots...)
				}
			}
			out = append(out, lt)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out, nil
}

func sortTotals(m map[string]*nameTotal) []nameTotal {
	out := make([]nameTotal, 0, len(m))
	for _, v := range m {
		out = append(out, *v)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].ms != out[j].ms {
			return out[i].ms > out[j].ms
		}
		return out[i].name < out[j].name
	})
	return out
}

// parseTrace decodes a trace and finds the renderer main threads.
func parseTrace(data []byte) ([]traceEvent, map[threadKey]bool, error) {
	var doc struct {
		TraceEvents []traceEvent `json:"traceEvents"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		var arr []traceEvent // the array form of the format
		if err2 := json.Unmarshal(data, &arr); err2 != nil {
			return nil, nil, fmt.Errorf("trace: %v", err)
		}
		doc.TraceEvents = arr
	}
	mains := map[threadKey]bool{}
	for _, e := range doc.TraceEvents {
		if e.Ph == "M" && e.Name == "thread_name" && strings.Contains(string(e.Args), `"CrRendererMain"`) {
			mains[threadKey{e.Pid, e.Tid}] = true
		}
	}
	return doc.TraceEvents, mains, nil
}

// longestTaskCPU returns the largest CPU (thread) time of a top-level task
// on a renderer main thread, and that task's wall time: the long-task
// budget's figure without the machine's load (which stretches wall time).
func longestTaskCPU(data []byte) (cpuMs, wallMs float64, err error) {
	evs, mains, err := parseTrace(data)
	if err != nil {
		return 0, 0, err
	}
	for _, e := range evs {
		if e.Ph == "X" && mains[threadKey{e.Pid, e.Tid}] && strings.Contains(e.Cat, "toplevel") && e.Tdur/1000 > cpuMs {
			cpuMs, wallMs = e.Tdur/1000, e.Dur/1000
		}
	}
	return cpuMs, wallMs, nil
}

// readProfiles assembles the "Profile" and "ProfileChunk" events of the
// disabled-by-default-v8.cpu_profiler category.
func readProfiles(evs []traceEvent) []*cpuProfile {
	byID := map[string]*cpuProfile{}
	var order []string
	get := func(e traceEvent) *cpuProfile {
		id := string(e.ID)
		p := byID[id]
		if p == nil {
			p = &cpuProfile{thread: threadKey{e.Pid, e.Tid}, nodes: map[int]profNode{}}
			byID[id] = p
			order = append(order, id)
		}
		return p
	}
	last := map[string]float64{}
	for _, e := range evs {
		switch e.Name {
		case "Profile":
			var a struct {
				Data struct {
					StartTime float64 `json:"startTime"`
				} `json:"data"`
			}
			json.Unmarshal(e.Args, &a)
			p := get(e)
			p.thread = threadKey{e.Pid, e.Tid}
			last[string(e.ID)] = a.Data.StartTime
		case "ProfileChunk":
			var a struct {
				Data struct {
					CPUProfile struct {
						Nodes []struct {
							ID        int `json:"id"`
							Parent    int `json:"parent"`
							CallFrame struct {
								FunctionName string `json:"functionName"`
								URL          string `json:"url"`
							} `json:"callFrame"`
						} `json:"nodes"`
						Samples []int `json:"samples"`
					} `json:"cpuProfile"`
					TimeDeltas []float64 `json:"timeDeltas"`
				} `json:"data"`
			}
			if json.Unmarshal(e.Args, &a) != nil {
				continue
			}
			p := get(e)
			for _, n := range a.Data.CPUProfile.Nodes {
				name := n.CallFrame.FunctionName
				if name == "" {
					name = "(anonymous)"
				}
				if u := n.CallFrame.URL; u != "" {
					name += " " + u[strings.LastIndex(u, "/")+1:]
				}
				p.nodes[n.ID] = profNode{name: name, parent: n.Parent}
			}
			t := last[string(e.ID)]
			for i, s := range a.Data.CPUProfile.Samples {
				if i < len(a.Data.TimeDeltas) {
					t += a.Data.TimeDeltas[i]
				}
				p.times, p.samples = append(p.times, t), append(p.samples, s)
			}
			last[string(e.ID)] = t
		}
	}
	out := make([]*cpuProfile, 0, len(order))
	for _, id := range order {
		out = append(out, byID[id])
	}
	return out
}

// between sums the samples in [from, to) by leaf function (self), by
// every function on the stack (inclusive) and by root (rootOf), in ms
// (each sample weighs the time to the next one).
func (p *cpuProfile) between(from, to float64) (self, inc, roots []nameTotal) {
	s, c, r := map[string]*nameTotal{}, map[string]*nameTotal{}, map[string]*nameTotal{}
	add := func(m map[string]*nameTotal, name string, ms float64) {
		n := m[name]
		if n == nil {
			n = &nameTotal{name: name}
			m[name] = n
		}
		n.ms += ms
		n.count++
	}
	var stack []string
	for i, t := range p.times {
		if t < from || t >= to {
			continue
		}
		w := 0.0
		if i+1 < len(p.times) {
			w = min(p.times[i+1]-t, to-t) / 1000
		}
		id := p.samples[i]
		add(s, p.nodes[id].name, w)
		stack = stack[:0]
		for ; id != 0; id = p.nodes[id].parent {
			if _, ok := p.nodes[id]; !ok {
				break
			}
			name := p.nodes[id].name
			if !slices.Contains(stack, name) {
				add(c, name, w)
			}
			stack = append(stack, name)
		}
		slices.Reverse(stack)
		add(r, rootOf(stack), w)
	}
	return sortTotals(s), sortTotals(c), sortTotals(r)
}

// glue are the frames between the browser and Go code (wasm_exec.js, the
// Go scheduler's entry) that say nothing about what runs.
var glue = map[string]bool{"(root)": true, "(anonymous)": true, "(anonymous) wasm_exec.js": true,
	"_resume wasm_exec.js": true, "js-to-wasm::i main.wasm": true, "js-to-wasm::": true, "wasm_export_resume main.wasm": true,
	"wasm_pc_f_loop main.wasm": true, "runtime.handleEvent main.wasm": true, "syscall_js.handleEvent main.wasm": true,
	"runtime.goexit main.wasm": true, "runtime.goexit1 main.wasm": true, "runtime.mcall main.wasm": true}

// rootOf names what a sample's stack (outermost first) was doing: Go's
// garbage collector (background mark, assist, sweep), or the first two
// frames of the code below the glue (main.main: the page render).
func rootOf(stack []string) string {
	for _, f := range stack {
		for _, gc := range []string{"runtime.gcBgMarkWorker", "runtime.gcAssistAlloc", "runtime.bgsweep", "runtime.gcStart", "(garbage collector)"} {
			if strings.HasPrefix(f, gc) {
				return "GC: " + strings.TrimSuffix(f, " main.wasm")
			}
		}
	}
	var out []string
	for _, f := range stack {
		if !glue[f] {
			out = append(out, strings.TrimSuffix(f, " main.wasm"))
			if len(out) == 2 {
				break
			}
		}
	}
	if len(out) == 0 {
		return "(idle or outside JS)"
	}
	return strings.Join(out, " > ")
}

// String is a few lines per task: the trace events, then the profile.
func (lt longTask) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "task of %.1f ms (%.1f ms CPU) at %.3f s (pid %d)\n", lt.ms, lt.cpuMs, lt.start/1e6, lt.thread.pid)
	list := func(title string, l []nameTotal, n int) {
		fmt.Fprintf(&b, "  %s:", title)
		for i, v := range l {
			if i == n || v.ms < 1 {
				break
			}
			fmt.Fprintf(&b, "\n    %7.1f ms %4dx %s", v.ms, v.count, v.name)
		}
		b.WriteString("\n")
	}
	list("profile, by goroutine root or GC", lt.roots, 12)
	list("trace events inside (inclusive, summed)", lt.inside, 10)
	list("profile, self", lt.self, 10)
	list("profile, inclusive", lt.inc, 24)
	return b.String()
}
