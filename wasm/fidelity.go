package main

// The replay's fidelity in the A/B panel: after Replay (trace.go) the
// trace is A and the replay runs as B; once B finishes, the table of
// `schedplay replay` (core/replay's Fidelity: per task the trace's CPU
// time, share, switches, migrations and wakeup latency beside the
// replay's, and the score) is shown above the A/B table, built from the
// two runs' metrics and the pairing of their tasks the engine sent with
// the trace. With the knobs changed, B is the changed replay and the
// table says how far it moved from the trace. Built outside Vugu's tree
// (bridge.Fill), once per pair of runs.

import (
	"encoding/json"
	"fmt"
	"strconv"

	"schedplay/core/replay"
	"schedplay/wasm/bridge"
	"schedplay/wasm/view"
)

// idFidelityHost holds the fidelity table (compare.vugu; a host as those
// of hosts.go).
const idFidelityHost = "fidelity-host"

// replayRef is the trace a replay is compared with.
type replayRef struct {
	trace *view.Run // the trace's run, pinned as A
	keys  []replay.TaskKey
	// for the run shown: its fidelity, computed once
	run *view.Run
	fid *replay.Fidelity
	gen int
}

// setReplayRef remembers the trace run and its pairing when Replay opens
// the inferred scenario; a bad pairing shows no table.
func (a *App) setReplayRef(trace *view.Run, keysJSON string) {
	a.replayRef = nil
	var keys []replay.TaskKey
	if trace == nil || keysJSON == "" || json.Unmarshal([]byte(keysJSON), &keys) != nil {
		return
	}
	a.replayRef = &replayRef{trace: trace, keys: keys}
}

// ReplayFidelity is the fidelity of the finished run against the trace it
// replays, nil when the A/B pair is not a trace and its replay.
func (a *App) ReplayFidelity() *replay.Fidelity {
	ref := a.replayRef
	if ref == nil || a.A != ref.trace || a.Run == nil || a.Run == ref.trace || !a.Run.Done() {
		return nil
	}
	if ref.run != a.Run {
		tr, rp := ref.trace.Report(), a.Run.Report()
		if tr == nil || rp == nil {
			return nil
		}
		f := replay.CompareKeys(ref.keys, tr, rp)
		ref.run, ref.fid, ref.gen = a.Run, &f, ref.gen+1
	}
	return ref.fid
}

// fillFidelity shows the fidelity table, or empties its host.
func (a *App) fillFidelity() {
	if a.A == nil || a.Embed {
		return // the A/B panel is not in the page
	}
	f := a.ReplayFidelity()
	key := ""
	if f != nil {
		key = strconv.Itoa(a.replayRef.gen)
	}
	bridge.Fill(idFidelityHost, key, func(b *bridge.Markup) {
		b.Open("div", "id", "fidelity")
		b.El("h3", "Replay fidelity: the trace (A) against the replay (B)")
		b.El("p", f.Summary(), "id", "fidelity-score", "class", "provenance")
		tableHead(b, "fidelity-table", []string{"task", "pid", "CPU ms", "share %", "wait ms", "switches", "migrations",
			"wakeups", "lat p50 us", "lat p99 us", "targets"})
		for _, r := range f.Rows {
			b.Open("tr").El("td", r.Group).El("td", strconv.Itoa(r.PID)).
				El("td", pair("%.1f", ms(r.Trace.RuntimeNs), ms(r.Replay.RuntimeNs))).
				El("td", pair("%.1f", r.Trace.Share, r.Replay.Share)).
				El("td", pair("%.1f", ms(r.Trace.WaitNs), ms(r.Replay.WaitNs))).
				El("td", pair("%d", r.Trace.Switches, r.Replay.Switches)).
				El("td", pair("%d", r.Trace.Migrations, r.Replay.Migrations)).
				El("td", pair("%d", r.Trace.Wakeups, r.Replay.Wakeups)).
				El("td", pair("%.1f", us(r.Trace.LatP50Ns), us(r.Replay.LatP50Ns))).
				El("td", pair("%.1f", us(r.Trace.LatP99Ns), us(r.Replay.LatP99Ns))).
				El("td", targets(&r)).Close("tr")
		}
		b.Close("tbody").Close("table").Close("div")
	})
}

// pair is "trace | replay" in format f.
func pair[T any](f string, t, r T) string {
	return fmt.Sprintf(f+" | "+f, t, r)
}

func ms(ns int64) float64 { return float64(ns) / 1e6 }
func us(ns int64) float64 { return float64(ns) / 1e3 }

// targets lists the row's targets met and missed.
func targets(r *replay.Row) string {
	m := func(ok bool, what string) string {
		if ok {
			return what + " ok"
		}
		return what + " MISS"
	}
	s := m(r.ShareOK, "share") + ", " + m(r.SwitchOK, "switches")
	if r.LatencyOK != nil {
		s += ", " + m(*r.LatencyOK, "latency")
	}
	if !r.Found {
		s += " (not run in the replay)"
	}
	return s
}
