//go:build browser

package browsertest

// Where the machine's CPU went during a timed batch (issue 20, the pool's
// scaling): each thread's CPU time from /proc (utime+stime of
// /proc/PID/task/TID/stat) over the browser's processes, grouped by
// process type (Chromium's --type flag) and, in the renderer, by thread
// (the Web Workers run on "DedicatedWorker" threads, the page on the
// renderer's main thread), beside the whole machine's busy time
// (/proc/stat), so that a 2-worker batch's shortfall from 2x shows how
// much of the 2 cores the page, the browser and everything else took.
// Linux only: elsewhere a sample is empty and the breakdown says so.

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// clockTick is USER_HZ, the unit of /proc's CPU times (100 on every Linux
// the tests run on).
const clockTick = 100

// cpuSample is the CPU seconds per group at one instant, and the
// machine's busy seconds over all its CPUs.
type cpuSample struct {
	at      time.Time
	groups  map[string]float64
	machine float64
}

// sampleCPU reads every browser thread's CPU time.
func sampleCPU() cpuSample {
	s := cpuSample{at: time.Now(), groups: map[string]float64{}, machine: machineBusy()}
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		cmd, err := os.ReadFile(filepath.Join(p, "cmdline"))
		if err != nil || !isBrowser(cmd) {
			continue
		}
		kind := procType(cmd)
		tasks, _ := filepath.Glob(filepath.Join(p, "task", "[0-9]*"))
		for _, t := range tasks {
			name, secs, ok := threadCPU(t)
			if !ok {
				continue
			}
			s.groups[threadGroup(kind, name)] += secs
		}
	}
	return s
}

// isBrowser reports whether a process's command line is Chromium's.
func isBrowser(cmdline []byte) bool {
	argv0, _, _ := strings.Cut(strings.ReplaceAll(string(cmdline), "\x00", " "), " ")
	b := filepath.Base(argv0)
	return strings.Contains(b, "chrom") || strings.Contains(b, "headless_shell")
}

// procType is Chromium's --type of a process ("browser" without one);
// Chromium rewrites its children's command lines as one space-separated
// string.
func procType(cmdline []byte) string {
	for _, a := range strings.Fields(strings.ReplaceAll(string(cmdline), "\x00", " ")) {
		if v, ok := strings.CutPrefix(a, "--type="); ok {
			return v
		}
	}
	return "browser"
}

// threadGroup names the row a thread's time goes to.
func threadGroup(kind, name string) string {
	if kind != "renderer" {
		return kind
	}
	switch {
	case strings.HasPrefix(name, "DedicatedWorker"):
		return "renderer: Web Workers"
	case name == "CrRendererMain" || strings.HasPrefix(name, "chrom") || strings.HasPrefix(name, "headless"):
		return "renderer: page (main thread)"
	}
	return "renderer: other threads"
}

// threadCPU is a thread's name and CPU seconds from its stat file.
func threadCPU(dir string) (string, float64, bool) {
	b, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return "", 0, false
	}
	s := string(b)
	open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || close < open {
		return "", 0, false
	}
	f := strings.Fields(s[close+1:]) // from field 3 (state) on
	if len(f) < 13 {
		return "", 0, false
	}
	u, err1 := strconv.ParseFloat(f[11], 64)
	k, err2 := strconv.ParseFloat(f[12], 64)
	if err1 != nil || err2 != nil {
		return "", 0, false
	}
	return s[open+1 : close], (u + k) / clockTick, true
}

// machineBusy is the machine's non-idle CPU seconds over all CPUs.
func machineBusy() float64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 8 || f[0] != "cpu" {
		return 0
	}
	busy := 0.0
	for i, v := range f[1:] {
		n, _ := strconv.ParseFloat(v, 64)
		if i != 3 && i != 4 { // idle, iowait
			busy += n
		}
	}
	return busy / clockTick
}

// cpuUse is the CPU seconds each group used between two samples.
func cpuUse(a, b cpuSample) (map[string]float64, float64, time.Duration) {
	d := map[string]float64{}
	for k, v := range b.groups {
		if x := v - a.groups[k]; x > 0 {
			d[k] = x
		}
	}
	return d, b.machine - a.machine, b.at.Sub(a.at)
}

// cpuRow is a row of the CPU table: the wall time, then each group's CPU
// seconds (and its share of the wall time: 1.00 is one core), the rest of
// the machine, and its idle time.
func cpuRow(name, workers string, a, b cpuSample, cores int) string {
	d, machine, wall := cpuUse(a, b)
	if len(d) == 0 {
		return fmt.Sprintf("| %s | %s | %.1f s | (no /proc: not measured) | | | | | |", name, workers, wall.Seconds())
	}
	w := wall.Seconds()
	cell := func(v float64) string { return fmt.Sprintf("%.2f s (%.2f)", v, v/w) }
	browser := 0.0
	for _, v := range d {
		browser += v
	}
	rest := d["renderer: other threads"]
	known := map[string]bool{"renderer: Web Workers": true, "renderer: page (main thread)": true, "renderer: other threads": true}
	var others []string
	for k := range d {
		if !known[k] {
			others = append(others, k)
		}
	}
	sort.Strings(others)
	oth := 0.0
	for _, k := range others {
		oth += d[k]
	}
	idle := max(0, float64(cores)*w-machine)
	return fmt.Sprintf("| %s | %s | %.1f s | %s | %s | %s | %s | %s | %s |", name, workers, w,
		cell(d["renderer: Web Workers"]), cell(d["renderer: page (main thread)"]), cell(rest), cell(oth),
		cell(max(0, machine-browser)), cell(idle))
}
