//go:build linux

package main

// Replaying one recorded trace: import (skipping what cannot be read),
// infer (a span of it when the whole passes a bound), build the scenario
// on this machine's preset (machine.go) with its HZ and
// preemption model and the workload's affinity, run it, compare.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"

	"schedplay/core/ftraceimport"
	"schedplay/core/metrics"
	"schedplay/core/replay"
	"schedplay/core/sched"
)

// machineInfo is what the replay takes from scripts/realkernel's record
// of this machine.
type machineInfo struct {
	Kernel  string `json:"kernel"`
	HZ      int    `json:"hz"`
	Preempt string `json:"preempt"`
	CPUs    int    `json:"cpus"`
	CPU     string `json:"cpu_model"`
	// Hypervisor: the machine is a virtual machine's guest.
	Hypervisor bool `json:"hypervisor"`
}

func readMachine(path string) (machineInfo, error) {
	var doc struct {
		Machine machineInfo `json:"machine"`
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return machineInfo{}, fmt.Errorf("%s: %v (run scripts/realkernel first, or give -realkernel-json)", path, err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return machineInfo{}, fmt.Errorf("%s: %v", path, err)
	}
	if doc.Machine.HZ == 0 || doc.Machine.Preempt == "" {
		return machineInfo{}, fmt.Errorf("%s: no machine.hz or machine.preempt", path)
	}
	return doc.Machine, nil
}

// caseResult is one case's record.
type caseResult struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	TraceFile   string `json:"trace"`
	DurationNs  int64  `json:"duration_ns"`
	Lines       int    `json:"lines"`
	Events      int    `json:"events"`
	Warnings    int    `json:"warnings"`
	Tasks       int    `json:"tasks"`
	Topology    string `json:"topology"`
	TopologyWhy string `json:"topology_from"`
	// SpanNs is the replayed span from the trace's start when the whole
	// trace passed a bound of the inference (Bound says which and when,
	// core/replay/limits.go); 0: the whole trace, DurationNs.
	SpanNs  int64          `json:"span_ns,omitempty"`
	Bound   string         `json:"bound,omitempty"`
	Lost    int            `json:"events_after_span,omitempty"`
	Kernel  string         `json:"kernel"`
	Score   float64        `json:"score"`
	Rows    []replay.Row   `json:"rows"`  // the workload's tasks
	Other   otherTasks     `json:"other"` // everything else the trace had
	Periods map[string]int `json:"periods_us,omitempty"`
	// Preempt counts the workload comms' preemptions and those without an
	// interrupt or wakeup before them (selfpreempt.go); nil when the trace
	// has no interrupt entries.
	Preempt map[string]preemptStats `json:"preemptions,omitempty"`
	// ClockEvidence: the trace has timer interrupt entries, so the
	// inference could tell which tasks read their CPU clock; ClockPollNs
	// is the cpu_clock_poll it gave the workload's task groups
	// (core/replay/selfpoll.go).
	ClockEvidence bool             `json:"clock_evidence"`
	ClockPollNs   map[string]int64 `json:"cpu_clock_poll_ns,omitempty"`
	// ClockPollTraced lists the groups whose interval is the trace's
	// (sched_stat_runtime), not the default.
	ClockPollTraced []string `json:"cpu_clock_poll_traced,omitempty"`
	// HiddenReplies, IdleWakes and IdleWakeP50Ns are the inference's
	// (core/replay: hidden.go, costs.go).
	HiddenReplies int    `json:"hidden_replies"`
	IdleWakes     int    `json:"remote_idle_wakeups"`
	IdleWakeP50Ns int64  `json:"remote_idle_wakeup_p50_ns"`
	IdleExitNs    string `json:"replay_idle_exit_ns,omitempty"`
	// QueuedWakes and the two medians: the wake-list wakeups among them,
	// split at sched_wakeup; SkippedSamples the wakeups whose switch-in
	// the importer added (core/replay/costs.go).
	QueuedWakes    int    `json:"queued_idle_wakeups"`
	QueuedWakingNs int64  `json:"queued_waking_to_wakeup_p50_ns"`
	QueuedSwitchNs int64  `json:"queued_wakeup_to_switch_p50_ns"`
	SkippedSamples int    `json:"cost_samples_added_switch"`
	BusyWakes      int    `json:"remote_busy_wakeups"`
	BusyWakeP50Ns  int64  `json:"remote_busy_wakeup_p50_ns"`
	IPILatencyNs   string `json:"replay_ipi_latency_ns,omitempty"`
	// IRQWakes and IRQWakeP50Ns: the wakeups by an interrupt on the
	// wakee's own busy CPU that preempted at once; TimerIRQNs the replay's
	// hw.timer_irq_ns from them (core/replay/costs.go).
	IRQWakes     int    `json:"local_irq_wakeups"`
	IRQWakeP50Ns int64  `json:"local_irq_wakeup_p50_ns"`
	TimerIRQNs   string `json:"replay_timer_irq_ns,omitempty"`
	// OwnIdleWakes, OwnIdleWakeP50Ns and OwnIdleGapP50Ns: the wakeups by an
	// interrupt on the wakee's own idle CPU (a timer), their median
	// sched_wakeup-to-switch-in time and the median time idle before them;
	// they set IdleExitNs where the remote ones do not
	// (core/replay/costs_timer.go).
	OwnIdleWakes     int   `json:"own_idle_wakeups"`
	OwnIdleWakeP50Ns int64 `json:"own_idle_wakeup_p50_ns"`
	OwnIdleGapP50Ns  int64 `json:"own_idle_gap_p50_ns"`
	// IdleSwitches counts each CPU's switches to and from idle in the
	// trace's text, MissedSwitches the switches the importer added
	// (idleswitch.go).
	IdleSwitches map[int]idleCount `json:"idle_switches"`
	// TracePlacement and ReplayPlacement count the workload comms'
	// wakeups that found their previous CPU busy and another idle
	// (placement.go).
	TracePlacement  map[string]placeCount `json:"trace_placement"`
	ReplayPlacement map[string]placeCount `json:"replay_placement"`
	MissedSwitches  int                   `json:"missed_switches"`
	// MissedAtSwitchOut: those added at the task's own switch out (no
	// line of it before: a run of no length in the trace).
	MissedAtSwitchOut int `json:"missed_at_switch_out"`
	// HZ is the replay's kernel.hz, HZFrom where it came from and HZTicks
	// the trace's tick intervals of a jiffy (core/replay/hz.go).
	HZ      int    `json:"hz"`
	HZFrom  string `json:"hz_from"`
	HZTicks int    `json:"hz_ticks"`
}

