package scenario

import (
	"strconv"
	"strings"
	"testing"

	"schedplay/core/sched"
)

// TestSet covers every key family of docs/cli.md "The contract".
func TestSet(t *testing.T) {
	sc := mustPreset(t, "demo/nice-shares")
	for _, kv := range []string{
		"kernel.version=v5.8", "kernel.hz=1000", "kernel.preempt=full",
		"features.WAKEUP_PREEMPTION=off", "features.GENTLE_FAIR_SLEEPERS=on", "features.SM_IDLE=true", "features.START_DEBIT=false",
		"sysctl.sched_latency_ns=24000000", "sysctl.sched_base_slice_ns=3000000", "sysctl.sched_rr_timeslice_ms=100",
		"duration=250ms", "seed=42", "topology=smp-4", "name=my run", "pi=true",
	} {
		if err := sc.Set(kv); err != nil {
			t.Fatalf("Set(%q) = %v", kv, err)
		}
	}
	if sc.Kernel != (Kernel{Version: "v5.8", HZ: 1000, Preempt: "full"}) {
		t.Errorf("kernel = %+v", sc.Kernel)
	}
	wantF := map[string]bool{"WAKEUP_PREEMPTION": false, "GENTLE_FAIR_SLEEPERS": true, "SM_IDLE": true, "START_DEBIT": false}
	for k, v := range wantF {
		if got, ok := sc.Features[k]; !ok || got != v {
			t.Errorf("features.%s = %v, %v; want %v", k, got, ok, v)
		}
	}
	if sc.Sysctl["sched_latency_ns"] != 24000000 || sc.Sysctl["sched_base_slice_ns"] != 3000000 || sc.Sysctl["sched_rr_timeslice_ms"] != 100 {
		t.Errorf("sysctl = %v", sc.Sysctl)
	}
	if sc.Duration != 250*sched.Millisecond || sc.Seed != 42 || sc.Topology != "smp-4" || sc.Name != "my run" || !sc.PI {
		t.Errorf("duration %d seed %d topology %s name %q", sc.Duration, sc.Seed, sc.Topology, sc.Name)
	}
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Profile.HZ != 1000 || cfg.Profile.Preempt.String() != "full" || cfg.Duration != 250*sched.Millisecond || cfg.Seed != 42 || cfg.Machine.Name != "smp-4" {
		t.Errorf("Build ignored an override: %+v", cfg.Profile)
	}
	if f, _ := sched.FeatureByName("WAKEUP_PREEMPTION"); cfg.Profile.Features.Has(f) {
		t.Error("features.WAKEUP_PREEMPTION=off not applied")
	}
	if f, _ := sched.FeatureByName("GENTLE_FAIR_SLEEPERS"); !cfg.Profile.Features.Has(f) {
		t.Error("features.GENTLE_FAIR_SLEEPERS=on not applied")
	}
	if v, _ := cfg.Sysctls.Get("sched_latency_ns"); v != 24000000 {
		t.Errorf("sysctl.sched_latency_ns = %d", v)
	}
	roundTrip(t, sc)
}

