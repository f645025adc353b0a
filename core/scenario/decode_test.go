package scenario

import (
	"strings"
	"testing"

	"schedplay/core/quote"
)

// TestDecodeErrors checks that each bad document fails with an *Error whose
// Path is exactly the offending JSON path and whose message says what was
// expected.
func TestDecodeErrors(t *testing.T) {
	run1 := `{"run":"1ms"}`
	nest := func(n int) string { // n loops nested inside each other
		s := run1
		for range n {
			s = `{"loop":{"count":2,"program":[` + s + `]}}`
		}
		return s
	}
	deep := "tasks[0].program" + strings.Repeat("[0].loop.program", maxNesting+1)
	tests := []struct {
		name, in, path, msg string
	}{
		// Top level.
		{"empty", ``, "", "not valid JSON"},
		{"truncated", `{"version":1,`, "", "not valid JSON"},
		{"array", `[]`, "", "JSON object at the top level"},
		{"string", `"x"`, "", "JSON object at the top level"},
		{"null", `null`, "", "JSON object at the top level"},
		{"trailing word", doc("", hog) + ` x`, "", "trailing data"},
		{"two documents", doc("", hog) + doc("", hog), "", "trailing data"},
		{"unknown top key", `{"version":1,"bogus":1,"tasks":[` + hog + `]}`, "bogus", "unknown key (known here: version,"},
		{"missing version", `{"tasks":[` + hog + `]}`, "version", "missing; want 1"},
		{"version 2", `{"version":2,"tasks":[` + hog + `]}`, "version", "reads version 1"},
		{"version string", `{"version":"1","tasks":[` + hog + `]}`, "version", "want an integer"},
		{"missing tasks", `{"version":1}`, "tasks", "missing; want an array"},
		{"tasks object", `{"version":1,"tasks":{}}`, "tasks", "want an array"},
		{"no tasks", doc(""), "tasks", "want at least one task group"},
		{"name number", doc(`"name":5,`, hog), "name", "want a string"},
		{"description bool", doc(`"description":true,`, hog), "description", "want a string"},
		{"topology unknown", doc(`"topology":"smp-3",`, hog), "topology", `unknown topology "smp-3"`},
		{"topology number", doc(`"topology":1,`, hog), "topology", "want a string"},
		// kernel
		{"kernel string", doc(`"kernel":"v6.18",`, hog), "kernel", "want a JSON object"},
		{"kernel unknown key", doc(`"kernel":{"hz":250,"nope":1},`, hog), "kernel.nope", "unknown key (known here: version, hz, preempt, tick_offset, autogroup, rt_group_sched)"},
		{"kernel version", doc(`"kernel":{"version":"v9.9"},`, hog), "kernel.version", `unknown kernel profile "v9.9"`},
		{"kernel version type", doc(`"kernel":{"version":6},`, hog), "kernel.version", "want a string"},
		{"hz range", doc(`"kernel":{"hz":123},`, hog), "kernel.hz", "want 100, 250, 300 or 1000"},
		{"hz zero-ish", doc(`"kernel":{"hz":-250},`, hog), "kernel.hz", "want 100, 250, 300 or 1000"},
		{"hz string", doc(`"kernel":{"hz":"250"},`, hog), "kernel.hz", "want an integer"},
		{"hz fraction", doc(`"kernel":{"hz":250.5},`, hog), "kernel.hz", "want an integer"},
		{"hz huge", doc(`"kernel":{"hz":1e300},`, hog), "kernel.hz", "want an integer"},
		{"preempt", doc(`"kernel":{"preempt":"rt"},`, hog), "kernel.preempt", "want one of none, voluntary, full, lazy"},
		// features, sysctl, hw
		{"features array", doc(`"features":[],`, hog), "features", "want a JSON object"},
		{"feature unknown", doc(`"features":{"NOPE":"on"},`, hog), "features.NOPE", "unknown feature"},
		{"feature lower case", doc(`"features":{"place_lag":"on"},`, hog), "features.place_lag", "unknown feature"},
		{"feature value", doc(`"features":{"PLACE_LAG":"maybe"},`, hog), "features.PLACE_LAG", `want "on" or "off"`},
		{"feature number", doc(`"features":{"PLACE_LAG":2},`, hog), "features.PLACE_LAG", `want "on" or "off"`},
		{"sysctl string", doc(`"sysctl":"x",`, hog), "sysctl", "want a JSON object"},
		{"sysctl unknown", doc(`"sysctl":{"sched_nope":1},`, hog), "sysctl.sched_nope", "unknown sysctl"},
		{"sysctl range", doc(`"sysctl":{"sched_base_slice_ns":1},`, hog), "sysctl.sched_base_slice_ns", "out of range 100000..1000000000"},
		{"sysctl duration", doc(`"sysctl":{"sched_base_slice_ns":"3ms"},`, hog), "sysctl.sched_base_slice_ns", "want an integer"},
		{"hw array", doc(`"hw":[],`, hog), "hw", "want a JSON object"},
		{"hw unknown", doc(`"hw":{"nope":"on"},`, hog), "hw.nope", "unknown machine knob"},
		// duration and seed
		{"duration no unit", doc(`"duration":"1.5",`, hog), "duration", `want a non-negative duration like "250us"`},
		{"duration negative", doc(`"duration":"-1ms",`, hog), "duration", "want a non-negative duration"},
		{"duration exponent", doc(`"duration":"1e9s",`, hog), "duration", "want a non-negative duration"},
		{"duration huge", doc(`"duration":"99999999999999999999s",`, hog), "duration", "want a non-negative duration"},
		{"duration two dots", doc(`"duration":"1.2.3s",`, hog), "duration", "want a non-negative duration"},
		{"duration unit only", doc(`"duration":"ms",`, hog), "duration", "want a non-negative duration"},
		{"duration spaces", doc(`"duration":"1 s",`, hog), "duration", "want a non-negative duration"},
		{"duration bad unit", doc(`"duration":"1d",`, hog), "duration", "want a non-negative duration"},
		{"duration empty", doc(`"duration":"",`, hog), "duration", "want a non-negative duration"},
		{"duration zero", doc(`"duration":"0s",`, hog), "duration", "out of range"},
		{"duration 2h", doc(`"duration":"2h",`, hog), "duration", "out of range"},
		{"duration int negative", doc(`"duration":-5,`, hog), "duration", "non-negative integer of nanoseconds"},
		{"duration int float", doc(`"duration":1e9,`, hog), "duration", "non-negative integer of nanoseconds"},
		{"duration int huge", doc(`"duration":99999999999999999999,`, hog), "duration", "non-negative integer of nanoseconds"},
		{"duration bool", doc(`"duration":true,`, hog), "duration", "want a duration"},
		{"seed negative", doc(`"seed":-1,`, hog), "seed", "non-negative integer"},
		{"seed string", doc(`"seed":"1",`, hog), "seed", "want an integer"},
		{"seed fraction", doc(`"seed":1.5,`, hog), "seed", "want an integer"},
		// task groups
		{"task number", doc("", "5"), "tasks[0]", "want a JSON object"},
		{"task unknown key", doc("", hog, task("b", `"prio":1,`, run1)), "tasks[1].prio", "unknown key (known here: name,"},
		{"task missing name", doc("", `{"program":[{"run":-1}]}`), "tasks[0].name", "want 1-64 characters"},
		{"task name type", doc("", `{"name":1,"program":[{"run":-1}]}`), "tasks[0].name", "want a string"},
		{"name space", doc("", task("a b", "", run1)), "tasks[0].name", "want 1-64 characters of A-Z a-z 0-9 _ ."},
		{"name dash", doc("", task("a-b", "", run1)), "tasks[0].name", "want 1-64 characters"},
		{"name slash", doc("", hog, task("a/b", "", run1)), "tasks[1].name", "want 1-64 characters"},
		{"name unicode", doc("", task("é", "", run1)), "tasks[0].name", "want 1-64 characters"},
		{"name too long", doc("", task(strings.Repeat("x", 65), "", run1)), "tasks[0].name", "want 1-64 characters"},
		{"duplicate names", doc("", hog, task("b", "", run1), hog), "tasks[2].name", `"hog" is used by another task group`},
		{"nice 20", doc("", task("a", `"nice":20,`, run1)), "tasks[0].nice", "want -20..19"},
		{"nice -21", doc("", task("a", `"nice":-21,`, run1)), "tasks[0].nice", "want -20..19"},
		{"nice string", doc("", task("a", `"nice":"0",`, run1)), "tasks[0].nice", "want an integer"},
		{"nice fraction", doc("", task("a", `"nice":0.5,`, run1)), "tasks[0].nice", "want an integer"},
		{"instances 0", doc("", task("a", `"instances":0,`, run1)), "tasks[0].instances", "want 1..10000"},
		{"instances big", doc("", task("a", `"instances":10001,`, run1)), "tasks[0].instances", "want 1..10000"},
		{"policy", doc("", task("a", `"policy":"SCHED_EDF",`, run1)), "tasks[0].policy", "want SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR or SCHED_DEADLINE"},
		{"dl missing runtime", doc("", task("a", `"policy":"SCHED_DEADLINE",`, run1)), "tasks[0].dl_runtime", "needs dl_runtime and dl_period"},
		{"dl runtime > deadline", doc("", task("a", `"policy":"SCHED_DEADLINE","dl_runtime":"20ms","dl_deadline":"10ms","dl_period":"100ms",`, run1)), "tasks[0]", "runtime <= deadline <= period"},
		{"dl deadline > period", doc("", task("a", `"policy":"SCHED_DEADLINE","dl_runtime":"1ms","dl_deadline":"200ms","dl_period":"100ms",`, run1)), "tasks[0]", "runtime <= deadline <= period"},
		{"dl period too long", doc("", task("a", `"policy":"SCHED_DEADLINE","dl_runtime":"1ms","dl_period":"5s",`, run1)), "tasks[0]", "sched_deadline_period_min_us..max_us"},
		{"dl on fair", doc("", task("a", `"dl_runtime":"1ms",`, run1)), "tasks[0].dl_runtime", "only SCHED_DEADLINE tasks"},
		{"dl priority", doc("", task("a", `"policy":"SCHED_DEADLINE","priority":5,"dl_runtime":"1ms","dl_period":"10ms",`, run1)), "tasks[0].priority", "no priority"},
		{"unlock unheld", doc("", task("a", ``, `{"unlock":"m"},{"run":"1ms"}`)), "tasks[0].program[0].unlock", "not held"},
		{"lock twice", doc("", task("a", ``, `{"lock":"m"},{"lock":"m"},{"run":"1ms"}`)), "tasks[0].program[1].lock", "already held"},
		{"lock held at end", doc("", task("a", ``, `{"lock":"m"},{"run":"1ms"}`)), "tasks[0].program", "still held"},
		{"pi not bool", `{"version":1,"pi":1,"tasks":[{"name":"a","program":[{"run":"1ms"}]}]}`, "pi", "want true"},
		{"rt priority missing", doc("", task("a", `"policy":"SCHED_FIFO",`, run1)), "tasks[0].priority", "needs an RT priority 1..99"},
		{"rt priority range", doc("", task("a", `"policy":"SCHED_RR","priority":100,`, run1)), "tasks[0].priority", "needs an RT priority 1..99"},
		{"rt nice", doc("", task("a", `"policy":"SCHED_FIFO","priority":5,"nice":3,`, run1)), "tasks[0].nice", "nice applies to the fair policies"},
		{"fair priority", doc("", task("a", `"priority":5,`, run1)), "tasks[0].priority", "only SCHED_FIFO and SCHED_RR"},
		{"policy type", doc("", task("a", `"policy":0,`, run1)), "tasks[0].policy", "want a string"},
		{"cpus range", doc(`"topology":"smp-2",`, task("a", `"cpus":[0,1,2],`, run1)), "tasks[0].cpus[2]", "CPU 2 does not exist on smp-2 (CPUs 0-1)"},
		{"cpus negative", doc("", task("a", `"cpus":[-1],`, run1)), "tasks[0].cpus[0]", "does not exist"},
		{"cpus string", doc("", task("a", `"cpus":[0,"1"],`, run1)), "tasks[0].cpus[1]", "want an integer"},
		{"cpus empty", doc("", task("a", `"cpus":[],`, run1)), "tasks[0].cpus", "want at least one CPU"},
		{"cpus number", doc("", task("a", `"cpus":0,`, run1)), "tasks[0].cpus", "want an array of CPU numbers"},
		{"start late", doc(`"duration":"1s",`, task("a", `"start":"2s",`, run1)), "tasks[0].start", "after the end of the run"},
		{"start bad", doc("", task("a", `"start":"soon",`, run1)), "tasks[0].start", "want a non-negative duration"},
		{"parent unknown", doc("", task("a", `"parent":"nope",`, run1)), "tasks[0].parent", `no task group named "nope"`},
		{"parent self", doc("", task("a", `"parent":"a",`, run1)), "tasks[0].parent", "its own parent"},
		{"parent with start", doc("", task("p", "", `{"fork":"c"},{"run":"1ms"}`), task("c", `"parent":"p","start":"1ms",`, run1)), "tasks[1].start", "no start time"},
		{"slack big", doc("", task("a", `"timer_slack":"2s",`, run1)), "tasks[0].timer_slack", "want at most 1s"},
		{"slack bad", doc("", task("a", `"timer_slack":"-1us",`, run1)), "tasks[0].timer_slack", "want a non-negative duration"},
		{"slice small", doc("", task("a", `"slice":"1us",`, run1)), "tasks[0].slice", "want 100us..100ms"},
		{"slice big", doc("", task("a", `"slice":"1s",`, run1)), "tasks[0].slice", "want 100us..100ms"},
		{"loop 0", doc("", task("a", `"loop":0,`, run1)), "tasks[0].loop", "want -1 (forever) or a positive count"},
		{"loop -2", doc("", task("a", `"loop":-2,`, run1)), "tasks[0].loop", "want -1 (forever) or a positive count"},
		{"forever yield", doc("", task("a", "", `{"yield":true}`)), "tasks[0].program", "must contain a run, sleep or timer with a positive duration"},
		{"forever zero run", doc("", task("a", "", `{"run":"0s"},{"sleep":0}`)), "tasks[0].program", "must contain a run, sleep or timer"},
		{"forever inner loop", doc("", task("a", `"loop":1,`, `{"loop":{"count":-1,"program":[{"yield":true}]}}`)), "tasks[0].program", "repeats forever"},
		// program events
		{"missing program", doc("", `{"name":"a"}`), "tasks[0].program", "missing; want an array of events"},
		{"program object", doc("", `{"name":"a","program":{}}`), "tasks[0].program", "want an array of events"},
		{"empty program", doc("", `{"name":"a","program":[]}`), "tasks[0].program", "empty program"},
		{"step number", doc("", task("a", "", `1`)), "tasks[0].program[0]", "want a JSON object"},
		{"step no key", doc("", task("a", "", `{}`)), "tasks[0].program[0]", "want exactly one of run, sys, sleep"},
		{"step two keys", doc("", task("a", "", `{"run":"1ms","sleep":"1ms"}`)), "tasks[0].program[0]", "got 2 keys"},
		{"step unknown", doc("", task("a", "", run1+`,{"jump":1}`)), "tasks[0].program[1].jump", "unknown event; want run, sys, sleep"},
		{"run no unit", doc("", task("a", "", `{"run":"1.5"}`)), "tasks[0].program[0].run", "want a non-negative duration"},
		{"run -2", doc("", task("a", "", `{"run":-2}`)), "tasks[0].program[0].run", "non-negative integer"},
		{"run -1 string", doc("", task("a", "", `{"run":"-1"}`)), "tasks[0].program[0].run", "want a non-negative duration"},
		{"sleep -1", doc("", task("a", "", run1+`,{"sleep":-1}`)), "tasks[0].program[1].sleep", "non-negative integer"},
		{"sleep object", doc("", task("a", "", `{"sleep":{}}`)), "tasks[0].program[0].sleep", "want a duration"},
		{"yield false", doc("", task("a", "", run1+`,{"yield":false}`)), "tasks[0].program[1].yield", "want true"},
		{"exit number", doc("", task("a", "", run1+`,{"exit":1}`)), "tasks[0].program[1].exit", "want true"},
		{"fork number", doc("", task("a", "", run1+`,{"fork":1}`)), "tasks[0].program[1].fork", "want the name of a task group"},
		{"fork unknown", doc("", task("a", "", run1+`,{"fork":"nope"}`)), "tasks[0].program[1].fork", `no task group named "nope"`},
		{"fork not child", doc("", task("a", "", run1+`,{"fork":"b"}`), task("b", "", run1)), "tasks[0].program[1].fork", `task group "b" must name "a" as its parent`},
		{"fork other's child", doc("", task("a", "", run1+`,{"fork":"c"}`), task("b", "", run1), task("c", `"parent":"b",`, run1)), "tasks[0].program[1].fork", `must name "a" as its parent`},
		{"timer string", doc("", task("a", "", `{"timer":"10ms"}`)), "tasks[0].program[0].timer", "want a JSON object"},
		{"timer no period", doc("", hog, task("a", "", run1+`,{"timer":{"ref":"t"}}`)), "tasks[1].program[1].timer.period", "missing; want a duration"},
		{"timer first step", doc("", hog, task("a", "", `{"timer":{"period":"-3ms"}}`)), "tasks[1].program[0].timer.period", "want a non-negative duration"},
		{"timer zero period", doc("", hog, task("a", "", run1+`,{"timer":{"period":"0s"}}`)), "tasks[1].program[1].timer.period", "want a positive period"},
		{"timer bad period", doc("", hog, task("a", "", run1+`,{"timer":{"period":"1.5"}}`)), "tasks[1].program[1].timer.period", "want a non-negative duration"},
		{"timer mode", doc("", task("a", "", run1+`,{"timer":{"period":"1ms","mode":"sometimes"}}`)), "tasks[0].program[1].timer.mode", `"sometimes": want absolute or relative`},
		{"timer mode type", doc("", task("a", "", run1+`,{"timer":{"period":"1ms","mode":1}}`)), "tasks[0].program[1].timer.mode", "want a string"},
		{"timer ref type", doc("", task("a", "", run1+`,{"timer":{"period":"1ms","ref":1}}`)), "tasks[0].program[1].timer.ref", "want a string"},
		{"timer unknown key", doc("", task("a", "", run1+`,{"timer":{"period":"1ms","when":1}}`)), "tasks[0].program[1].timer.when", "unknown key (known here: ref, period, mode)"},
		{"loop array", doc("", task("a", "", `{"loop":[]}`)), "tasks[0].program[0].loop", "want a JSON object"},
		{"loop no program", doc("", task("a", "", `{"loop":{"count":2}}`)), "tasks[0].program[0].loop.program", "missing; want an array of events"},
		{"loop empty", doc("", task("a", "", `{"loop":{"count":2,"program":[]}}`)), "tasks[0].program[0].loop.program", "empty program"},
		{"loop count 0", doc("", task("a", "", `{"loop":{"count":0,"program":[`+run1+`]}}`)), "tasks[0].program[0].loop.count", "want -1 (forever) or a positive count"},
		{"loop count type", doc("", task("a", "", `{"loop":{"count":"2","program":[`+run1+`]}}`)), "tasks[0].program[0].loop.count", "want an integer"},
		{"loop unknown key", doc("", task("a", "", `{"loop":{"count":2,"program":[`+run1+`],"x":1}}`)), "tasks[0].program[0].loop.x", "unknown key (known here: count, program)"},
		{"loop inner error", doc("", task("a", "", `{"loop":{"program":[`+run1+`,{"sleep":"x"}]}}`)), "tasks[0].program[0].loop.program[1].sleep", "want a non-negative duration"},
		{"nesting too deep", doc("", task("a", "", nest(maxNesting+1))), deep, "loops nested deeper than 8"},
		// size
		{"name too long", doc(`"name":"`+strings.Repeat("n", MaxName+1)+`",`, hog), "name", "1025 bytes: want at most 1024"},
		{"task name 40 KB", doc("", task(strings.Repeat("t", 40<<10), "", run1)), "tasks[0].name", `"` + strings.Repeat("t", 80) + `"... (40960 bytes): want 1-64 characters`},
		{"cgroup component 40 KB", doc(`"cgroups":{"/`+strings.Repeat("c", 40<<10)+`":{}},`, hog), "cgroups./" + strings.Repeat("c", 40<<10), `component "` + strings.Repeat("c", 80) + `"... (40960 bytes): want 1-64`},
		{"over MaxInput", doc(`"description":"`+strings.Repeat("x", MaxInput)+`",`, hog), "", "the limit is 1048576"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := Decode([]byte(tc.in))
			if err == nil {
				t.Fatalf("Decode succeeded (%+v); want an error at %q", sc, tc.path)
			}
			e := asError(t, "Decode", err)
			if e.Path != tc.path {
				t.Errorf("Path = %q, want %q (error: %v)", e.Path, tc.path, err)
			}
			if !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("Msg = %q, want it to contain %q", e.Msg, tc.msg)
			}
			if tc.path != "" && !strings.HasPrefix(err.Error(), quote.Path(tc.path)+": ") {
				t.Errorf("Error() = %q, want it to start with the path", err)
			}
		})
	}
}

