//go:build linux

package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestGenRunSleep(t *testing.T) {
	a, b := genRunSleep(7, 1000, 3000, 4000, 12000), genRunSleep(7, 1000, 3000, 4000, 12000)
	if len(a) != runSleepPairs {
		t.Fatalf("%d pairs, want %d", len(a), runSleepPairs)
	}
	distinct := map[runSleep]bool{}
	for i, s := range a {
		if s != b[i] {
			t.Fatalf("pair %d: %v then %v for the same seed", i, s, b[i])
		}
		if s.RunUS < 1000 || s.RunUS > 3000 || s.SleepUS < 4000 || s.SleepUS > 12000 || s.RunUS%100 != 0 || s.SleepUS%100 != 0 {
			t.Errorf("pair %d out of range or off the 100us grid: %+v", i, s)
		}
		distinct[s] = true
	}
	if len(distinct) < runSleepPairs/2 {
		t.Errorf("only %d distinct pairs of %d: not random-ish", len(distinct), runSleepPairs)
	}
	if c := genRunSleep(8, 1000, 3000, 4000, 12000); c[0] == a[0] && c[1] == a[1] && c[2] == a[2] {
		t.Errorf("seeds 7 and 8 start alike: %v", c[:3])
	}
	if d := dutyPct([]runSleep{{1000, 3000}, {3000, 3000}}); d != 40 {
		t.Errorf("dutyPct = %v, want 40", d)
	}
}

// The scenario a mix writes runs the same program as the worker's arguments.
func TestMixedScenarioAndWorker(t *testing.T) {
	cs, err := selectCases("mix-near")
	if err != nil {
		t.Fatal(err)
	}
	c := cs[0]
	if !c.mixed() {
		t.Fatal("mix-near is not mixed")
	}
	b, err := c.scenarioJSON(10e9, 250, "none", true)
	if err != nil {
		t.Fatal(err)
	}
	var sc struct {
		Tasks []struct {
			Name      string
			CPUs      []int
			Taskgroup string
			Program   []map[string]any
		}
		Cgroups map[string]any
	}
	if err := json.Unmarshal(b, &sc); err != nil {
		t.Fatal(err)
	}
	// /mix lies under the scratch parent with its weight, as on the machine.
	nested := "/" + scratchParent + mixGroup
	parent, _ := sc.Cgroups["/"+scratchParent].(map[string]any)
	if _, ok := sc.Cgroups[nested]; !ok || len(sc.Cgroups) != 2 || parent["cpu.shares"] != "262144" || len(sc.Tasks) != len(c.Tasks) {
		t.Fatalf("scenario: cgroups %v, %d task groups", sc.Cgroups, len(sc.Tasks))
	}
	for i, st := range sc.Tasks {
		spec := c.Tasks[i]
		if st.Taskgroup != nested || len(st.CPUs) != 2 {
			t.Errorf("%s: taskgroup %q cpus %v, want %s on both CPUs", st.Name, st.Taskgroup, st.CPUs, nested)
		}
		args := spec.workerArgs()
		if len(spec.Steps) == 0 {
			continue
		}
		if args[0] != "runsleep" || len(args) != 1+2*len(spec.Steps) || len(st.Program) != 2*len(spec.Steps) {
			t.Fatalf("%s: worker args %v, program %v", st.Name, args, st.Program)
		}
		for k := range spec.Steps {
			run, sleep := st.Program[2*k]["run"], st.Program[2*k+1]["sleep"]
			want := []string{args[1+2*k] + "µs", args[2+2*k] + "µs"}
			got := []string{run.(string), sleep.(string)}
			for j := range got {
				if !sameDuration(got[j], want[j]) {
					t.Errorf("%s step %d: scenario %v, worker %v", st.Name, k, got, want)
				}
			}
		}
	}
	// Hogs get what the fixed demands leave of two CPUs.
	shares := c.expectedShares()
	rest := 200 - shares["periodic-1"] - shares["rsa-2"] - shares["rsb-3"]
	if got := shares["hog-0"]; got != min(100, rest) {
		t.Errorf("hog-0 ideal %.1f, want %.1f", got, min(100, rest))
	}
}

