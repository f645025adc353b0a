//go:build linux

package main

// Parsers for the per-task files of procfs that the harness reads:
//
//   /proc/PID/sched      kernel/sched/debug.c proc_sched_show_task(): "key : value"
//                        lines; times (se.sum_exec_runtime, wait_sum) are printed as
//                        milliseconds with six decimals, counters as integers.
//   /proc/PID/schedstat  sched_info (CONFIG_SCHED_INFO): "runtime_ns run_delay_ns pcount";
//                        run_delay is the time spent runnable but waiting for a CPU,
//                        available even without CONFIG_SCHEDSTATS.
//   /proc/PID/stat       fs/proc/array.c do_task_stat(): utime, stime, nice, policy,
//                        last CPU.
//   /proc/stat           machine-wide context switches (ctxt) and per-CPU steal time,
//                        as an indication of noise.

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// schedCounters are the fields of /proc/PID/sched (and schedstat) the harness uses.
// Wait fields are -1 when the kernel does not print them (no schedstats).
type schedCounters struct {
	SumExecNS      int64  `json:"sum_exec_runtime_ns"`
	Switches       int64  `json:"nr_switches"`
	Voluntary      int64  `json:"nr_voluntary_switches"`
	Involuntary    int64  `json:"nr_involuntary_switches"`
	Migrations     int64  `json:"nr_migrations"`
	WaitSumNS      int64  `json:"wait_sum_ns"`
	WaitCount      int64  `json:"wait_count"`
	RunDelayNS     int64  `json:"run_delay_ns"` // from /proc/PID/schedstat
	Timeslices     int64  `json:"timeslices"`   // schedstat pcount: times run on a CPU
	SliceNS        int64  `json:"slice_ns"`     // se.slice (EEVDF request); 0 if not printed (SCHED_IDLE)
	UtimeTicks     int64  `json:"utime_ticks"`  // /proc/PID/stat, USER_HZ units
	StimeTicks     int64  `json:"stime_ticks"`  // /proc/PID/stat, USER_HZ units
	LastCPU        int    `json:"last_cpu"`     // /proc/PID/stat "processor"
	Nice           int    `json:"nice"`         // /proc/PID/stat
	Policy         int    `json:"policy"`       // /proc/PID/stat (0 normal, 5 idle)
	ProcessorState string `json:"state"`        // /proc/PID/stat state letter
}

// sub returns c - base for the cumulative counters; the other fields keep c's values.
func (c schedCounters) sub(base schedCounters) schedCounters {
	d := c
	d.SumExecNS -= base.SumExecNS
	d.Switches -= base.Switches
	d.Voluntary -= base.Voluntary
	d.Involuntary -= base.Involuntary
	d.Migrations -= base.Migrations
	if c.WaitSumNS >= 0 && base.WaitSumNS >= 0 {
		d.WaitSumNS -= base.WaitSumNS
		d.WaitCount -= base.WaitCount
	}
	d.RunDelayNS -= base.RunDelayNS
	d.Timeslices -= base.Timeslices
	d.UtimeTicks -= base.UtimeTicks
	d.StimeTicks -= base.StimeTicks
	return d
}

// parseSchedKV splits /proc/PID/sched into key -> value text. Lines without a
// "key : value" shape (the header, the dashes, numa lines) are skipped.
func parseSchedKV(text string) map[string]string {
	kv := make(map[string]string)
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if k == "" || v == "" || strings.ContainsAny(k, " (") {
			continue
		}
		kv[k] = v
	}
	return kv
}

// lookupSuffix finds a key by its last dotted component, because kernels spell the
// schedstats fields "se.statistics.wait_sum" (up to v5.15) or "wait_sum" (later).
func lookupSuffix(kv map[string]string, name string) (string, bool) {
	if v, ok := kv[name]; ok {
		return v, true
	}
	for k, v := range kv {
		if strings.HasSuffix(k, "."+name) {
			return v, true
		}
	}
	return "", false
}

// parseMillisNS converts the kernel's "%Ld.%06ld" milliseconds to nanoseconds
// exactly (no float rounding).
func parseMillisNS(s string) (int64, error) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	ms, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, err
	}
	frac = (frac + "000000")[:6]
	ns, err := strconv.ParseInt(frac, 10, 64)
	if err != nil {
		return 0, err
	}
	v := ms*1_000_000 + ns
	if neg {
		v = -v
	}
	return v, nil
}

