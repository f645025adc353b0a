package sched

// Recorder: a Sink that keeps the event stream in memory, 32 bytes per
// event, for consumers that need random access after the run (the browser
// timeline, tests). Ticks and reschedule requests can be left out to save
// space.

// Recorder stores events.
type Recorder struct {
	Events []Event
	// KeepTicks keeps EvTick, EvResched and EvSoftirq events (off by
	// default: they are most of the stream and rarely wanted after the run).
	KeepTicks bool
	// Limit bounds the number of stored events (0 = no bound); events past
	// it are counted in Dropped.
	Limit   int
	Dropped int64
}

// Event implements Sink.
func (r *Recorder) Event(e *Event) {
	if !r.KeepTicks && (e.Kind == EvTick || e.Kind == EvResched || e.Kind == EvSoftirq) {
		return
	}
	if r.Limit > 0 && len(r.Events) >= r.Limit {
		r.Dropped++
		return
	}
	r.Events = append(r.Events, *e)
}
