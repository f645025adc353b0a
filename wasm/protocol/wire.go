package protocol

// The wire form: every field any message uses, under the key it has in
// the structured-clone object. The JS sides (wasm/worker, wasm/bridge)
// build and read objects through Fields and FromFields, so the keys are
// written once, here.

// Msg is a message as it crosses: the union of the messages' fields.
type Msg struct {
	Type                 Type
	ID                   int
	Scenario, Kind, Spec string // requests
	Runs                 int
	Job                  int // a job's index in its batch's plan (pool.go)
	Now, Events          float64
	ChunkMs              float64 // a batch's chunk of wall time (ms)
	CPUs                 int
	Info, Tasks, Report  string
	Error                string
	Buf                  []byte // "buf": an ArrayBuffer, transferred (not among Fields)
}

// Field keys of the wire object.
const (
	KeyType     = "type"
	KeyID       = "id"
	KeyScenario = "scenario"
	KeyKind     = "kind"
	KeySpec     = "spec"
	KeyRuns     = "runs"
	KeyJob      = "job"
	KeyNow      = "now"
	KeyEvents   = "events"
	KeyChunkMs  = "chunkms"
	KeyCPUs     = "cpus"
	KeyInfo     = "info"
	KeyTasks    = "tasks"
	KeyReport   = "report"
	KeyError    = "error"
	KeyBuf      = "buf"  // bytes, transferred
	KeyFile     = "file" // OpenTrace: the page's File object
)

// Fields calls set with the type, the id and every other string or number
// field that is not zero, in a fixed order (a reader takes a missing key
// for zero). Buf is left to the caller, which transfers it.
func (m Msg) Fields(set func(key string, v any)) {
	set(KeyType, string(m.Type))
	set(KeyID, m.ID)
	str := func(k, v string) {
		if v != "" {
			set(k, v)
		}
	}
	num := func(k string, v float64) {
		if v != 0 {
			set(k, v)
		}
	}
	str(KeyScenario, m.Scenario)
	str(KeyKind, m.Kind)
	str(KeySpec, m.Spec)
	num(KeyRuns, float64(m.Runs))
	num(KeyJob, float64(m.Job))
	num(KeyNow, m.Now)
	num(KeyEvents, m.Events)
	num(KeyChunkMs, m.ChunkMs)
	num(KeyCPUs, float64(m.CPUs))
	str(KeyInfo, m.Info)
	str(KeyTasks, m.Tasks)
	str(KeyReport, m.Report)
	str(KeyError, m.Error)
}

// FromFields reads a wire object: str returns a string field ("" if
// missing or not a string), num a number field (0 if missing or not a
// number). Buf is left to the caller.
func FromFields(str func(key string) string, num func(key string) float64) Msg {
	return Msg{
		Type: Type(str(KeyType)), ID: int(num(KeyID)),
		Scenario: str(KeyScenario), Kind: str(KeyKind), Spec: str(KeySpec), Runs: int(num(KeyRuns)), Job: int(num(KeyJob)),
		Now: num(KeyNow), Events: num(KeyEvents), ChunkMs: num(KeyChunkMs), CPUs: int(num(KeyCPUs)),
		Info: str(KeyInfo), Tasks: str(KeyTasks), Report: str(KeyReport), Error: str(KeyError),
	}
}