// parseSched extracts the counters from /proc/PID/sched text.
func parseSched(text string) (schedCounters, error) {
	kv := parseSchedKV(text)
	c := schedCounters{WaitSumNS: -1, WaitCount: -1}
	var err error
	ms := func(key string, dst *int64) {
		if err == nil {
			v, ok := lookupSuffix(kv, key)
			if !ok {
				err = fmt.Errorf("/proc/PID/sched: no %q", key)
				return
			}
			*dst, err = parseMillisNS(v)
		}
	}
	num := func(key string, dst *int64) {
		if err == nil {
			v, ok := lookupSuffix(kv, key)
			if !ok {
				err = fmt.Errorf("/proc/PID/sched: no %q", key)
				return
			}
			*dst, err = strconv.ParseInt(v, 10, 64)
		}
	}
	ms("se.sum_exec_runtime", &c.SumExecNS)
	num("nr_switches", &c.Switches)
	num("nr_voluntary_switches", &c.Voluntary)
	num("nr_involuntary_switches", &c.Involuntary)
	num("se.nr_migrations", &c.Migrations)
	if _, ok := kv["se.slice"]; ok {
		num("se.slice", &c.SliceNS)
	}
	if _, ok := lookupSuffix(kv, "wait_sum"); ok {
		ms("wait_sum", &c.WaitSumNS)
		num("wait_count", &c.WaitCount)
	}
	return c, err
}

// parseSchedstat fills run_delay and pcount from /proc/PID/schedstat text.
func parseSchedstat(text string, c *schedCounters) error {
	f := strings.Fields(text)
	if len(f) != 3 {
		return fmt.Errorf("/proc/PID/schedstat: want 3 fields, got %q", text)
	}
	var err error
	if c.RunDelayNS, err = strconv.ParseInt(f[1], 10, 64); err != nil {
		return err
	}
	c.Timeslices, err = strconv.ParseInt(f[2], 10, 64)
	return err
}

// parseStat fills the /proc/PID/stat fields. The comm field may contain spaces and
// parentheses, so fields are counted after the last ')'.
func parseStat(text string, c *schedCounters) error {
	i := strings.LastIndexByte(text, ')')
	if i < 0 {
		return fmt.Errorf("/proc/PID/stat: no ')' in %q", text)
	}
	f := strings.Fields(text[i+1:])
	// f[0] is field 3 (state); field n of proc(5) is f[n-3].
	if len(f) < 41-3+1 {
		return fmt.Errorf("/proc/PID/stat: only %d fields", len(f)+2)
	}
	c.ProcessorState = f[0]
	ints := []struct {
		field int
		dst   *int64
	}{{14, &c.UtimeTicks}, {15, &c.StimeTicks}}
	for _, x := range ints {
		v, err := strconv.ParseInt(f[x.field-3], 10, 64)
		if err != nil {
			return fmt.Errorf("/proc/PID/stat field %d: %v", x.field, err)
		}
		*x.dst = v
	}
	small := []struct {
		field int
		dst   *int
	}{{19, &c.Nice}, {39, &c.LastCPU}, {41, &c.Policy}}
	for _, x := range small {
		v, err := strconv.Atoi(f[x.field-3])
		if err != nil {
			return fmt.Errorf("/proc/PID/stat field %d: %v", x.field, err)
		}
		*x.dst = v
	}
	return nil
}

// readCounters reads all three files of one task.
func readCounters(pid int) (schedCounters, error) {
	read := func(name string) (string, error) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, name))
		return string(b), err
	}
	s, err := read("sched")
	if err != nil {
		return schedCounters{}, err
	}
	c, err := parseSched(s)
	if err != nil {
		return c, err
	}
	if s, err = read("schedstat"); err != nil {
		return c, err
	}
	if err = parseSchedstat(s, &c); err != nil {
		return c, err
	}
	if s, err = read("stat"); err != nil {
		return c, err
	}
	return c, parseStat(s, &c)
}

// machineStat is what the harness takes from /proc/stat.
type machineStat struct {
	Ctxt       int64         // context switches of all CPUs since boot
	StealTicks map[int]int64 // per CPU, USER_HZ ticks
}

// parseProcStat parses /proc/stat text.
func parseProcStat(text string) (machineStat, error) {
	ms := machineStat{StealTicks: map[int]int64{}}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "ctxt":
			v, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return ms, fmt.Errorf("/proc/stat ctxt: %v", err)
			}
			ms.Ctxt = v
		case len(f) > 8 && strings.HasPrefix(f[0], "cpu") && f[0] != "cpu":
			cpu, err := strconv.Atoi(f[0][3:])
			if err != nil {
				return ms, fmt.Errorf("/proc/stat %s: %v", f[0], err)
			}
			// cpuN user nice system idle iowait irq softirq steal ...
			if ms.StealTicks[cpu], err = strconv.ParseInt(f[8], 10, 64); err != nil {
				return ms, fmt.Errorf("/proc/stat %s steal: %v", f[0], err)
			}
		}
	}
	return ms, nil
}

func readProcStat() (machineStat, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return machineStat{}, err
	}
	return parseProcStat(string(b))
}
