package scenario

import (
	"strings"
	"testing"

	"schedplay/core/sched"
)

// TestCPUClockPoll: the cpu_clock_poll key reaches the task spec, survives
// an encode round trip and -set, and is refused outside its bounds with
// the field path.
func TestCPUClockPoll(t *testing.T) {
	js := doc("", task("p", `"cpu_clock_poll":"2us",`, `{"run":"3ms"}`), hog)
	sc, err := Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	again, err := Decode(sc.Encode())
	if err != nil {
		t.Fatalf("re-decode: %v", err)
	}
	if !strings.Contains(string(sc.Encode()), `"cpu_clock_poll":"2us"`) {
		t.Errorf("encoding lost the key: %s", sc.Encode())
	}
	cfg, err := again.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Tasks[0].ClockPoll; got != 2*sched.Microsecond {
		t.Errorf("p: ClockPoll %s, want 2us", got)
	}
	if got := cfg.Tasks[1].ClockPoll; got != 0 {
		t.Errorf("hog: ClockPoll %s, want 0 (the default: never)", got)
	}
	if strings.Contains(string(mustDecode(t, doc("", hog)).Encode()), "cpu_clock_poll") {
		t.Error("a task without the key encodes it")
	}

	if err := sc.Set("tasks.hog.cpu_clock_poll=5us"); err != nil {
		t.Fatal(err)
	}
	cfg, err = sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Tasks[1].ClockPoll; got != 5*sched.Microsecond {
		t.Errorf("after -set: hog ClockPoll %s, want 5us", got)
	}
	if err := sc.Set("tasks.nobody.cpu_clock_poll=5us"); err == nil {
		t.Error("-set of an unknown task group: no error")
	}

	for _, bad := range []string{"50ns", "2s"} {
		sc, err := Decode([]byte(doc("", task("p", `"cpu_clock_poll":"`+bad+`",`, `{"run":"3ms"}`))))
		if err == nil {
			_, err = sc.Build(sched.DefaultLimits())
		}
		if err == nil {
			t.Errorf("cpu_clock_poll %s: no error", bad)
			continue
		}
		if e := asError(t, bad, err); e.Path != "tasks[0].cpu_clock_poll" {
			t.Errorf("cpu_clock_poll %s: error at %q, want tasks[0].cpu_clock_poll (%v)", bad, e.Path, err)
		}
	}
}