// sameDuration compares "2.5ms"-style and "2500µs" durations via time parsing.
func sameDuration(a, b string) bool {
	pa, err1 := parseGoDuration(a)
	pb, err2 := parseGoDuration(b)
	return err1 == nil && err2 == nil && pa == pb
}

func TestSpreadOf(t *testing.T) {
	s := spreadOf([]float64{3, math.NaN(), 1, 2})
	if s.N != 3 || s.Mean != 2 || s.Min != 1 || s.Max != 3 {
		t.Errorf("spreadOf = %+v", s)
	}
	if c := s.cell(1); c != "2.0 (1.0-3.0)" {
		t.Errorf("cell = %q", c)
	}
	if c := spreadOf([]float64{math.NaN()}).cell(0); c != "n/a" {
		t.Errorf("cell of nothing = %q", c)
	}
	if c := spreadOf([]float64{4.25}).cell(1); c != "4.2" && c != "4.3" {
		t.Errorf("cell of one = %q", c)
	}
}

// Wait per slice from two captured /proc/PID/schedstat lines of a run/sleep
// worker (runsleep 2000 6000 1000 9000, one second apart, loaded machine).
func TestRealSpreadsFromSchedstat(t *testing.T) {
	var start, end schedCounters
	if err := parseSchedstat(readTestdata(t, "schedstat-rs-start.txt"), &start); err != nil {
		t.Fatal(err)
	}
	if err := parseSchedstat(readTestdata(t, "schedstat-rs-end.txt"), &end); err != nil {
		t.Fatal(err)
	}
	d := end.sub(start)
	if d.RunDelayNS != 363000447-113186891 || d.Timeslices != 141-29 {
		t.Fatalf("delta run_delay %d pcount %d", d.RunDelayNS, d.Timeslices)
	}
	other := d
	other.RunDelayNS, other.Timeslices, other.Migrations = 1_000_000, 100, 4
	rs := realSpreads([]realTask{{SharePct: 12, Delta: d}, {SharePct: 14, Delta: other}})
	w1 := float64(d.RunDelayNS) / float64(d.Timeslices) / 1e3 // about 2230 us
	if rs.WaitSliceUS.N != 2 || math.Abs(rs.WaitSliceUS.Max-w1) > 1e-9 || rs.WaitSliceUS.Min != 10 {
		t.Errorf("wait per slice %+v, want min 10 max %.1f", rs.WaitSliceUS, w1)
	}
	if rs.SharePct.Mean != 13 || rs.Migrations.Max != 4 {
		t.Errorf("share %+v migrations %+v", rs.SharePct, rs.Migrations)
	}
	m := meanReal([]realTask{{SharePct: 12, Delta: d}, {SharePct: 14, Delta: other}})
	if m.SharePct != 13 || m.Delta.Timeslices != (d.Timeslices+100+1)/2 {
		t.Errorf("meanReal: %+v", m)
	}
	if !math.IsNaN(perSliceUS(5, 0)) {
		t.Error("perSliceUS without slices is a number")
	}
}

// The simulator's seeds: their mean and spread, from fixed metrics.
func TestSimSeedsMeanAndSpread(t *testing.T) {
	seed := func(run, wait, sw, mig int64) simMetrics {
		return simMetrics{Schema: "schedplay.metrics/v1", DurationNS: 1e9,
			Tasks: []simTask{{Name: "hog-0", RuntimeNS: run, WaitNS: wait, Switches: sw, InvoluntarySwitches: sw, Migrations: mig}}}
	}
	runs := []simMetrics{seed(600e6, 400e6, 200, 1), seed(700e6, 300e6, 100, 3)}
	mean, err := meanMetrics(runs)
	if err != nil {
		t.Fatal(err)
	}
	if h := mean.Tasks[0]; h.RuntimeNS != 650e6 || h.Migrations != 2 || h.Switches != 150 {
		t.Errorf("mean %+v", h)
	}
	ss := simSpreads([]simTask{runs[0].Tasks[0], runs[1].Tasks[0]}, 1e9)
	if ss.SharePct.Min != 60 || ss.SharePct.Max != 70 || ss.WaitSliceUS.Min != 2000 || ss.WaitSliceUS.Max != 3000 {
		t.Errorf("spreads %+v", ss)
	}
	runs[1].Tasks[0].Name = "other"
	if _, err := meanMetrics(runs); err == nil || !strings.Contains(err.Error(), "seed 2: task hog-0 missing") {
		t.Errorf("missing task: %v", err)
	}
}

