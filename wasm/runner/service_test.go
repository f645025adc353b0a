package runner

// The service against its protocol: a run streams batches whose records
// rebuild the whole run's event stream and ends with the report; a cancel
// seen at a yield stops it; experiments, sweeps, exports and trace imports
// answer with their messages; bad input is an error message, not a panic.

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/protocol"
)

// testService runs requests synchronously: its clock advances a
// millisecond per reading (so chunks end after a few hundred events), and
// onYield runs at every yield.
type testService struct {
	*Service
	got     []protocol.Message
	at      []float64 // the clock when each message of got was posted
	clock   float64
	onYield func()
	done    chan struct{}
}

func newTestService(p Pace) *testService {
	ts := &testService{done: make(chan struct{}, 16)}
	ts.Service = NewService(p, func() float64 { ts.clock++; return ts.clock },
		func() {
			if ts.onYield != nil {
				ts.onYield()
			}
		},
		func(m protocol.Message) {
			if b, ok := m.(protocol.Batch); ok { // the buffer is reused: copy, as the JS side does
				b.Buf = append([]byte(nil), b.Buf...)
				m = b
			}
			ts.got = append(ts.got, m)
			ts.at = append(ts.at, ts.clock)
		})
	return ts
}

func budgetJSON(dur string) string {
	return `{"version":1,"name":"bench/million-slices","topology":"smp-8","kernel":{"version":"v6.18"},"duration":"` +
		dur + `","seed":1,"tasks":[{"name":"yielder","instances":16,"loop":-1,"program":[{"run":"20us"},{"yield":true}]}]}`
}

func TestServiceRunStreamsTheWholeRun(t *testing.T) {
	ts := newTestService(PagePace())
	ts.setCurrent(3)
	ts.run(3, budgetJSON("30ms"))

	// The reference: the same scenario in one go, its streamed events.
	eng, err := NewEngine([]byte(budgetJSON("30ms")))
	if err != nil {
		t.Fatal(err)
	}
	for !Step(eng.Sim, 1<<30, 1024, nil) {
	}
	want := eng.Rec.Take()

	var got []byte
	var tasks []sched.TaskInfo
	batches := 0
	var last protocol.Message
	for _, m := range ts.got {
		last = m
		if b, ok := m.(protocol.Batch); ok {
			batches++
			got = append(got, b.Buf...)
			if b.Tasks != "" {
				var infos []sched.TaskInfo
				if err := json.Unmarshal([]byte(b.Tasks), &infos); err != nil {
					t.Fatal(err)
				}
				tasks = append(tasks, infos...)
			}
		}
	}
	if batches < 3 || string(got) != string(want) {
		t.Fatalf("%d batches, %d record bytes, want the whole run's %d", batches, len(got), len(want))
	}
	if len(tasks) != eng.Sim.NumTasks() || tasks[5] != eng.Sim.TaskInfo(5) {
		t.Fatalf("%d tasks described, want %d", len(tasks), eng.Sim.NumTasks())
	}
	done, ok := last.(protocol.Done)
	if !ok || done.Error != "" || done.ID != 3 {
		t.Fatalf("last message %+v, want a clean done", last)
	}
	var rep metrics.Report
	if err := json.Unmarshal([]byte(done.Report), &rep); err != nil {
		t.Fatal(err)
	}
	if wantRep := eng.Report(); rep.Tasks[0].Switches != wantRep.Tasks[0].Switches || rep.Tasks[0].Switches == 0 {
		t.Fatalf("report switches %d, want %d", rep.Tasks[0].Switches, wantRep.Tasks[0].Switches)
	}
}

func TestServiceCancelSeenAtYield(t *testing.T) {
	ts := newTestService(WorkerPace())
	ts.onYield = func() { ts.Handle(protocol.Cancel{ID: 4}) }
	ts.setCurrent(4)
	ts.run(4, budgetJSON("20s"))
	if len(ts.got) != 1 {
		t.Fatalf("%d messages after a cancel at the first yield, want the first batch", len(ts.got))
	}
	// A cancel of another request leaves the current one alone.
	ts.Handle(protocol.Cancel{ID: 9})
	ts.setCurrent(5)
	ts.Handle(protocol.Cancel{ID: 9})
	if !ts.isCurrent(5) {
		t.Fatal("a cancel of request 9 stopped request 5")
	}
}

func TestServiceBadScenario(t *testing.T) {
	ts := newTestService(PagePace())
	ts.setCurrent(1)
	ts.run(1, strings.Replace(budgetJSON("1ms"), "smp-8", "nonesuch", 1))
	if d, ok := ts.got[0].(protocol.Done); len(ts.got) != 1 || !ok || !strings.Contains(d.Error, "nonesuch") {
		t.Fatalf("messages %+v, want one done naming the bad topology", ts.got)
	}
}

