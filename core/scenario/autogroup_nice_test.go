package scenario

import (
	"reflect"
	"strings"
	"testing"

	"schedplay/core/sched"
)

// TestAutogroupNice: "autogroup_nice" reaches Config.AutogroupNice at the
// task's session number, survives an Encode round trip, and is refused
// out of range, in conflict within a session, or with autogroup off.
func TestAutogroupNice(t *testing.T) {
	on := `"kernel":{"autogroup":"on"},`
	js := doc(on,
		task("make", `"session":"build","autogroup_nice":5,`, `{"run":-1}`),
		task("shell", `"session":"tty",`, `{"run":-1}`),
		task("cc", `"session":"build","autogroup_nice":5,`, `{"run":-1}`))
	cfg := buildCg(t, js)
	if want := []int{0, 5}; !reflect.DeepEqual(cfg.AutogroupNice, want) {
		t.Errorf("AutogroupNice %v, want %v (session build is 1)", cfg.AutogroupNice, want)
	}
	sc, err := Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	enc := sc.Encode()
	if !strings.Contains(string(enc), `"autogroup_nice":5`) {
		t.Errorf("encoded scenario lost autogroup_nice: %s", enc)
	}
	if again := buildCg(t, string(enc)); !reflect.DeepEqual(again.AutogroupNice, cfg.AutogroupNice) {
		t.Errorf("after a round trip AutogroupNice %v, want %v", again.AutogroupNice, cfg.AutogroupNice)
	}

	set := sc.Clone()
	if err := set.Set("tasks.shell.autogroup_nice=-3"); err != nil {
		t.Fatal(err)
	}
	if cfg, err := set.Build(sched.DefaultLimits()); err != nil || !reflect.DeepEqual(cfg.AutogroupNice, []int{0, 5, -3}) {
		t.Errorf("-set tasks.shell.autogroup_nice=-3: %v, AutogroupNice %v, want [0 5 -3]", err, cfg.AutogroupNice)
	}
	if sc.Tasks[1].AutogroupNice != nil {
		t.Errorf("-set on a clone changed the original")
	}
	if err := set.Set("tasks.shell.autogroup_nice=20"); err == nil || !strings.Contains(err.Error(), "want an autogroup nice -20..19") {
		t.Errorf("-set autogroup_nice=20: %v, want a range error", err)
	}
	bad := []struct{ name, in, path, msg string }{
		{"too low", doc(on, task("a", `"autogroup_nice":-21,`, `{"run":-1}`)), "tasks[0].autogroup_nice", "-21: want an autogroup nice -20..19"},
		{"too high", doc(on, task("a", `"autogroup_nice":20,`, `{"run":-1}`)), "tasks[0].autogroup_nice", "want an autogroup nice -20..19"},
		{"not a number", doc(on, task("a", `"autogroup_nice":"5",`, `{"run":-1}`)), "tasks[0].autogroup_nice", "want"},
		{"conflict", doc(on, task("a", `"session":"s","autogroup_nice":5,`, `{"run":-1}`), task("b", `"session":"s","autogroup_nice":-3,`, `{"run":-1}`)),
			"tasks[1].autogroup_nice", "tasks[0].autogroup_nice set this session's autogroup nice to 5"},
		{"autogroup off", doc("", task("a", `"autogroup_nice":5,`, `{"run":-1}`)), "tasks[0].autogroup_nice", "needs kernel.autogroup=on"},
	}
	for _, tc := range bad {
		sc, err := Decode([]byte(tc.in))
		if err == nil {
			_, err = sc.Build(sched.DefaultLimits())
		}
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		e := asError(t, tc.name, err)
		if e.Path != tc.path || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%s:\n got %q: %q\nwant %q: ...%q...", tc.name, e.Path, e.Msg, tc.path, tc.msg)
		}
	}
}
