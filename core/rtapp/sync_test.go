package rtapp

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// TestSyncEvents checks the mapping of rt-app's inter-task events.
func TestSyncEvents(t *testing.T) {
	src := `{ "tasks": { "a": { "loop": 1,
		"lock": "m", "signal": "q", "wait": { "ref": "q", "mutex": "m" }, "unlock": "m",
		"broad": "q", "sync": { "ref": "r", "mutex": "m" }, "resume": "s", "suspend": "s",
		"barrier": "b", "run": 10 },
	  "bee": { "loop": 1, "suspend", "barrier": "b", "run": 10 } } }`
	sc, _, err := Import([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []scenario.Step{
		{Kind: "lock", Res: "m"},
		{Kind: "signal", Res: "q", Cond: true},
		{Kind: "wait", Res: "q", Mutex: "m"},
		{Kind: "unlock", Res: "m"},
		{Kind: "broadcast", Res: "q"},
		{Kind: "signal", Res: "r", Cond: true},
		{Kind: "wait", Res: "r"},
		{Kind: "broadcast", Res: "s"},
		{Kind: "wait", Res: "s"},
		{Kind: "barrier", Res: "b"},
		{Kind: "run", Run: 10 * sched.Microsecond},
	}
	if got := sc.Tasks[0].Program; !reflect.DeepEqual(got, want) {
		t.Errorf("a's program\n got %+v\nwant %+v", got, want)
	}
	if got := sc.Tasks[1].Program[0]; !reflect.DeepEqual(got, scenario.Step{Kind: "wait", Res: "bee"}) {
		t.Errorf("bare suspend: %+v, want a wait on the thread's own name", got)
	}
}

// TestSyncExamplesRun runs 1 s of the Debian examples that use
// inter-task events, which import since the core models them.
func TestSyncExamplesRun(t *testing.T) {
	for _, f := range []string{"mp3-short.json", "mp3-long.json", "video-short.json", "video-long.json",
		"browser-short.json", "browser-long.json", "tutorial/example4.json", "tutorial/example5.json", "tutorial/example7.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "examples", f))
		if err != nil {
			t.Fatal(err)
		}
		sc, _, err := Import(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		sc.Topology = "smp-4"
		sc.Duration = sched.Second
		cfg, err := sc.Build(sched.DefaultLimits())
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		sim, err := sched.New(cfg)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		r := &sched.Recorder{}
		sim.Attach(r)
		if err := sim.Run(); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		wakes := 0
		for _, e := range r.Events {
			if e.Kind == sched.EvWakeup && e.Reason == sched.ReasonSignal {
				wakes++
			}
		}
		if wakes == 0 {
			t.Errorf("%s: no task woke another in 1s", f)
		}
		t.Logf("%s: %d wakeups by tasks in 1s", f, wakes)
	}
}

// TestSyncExport: wait resources export as rt-app events and import back;
// a signal that would stay pending cannot be exported.
func TestSyncExport(t *testing.T) {
	sc := decode(t, `{ "version": 1, "topology": "smp-2", "tasks": [
		{ "name": "a", "loop": -1, "program": [ { "run": "1ms" }, { "signal": "q", "cond": true }, { "wait": "r" }, { "barrier": "b" } ] },
		{ "name": "c", "loop": -1, "program": [ { "wait": "q" }, { "run": "1ms" }, { "broadcast": "r" }, { "barrier": "b" } ] } ] }`)
	roundTrip(t, "sync shapes", sc)
	sc.Tasks[0].Program[1].Cond = false
	if _, _, err := Export(sc); err == nil || !strings.Contains(err.Error(), "no rt-app equivalent") {
		t.Errorf("pending signal exported: %v", err)
	}
}
