package runner

// Export: ftrace text or Perfetto JSON of a run, made by running the
// scenario again with the trace writer attached (in the worker, or on the
// page when there is none).
//
// Why a re-run rather than the events of the run already done: the page
// holds only the folded timeline (switches, wakeups, migrations), while the
// writers also print ticks, reschedule IPIs, idle states, forks and exits;
// keeping every engine event of a run for an export few runs ever use
// would cost 24+ bytes per event (hundreds of MB for a long 256-CPU run)
// for the whole session. A run is a pure function of its
// scenario (same scenario and seed, same event stream: the determinism
// contract), so the re-run reproduces exactly the run on screen. It runs
// in chunks with progress messages (Service).

import (
	"bytes"
	"fmt"

	"schedplay/core/sched"
	"schedplay/core/trace/ftrace"
	"schedplay/core/trace/perfetto"
)

// Export is one export in progress.
type Export struct {
	Kind string
	Sim  *sched.Sim
	buf  bytes.Buffer
	w    interface{ Close() error }
}

// NewExport prepares the re-run of scenarioJSON with the writer of kind
// ("ftrace" or "perfetto") attached; provenance (compact JSON, "" for
// none) goes in the file as `schedplay run -trace/-perfetto` puts it.
func NewExport(scenarioJSON []byte, kind, provenance string) (*Export, error) {
	_, sim, err := newSim(scenarioJSON) // engine.go
	if err != nil {
		return nil, err
	}
	x := &Export{Kind: kind, Sim: sim}
	switch kind {
	case "ftrace":
		w := ftrace.NewWriterOptions(&x.buf, sim.TaskInfo, sim.NumCPUs(), ftrace.Options{Provenance: provenance})
		sim.Attach(w)
		x.w = w
	case "perfetto":
		w := perfetto.NewWriter(&x.buf, sim.TaskInfo, sim.NumCPUs())
		if provenance != "" {
			w.SetProvenance([]byte(provenance))
		}
		sim.Attach(w)
		x.w = w
	default:
		return nil, fmt.Errorf("unknown export %q (ftrace, perfetto)", kind)
	}
	return x, nil
}

// Fraction is the share of simulated time done.
func (x *Export) Fraction() float64 {
	done, total := x.Sim.Progress()
	if total <= 0 {
		return 1
	}
	return float64(done) / float64(total)
}

// Bytes closes the writer and returns the file.
func (x *Export) Bytes() ([]byte, error) {
	if err := x.Sim.Err(); err != nil {
		return nil, err
	}
	if err := x.w.Close(); err != nil {
		return nil, err
	}
	return x.buf.Bytes(), nil
}