// TestSetEveryKey sets every key `schedplay keys` lists, with a value in range.
func TestSetEveryKey(t *testing.T) {
	sc := mustPreset(t, "demo/nice-shares")
	for _, line := range Keys() {
		key, _, _ := strings.Cut(line, "\t")
		val := map[string]string{"topology": "smp-2", "duration": "1s", "seed": "3", "kernel.version": "v6.6",
			"kernel.hz": "300", "kernel.preempt": "lazy", "kernel.tick_offset": "1ms", "pi": "true", "name": "other"}[key]
		switch {
		case strings.HasPrefix(key, "features."):
			val = "off"
		case key == "hw.cstates":
			val = "off"
		case strings.HasPrefix(key, "hw."):
			val = "0"
		case key == "tasks.NAME.instances":
			key, val = "tasks.nice0.instances", "2"
		case key == "tasks.NAME.taskgroup":
			key, val = "tasks.nice0.taskgroup", "/A"
		case key == "tasks.NAME.autogroup_nice":
			key, val = "tasks.nice0.autogroup_nice", "5"
		case key == "tasks.NAME.cpu_clock_poll":
			key, val = "tasks.nice0.cpu_clock_poll", "2us"
		case key == "kernel.autogroup" || key == "kernel.rt_group_sched":
			val = "off"
		case strings.HasPrefix(key, "cgroups./PATH."):
			file := strings.TrimPrefix(key, "cgroups./PATH.")
			key = "cgroups./S" + strings.ReplaceAll(file, ".", "_") + "." + file
			val = map[string]string{"cpu.max": "50000 100000", "cpuset.cpus": "0", "cpuset.cpus.partition": "member", "cpu.weight.nice": "-3", "cpu.idle": "1"}[file]
			if val == "" {
				val = "1000"
			}
		case key == "workloads.NAME.PARAM":
			// The generic line stands for every generator parameter
			// (workloads_test.go sets each of them).
			key, val = "workloads.w.kind", "hog"
		case key == "workloads.NAME.taskgroup":
			key, val = "workloads.w.taskgroup", "/W"
		case strings.HasPrefix(key, "sysctl."):
			for _, k := range sched.SysctlKeys() {
				if "sysctl."+k.Name == key {
					val = strconv.FormatInt(k.Max, 10)
				}
			}
		}
		if val == "" {
			t.Fatalf("no test value for key %q", key)
		}
		if err := sc.Set(key + "=" + val); err != nil {
			t.Errorf("Set(%s=%s) = %v", key, val, err)
		}
	}
}

func TestSetErrors(t *testing.T) {
	for _, tc := range []struct{ kv, path, msg string }{
		{"kernel.hz", "", "want KEY=VALUE"},
		{"=1", "", "want KEY=VALUE"},
		{"bogus=1", "bogus", "unknown key"},
		{"kernel=v6.18", "kernel", "unknown key"},
		{"kernel.nope=1", "kernel.nope", "unknown key"},
		{"features=on", "features", "unknown key"},
		{"features.=on", "features.", "unknown key"},
		{"tasks[0].nice=1", "tasks[0].nice", "unknown key"},
		{"tasks.nope.instances=2", "tasks.nope.instances", "no task group"},
		{"tasks.nice0.instances=0", "tasks.nice0.instances", "want a positive integer"},
		{"version=2", "version", "unknown key"},
		{"kernel.hz=123", "kernel.hz", "want 100, 250, 300 or 1000"},
		{"kernel.hz=fast", "kernel.hz", "want 100, 250, 300 or 1000"},
		{"kernel.preempt=rt", "kernel.preempt", "want one of none, voluntary, full, lazy"},
		{"features.NOPE=on", "features.NOPE", "unknown feature"},
		{"features.place_lag=on", "features.place_lag", "unknown feature"},
		{"features.PLACE_LAG=maybe", "features.PLACE_LAG", `want "on" or "off"`},
		{"features.PLACE_LAG=", "features.PLACE_LAG", `want "on" or "off"`},
		{"sysctl.sched_nope=1", "sysctl.sched_nope", "unknown sysctl"},
		{"sysctl.sched_base_slice_ns=3ms", "sysctl.sched_base_slice_ns", "want an integer"},
		{"sysctl.sched_base_slice_ns=1", "sysctl.sched_base_slice_ns", "out of range"},
		{"sysctl.sched_child_runs_first=2", "sysctl.sched_child_runs_first", "out of range 0..1"},
		{"duration=10", "duration", "want a non-negative duration"},
		{"duration=-1s", "duration", "want a non-negative duration"},
		{"duration=1e3s", "duration", "want a non-negative duration"},
		{"seed=-1", "seed", "want a non-negative integer"},
		{"seed=1.5", "seed", "want a non-negative integer"},
		{"seed=18446744073709551616", "seed", "want a non-negative integer"},
	} {
		sc := mustPreset(t, "demo/nice-shares")
		before := string(sc.Encode())
		err := sc.Set(tc.kv)
		if err == nil {
			t.Errorf("Set(%q) succeeded", tc.kv)
			continue
		}
		e := asError(t, tc.kv, err)
		if e.Path != tc.path || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("Set(%q) = path %q msg %q; want path %q msg containing %q", tc.kv, e.Path, e.Msg, tc.path, tc.msg)
		}
		if after := string(sc.Encode()); after != before {
			t.Errorf("failed Set(%q) changed the scenario:\n%s", tc.kv, after)
		}
	}
}

