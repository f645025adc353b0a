package main

import (
	"strings"
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// The autogroup table: one row per session, a nice written to every task
// group of the session (the scenario's agreement rule holds), refused out
// of range with the scenario's message and sc unchanged, cleared by an
// empty field, and kept by the scenario's JSON (so in share links).
func TestAutogroupNiceEdit(t *testing.T) {
	sc, err := scenario.Decode([]byte(`{"version":1,"topology":"smp-1","duration":"50ms","kernel":{"autogroup":"on"},
 "tasks":[{"name":"make","session":"build","program":[{"run":"1ms"}]},{"name":"cc","session":"build","program":[{"run":"1ms"}]},
  {"name":"shell","program":[{"run":"1ms"},{"sleep":"1ms"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	rows := autogroupRows(sc)
	if len(rows) != 2 || rows[0].Session != "build" || rows[0].Tasks != "make, cc" || rows[1].Session != "" || rows[1].Label != "(shared session)" {
		t.Fatalf("rows %+v", rows)
	}
	if err := agSetNice(sc, "build", "5"); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 1} {
		if n := sc.Tasks[i].AutogroupNice; n == nil || *n != 5 {
			t.Errorf("%s: autogroup nice %v, want 5", sc.Tasks[i].Name, n)
		}
	}
	if sc.Tasks[2].AutogroupNice != nil {
		t.Errorf("shell's session got a nice")
	}
	if got := autogroupRows(sc)[0].Nice; got != "5" {
		t.Errorf("row shows %q, want 5", got)
	}
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.AutogroupNice) < 2 || cfg.AutogroupNice[1] != 5 {
		t.Errorf("Config.AutogroupNice %v, want 5 for session build", cfg.AutogroupNice)
	}
	err = agSetNice(sc, "build", "20")
	if err == nil || !strings.Contains(err.Error(), "-20..19") {
		t.Errorf("nice 20: %v", err)
	}
	if n := sc.Tasks[0].AutogroupNice; n == nil || *n != 5 {
		t.Errorf("a refused nice changed the scenario: %v", n)
	}
	back, err := scenario.Decode(sc.Encode())
	if err != nil || back.Tasks[1].AutogroupNice == nil || *back.Tasks[1].AutogroupNice != 5 {
		t.Errorf("JSON round trip: %v %+v", err, back.Tasks)
	}
	if err := agSetNice(sc, "build", ""); err != nil || sc.Tasks[0].AutogroupNice != nil || sc.Tasks[1].AutogroupNice != nil {
		t.Errorf("clearing: %v, %v %v", err, sc.Tasks[0].AutogroupNice, sc.Tasks[1].AutogroupNice)
	}
}
