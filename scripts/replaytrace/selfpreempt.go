//go:build linux

package main

// Self-preemptions: a task switched out runnable (prev_state R) with no
// interrupt entry on its CPU and no wakeup made from that CPU in the
// selfWindow before the switch. Preemption needs need_resched set on the
// CPU: by the tick (local_timer_entry), a remote wakeup (reschedule or
// call-function IPI), an interrupt's wakeup, or a wakeup the CPU itself
// made (sched_waking on it). With none of these, the task set it itself
// in a system call: worker.c's CPU burns poll
// clock_gettime(CLOCK_THREAD_CPUTIME_ID), whose task_sched_runtime() runs
// update_curr() and so ends the slice between ticks
// (update_deadline() -> resched_curr()). The trace shows that the task
// polls, not how often: the replay (core/replay) has no step for it.

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
)

// selfWindow: an interrupt or wakeup this close before a preemption
// caused it (the resched IPI or the tick's handler to the switch is a
// few microseconds; a 4 ms tick never falls inside by chance for more
// than 1 in 200 preemptions).
const selfWindowNs = 20_000

// preemptStats counts, per comm, preemptions and self-preemptions.
type preemptStats struct {
	Preemptions int `json:"preemptions"`
	Self        int `json:"self_preemptions"`
}

// selfPreemptions reads a recorded trace for the comms of interest;
// ok is false when the trace has no interrupt entries (recorded without
// them: nothing can be said).
func selfPreemptions(path string, comms map[string]bool) (map[string]preemptStats, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	last := map[int]int64{} // per CPU: the last interrupt entry or wakeup made there (ns)
	out := map[string]preemptStats{}
	irqs := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		cpu, ts, event, body, ok := splitLine(line)
		if !ok {
			continue
		}
		switch {
		case strings.HasSuffix(event, "_entry"):
			irqs = true
			last[cpu] = ts
		case event == "sched_waking":
			last[cpu] = ts
		case event == "sched_switch":
			if !bytes.Contains(body, []byte("prev_state=R")) {
				continue
			}
			comm := field(body, "prev_comm=")
			if !comms[comm] {
				continue
			}
			st := out[comm]
			st.Preemptions++
			if t, seen := last[cpu]; !seen || ts-t > selfWindowNs {
				st.Self++
			}
			out[comm] = st
		}
	}
	return out, irqs, sc.Err()
}

// splitLine reads "COMM-PID [CPU] FLAGS SEC.USEC: EVENT: BODY".
func splitLine(line []byte) (cpu int, ts int64, event string, body []byte, ok bool) {
	lb := bytes.IndexByte(line, '[')
	rb := bytes.IndexByte(line, ']')
	if lb < 0 || rb < lb || line[0] == '#' {
		return
	}
	c, err := strconv.Atoi(string(line[lb+1 : rb]))
	if err != nil {
		return
	}
	rest := line[rb+1:]
	colon := bytes.Index(rest, []byte(": "))
	if colon < 0 {
		return
	}
	fs := bytes.Fields(rest[:colon])
	if len(fs) == 0 {
		return
	}
	tsf, err := strconv.ParseFloat(string(fs[len(fs)-1]), 64)
	if err != nil {
		return
	}
	rest = rest[colon+2:]
	colon = bytes.Index(rest, []byte(": "))
	if colon < 0 {
		return
	}
	return c, int64(tsf*1e9 + 0.5), string(rest[:colon]), rest[colon+2:], true
}

// field is the value of key ("prev_comm=") in body, up to the next space.
func field(body []byte, key string) string {
	i := bytes.Index(body, []byte(key))
	if i < 0 {
		return ""
	}
	v := body[i+len(key):]
	if j := bytes.IndexByte(v, ' '); j >= 0 {
		v = v[:j]
	}
	return string(v)
}
