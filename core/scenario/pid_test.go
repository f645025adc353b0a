package scenario

import (
	"strings"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/sched"
)

// TestPIDComm: "pid" and "comm" fix a one-instance group's pid and name
// (a replayed trace's task); other tasks' pids skip the fixed ones; the
// keys round-trip through the canonical encoding; bad values are errors
// naming the path.
func TestPIDComm(t *testing.T) {
	in := `{"version":1,"topology":"smp-1","duration":"10ms","tasks":[
		{"name":"a","program":[{"run":"1ms"}]},
		{"name":"b","pid":1001,"comm":"kworker/u8:1","program":[{"run":"1ms"}]},
		{"name":"c","instances":2,"program":[{"run":"1ms"}]}]}`
	sc, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	enc := string(sc.Encode())
	if !strings.Contains(enc, `"pid":1001,"comm":"kworker/u8:1"`) {
		t.Errorf("encoding lacks pid and comm: %s", enc)
	}
	again, err := Decode([]byte(enc))
	if err != nil || string(again.Encode()) != enc {
		t.Fatalf("round trip: %v\n%s", err, enc)
	}
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	rep, err := metrics.Run(cfg, "x")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tk := range rep.Tasks {
		got = append(got, tk.Name+":"+itoa("", tk.PID))
	}
	if want := "a-0:1000 kworker/u8:1:1001 c-2:1002 c-3:1003"; strings.Join(got, " ") != want {
		t.Errorf("tasks %v, want %s", got, want)
	}
	for _, c := range []struct{ task, want string }{
		{`"pid":0`, "tasks[0].pid: 0: want 1..4194304"},
		{`"pid":5,"instances":2`, "tasks[0].pid: a fixed pid needs a group of one instance"},
		{`"comm":"0123456789abcdef"`, "tasks[0].comm"},
		{`"comm":""`, "tasks[0].comm"},
	} {
		doc := `{"version":1,"tasks":[{"name":"a",` + c.task + `,"program":[{"run":"1ms"}]}]}`
		sc, err := Decode([]byte(doc))
		if err == nil {
			_, err = sc.Build(sched.DefaultLimits())
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.task, err, c.want)
		}
	}
	dup := `{"version":1,"tasks":[{"name":"a","pid":7,"program":[{"run":"1ms"}]},{"name":"b","pid":7,"program":[{"run":"1ms"}]}]}`
	if sc, err = Decode([]byte(dup)); err == nil {
		_, err = sc.Build(sched.DefaultLimits())
	}
	if err == nil || !strings.Contains(err.Error(), "tasks[1].pid: 7 is the pid of task group a") {
		t.Errorf("duplicate pid: %v", err)
	}
}

// TestPIDForked: a forked group's fixed pid goes to its first instance;
// the next fork gets a free pid.
func TestPIDForked(t *testing.T) {
	doc := `{"version":1,"topology":"smp-1","duration":"10ms","tasks":[
		{"name":"p","loop":1,"program":[{"fork":"k"},{"run":"1ms"},{"fork":"k"},{"run":"1ms"}]},
		{"name":"k","parent":"p","pid":500,"comm":"kid","loop":1,"program":[{"run":"100us"}]}]}`
	sc, err := Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	sim, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Run(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for id := 0; id < sim.NumTasks(); id++ {
		ti := sim.TaskInfo(sched.TaskID(id))
		got = append(got, ti.Name+":"+itoa("", ti.PID))
	}
	if want := "p-0:1000 kid:500 kid:1001"; strings.Join(got, " ") != want {
		t.Errorf("tasks %v, want %s", got, want)
	}
}