// TestDecodeNestingLimit checks that exactly maxNesting loops may nest.
func TestDecodeNestingLimit(t *testing.T) {
	s := `{"run":"1ms"}`
	for range maxNesting {
		s = `{"loop":{"count":2,"program":[` + s + `]}}`
	}
	if _, err := Decode([]byte(doc("", task("a", "", s)))); err != nil {
		t.Fatalf("%d nested loops: %v", maxNesting, err)
	}
}

// TestDecodeDefaults checks the defaults of docs/scenario-format.md.
func TestDecodeDefaults(t *testing.T) {
	sc, err := Decode([]byte(doc("", task("a", "", `{"run":"1ms"},{"timer":{"period":"16ms"}},{"loop":{"program":[{"yield":true}]}}`))))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Topology != "smp-1" || sc.Kernel.Version != "v6.18" || sc.Duration != DefaultDuration || sc.Seed != 1 {
		t.Errorf("top-level defaults: %+v", sc)
	}
	tk := sc.Tasks[0]
	if tk.Instances != 1 || tk.Loop != -1 || tk.Nice != 0 || tk.CPUs != nil || tk.TimerSlack != nil || tk.Policy != "" {
		t.Errorf("task defaults: %+v", tk)
	}
	if tm := tk.Program[1].Timer; tm.Ref != "timer" || tm.Mode != "absolute" {
		t.Errorf("timer defaults: %+v", tm)
	}
	if l := tk.Program[2].Loop; l.Count != 1 {
		t.Errorf("loop count default: %+v", l)
	}
}

