package main

import (
	"testing"

	"schedplay/core/rtapp"
	"schedplay/core/scenario"
)

// s5 is the rt-app file of the Aug 2020 SCHED_IDLE thread
// (shared/reference experiments S5), with // comments as rt-app allows.
const s5 = `// rt-app workload of the thread
{ "tasks" : {
    "task_other" : { "instance" : 1, "cpus" : [2], "loop" : 2000,
                     "policy" : "SCHED_OTHER", "run" : -1, "priority" : 0, "sleep" : 0 }, // always running
    "task_idle"  : { "instance" : 1, "cpus" : [2], "loop" : 2000,
                     "policy" : "SCHED_IDLE", "run" : 1,
                     "timer" : { "ref" : "unique2", "period" : 16000, "mode" : "absolute" } } },
  "global" : { "calibration" : "CPU0", "default_policy" : "SCHED_OTHER", "duration" : -1 } }
`

func TestLooksLikeRTApp(t *testing.T) {
	sc, err := scenario.Preset(DefaultPreset)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text string
		want bool
	}{
		{s5, true},
		{`{"tasks": {"a": {"run": 10}}}`, true},
		{`{"global": {}, "tasks": []}`, true},
		{string(sc.Encode()), false},
		{prettyJSON(sc.Encode()), false},
		{`{"version": 1, "tasks": [`, false},
		{`// broken {`, true},
	} {
		if got := looksLikeRTApp([]byte(tc.text)); got != tc.want {
			t.Errorf("looksLikeRTApp(%.40q) = %v, want %v", tc.text, got, tc.want)
		}
	}
	imported, warns, err := rtapp.Import([]byte(s5))
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) == 0 || len(imported.Tasks) != 2 {
		t.Fatalf("S5: %d warnings, %d tasks", len(warns), len(imported.Tasks))
	}
	t.Logf("S5 warnings: %v", warns)
}
