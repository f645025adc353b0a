package protocol

// The messages: a Type constant and a struct for each, and their wire
// form (doc.go has the table).

// Type is a message's "type" field.
type Type string

// Page to worker.
const (
	TypeRun          Type = "run"
	TypeCancel       Type = "cancel"
	TypeExport       Type = "export"
	TypeCancelExport Type = "cancel-export"
	TypeOpenTrace    Type = "trace"
	TypeThread       Type = "thread"
	TypeSweep        Type = "sweep"
)

// Worker to page.
const (
	TypeBatch          Type = "batch"
	TypeDone           Type = "done"
	TypeTraceHeader    Type = "trace"
	TypeTraceError     Type = "traceerror"
	TypeExportProgress Type = "exportprogress"
	TypeExportFile     Type = "export"
	TypeExportError    Type = "exporterror"
	TypeThreadProgress Type = "threadprogress"
	TypeThreadDone     Type = "threaddone"
	TypeSweepProgress  Type = "sweepprogress"
	TypeSweepDone      Type = "sweepdone"
	TypeFatal          Type = "fatal"
)

// Message is any message of the protocol.
type Message interface {
	Wire() Msg
}

// Run starts a simulation of Scenario (its JSON); it supersedes the
// previous run, experiment, sweep or trace import.
type Run struct {
	ID       int
	Scenario string
}

// Cancel stops request ID (a run, experiment, sweep or import).
type Cancel struct{ ID int }

// Export asks for the trace file of Scenario: Kind "ftrace" or "perfetto".
type Export struct {
	ID             int
	Kind, Scenario string
	// Provenance is the run's provenance object as compact JSON
	// (scenario.Record, made on the page, which knows the presets): the
	// ftrace text's comment line, the Perfetto JSON's metadata ("": none).
	// On the wire it is the Spec field.
	Provenance string
}

// CancelExport stops export ID.
type CancelExport struct{ ID int }

// OpenTrace imports a kernel trace; the page's JS side attaches the File.
type OpenTrace struct{ ID int }

// Thread runs Scenario's experiment block with Runs seeds per cell (0:
// the block's own count).
type Thread struct {
	ID       int
	Scenario string
	Runs     int
}

// Sweep runs a sweep (Spec: JSON experiment.SweepSpec) of Scenario.
type Sweep struct {
	ID             int
	Scenario, Spec string
}

// Batch is one chunk of a streamed run: the simulated time and event count
// reached, the tasks created since the previous batch (JSON
// []sched.TaskInfo, "" if none), the chunk's records (wasm/codec) and
// the wall time the chunk took (ms: the page's fallback runs it on the
// page's thread, and publishes the longest).
type Batch struct {
	ID          int
	Now, Events int64
	Tasks       string
	Buf         []byte
	ChunkMs     float64
}

// Done ends a run or a trace import: the metrics report (JSON
// schedplay.metrics/v1) and the run's error, if any.
type Done struct {
	ID            int
	Report, Error string
}

// TraceHeader describes an imported trace before its batch.
type TraceHeader struct {
	ID          int
	CPUs        int
	Now, Events int64 // span (ns) and sched events
	Summary     string
	// Replay is the scenario JSON inferred from the trace (core/replay),
	// "" when the trace has none to replay.
	Replay string
	// ReplayTasks pairs the traced tasks with the replay's (JSON
	// []replay.TaskKey; the wire's tasks field).
	ReplayTasks string
}

// TraceError is a failed import.
type TraceError struct {
	ID    int
	Error string
}

// ExportProgress is the share of an export's re-run done.
type ExportProgress struct {
	ID       int
	Fraction float64
}

// ExportFile is a finished export: the file of kind Kind.
type ExportFile struct {
	ID   int
	Kind string
	Buf  []byte
}

// ExportError is a failed export.
type ExportError struct {
	ID    int
	Error string
}

// Progress is where a batch of runs stands (experiments and sweeps).
type Progress struct {
	Fraction        float64 // of the work, weighted by simulated CPU time
	Finished, Total int     // runs
	Current         string  // the run in progress (configuration, seed)
}

// ThreadProgress reports an experiment's progress.
type ThreadProgress struct {
	ID int
	Progress
}

// ThreadDone ends an experiment: the JSON report.ThreadReport, or the
// error.
type ThreadDone struct {
	ID            int
	Report, Error string
}

// SweepProgress reports a sweep's progress.
type SweepProgress struct {
	ID int
	Progress
}

// SweepDone ends a sweep: the JSON report.SweepReport, or the error.
type SweepDone struct {
	ID            int
	Report, Error string
}

// Fatal says the worker failed (to load, or threw).
type Fatal struct{ Error string }