// TestSetThenBuild checks values that Set stores as given and Build
// rejects with the key's path.
func TestSetThenBuild(t *testing.T) {
	for _, tc := range []struct{ kv, path string }{
		{"topology=smp-3", "topology"},
		{"kernel.version=v9.9", "kernel.version"},
		{"duration=0s", "duration"},
		{"duration=2h", "duration"},
		{"hw.smt=maybe", "hw.smt"},
		{"topology=smp-1", "tasks[0].cpus[0]"}, // the tasks are pinned to CPU 2
	} {
		sc := mustPreset(t, "demo/sched-idle-wakeup-cfs") // pinned to CPU 2
		if err := sc.Set(tc.kv); err != nil {
			t.Fatalf("Set(%q) = %v", tc.kv, err)
		}
		_, err := sc.Build(sched.DefaultLimits())
		if err == nil {
			t.Errorf("Build after Set(%q) succeeded", tc.kv)
			continue
		}
		if e := asError(t, tc.kv, err); e.Path != tc.path {
			t.Errorf("Build after Set(%q): path %q, want %q (%v)", tc.kv, e.Path, tc.path, err)
		}
	}
}

// TestSetLargeSeedEncodes checks that a seed Set accepts survives Encode and
// Decode (the browser shares scenarios after -set style edits).
func TestSetLargeSeedEncodes(t *testing.T) {
	sc := mustPreset(t, "demo/nice-shares")
	if err := sc.Set("seed=4294967296"); err != nil {
		t.Fatal(err)
	}
	roundTrip(t, sc)
	if _, err := DecodeURL("#s=" + EncodeURLPayload(sc)); err != nil {
		t.Errorf("DecodeURL of its share URL: %v", err)
	}
}

// TestSetOnCloneLeavesOriginal sets one key of every family on a clone and
// checks the original's encoding did not move: compare, sweep and
// experiment variants all clone one decoded scenario and Set on the copies.
func TestSetOnCloneLeavesOriginal(t *testing.T) {
	for _, preset := range []string{"demo/cyclictest-hackbench", "demo/nice-shares"} {
		orig := mustPreset(t, preset)
		task := ""
		if len(orig.Tasks) > 0 {
			task = orig.Tasks[0].Name
		}
		before := string(orig.Encode())
		for _, kv := range []string{
			"kernel.version=v5.8", "kernel.hz=1000", "kernel.preempt=full", "kernel.tick_offset=1ms",
			"features.PLACE_LAG=off", "sysctl.sched_latency_ns=24000000", "hw.smt=off",
			"duration=250ms", "seed=42", "topology=smp-64", "name=other", "pi=true",
			"tasks." + task + ".instances=3",
			"workloads.ct.interval=200us", "workloads.hb.groups=3", "workloads.extra.kind=hog",
		} {
			c := orig.Clone()
			if err := c.Set(kv); err != nil {
				if strings.HasPrefix(kv, "tasks..") || strings.HasPrefix(kv, "workloads.") && len(orig.Workloads) == 0 {
					continue // the preset has no such group
				}
				t.Fatalf("%s: Set(%q) = %v", preset, kv, err)
			}
			if got := string(orig.Encode()); got != before {
				t.Errorf("%s: Set(%q) on a clone changed the original", preset, kv)
			}
			if string(c.Encode()) == before {
				t.Errorf("%s: Set(%q) did not change the clone (the test checks nothing)", preset, kv)
			}
		}
	}
}