// TestDecodeAccepts checks inputs that are valid though unusual.
func TestDecodeAccepts(t *testing.T) {
	for _, in := range []string{
		doc(`"features":{"PLACE_LAG":false,"RUN_TO_PARITY":"on","PICK_BUDDY":"off"},`, hog),
		doc(`"duration":16000000,"seed":0,`, hog),
		doc(`"kernel":{"version":"v5.8","hz":1000,"preempt":"full"},`, hog),
		doc("", task("a", `"policy":"SCHED_NORMAL","nice":-20,"instances":10000,"loop":1,`, `{"run":"1.5ms"}`)),
		doc("", task("a", `"nice":19,"timer_slack":0,"slice":"100us",`, `{"sleep":"1m"},{"run":"250µs"}`)),
		" \n\t" + doc("", hog) + "\n\n",
	} {
		if _, err := Decode([]byte(in)); err != nil {
			t.Errorf("Decode(%s) = %v", in, err)
		}
	}
}

// TestDecodeTrailingCloser checks that a stray closing bracket after the
// document is rejected like any other trailing data.
func TestDecodeTrailingCloser(t *testing.T) {
	for _, tail := range []string{"}", "]", " ]]"} {
		if _, err := Decode([]byte(doc("", hog) + tail)); err == nil {
			t.Errorf("Decode(doc + %q) succeeded; want a trailing-data error", tail)
		}
	}
}