// otherTasks sums the tasks outside the workload.
type otherTasks struct {
	Tasks           int   `json:"tasks"`
	TraceRuntimeNs  int64 `json:"trace_runtime_ns"`
	ReplayRuntimeNs int64 `json:"replay_runtime_ns"`
}

// maxCuts bounds the retries of a trace that passes a bound of the
// inference with a shorter span each time.
const maxCuts = 3

// replayOpts are the harness's choices for every case: the -topology
// flag ("" = by the machine) and the inference's bounds (zero: the
// defaults; tests lower them).
type replayOpts struct {
	Topology string
	Infer    replay.Options
}

func replayCase(c caseSpec, path string, mi machineInfo, ro replayOpts) (caseResult, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return caseResult{}, fmt.Errorf("%v (record it first: run without -replay-only)", err)
	}
	opts := ftraceimport.Options{Lenient: true}
	tr, err := ftraceimport.Import(bytes.NewReader(data), opts)
	if err != nil {
		return caseResult{}, err
	}
	full := tr.Duration
	// A trace of a busy machine may pass the inference's bounds (a
	// pinned ping-pong on a quiet machine makes a million program steps
	// in half a second): the harness replays the first span that fits
	// and the report says so (core/replay/limits.go).
	var bound string
	w, err := replay.Infer(tr, ro.Infer)
	for cuts := 0; err != nil; cuts++ {
		var le *replay.LimitError
		if !errors.As(err, &le) || cuts == maxCuts {
			return caseResult{}, err
		}
		if bound == "" {
			bound = fmt.Sprintf("the inference's bound of %d %s (core/replay Options.%s) was passed at %.3f s", le.Limit, le.What, le.Option, float64(le.At)/1e9)
		}
		opts.Until = le.Span()
		if tr, err = ftraceimport.Import(bytes.NewReader(data), opts); err != nil {
			return caseResult{}, err
		}
		w, err = replay.Infer(tr, ro.Infer)
	}
	topo, topoWhy, err := replayTopology(ro.Topology, mi, tr.NumCPUs)
	if err != nil {
		return caseResult{}, err
	}
	// HZ: the trace's tick spacing where it shows one (core/replay/hz.go),
	// else this machine's as scripts/realkernel found it; set before the
	// scenario is built, so its cost probe runs at that HZ.
	hz, hzFrom, hzTicks := w.HZ, "the trace's tick spacing", w.HZTicks
	if hz == 0 {
		hz, hzFrom, hzTicks = mi.HZ, "real-kernel.json (the trace does not show its tick)", 0
	}
	sc, err := w.Scenario(replay.ScenarioOptions{Name: "replay/" + c.ID, Topology: topo, Kernel: "v6.18", Affinity: c.Affinity, HZ: hz})
	if err != nil {
		return caseResult{}, err
	}
	if err := sc.Set("kernel.preempt=" + mi.Preempt); err != nil {
		return caseResult{}, err
	}
	cfg, err := replay.Config(sc, nil)
	if err != nil {
		return caseResult{}, err
	}
	comms := c.comms()
	sim, err := sched.New(cfg)
	if err != nil {
		return caseResult{}, err
	}
	col := metrics.New(sim.NumCPUs())
	free := c.freeComms() // placement.go: the comms a wakeup may move
	rplace := newPlacement(sim.NumCPUs(), func(id sched.TaskID) string { return commIf(free, sim.TaskInfo(id).Name) })
	sim.Attach(col)
	sim.Attach(rplace)
	if err := sim.Run(); err != nil {
		return caseResult{}, fmt.Errorf("run stopped: %v", err) // as replay.Run says it
	}
	rep := col.Build(sim, sc.Name)
	tplace := newPlacement(tr.NumCPUs, func(id sched.TaskID) string { return commIf(free, tr.Tasks[id].Name) })
	copy(tplace.running, tr.Running)
	for i := range tr.Events {
		tplace.Event(&tr.Events[i])
	}
	trep := tr.Metrics(c.ID)
	f := replay.Compare(w, &trep, &rep)
	cr := caseResult{ID: c.ID, Description: c.Description, TraceFile: path, DurationNs: int64(full), TopologyWhy: topoWhy,
		Lines: tr.Stats.Lines, Events: tr.Stats.Events, Warnings: len(tr.Warnings) + len(w.Warnings),
		Tasks: len(w.Tasks), Topology: topo, Kernel: fmt.Sprintf("v6.18, HZ=%d, preempt=%s", hz, mi.Preempt),
		Score: f.Score, Periods: map[string]int{}, HZ: hz, HZFrom: hzFrom, HZTicks: hzTicks}
	if bound != "" {
		cr.SpanNs, cr.Bound, cr.Lost = int64(tr.Duration), bound, tr.Stats.AfterUntil
	}
	cr.TracePlacement, cr.ReplayPlacement = tplace.counts, rplace.counts
	for _, r := range f.Rows {
		if comms[r.Comm] {
			cr.Rows = append(cr.Rows, r)
		} else {
			cr.Other.Tasks++
			cr.Other.TraceRuntimeNs += r.Trace.RuntimeNs
			cr.Other.ReplayRuntimeNs += r.Replay.RuntimeNs
		}
	}
	cr.ClockEvidence, cr.ClockPollNs = w.ClockEvidence, map[string]int64{}
	for _, t := range w.Tasks {
		if comms[t.Comm] && t.Period > 0 {
			cr.Periods[t.Group] = int(t.Period / 1000)
		}
		if comms[t.Comm] && t.ClockPoll > 0 {
			cr.ClockPollNs[t.Group] = int64(t.ClockPoll)
			if t.ClockPollTraced {
				cr.ClockPollTraced = append(cr.ClockPollTraced, t.Group)
			}
		}
	}
	cr.HiddenReplies, cr.IdleWakes, cr.IdleWakeP50Ns = w.HiddenReplies, w.RemoteIdleWakes, int64(w.RemoteIdleWakeP50)
	cr.IdleExitNs = sc.HW["idle_exit_ns"]
	cr.QueuedWakes, cr.QueuedWakingNs, cr.QueuedSwitchNs = w.QueuedIdleWakes, int64(w.QueuedIdleWakingP50), int64(w.QueuedIdleSwitchP50)
	cr.SkippedSamples = w.CostSamplesAdded
	cr.BusyWakes, cr.BusyWakeP50Ns, cr.IPILatencyNs = w.RemoteBusyWakes, int64(w.RemoteBusyWakeP50), sc.HW["ipi_latency_ns"]
	cr.IdleSwitches, cr.MissedSwitches, cr.MissedAtSwitchOut = idleSwitches(data), tr.Stats.MissedSwitches, tr.Stats.MissedAtSwitchOut
	cr.IRQWakes, cr.IRQWakeP50Ns, cr.TimerIRQNs = w.LocalIRQWakes, int64(w.LocalIRQWakeP50), sc.HW["timer_irq_ns"]
	cr.OwnIdleWakes, cr.OwnIdleWakeP50Ns, cr.OwnIdleGapP50Ns = w.OwnIdleWakes, int64(w.OwnIdleWakeP50), int64(w.OwnIdleGapP50)
	pre, irqs, err := selfPreemptions(path, comms)
	if err != nil {
		return caseResult{}, err
	}
	if irqs {
		cr.Preempt = pre
	}
	sort.SliceStable(cr.Rows, func(i, j int) bool { return cr.Rows[i].Group < cr.Rows[j].Group })
	return cr, nil
}

// commIf is comm when it is one of comms, else "".
func commIf(comms map[string]bool, comm string) string {
	if comms[comm] {
		return comm
	}
	return ""
}
