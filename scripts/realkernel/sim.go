//go:build linux

package main

// The simulator column: run the case's scenario through the schedplay CLI and read
// its metrics JSON (schema schedplay.metrics/v1, docs in interfaces.md).

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
	Schema     string    `json:"schema"`
	Kernel     string    `json:"kernel"`
	DurationNS int64     `json:"duration_ns"`
	Tasks      []simTask `json:"tasks"`
}

type simTask struct {
	Name                string `json:"name"`
	RuntimeNS           int64  `json:"runtime_ns"`
	WaitNS              int64  `json:"wait_ns"`
	Switches            int64  `json:"switches"`
	InvoluntarySwitches int64  `json:"involuntary_switches"`
	Migrations          int64  `json:"migrations"`
}

// simArgs is the command line that runs a case file (relative to the repo root).
func simArgs(caseFile string) []string {
	return []string{"go", "run", "./core/cmd/schedplay", "run", "-o", "json", caseFile}
}

// runSim runs the simulator from the repository root. Any failure (including the
// CLI not existing yet) is returned as an error for the report, not fatal.
func runSim(ctx context.Context, root, caseFile string) (simMetrics, error) {
	var m simMetrics
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	args := simArgs(caseFile)
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
