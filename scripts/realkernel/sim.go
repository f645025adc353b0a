//go:build linux

package main

// The simulator column: run the case's scenario through the schedplay CLI and read
// its metrics JSON (schema schedplay.metrics/v1, docs/cli.md "The contract").

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// simMetrics is the part of schedplay.metrics/v1 the report uses.
type simMetrics struct {
	Schema     string      `json:"schema"`
	Kernel     string      `json:"kernel"`
	DurationNS int64       `json:"duration_ns"`
	Tasks      []simTask   `json:"tasks"`
	Cgroups    []simCgroup `json:"cgroups"`
}

// simCgroup is a cgroup of the metrics (cpu.stat fields).
type simCgroup struct {
	Path        string `json:"path"`
	UsageNS     int64  `json:"usage_ns"`
	NrPeriods   int64  `json:"nr_periods"`
	NrThrottled int64  `json:"nr_throttled"`
	ThrottledNS int64  `json:"throttled_ns"`
	NrBursts    int64  `json:"nr_bursts"`
	BurstNS     int64  `json:"burst_ns"`
}

type simTask struct {
	Name                string `json:"name"`
	RuntimeNS           int64  `json:"runtime_ns"`
	WaitNS              int64  `json:"wait_ns"`
	Switches            int64  `json:"switches"`
	InvoluntarySwitches int64  `json:"involuntary_switches"`
	Migrations          int64  `json:"migrations"`
}

// simSeeds is how many seeds the simulator column averages over. The seed
// places the jiffies grid relative to the workload's start (a real run
// starts at an arbitrary point between two ticks), which decides, for
// example, whether a periodic task's wakeups meet a fresh or an expired
// slice of the hog; averaging over seeds is the simulator's counterpart of
// the real run's arbitrary phase.
const simSeeds = 8

// simArgs is the command line that runs a case file (relative to the repo root).
func simArgs(caseFile string, seed int) []string {
	return []string{"go", "run", "./core/cmd/schedplay", "run", "-o", "json", "-seed", fmt.Sprint(seed), caseFile}
}

// runSim runs the simulator from the repository root for seeds 1..simSeeds
// and returns the per-task means and every seed's metrics. Any failure
// (including the CLI not existing yet) is returned as an error for the
// report, not fatal.
func runSim(ctx context.Context, root, caseFile string) (simMetrics, []simMetrics, error) {
	var runs []simMetrics
	for seed := 1; seed <= simSeeds; seed++ {
		m, err := runSimSeed(ctx, root, caseFile, seed)
		if err != nil {
			return simMetrics{}, nil, err
		}
		runs = append(runs, m)
	}
	mean, err := meanMetrics(runs)
	return mean, runs, err
}

// meanMetrics averages the runs of several seeds task by task (by name, in
// the first run's order) and cgroup by cgroup, rounding to the nearest unit.
func meanMetrics(runs []simMetrics) (simMetrics, error) {
	if len(runs) == 0 {
		return simMetrics{}, fmt.Errorf("no simulator runs")
	}
	mean := runs[0]
	mean.Tasks = append([]simTask(nil), runs[0].Tasks...)
	mean.Cgroups = append([]simCgroup(nil), runs[0].Cgroups...)
	for k, m := range runs[1:] {
		seed := k + 2
		if len(m.Cgroups) != len(mean.Cgroups) {
			return mean, fmt.Errorf("seed %d: %d cgroups, seed 1 had %d", seed, len(m.Cgroups), len(mean.Cgroups))
		}
		for i, g := range m.Cgroups {
			a := &mean.Cgroups[i]
			a.UsageNS += g.UsageNS
			a.NrPeriods += g.NrPeriods
			a.NrThrottled += g.NrThrottled
			a.ThrottledNS += g.ThrottledNS
			a.NrBursts += g.NrBursts
			a.BurstNS += g.BurstNS
		}
		for i := range mean.Tasks {
			t, ok := m.task(mean.Tasks[i].Name)
			if !ok {
				return mean, fmt.Errorf("seed %d: task %s missing", seed, mean.Tasks[i].Name)
			}
			a := &mean.Tasks[i]
			a.RuntimeNS += t.RuntimeNS
			a.WaitNS += t.WaitNS
			a.Switches += t.Switches
			a.InvoluntarySwitches += t.InvoluntarySwitches
			a.Migrations += t.Migrations
		}
	}
	n := int64(len(runs))
	div := func(v int64) int64 { return (v + n/2) / n }
	for i := range mean.Cgroups {
		a := &mean.Cgroups[i]
		a.UsageNS, a.NrPeriods, a.NrThrottled = div(a.UsageNS), div(a.NrPeriods), div(a.NrThrottled)
		a.ThrottledNS, a.NrBursts, a.BurstNS = div(a.ThrottledNS), div(a.NrBursts), div(a.BurstNS)
	}
	for i := range mean.Tasks {
		a := &mean.Tasks[i]
		a.RuntimeNS, a.WaitNS, a.Switches = div(a.RuntimeNS), div(a.WaitNS), div(a.Switches)
		a.InvoluntarySwitches, a.Migrations = div(a.InvoluntarySwitches), div(a.Migrations)
	}
	return mean, nil
}

// runSimSeed runs one seed of a case file.
func runSimSeed(ctx context.Context, root, caseFile string, seed int) (simMetrics, error) {
	var m simMetrics
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	args := simArgs(caseFile, seed)
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = root
	// Own process group, so that cancelling also stops the binary `go run` started.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if lines := strings.Split(msg, "\n"); len(lines) > 3 {
			msg = strings.Join(lines[:3], "\n") + "\n..."
		}
		return m, fmt.Errorf("%s: %v: %s", strings.Join(args, " "), err, msg)
	}
	if err := json.Unmarshal(out, &m); err != nil {
		return m, fmt.Errorf("%s: metrics JSON: %v", strings.Join(args, " "), err)
	}
	if m.Schema != "schedplay.metrics/v1" {
		return m, fmt.Errorf("%s: schema %q, want schedplay.metrics/v1", strings.Join(args, " "), m.Schema)
	}
	if m.DurationNS <= 0 {
		return m, fmt.Errorf("%s: duration_ns %d", strings.Join(args, " "), m.DurationNS)
	}
	return m, nil
}

// task returns the metrics of the named task.
func (m simMetrics) task(name string) (simTask, bool) {
	for _, t := range m.Tasks {
		if t.Name == name {
			return t, true
		}
	}
	return simTask{}, false
}
