package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/topology"
)

// cli runs the command line with stdin and returns the exit status and
// what it wrote.
func cli(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// writeFile writes a file in a fresh temporary directory.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExitCodes(t *testing.T) {
	bad := writeFile(t, "bad.json", `{"version":1,"tasks":[{"name":"a","program":[{"run":"1ms"},{"timer":{"period":"1.5"}}]}]}`)
	notJSON := writeFile(t, "broken.json", `{"version":1,"tasks":[`)
	rtappLock := writeFile(t, "rtapp-lock.json", `{
	"tasks" : {
		"thread0" : { "instance" : 1, "loop" : -1, "run" : 20000, "unlock" : "m" }
	},
	"global" : { "duration" : 2 }
}`)
	missing := filepath.Join(t.TempDir(), "missing.json")
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  []string // substrings of stderr
	}{
		{"no command", "", nil, 2, []string{"usage"}},
		{"unknown command", "", []string{"frobnicate"}, 2, []string{`unknown command "frobnicate"`}},
		{"help", "", []string{"help"}, 0, nil},
		{"missing file", "", []string{"run", missing}, 2, []string{missing, "no such file"}},
		{"bad scenario", "", []string{"run", bad}, 2, []string{bad, "tasks[0].program[1].timer.period", "want a non-negative duration"}},
		{"not JSON", "", []string{"run", notJSON}, 2, []string{notJSON, "not valid JSON"}},
		{"bad stdin", `{"version":1,"tasks":[{"name":"a","nice":40,"program":[{"run":-1}]}]}`, []string{"run", "-"}, 2, []string{"<stdin>", "tasks[0].nice", "want -20..19"}},
		{"rt-app unlock of an unlocked mutex", "", []string{"run", rtappLock}, 2, []string{rtappLock, "tasks.thread0.unlock", "not locked earlier"}},
		{"unknown -set key", "", []string{"run", "-preset", "demo/nice-shares", "-set", "bogus.key=1"}, 2, []string{"-set", "bogus.key", "unknown key"}},
		{"-set without =", "", []string{"run", "-preset", "demo/nice-shares", "-set", "kernel.hz"}, 2, []string{"want KEY=VALUE"}},
		{"bad -set value", "", []string{"run", "-preset", "demo/nice-shares", "-set", "kernel.hz=123"}, 2, []string{"kernel.hz", "want 100, 250, 300 or 1000"}},
		{"unknown feature", "", []string{"run", "-preset", "demo/nice-shares", "-set", "features.NOPE=on"}, 2, []string{"features.NOPE", "unknown feature"}},
		{"unknown preset", "", []string{"run", "-preset", "demo/nope"}, 2, []string{`unknown preset "demo/nope"`, "demo/nice-shares"}},
		{"bad -o", "", []string{"run", "-preset", "demo/nice-shares", "-o", "xml"}, 2, []string{`-o "xml"`, "want text or json"}},
		{"bad flag", "", []string{"run", "-nope"}, 2, []string{"-nope"}},
		{"preset and file", "", []string{"run", "-preset", "demo/nice-shares", bad}, 2, []string{"either -preset or a SCENARIO"}},
		{"two scenarios", "", []string{"run", bad, bad}, 2, []string{"at most one SCENARIO"}},
		{"bad duration", "", []string{"run", "-preset", "demo/nice-shares", "-duration", "10"}, 2, []string{"duration", "want a non-negative duration"}},
		{"zero duration", "", []string{"run", "-preset", "demo/nice-shares", "-duration", "0s"}, 2, []string{"demo/nice-shares", "duration", "out of range"}},
		{"bad topology", "", []string{"run", "-preset", "demo/nice-shares", "-topology", "smp-3"}, 2, []string{"topology", `unknown topology "smp-3"`}},
		{"topology too small", "", []string{"run", "-preset", "demo/sched-idle-wakeup-cfs", "-topology", "smp-1"}, 2, []string{"tasks[0].cpus[0]", "does not exist"}},
		{"bad kernel", "", []string{"run", "-preset", "demo/nice-shares", "-kernel", "v2.6"}, 2, []string{"kernel.version", `unknown kernel profile "v2.6"`}},
		{"bad seed", "", []string{"run", "-preset", "demo/nice-shares", "-seed", "-3"}, 2, []string{"seed", "non-negative integer"}},
		{"bad URL", "", []string{"run", "#s=!!!"}, 2, []string{"share URL", "not base64url"}},
		{"URL without payload", "", []string{"run", "https://schedplay.github.io/#x=1"}, 2, []string{"share URL", "no s= scenario payload"}},
		{"url missing file", "", []string{"url", missing}, 2, []string{missing}},
		{"url unknown preset", "", []string{"url", "-preset", "nope"}, 2, []string{"unknown preset"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := cli(t, tc.stdin, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
}

// TestRTAppImport checks that rt-app files are recognised by their layout,
// whatever their whitespace, and run with their import warnings on stderr.
func TestRTAppImport(t *testing.T) {
	for name, body := range map[string]string{
		"compact": `{"tasks":{"thread0":{"instance":1,"loop":-1,"run":20000}}}`,
		"spaced": `{
	"tasks" : {
		"thread0" : { "instance" : 1, "loop" : -1, "run" : 20000, "timer" : { "ref" : "unique", "period" : 100000 } }
	},
	"global" : { "duration" : 2, "calibration" : "CPU0", "default_policy" : "SCHED_OTHER" }
}`,
	} {
		p := writeFile(t, name+".json", body)
		code, out, stderr := cli(t, "", "run", "-duration", "100ms", p)
		if code != 0 || !strings.Contains(out, "thread0-0") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 0 and a thread0-0 row", name, code, out, stderr)
		}
		if !strings.Contains(stderr, "warning: "+p) {
			t.Errorf("%s: stderr %q; want import warnings naming the file", name, stderr)
		}
	}
}

func TestListings(t *testing.T) {
	code, out, _ := cli(t, "", "presets")
	if code != 0 {
		t.Fatalf("presets: exit %d", code)
	}
	for _, p := range scenario.Presets() {
		if !hasLinePrefix(out, p.Name+" ") {
			t.Errorf("presets: no line for %s:\n%s", p.Name, out)
		}
	}
	code, out, _ = cli(t, "", "topologies")
	if code != 0 {
		t.Fatalf("topologies: exit %d", code)
	}
	for _, name := range []string{"smp-1", "smp-2", "smp-4", "smp-8", "smp-64"} {
		if !hasLinePrefix(out, name+" ") {
			t.Errorf("topologies: no line for %s:\n%s", name, out)
		}
	}
	for _, name := range []string{"alderlake-6p8e", "icelake-2s32c", "epyc-milan-2s64c", "xeon-4s18c"} {
		if _, err := topology.Preset(name); err == nil && !hasLinePrefix(out, name+" ") {
			t.Errorf("topologies: %s is implemented but not listed", name)
		}
	}
	if !strings.Contains(out, "smp-64  64 CPUs") {
		t.Errorf("topologies: want CPU counts:\n%s", out)
	}
	code, out, _ = cli(t, "", "keys")
	if code != 0 {
		t.Fatalf("keys: exit %d", code)
	}
	keys := []string{"topology", "duration", "seed", "kernel.version", "kernel.hz", "kernel.preempt"}
	for _, f := range []string{"GENTLE_FAIR_SLEEPERS", "START_DEBIT", "WAKEUP_PREEMPTION", "NEXT_BUDDY", "LAST_BUDDY",
		"PLACE_LAG", "PLACE_DEADLINE_INITIAL", "RUN_TO_PARITY", "PREEMPT_SHORT", "DELAY_DEQUEUE", "DELAY_ZERO",
		"TTWU_QUEUE", "SIS_UTIL", "SM_IDLE", "NEWIDLE_FROM_FINISH_SWITCH", "NEWIDLE_IRQ_ON_UNLOCK", "NEWIDLE_RT_ABORT",
		"SCHED_CLUSTER", "HRTIMER_NO_REPROGRAM_ON_REMOVE", "NOHZ_RATELIMIT", "SCHED_IDLE_NO_SLEEPER_CREDIT"} {
		keys = append(keys, "features."+f)
	}
	for _, s := range []string{"sched_latency_ns", "sched_min_granularity_ns", "sched_wakeup_granularity_ns",
		"sched_base_slice_ns", "sched_migration_cost_ns", "sched_nr_migrate", "sched_rt_runtime_us",
		"sched_rt_period_us", "sched_rr_timeslice_ms"} {
		keys = append(keys, "sysctl."+s)
	}
	for _, k := range keys {
		if !hasLinePrefix(out, k+" ") {
			t.Errorf("keys: no line for %s", k)
		}
	}
	for _, p := range []string{"v3.11", "v5.8", "v6.6", "v6.12", "v6.18"} {
		if !hasLinePrefix(out, p+" ") {
			t.Errorf("keys: no profile line for %s", p)
		}
	}
}

func hasLinePrefix(out, prefix string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}