// TestDecodeErrorDeterministic checks that a document with several errors
// always reports the same one (no map order in error messages).
func TestDecodeErrorDeterministic(t *testing.T) {
	in := doc("", task("a", `"instances":"x","nice":"y","loop":"z","start":"?","slice":"?",`, `{"run":-1}`))
	first := ""
	for i := range 50 {
		_, err := Decode([]byte(in))
		if i == 0 {
			first = err.Error()
		} else if err.Error() != first {
			t.Fatalf("error changed between calls: %q then %q", first, err)
		}
	}
}

// TestDecodeLargeSeed checks that any seed -set accepts can be decoded: the
// seed is a uint64 everywhere else.
func TestDecodeLargeSeed(t *testing.T) {
	for _, extra := range []string{`"seed":4294967296,`, `"seed":18446744073709551615,`, `"sysctl":{"sched_rt_runtime_us":2147483648},`} {
		if _, err := Decode([]byte(doc(extra, hog))); err != nil {
			t.Errorf("Decode(%s) = %v", extra, err)
		}
	}
}

// TestDecodeHZZero checks that 0, which the Kernel struct uses internally
// for "profile default", is not accepted as a CONFIG_HZ value.
func TestDecodeHZZero(t *testing.T) {
	for _, k := range []string{`"kernel":{"hz":0},`, `"kernel":{"preempt":""},`} {
		if _, err := Decode([]byte(doc(k, hog))); err == nil {
			t.Errorf("Decode(%s) succeeded", k)
		}
	}
}
