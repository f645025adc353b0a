package main

// Slow spans: where main-thread time goes. Each piece of page work that
// can grow with the run (batch folding, frame drawing, the Vugu build and
// DOM render, the after-render drawing) is timed; those over spanMinMs are
// kept (with the number of GC cycles that ran inside them) and published as
// window.schedplay.slowSpans, which the budget test logs beside Chrome's
// long-task entries.

import (
	"fmt"
	"runtime/metrics"

	"schedplay/wasm/bridge"
)

const (
	spanMinMs = 20 // a span worth reporting (a long task is > 50 ms)
	maxSpans  = 48
)

// spanLog holds the slowest spans of the current run (at most maxSpans:
// a full log keeps the longest).
type spanLog struct {
	list   []string
	ms     []float64
	sample []metrics.Sample
}

func (s *spanLog) reset() { s.list, s.ms = s.list[:0], s.ms[:0] }

// gcCycles is the number of completed GC cycles.
func (s *spanLog) gcCycles() uint64 {
	if s.sample == nil {
		s.sample = []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	}
	metrics.Read(s.sample)
	if s.sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s.sample[0].Value.Uint64()
}

// start returns the values end needs.
func (s *spanLog) start() (float64, uint64) { return bridge.Now(), s.gcCycles() }

// end records the span if it was slow and returns its duration (ms).
func (s *spanLog) end(name string, t0 float64, gc0 uint64) float64 {
	ms := bridge.Now() - t0
	if ms < spanMinMs {
		return ms
	}
	text := fmt.Sprintf("%s %.0fms gc%d", name, ms, s.gcCycles()-gc0)
	if len(s.list) < maxSpans {
		s.list, s.ms = append(s.list, text), append(s.ms, ms)
		return ms
	}
	low := 0 // replace the shortest kept span if this one is longer
	for i, v := range s.ms {
		if v < s.ms[low] {
			low = i
		}
	}
	if ms > s.ms[low] {
		s.list[low], s.ms[low] = text, ms
	}
	return ms
}

func (s *spanLog) publish() {
	out := make([]any, len(s.list))
	for i, v := range s.list {
		out[i] = v
	}
	bridge.Publish("slowSpans", out)
}
