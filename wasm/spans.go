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
	gcSec  float64 // GC CPU seconds accounted so far (at the last start or end)
}

func (s *spanLog) reset() { s.list, s.ms = s.list[:0], s.ms[:0] }

// read returns the completed GC cycles and the GC CPU seconds so far.
func (s *spanLog) read() (uint64, float64) {
	if s.sample == nil {
		s.sample = []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/cpu/classes/gc/total:cpu-seconds"}}
	}
	metrics.Read(s.sample)
	var n uint64
	var sec float64
	if s.sample[0].Value.Kind() == metrics.KindUint64 {
		n = s.sample[0].Value.Uint64()
	}
	if s.sample[1].Value.Kind() == metrics.KindFloat64 {
		sec = s.sample[1].Value.Float64()
	}
	return n, sec
}

// start returns the values end needs. GC work done since the last span
// (the idle mark worker's) is recorded as a "gc" span.
func (s *spanLog) start() (float64, uint64) {
	n, sec := s.read()
	if ms := 1000 * (sec - s.gcSec); ms >= spanMinMs && s.gcSec > 0 {
		s.keep(fmt.Sprintf("gc %.0fms", ms), ms)
	}
	s.gcSec = sec
	return bridge.Now(), n
}

// end records the span if it was slow and returns its duration (ms).
func (s *spanLog) end(name string, t0 float64, gc0 uint64) float64 {
	ms := bridge.Now() - t0
	n, sec := s.read()
	gcMs := 1000 * (sec - s.gcSec)
	s.gcSec = sec
	if ms < spanMinMs {
		return ms
	}
	text := fmt.Sprintf("%s %.0fms gc%d", name, ms, n-gc0)
	if gcMs >= 1 {
		text += fmt.Sprintf(" (gc %.0fms)", gcMs)
	}
	s.keep(text, ms)
	return ms
}

// keep adds a slow span (a full log keeps the longest).
func (s *spanLog) keep(text string, ms float64) {
	if len(s.list) < maxSpans {
		s.list, s.ms = append(s.list, text), append(s.ms, ms)
		return
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
}

func (s *spanLog) publish() {
	out := make([]any, len(s.list))
	for i, v := range s.list {
		out[i] = v
	}
	bridge.Publish("slowSpans", out)
}