// Wire implements Message.
func (m Run) Wire() Msg    { return Msg{Type: TypeRun, ID: m.ID, Scenario: m.Scenario} }
func (m Cancel) Wire() Msg { return Msg{Type: TypeCancel, ID: m.ID} }
func (m Export) Wire() Msg {
	return Msg{Type: TypeExport, ID: m.ID, Kind: m.Kind, Scenario: m.Scenario, Spec: m.Provenance}
}
func (m CancelExport) Wire() Msg { return Msg{Type: TypeCancelExport, ID: m.ID} }
func (m OpenTrace) Wire() Msg    { return Msg{Type: TypeOpenTrace, ID: m.ID} }
func (m Thread) Wire() Msg {
	return Msg{Type: TypeThread, ID: m.ID, Scenario: m.Scenario, Runs: m.Runs}
}
func (m Sweep) Wire() Msg { return Msg{Type: TypeSweep, ID: m.ID, Scenario: m.Scenario, Spec: m.Spec} }
func (m Batch) Wire() Msg {
	return Msg{Type: TypeBatch, ID: m.ID, Now: float64(m.Now), Events: float64(m.Events), Tasks: m.Tasks, Buf: m.Buf, ChunkMs: m.ChunkMs}
}
func (m Done) Wire() Msg { return Msg{Type: TypeDone, ID: m.ID, Report: m.Report, Error: m.Error} }
func (m TraceHeader) Wire() Msg {
	return Msg{Type: TypeTraceHeader, ID: m.ID, CPUs: m.CPUs, Now: float64(m.Now), Events: float64(m.Events), Info: m.Summary, Scenario: m.Replay, Tasks: m.ReplayTasks}
}
func (m TraceError) Wire() Msg { return Msg{Type: TypeTraceError, ID: m.ID, Error: m.Error} }
func (m ExportProgress) Wire() Msg {
	return Msg{Type: TypeExportProgress, ID: m.ID, Now: m.Fraction}
}
func (m ExportFile) Wire() Msg  { return Msg{Type: TypeExportFile, ID: m.ID, Info: m.Kind, Buf: m.Buf} }
func (m ExportError) Wire() Msg { return Msg{Type: TypeExportError, ID: m.ID, Error: m.Error} }
func (m ThreadProgress) Wire() Msg {
	return m.Progress.wire(TypeThreadProgress, m.ID)
}
func (m ThreadDone) Wire() Msg {
	return Msg{Type: TypeThreadDone, ID: m.ID, Report: m.Report, Error: m.Error}
}
func (m SweepProgress) Wire() Msg { return m.Progress.wire(TypeSweepProgress, m.ID) }
func (m SweepDone) Wire() Msg {
	return Msg{Type: TypeSweepDone, ID: m.ID, Report: m.Report, Error: m.Error}
}
func (m Fatal) Wire() Msg { return Msg{Type: TypeFatal, Error: m.Error} }

func (p Progress) wire(t Type, id int) Msg {
	return Msg{Type: t, ID: id, Now: p.Fraction, Events: float64(p.Finished), CPUs: p.Total, Info: p.Current}
}

func (m Msg) progress() Progress {
	return Progress{Fraction: m.Now, Finished: int(m.Events), Total: m.CPUs, Current: m.Info}
}

// ParseRequest reads a message the page sent to the worker.
func ParseRequest(m Msg) (Message, error) {
	switch m.Type {
	case TypeRun:
		return Run{ID: m.ID, Scenario: m.Scenario}, nil
	case TypeCancel:
		return Cancel{ID: m.ID}, nil
	case TypeExport:
		return Export{ID: m.ID, Kind: m.Kind, Scenario: m.Scenario, Provenance: m.Spec}, nil
	case TypeCancelExport:
		return CancelExport{ID: m.ID}, nil
	case TypeOpenTrace:
		return OpenTrace{ID: m.ID}, nil
	case TypeThread:
		return Thread{ID: m.ID, Scenario: m.Scenario, Runs: m.Runs}, nil
	case TypeSweep:
		return Sweep{ID: m.ID, Scenario: m.Scenario, Spec: m.Spec}, nil
	}
	return poolRequest(m) // pool.go
}

// ParseReply reads a message the worker sent to the page.
func ParseReply(m Msg) (Message, error) {
	switch m.Type {
	case TypeBatch:
		return Batch{ID: m.ID, Now: int64(m.Now), Events: int64(m.Events), Tasks: m.Tasks, Buf: m.Buf, ChunkMs: m.ChunkMs}, nil
	case TypeDone:
		return Done{ID: m.ID, Report: m.Report, Error: m.Error}, nil
	case TypeTraceHeader:
		return TraceHeader{ID: m.ID, CPUs: m.CPUs, Now: int64(m.Now), Events: int64(m.Events), Summary: m.Info, Replay: m.Scenario, ReplayTasks: m.Tasks}, nil
	case TypeTraceError:
		return TraceError{ID: m.ID, Error: m.Error}, nil
	case TypeExportProgress:
		return ExportProgress{ID: m.ID, Fraction: m.Now}, nil
	case TypeExportFile:
		return ExportFile{ID: m.ID, Kind: m.Info, Buf: m.Buf}, nil
	case TypeExportError:
		return ExportError{ID: m.ID, Error: m.Error}, nil
	case TypeThreadProgress:
		return ThreadProgress{ID: m.ID, Progress: m.progress()}, nil
	case TypeThreadDone:
		return ThreadDone{ID: m.ID, Report: m.Report, Error: m.Error}, nil
	case TypeSweepProgress:
		return SweepProgress{ID: m.ID, Progress: m.progress()}, nil
	case TypeSweepDone:
		return SweepDone{ID: m.ID, Report: m.Report, Error: m.Error}, nil
	case TypeFatal:
		return Fatal{Error: m.Error}, nil
	}
	return poolReply(m) // pool.go
}
