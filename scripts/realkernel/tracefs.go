//go:build linux

package main

// -trace DIR: a tracefs record of each case's first real run, for the
// notes' explanations (docs/real-kernel-notes.md), to read beside the
// simulator's ftrace of the same scenario (schedplay run -trace FILE).
//
// The events go to a private tracefs instance (instances/NAME-NS-PID, its
// own ring buffer, named for the run by scripts/internal/scratch), so the
// global buffer, another run and whatever else uses tracefs are left alone;
// the instance is removed afterwards, a dead run's at start (staleness.go). The events are the ones the
// simulator's ftrace writer prints: sched_switch, sched_wakeup,
// sched_wakeup_new and sched_migrate_task; with -trace-softirq also
// irq:softirq_entry for vec 7 (SCHED_SOFTIRQ), whose spacing on a busy CPU
// tells each periodic balance's outcome (docs/real-kernel-notes.md item 4).
// -vmcosts (vmcosts.go) records its own event list with the x86-tsc trace
// clock (startTraceWith).

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"schedplay/scripts/internal/scratch"
)

const traceInstance = "schedplay-realkernel"

// tracefsInstances is the instances directory of the mounted tracefs.
func tracefsInstances() string {
	base := "/sys/kernel/tracing"
	if _, err := os.Stat(filepath.Join(base, "instances")); err != nil {
		base = "/sys/kernel/debug/tracing"
	}
	return filepath.Join(base, "instances")
}

// traceSession is one running instance.
type traceSession struct {
	dir string
}

// traceEvents are the events of -trace: the ones the simulator's ftrace
// writer prints.
const traceEvents = "sched:sched_switch sched:sched_wakeup sched:sched_wakeup_new sched:sched_migrate_task"

// startTrace creates the instance and starts recording traceEvents with the
// default trace clock; softirq adds the SCHED softirq's entries.
func startTrace(softirq bool) (*traceSession, error) {
	return startTraceWith(traceEvents, "", softirq)
}

// startTraceWith creates the instance and starts recording events (a
// set_event list) with trace clock clock ("" leaves the default, local).
func startTraceWith(events, clock string, softirq bool) (*traceSession, error) {
	dir := filepath.Join(tracefsInstances(), scratch.Self().Name(traceInstance))
	if err := os.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
		return nil, fmt.Errorf("-trace: %v", err)
	}
	t := &traceSession{dir: dir}
	writes := []struct{ file, value string }{
		{"tracing_on", "0"},
		{"buffer_size_kb", "32768"},
		{"trace", ""},
		{"set_event", events},
	}
	if clock != "" {
		writes = slices.Insert(writes, 2, struct{ file, value string }{"trace_clock", clock})
	}
	if softirq {
		writes = append(writes, struct{ file, value string }{"events/irq/softirq_entry/filter", "vec == 7"},
			struct{ file, value string }{"events/irq/softirq_entry/enable", "1"})
	}
	writes = append(writes, struct{ file, value string }{"tracing_on", "1"})
	for _, w := range writes {
		if err := os.WriteFile(filepath.Join(dir, w.file), []byte(w.value+"\n"), 0o644); err != nil {
			t.remove()
			return nil, fmt.Errorf("-trace: %s: %v", w.file, err)
		}
	}
	return t, nil
}

// stop ends the recording, copies the trace text to path and removes the
// instance.
func (t *traceSession) stop(path string) error {
	defer t.remove()
	if err := os.WriteFile(filepath.Join(t.dir, "tracing_on"), []byte("0\n"), 0o644); err != nil {
		return err
	}
	b, err := os.ReadFile(filepath.Join(t.dir, "trace"))
	if err != nil {
		return err
	}
	return writeAtomic(path, b)
}

func (t *traceSession) remove() {
	os.WriteFile(filepath.Join(t.dir, "set_event"), []byte("\n"), 0o644)
	os.Remove(t.dir)
}
