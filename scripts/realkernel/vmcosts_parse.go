//go:build linux

package main

// Reading a tracefs text capture for -vmcosts (vmcosts.go): one record per
// line, timestamps in nanoseconds.
//
// Two timestamp forms occur: "SECONDS.MICROSECONDS" (the nanosecond trace
// clocks local, global, mono, which print microseconds) and a bare counter
// (trace_clock x86-tsc, which prints TSC cycles). -vmcosts records with
// x86-tsc for sub-microsecond resolution and converts the cycles to
// nanoseconds with the rate fitted against the CLOCK_MONOTONIC readings the
// capture itself contains: each hrtimer_expire_entry prints the now= its
// hrtimer_interrupt() read (fitTSC).

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// traceRec is one event of the capture.
type traceRec struct {
	Comm  string // the task the event ran in (<idle> for the idle task)
	PID   int
	CPU   int
	TS    int64 // ns (after toNS for a cycle-counter capture)
	Event string
	Args  string
}

// field returns the value of key=VALUE in the record's arguments.
func (r traceRec) field(key string) string {
	a := r.Args
	for {
		i := strings.Index(a, key+"=")
		if i < 0 {
			return ""
		}
		if i == 0 || a[i-1] == ' ' {
			v := a[i+len(key)+1:]
			if j := strings.IndexByte(v, ' '); j >= 0 {
				v = v[:j]
			}
			return v
		}
		a = a[i+len(key)+1:]
	}
}

// intField is field as an integer (ok false when absent or malformed).
func (r traceRec) intField(key string) (int64, bool) {
	v, err := strconv.ParseInt(r.field(key), 10, 64)
	return v, err == nil
}

var traceLine = regexp.MustCompile(`^\s*(.+)-(\d+)\s+\[(\d+)\]\s+(?:\S+\s+)?(\d+(?:\.\d+)?):\s+(\w+):\s?(.*)$`)

// parseTrace reads a capture. Comment lines and lines of no known shape
// are skipped; a capture without a single event is an error. cycles
// reports whether the timestamps were a counter (and are now converted).
func parseTrace(r io.Reader) (recs []traceRec, cycles bool, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var raw []string
	line := 0
	for sc.Scan() {
		line++
		t := sc.Text()
		if strings.HasPrefix(t, "#") {
			continue
		}
		m := traceLine.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		pid, _ := strconv.Atoi(m[2])
		cpu, _ := strconv.Atoi(m[3])
		recs = append(recs, traceRec{Comm: strings.TrimSpace(m[1]), PID: pid, CPU: cpu, Event: m[5], Args: m[6]})
		raw = append(raw, m[4])
	}
	if err := sc.Err(); err != nil {
		return nil, false, err
	}
	if len(recs) == 0 {
		return nil, false, fmt.Errorf("no trace events in %d lines", line)
	}
	cycles = !strings.Contains(raw[0], ".")
	for i, s := range raw {
		if strings.Contains(s, ".") == cycles {
			return nil, false, fmt.Errorf("event %d: timestamp %q mixes counter and seconds forms", i+1, s)
		}
		if cycles {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, false, fmt.Errorf("event %d: timestamp %q: %v", i+1, s, err)
			}
			recs[i].TS = v
			continue
		}
		sec, frac, _ := strings.Cut(s, ".")
		v, err1 := strconv.ParseInt(sec, 10, 64)
		f, err2 := strconv.ParseInt((frac + "000000000")[:9], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, false, fmt.Errorf("event %d: timestamp %q: want SECONDS.FRACTION", i+1, s)
		}
		recs[i].TS = v*1e9 + f
	}
	if cycles {
		rate, err := fitTSC(recs)
		if err != nil {
			return nil, false, err
		}
		for i := range recs {
			recs[i].TS = int64(float64(recs[i].TS) / rate)
		}
	}
	return recs, cycles, nil
}

// fitTSC returns cycles per nanosecond: the least-squares slope of the
// counter against the now= of every hrtimer_expire_entry (the monotonic
// clock hrtimer_interrupt() read just before the event).
func fitTSC(recs []traceRec) (float64, error) {
	var xs, ys []float64
	for _, r := range recs {
		if r.Event != "hrtimer_expire_entry" {
			continue
		}
		if now, ok := r.intField("now"); ok {
			xs, ys = append(xs, float64(now)), append(ys, float64(r.TS))
		}
	}
	if len(xs) < 2 {
		return 0, fmt.Errorf("counter timestamps need hrtimer_expire_entry events (now=) to convert; have %d", len(xs))
	}
	x0, y0 := xs[0], ys[0]
	var sx, sy, sxx, sxy float64
	for i := range xs {
		x, y := xs[i]-x0, ys[i]-y0
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	n := float64(len(xs))
	den := n*sxx - sx*sx
	if den <= 0 {
		return 0, fmt.Errorf("hrtimer_expire_entry events all at one instant: cannot fit the counter rate")
	}
	rate := (n*sxy - sx*sy) / den
	if rate <= 0 {
		return 0, fmt.Errorf("counter runs backwards against the monotonic clock (slope %g)", rate)
	}
	return rate, nil
}