func TestServiceExport(t *testing.T) {
	sc, err := scenario.Preset("demo/periodic-vs-hog")
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Set("duration=120ms"); err != nil {
		t.Fatal(err)
	}
	ts := newTestService(Pace{ChunkMs: 4, First: 8, Min: 4, Max: 16, CheckEvery: 2})
	ts.exportCurrent = 2
	ts.export(2, "ftrace", string(sc.Encode()), "")
	progress := 0
	for _, m := range ts.got[:len(ts.got)-1] {
		if p, ok := m.(protocol.ExportProgress); !ok || p.Fraction <= 0 || p.Fraction > 1 {
			t.Fatalf("%+v, want progress", m)
		}
		progress++
	}
	f, ok := ts.got[len(ts.got)-1].(protocol.ExportFile)
	if !ok || f.Kind != "ftrace" || string(f.Buf) != string(wholeRun(t, sc, "ftrace")) || progress == 0 {
		t.Fatalf("%d progress messages, then %T; want the whole run's trace", progress, ts.got[len(ts.got)-1])
	}
	ts.got = nil
	ts.exportCurrent = 3
	ts.export(3, "pcap", string(sc.Encode()), "")
	if e, ok := ts.got[0].(protocol.ExportError); !ok || !strings.Contains(e.Error, "pcap") {
		t.Fatalf("%+v, want an export error", ts.got)
	}
}

func TestServiceThread(t *testing.T) {
	sc, err := scenario.Preset("seed/sched-idle-wakeup")
	if err != nil {
		t.Fatal(err)
	}
	sc.Duration = 200 * sched.Millisecond
	ts := newTestService(WorkerPace())
	ts.setCurrent(7)
	ts.thread(7, string(sc.Encode()), 1)
	last := -1.0
	for _, m := range ts.got[:len(ts.got)-1] {
		p, ok := m.(protocol.ThreadProgress)
		if !ok || p.Fraction < last || p.Total != 2 || p.ID != 7 {
			t.Fatalf("%+v after fraction %v, want progress of 2 runs", m, last)
		}
		last = p.Fraction
	}
	d, ok := ts.got[len(ts.got)-1].(protocol.ThreadDone)
	if !ok || d.Error != "" || !strings.Contains(d.Report, `"Tables"`) || last != 1 {
		t.Fatalf("last %+v (fraction %v), want a report", ts.got[len(ts.got)-1], last)
	}
	ts.got = nil
	ts.thread(8, string(sc.Encode()), -1)
	if d, ok := ts.got[0].(protocol.ThreadDone); !ok || !strings.Contains(d.Error, "runs -1") {
		t.Fatalf("%+v, want the runs error", ts.got)
	}
}

func TestServiceSweep(t *testing.T) {
	ts := newTestService(WorkerPace())
	ts.setCurrent(2)
	ts.sweep(2, budgetJSON("20ms"), `{"sweep":["kernel.hz=250,1000"],"runs":1,"metric":["switches"]}`)
	d, ok := ts.got[len(ts.got)-1].(protocol.SweepDone)
	if !ok || d.Error != "" || !strings.Contains(d.Report, "kernel.hz") {
		t.Fatalf("last %+v, want a sweep report", ts.got[len(ts.got)-1])
	}
	ts.got = nil
	ts.sweep(3, budgetJSON("20ms"), `{not json`)
	if d, ok := ts.got[0].(protocol.SweepDone); !ok || !strings.HasPrefix(d.Error, "sweep:") {
		t.Fatalf("%+v, want a spec error", ts.got)
	}
}

func TestServiceOpenTrace(t *testing.T) {
	data, err := os.ReadFile("../../core/ftraceimport/testdata/real-6.18-nice0-nice5.txt")
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestService(PagePace())
	ts.setCurrent(5)
	ts.openTrace(5, "real.txt", float64(len(data)), func() ([]byte, error) { return data, nil })
	if len(ts.got) != 3 {
		t.Fatalf("%d messages, want header, batch, done", len(ts.got))
	}
	h, ok1 := ts.got[0].(protocol.TraceHeader)
	b, ok2 := ts.got[1].(protocol.Batch)
	_, ok3 := ts.got[2].(protocol.Done)
	if !ok1 || !ok2 || !ok3 || h.CPUs != 2 || !strings.HasPrefix(h.Summary, "2 CPUs") || len(b.Buf) == 0 || b.Now != h.Now {
		t.Fatalf("%+v", ts.got)
	}

	ts.got = nil
	bad := "# tracer: nop\n" +
		"  sh-1  [000] d..2.  1.000000: sched_switch: prev_comm=sh prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=x next_pid=2 next_prio=120\n" +
		"  sh-1  [000] d..2.  1.000100: sched_switch: garbage\n"
	ts.openTrace(5, "bad.txt", float64(len(bad)), func() ([]byte, error) { return []byte(bad), nil })
	if e, ok := ts.got[0].(protocol.TraceError); !ok || !strings.HasPrefix(e.Error, "bad.txt: line 3:") {
		t.Fatalf("%+v, want the error at line 3", ts.got)
	}
	ts.got = nil
	ts.openTrace(5, "huge.txt", MaxTraceBytes+1, func() ([]byte, error) { t.Fatal("read a file over the limit"); return nil, nil })
	if e, ok := ts.got[0].(protocol.TraceError); !ok || !strings.Contains(e.Error, "huge.txt is") {
		t.Fatalf("%+v, want the size error", ts.got)
	}
	if _, err := ImportTrace("x", make([]byte, MaxTraceBytes+1)); err == nil {
		t.Error("a file over MaxTraceBytes was imported")
	}
}
