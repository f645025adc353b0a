package ftraceimport

// Measuring an imported trace with the simulator's metrics.

import (
	"schedplay/core/metrics"
	"schedplay/core/sched"
)

// Metrics replays the trace into a [metrics.Collector] and builds the
// report (schema schedplay.metrics/v1): kernel "real", topology "unknown",
// events the number of imported events. Tasks found running when the
// trace starts count their runtime from time 0.
func (t *Trace) Metrics(scenario string) metrics.Report {
	c := metrics.New(t.NumCPUs)
	for cpu, id := range t.Running {
		c.SetRunning(sched.CPUID(cpu), id, 0)
	}
	for i := range t.Events {
		c.Event(&t.Events[i])
	}
	return c.BuildFrom(t.Tasks, metrics.Meta{Scenario: scenario, Topology: "unknown",
		Kernel: "real", Events: int64(t.Stats.Events)})
}