// A mixed case renders one row per quantity with the real, sim and before spreads.
func TestMarkdownMixed(t *testing.T) {
	d := schedCounters{RunDelayNS: 2e6, Timeslices: 4, Migrations: 3, Switches: 4, Involuntary: 1}
	d2 := d
	d2.RunDelayNS, d2.Migrations = 6e6, 5
	st := simTask{Name: "rs-0", RuntimeNS: 250e6, WaitNS: 1e6, Switches: 2, Migrations: 1}
	cr := caseResult{ID: "mix-x", Description: "X.", DurationNS: 1e9, CPUs: 2, Repeats: 2, SimDurationNS: 1e9,
		CaseFile: "scripts/realkernel/cases/mix-x.json", BeforeRev: "abc",
		Tasks: []taskResult{{Name: "rs-0", Workload: "run/sleep", IdealPct: 25,
			RealRuns: []realTask{{SharePct: 20, Delta: d}, {SharePct: 30, Delta: d2}},
			SimSeeds: []simTask{st}, BeforeSeeds: []simTask{st, st}}}}
	cr.Tasks[0].Real = meanReal(cr.Tasks[0].RealRuns)
	var b strings.Builder
	cr.markdown(&b, 250)
	out := b.String()
	for _, want := range []string{
		"| rs-0 | run/sleep | CPU share % | 25.0 (20.0-30.0) | 25.0 | 25.0 (25.0-25.0) |",
		"|  |  | wait per slice us | 1000 (500-1500) | 500 | 500 (500-500) |",
		"|  |  | migrations | 4 (3-5) | 1 | 1 (1-1) |",
		"commit abc",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
}

func parseGoDuration(s string) (int64, error) {
	d, err := time.ParseDuration(s)
	return int64(d), err
}

// TestMixNestedParentAndBefore: the mix's scratch parent takes the
// hierarchy's largest weight on cgroup v2 too, the cgroup cases keep their
// groups at the root, and the before column's copy keeps the nesting.
func TestMixNestedParentAndBefore(t *testing.T) {
	cs, err := selectCases("mix-over,cg-nested")
	if err != nil {
		t.Fatal(err)
	}
	v2, err := cs[0].scenarioJSON(10e9, 250, "none", false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(v2), `"/schedplay-realkernel": {
      "cpu.weight": "10000"
    }`) {
		t.Errorf("mix-over on cgroup v2: no cpu.weight 10000 parent:\n%s", v2)
	}
	cg, err := cs[1].scenarioJSON(10e9, 250, "none", true)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(cg), scratchParent) {
		t.Errorf("cg-nested got the scratch parent:\n%s", cg)
	}
	dir := t.TempDir()
	v1, err := cs[0].scenarioJSON(10e9, 250, "none", true)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "mix-over.json")
	if err := os.WriteFile(file, v1, 0o644); err != nil {
		t.Fatal(err)
	}
	before, err := beforeCaseFile(file, dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(before)
	if err != nil {
		t.Fatal(err)
	}
	var sc scenario
	if err := json.Unmarshal(b, &sc); err != nil {
		t.Fatal(err)
	}
	if sc.Cgroups["/"+scratchParent]["cpu.shares"] != "262144" || sc.Tasks[0].Taskgroup != "/"+scratchParent+mixGroup || sc.Tasks[1].CPUClockPoll != "" {
		t.Errorf("before copy: cgroups %v, taskgroup %q, poll %q", sc.Cgroups, sc.Tasks[0].Taskgroup, sc.Tasks[1].CPUClockPoll)
	}
}
