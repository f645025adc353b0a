package ftrace

import (
	"strings"
	"testing"

	"schedplay/core/sched"
	"schedplay/core/trace/tracetest"
)

// TestSoftirqLines: IncludeSoftirq only adds the SCHED softirq's entries, in
// the kernel's irq:softirq_entry format, one per balance pass of a CPU, in
// increasing time on each CPU.
func TestSoftirqLines(t *testing.T) {
	const dur = 400 * sched.Millisecond
	plain := traceRun(t, "smp-2", dur, tracetest.MixedTasks(), Options{})
	with := traceRun(t, "smp-2", dur, tracetest.MixedTasks(), Options{IncludeSoftirq: true})
	if strings.Contains(plain, "softirq_entry") {
		t.Fatal("softirq_entry lines without IncludeSoftirq")
	}
	var kept []string
	last := map[string]int64{}
	perCPU := map[string]int{}
	for _, line := range strings.SplitAfter(with, "\n") {
		m := lineRE.FindStringSubmatch(strings.TrimSuffix(line, "\n"))
		if m == nil || m[6] != "softirq_entry" {
			kept = append(kept, line)
			continue
		}
		if m[4] != "..s.." || m[7] != "vec=7 [action=SCHED]" {
			t.Errorf("softirq line %q: want flags ..s.. and vec=7 [action=SCHED]", line)
		}
		us := parseSeconds(t, m[5])
		if prev, ok := last[m[3]]; ok && us <= prev {
			t.Errorf("CPU %s: pass at %dus not after the previous at %dus", m[3], us, prev)
		}
		last[m[3]] = us
		perCPU[m[3]]++
	}
	if got := strings.Join(kept, ""); got != plain {
		t.Error("IncludeSoftirq changed lines other than softirq_entry")
	}
	// CPU 0 runs two hogs all along: its tick raises the softirq at every
	// balance interval, at least every max_interval * busy_factor (64 ms)
	// and at most every jiffy.
	if n := perCPU["000"]; n < int(dur/(64*sched.Millisecond)) || n > int(dur/sched.Millisecond) {
		t.Errorf("CPU 0 has %d SCHED softirqs in %v, want between one per 64 ms and one per ms", n, dur)
	}
}
