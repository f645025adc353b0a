//go:build linux

package main

// What machine and kernel the measurements come from: kernel release, HZ and
// preemption model (the simulator profile must match them), CPU model, base slice.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// machineInfo describes where the measurements were taken.
type machineInfo struct {
	Date          string `json:"date"`
	Kernel        string `json:"kernel"`         // uname -r
	KernelBuild   string `json:"kernel_build"`   // uname -v
	HZ            int    `json:"hz"`             // CONFIG_HZ, 0 if unknown
	PreemptConfig string `json:"preempt_config"` // CONFIG_PREEMPT* lines, summarized
	Preempt       string `json:"preempt"`        // none/voluntary/full/lazy/rt in effect
	PreemptSource string `json:"preempt_source"`
	CPUModel      string `json:"cpu_model"`
	CPUs          int    `json:"cpus"`
	Hypervisor    bool   `json:"hypervisor"`
	BaseSliceNS   int64  `json:"base_slice_ns"` // se.slice of a default task
	Autogroup     string `json:"autogroup"`
	Schedstats    string `json:"schedstats"`
	LoadAvg       string `json:"loadavg_before"`
}

func readTrim(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// kernelConfig returns /proc/config.gz as text ("" if absent).
func kernelConfig() string {
	f, err := os.Open("/proc/config.gz")
	if err != nil {
		return ""
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return ""
	}
	b, _ := io.ReadAll(z)
	return string(b)
}

// gatherMachineInfo collects machineInfo; schedstats is filled in by the caller.
func gatherMachineInfo() machineInfo {
	m := machineInfo{
		Date:        time.Now().UTC().Format(time.RFC3339),
		Kernel:      readTrim("/proc/sys/kernel/osrelease"),
		KernelBuild: readTrim("/proc/sys/kernel/version"),
		CPUs:        runtime.NumCPU(),
		Autogroup:   readTrim("/proc/sys/kernel/sched_autogroup_enabled"),
		LoadAvg:     readTrim("/proc/loadavg"),
	}
	cfg := kernelConfig()
	if mm := regexp.MustCompile(`(?m)^CONFIG_HZ=(\d+)$`).FindStringSubmatch(cfg); mm != nil {
		fmt.Sscan(mm[1], &m.HZ)
	}
	var pc []string
	for _, line := range strings.Split(cfg, "\n") {
		for _, opt := range []string{"NONE", "VOLUNTARY", "PREEMPT", "LAZY", "RT", "DYNAMIC"} {
			if line == "CONFIG_PREEMPT_"+opt+"=y" || (opt == "PREEMPT" && line == "CONFIG_PREEMPT=y") {
				pc = append(pc, strings.TrimSuffix(strings.TrimPrefix(line, "CONFIG_"), "=y"))
			}
		}
	}
	m.PreemptConfig = strings.Join(pc, " ")
	m.Preempt, m.PreemptSource = preemptModel(cfg)
	if cpu := readTrim("/proc/cpuinfo"); cpu != "" {
		sc := bufio.NewScanner(strings.NewReader(cpu))
		for sc.Scan() {
			k, v, _ := strings.Cut(sc.Text(), ":")
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if k == "model name" && m.CPUModel == "" {
				m.CPUModel = v
			}
			if k == "flags" && strings.Contains(" "+v+" ", " hypervisor ") {
				m.Hypervisor = true
			}
		}
	}
	if c, err := parseSched(readTrim("/proc/self/sched")); err == nil {
		m.BaseSliceNS = c.SliceNS
	}
	return m
}

// preemptModel finds the preemption model in effect, most direct source first:
// debugfs sched/preempt (PREEMPT_DYNAMIC; the current one is in parentheses), the
// boot log "Dynamic Preempt: X", preempt= on the command line, then the Kconfig
// choice. Kernel lockdown may forbid debugfs reads even for root.
func preemptModel(cfg string) (model, source string) {
	if b, err := readDebugfs("sched/preempt"); err == nil {
		if mm := regexp.MustCompile(`\((\w+)\)`).FindSubmatch(b); mm != nil {
			return string(mm[1]), "/sys/kernel/debug/sched/preempt"
		}
	}
	if out, err := exec.Command("dmesg").Output(); err == nil {
		if mm := regexp.MustCompile(`Dynamic Preempt: (\w+)`).FindSubmatch(out); mm != nil {
			return string(mm[1]), "boot log (dmesg: \"Dynamic Preempt: " + string(mm[1]) + "\")"
		}
	}
	if mm := regexp.MustCompile(`(?:^| )preempt=(\w+)`).FindStringSubmatch(readTrim("/proc/cmdline")); mm != nil {
		return mm[1], "kernel command line"
	}
	for _, c := range []struct{ opt, model string }{
		{"CONFIG_PREEMPT_RT=y", "rt"}, {"CONFIG_PREEMPT_LAZY=y", "lazy"},
		{"CONFIG_PREEMPT=y", "full"}, {"CONFIG_PREEMPT_VOLUNTARY=y", "voluntary"},
		{"CONFIG_PREEMPT_NONE=y", "none"},
	} {
		if strings.Contains("\n"+cfg+"\n", "\n"+c.opt+"\n") {
			return c.model, "/proc/config.gz (" + c.opt + ")"
		}
	}
	return "unknown", "no source readable"
}

// readDebugfs reads a file under /sys/kernel/debug, mounting debugfs for the read
// if it is not mounted (and unmounting it again).
func readDebugfs(name string) ([]byte, error) {
	const dir = "/sys/kernel/debug"
	path := dir + "/" + name
	if _, err := os.Stat(path); err != nil {
		if err := syscall.Mount("debugfs", dir, "debugfs", 0, ""); err != nil {
			return nil, err
		}
		defer syscall.Unmount(dir, 0)
	}
	b, err := os.ReadFile(path)
	return bytes.TrimSpace(b), err
}

// enableSchedstats turns on kernel.sched_schedstats (so /proc/PID/sched shows
// wait_sum and wait_count) and returns a function restoring the old value, plus a
// description for the report.
func enableSchedstats() (restore func(), state string) {
	const path = "/proc/sys/kernel/sched_schedstats"
	old, err := os.ReadFile(path)
	if err != nil {
		return func() {}, "unavailable (no " + path + "; CONFIG_SCHEDSTATS off?): wait time from /proc/PID/schedstat run_delay only"
	}
	if strings.TrimSpace(string(old)) == "1" {
		return func() {}, "already enabled"
	}
	if err := os.WriteFile(path, []byte("1"), 0); err != nil {
		return func() {}, "could not enable: " + err.Error()
	}
	return func() { os.WriteFile(path, old, 0) }, "enabled for the run, then restored to " + strings.TrimSpace(string(old))
}
