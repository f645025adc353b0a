package main

// The replay's fidelity in the A/B panel: after Replay (trace.go) the
// trace is A and the replay runs as B; once B finishes, the table of
// `schedplay replay` (core/replay's Fidelity: per task the trace's CPU
// time, share, switches, migrations and wakeup latency beside the
// replay's, and the score) is shown above the A/B table, built from the
// two runs' metrics and the pairing of their tasks the engine sent with
// the trace. The first replay run is kept as the replay; with the knobs
// changed, B is the changed replay and each cell reads trace | replay |
// changed replay, so the what-if is seen against both the trace and the
// unchanged replay. Built outside Vugu's tree (bridge.Fill), once per
// pair of runs.

import (
	"encoding/json"
	"fmt"
	"strconv"

	"schedplay/core/replay/fidelity"
	"schedplay/wasm/bridge"
	"schedplay/wasm/view"
)

// idFidelityHost holds the fidelity table (compare.vugu; a host as those
// of hosts.go).
const idFidelityHost = "fidelity-host"

// replayRef is the trace a replay is compared with.
type replayRef struct {
	trace *view.Run // the trace's run, pinned as A
	keys  []fidelity.TaskKey
	// for the run shown: its fidelity, computed once
	run *view.Run
	fid *fidelity.Fidelity
	gen int
	// the first replay run (the unchanged replay) and its fidelity
	baseRun *view.Run
	base    *fidelity.Fidelity
}

// setReplayRef remembers the trace run and its pairing when Replay opens
// the inferred scenario; a bad pairing shows no table.
func (a *App) setReplayRef(trace *view.Run, keysJSON string) {
	a.replayRef = nil
	var keys []fidelity.TaskKey
	if trace == nil || keysJSON == "" || json.Unmarshal([]byte(keysJSON), &keys) != nil {
		return
	}
	a.replayRef = &replayRef{trace: trace, keys: keys}
}

// ReplayFidelity is the fidelity of the finished run against the trace it
// replays, nil when the A/B pair is not a trace and its replay.
func (a *App) ReplayFidelity() *fidelity.Fidelity {
	ref := a.replayRef
	if ref == nil || a.A != ref.trace || a.Run == nil || a.Run == ref.trace || !a.Run.Done() {
		return nil
	}
	if ref.run != a.Run {
		tr, rp := ref.trace.Report(), a.Run.Report()
		if tr == nil || rp == nil {
			return nil
		}
		f := fidelity.CompareKeys(ref.keys, tr, rp)
		ref.run, ref.fid, ref.gen = a.Run, &f, ref.gen+1
		if ref.baseRun == nil {
			ref.baseRun, ref.base = a.Run, &f
		}
	}
	return ref.fid
}

// ReplayBaseFidelity is the unchanged replay's fidelity while B is a
// changed replay (a later run with the trace still A), else nil.
func (a *App) ReplayBaseFidelity() *fidelity.Fidelity {
	if a.ReplayFidelity() == nil || a.replayRef.baseRun == a.Run || len(a.replayRef.base.Rows) != len(a.replayRef.fid.Rows) {
		return nil
	}
	return a.replayRef.base
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
	base := a.ReplayBaseFidelity()
	bridge.Fill(idFidelityHost, key, func(b *bridge.Markup) {
		b.Open("div", "id", "fidelity")
		if base == nil {
			b.El("h3", "Replay fidelity: the trace (A) against the replay (B)")
			b.El("p", f.Summary(), "id", "fidelity-score", "class", "provenance")
		} else {
			b.El("h3", "Replay fidelity: the trace (A), the replay, and the changed replay (B)")
			b.El("p", "replay: "+base.Summary(), "id", "fidelity-score-base", "class", "provenance")
			b.El("p", "changed replay: "+f.Summary(), "id", "fidelity-score", "class", "provenance")
		}
		tableHead(b, "fidelity-table", []string{"task", "pid", "CPU ms", "share %", "wait ms", "switches", "migrations",
			"wakeups", "lat p50 us", "lat p99 us", "targets"})
		for i, r := range f.Rows {
			var br *fidelity.Row
			if base != nil {
				br = &base.Rows[i]
			}
			cell := func(format string, side func(s *fidelity.Side) float64) string {
				out := fmt.Sprintf(format, side(&r.Trace))
				if br != nil {
					out += " | " + fmt.Sprintf(format, side(&br.Replay))
				}
				return out + " | " + fmt.Sprintf(format, side(&r.Replay))
			}
			b.Open("tr").El("td", r.Group).El("td", strconv.Itoa(r.PID)).
				El("td", cell("%.1f", func(s *fidelity.Side) float64 { return ms(s.RuntimeNs) })).
				El("td", cell("%.1f", func(s *fidelity.Side) float64 { return s.Share })).
				El("td", cell("%.1f", func(s *fidelity.Side) float64 { return ms(s.WaitNs) })).
				El("td", cell("%.0f", func(s *fidelity.Side) float64 { return float64(s.Switches) })).
				El("td", cell("%.0f", func(s *fidelity.Side) float64 { return float64(s.Migrations) })).
				El("td", cell("%.0f", func(s *fidelity.Side) float64 { return float64(s.Wakeups) })).
				El("td", cell("%.1f", func(s *fidelity.Side) float64 { return us(s.LatP50Ns) })).
				El("td", cell("%.1f", func(s *fidelity.Side) float64 { return us(s.LatP99Ns) })).
				El("td", targets(&r)).Close("tr")
		}
		b.Close("tbody").Close("table").Close("div")
	})
}

func ms(ns int64) float64 { return float64(ns) / 1e6 }
func us(ns int64) float64 { return float64(ns) / 1e3 }

// targets lists the row's targets met and missed.
func targets(r *fidelity.Row) string {
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
