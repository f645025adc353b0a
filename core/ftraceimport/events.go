package ftraceimport

// The fields of the sched events, in the two printings found in the wild:
//
//   - the kernel's TP_printk() (include/trace/events/sched.h, power.h), as
//     /sys/kernel/tracing/trace and trace-cmd report print events that have
//     no plugin: "key=value" pairs, e.g.
//     "prev_comm=bash prev_pid=1234 prev_prio=120 prev_state=S ==> next_comm=...".
//     Extra pairs (the simulator's reason=/pick=/by= annotations, newer
//     kernels' group_dead=) are ignored except reason=.
//   - trace-cmd's sched plugin (libtraceevent plugin_sched_switch.c) for
//     sched_switch, sched_wakeup and sched_wakeup_new:
//     "bash:1234 [120] S ==> swapper/2:0 [120]" and
//     "bash:1234 [120] success=1 CPU:002" (success= only on old kernels).
//
// A comm may contain spaces, '=' and ':', so values run until the next
// token that looks like "key=" and the pid of "comm:pid" follows the last
// colon.

import (
	"fmt"
	"strings"

	"schedplay/core/sched"
)

// rawKind is the kind of a parsed line.
type rawKind uint8

const (
	rawSwitch rawKind = iota + 1
	rawWakeup
	rawWaking
	rawWakeupNew
	rawMigrate
	rawFork
	rawExit
	rawIdle
	rawPISetprio
)

var rawKinds = map[string]rawKind{
	"sched_switch": rawSwitch, "sched_wakeup": rawWakeup, "sched_waking": rawWaking,
	"sched_wakeup_new": rawWakeupNew, "sched_migrate_task": rawMigrate,
	"sched_process_fork": rawFork, "sched_process_exit": rawExit, "cpu_idle": rawIdle,
	"sched_pi_setprio": rawPISetprio,
}

// side is one task named by an event's fields.
type side struct {
	comm string
	pid  int
	prio int // -1000 when the line does not say
}

const noPrio = -1000

// record is one parsed sched line, before tasks are resolved.
type record struct {
	line   int
	ts     int64
	kind   rawKind
	cpu    int    // the line's CPU column
	cur    side   // the task column (no prio)
	irq    int8   // prefix.irq: the line ran in interrupt context (1), not (0), unknown (-1)
	a, b   side   // switch: prev, next; fork: parent, child; others: a
	state  byte   // switch: 'R', 'X' (dead or zombie) or the first letter of a sleep state
	arg    int    // wakeup: target CPU (-1: the line's); migrate: orig CPU; idle: state; pi_setprio: oldprio
	arg2   int    // migrate: dest CPU; idle: cpu_id; pi_setprio: newprio
	reason string // the simulator's reason= annotation, if any
}

// kv is the key=value pairs of a body, in order.
type kv [][2]string

func (k kv) get(key string) (string, bool) {
	for _, p := range k {
		if p[0] == key {
			return p[1], true
		}
	}
	return "", false
}

// splitKV splits "a=1 b=two words c=3" into pairs. A token that does not
// start with "identifier=" continues the previous value; "==>" is dropped.
func splitKV(body string) kv {
	var out kv
	for body != "" {
		tok, rest := nextToken(body)
		body = strings.TrimLeft(rest, " ")
		if tok == "" {
			break
		}
		if tok == "==>" {
			continue
		}
		if eq := strings.IndexByte(tok, '='); eq > 0 && isIdent(tok[:eq]) {
			out = append(out, [2]string{tok[:eq], tok[eq+1:]})
			continue
		}
		if len(out) > 0 {
			out[len(out)-1][1] += " " + tok
		}
	}
	return out
}

func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// fieldError is a sched line whose fields cannot be read.
type fieldError string

func missing(key string) error { return fieldError("missing or bad " + key) }

func (e fieldError) Error() string { return string(e) }

// parseBody fills r from the body of a line of kind r.kind.
func parseBody(r *record, body string) error {
	switch r.kind {
	case rawSwitch:
		if !strings.Contains(body, "prev_pid=") {
			return parseCompactSwitch(r, body)
		}
		f := splitKV(body)
		var err error
		if r.a, err = sideKV(f, "prev_comm", "prev_pid", "prev_prio"); err != nil {
			return err
		}
		if r.b, err = sideKV(f, "next_comm", "next_pid", "next_prio"); err != nil {
			return err
		}
		st, ok := f.get("prev_state")
		if !ok || st == "" {
			return missing("prev_state")
		}
		r.state = switchState(st, r.b.pid)
		r.reason, _ = f.get("reason")
	case rawWakeup, rawWaking, rawWakeupNew:
		if !strings.Contains(body, "pid=") {
			return parseCompactWakeup(r, body)
		}
		f := splitKV(body)
		var err error
		if r.a, err = sideKV(f, "comm", "pid", "prio"); err != nil {
			return err
		}
		r.arg = -1
		if v, ok := f.get("target_cpu"); ok {
			if r.arg, ok = parseUint(v); !ok {
				return missing("target_cpu")
			}
		}
		r.reason, _ = f.get("reason")
	case rawMigrate:
		f := splitKV(body)
		var err error
		if r.a, err = sideKV(f, "comm", "pid", "prio"); err != nil {
			return err
		}
		if r.arg, err = uintKV(f, "orig_cpu"); err != nil {
			return err
		}
		if r.arg2, err = uintKV(f, "dest_cpu"); err != nil {
			return err
		}
		r.reason, _ = f.get("reason")
	case rawFork:
		f := splitKV(body)
		var err error
		if r.a, err = sideKV(f, "comm", "pid", ""); err != nil {
			return err
		}
		if r.b, err = sideKV(f, "child_comm", "child_pid", ""); err != nil {
			return err
		}
	case rawExit:
		f := splitKV(body)
		var err error
		if r.a, err = sideKV(f, "comm", "pid", "prio"); err != nil {
			return err
		}
	case rawPISetprio:
		// "comm=%s pid=%d oldprio=%d newprio=%d" (rt_mutex_setprio()).
		f := splitKV(body)
		var err error
		if r.a, err = sideKV(f, "comm", "pid", ""); err != nil {
			return err
		}
		for _, k := range [...]struct {
			key string
			to  *int
		}{{"oldprio", &r.arg}, {"newprio", &r.arg2}} {
			v, _ := f.get(k.key)
			n, ok := parseInt(v)
			if !ok {
				return missing(k.key)
			}
			*k.to = n
		}
	case rawIdle:
		f := splitKV(body)
		v, ok := f.get("state")
		st, ok2 := parseInt(v)
		if !ok || !ok2 {
			return missing("state")
		}
		r.arg = st
		var err error
		if r.arg2, err = uintKV(f, "cpu_id"); err != nil {
			return err
		}
	}
	return nil
}

func uintKV(f kv, key string) (int, error) {
	v, _ := f.get(key)
	n, ok := parseUint(v)
	if !ok {
		return 0, missing(key)
	}
	return n, nil
}

// sideKV reads a task from comm/pid/prio keys; an empty prioKey or a
// missing prio gives noPrio.
func sideKV(f kv, commKey, pidKey, prioKey string) (side, error) {
	s := side{prio: noPrio}
	var ok bool
	if s.comm, ok = f.get(commKey); !ok {
		return s, missing(commKey)
	}
	v, _ := f.get(pidKey)
	if s.pid, ok = parseUint(v); !ok {
		return s, missing(pidKey)
	}
	if prioKey != "" {
		if v, ok := f.get(prioKey); ok {
			if s.prio, ok = parseInt(v); !ok {
				return s, missing(prioKey)
			}
		}
	}
	return s, nil
}

// stateChar reduces a printed prev_state ("R", "R+", "S", "D|K", "Z", "X",
// "I", "x") to the byte the event model uses: 'R' for a preempted task, 'X'
// for a dead one, else the sleep state's letter.
func stateChar(st string) byte {
	switch c := st[0]; c {
	case 'R':
		return 'R'
	case 'X', 'Z', 'x':
		return 'X'
	default:
		return c
	}
}

// switchState is stateChar, or for the numeric prev_state of old kernels
// and of trace-cmd without the event's print format (the raw
// __trace_sched_switch_state() value) its meaning: 0 is TASK_RUNNING
// (a yield or a preemption), a lone bit from 1024 up is TASK_STATE_MAX
// (3.x: 1024, 4.2-4.10: 2048, 4.11-4.13: 4096) added to a preempted task's
// state, 256 is TASK_REPORT_MAX, the preemption mark of 4.14+ (but
// TASK_WAKING before: never a preemption when the next task is the idle
// task), 16 and 32 are EXIT_DEAD and EXIT_ZOMBIE; anything else is a
// sleep. next is the next task's pid.
func switchState(st string, next int) byte {
	v, ok := parseUint(st)
	if !ok {
		return stateChar(st)
	}
	switch {
	case v == 0:
		return 'R'
	case v >= 1024 && v&(v-1) == 0:
		return 'R'
	case v == 256 && next != 0:
		return 'R'
	case v&(16|32) != 0:
		return 'X'
	case v&2 != 0:
		return 'D'
	}
	return 'S'
}

// parseCompactSwitch reads trace-cmd's "comm:pid [prio] STATE ==> comm:pid [prio]".
func parseCompactSwitch(r *record, body string) error {
	left, right, ok := strings.Cut(body, " ==> ")
	if !ok {
		return fieldError("want prev_comm=... or comm:pid [prio] STATE ==> comm:pid [prio]")
	}
	left = strings.TrimSpace(left)
	sp := strings.LastIndexByte(left, ' ')
	if sp < 0 {
		return missing("prev state")
	}
	st := left[sp+1:]
	if st == "" {
		return missing("prev state")
	}
	var err error
	if r.a, err = compactSide(left[:sp]); err != nil {
		return fmt.Errorf("prev: %w", err)
	}
	if r.b, err = compactSide(strings.TrimSpace(right)); err != nil {
		return fmt.Errorf("next: %w", err)
	}
	r.state = switchState(st, r.b.pid)
	return nil
}

// parseCompactWakeup reads trace-cmd's "comm:pid [prio] [success=1] [CPU:002]".
func parseCompactWakeup(r *record, body string) error {
	r.arg = -1
	s := strings.TrimSpace(body)
	for {
		sp := strings.LastIndexByte(s, ' ')
		if sp < 0 {
			break
		}
		last := s[sp+1:]
		if v, ok := strings.CutPrefix(last, "CPU:"); ok {
			n, ok := parseUint(v)
			if !ok {
				return missing("CPU")
			}
			r.arg = n
		} else if !strings.HasPrefix(last, "success=") {
			break
		}
		s = strings.TrimRight(s[:sp], " ")
	}
	var err error
	r.a, err = compactSide(s)
	return err
}

// compactSide reads "comm:pid [prio]" or "comm:pid".
func compactSide(s string) (side, error) {
	sd := side{prio: noPrio}
	if strings.HasSuffix(s, "]") {
		k := strings.LastIndexByte(s, '[')
		if k < 0 {
			return sd, missing("prio")
		}
		p, ok := parseInt(s[k+1 : len(s)-1])
		if !ok {
			return sd, missing("prio")
		}
		sd.prio = p
		s = strings.TrimRight(s[:k], " ")
	}
	c := strings.LastIndexByte(s, ':')
	if c < 0 {
		return sd, fieldError("want comm:pid")
	}
	pid, ok := parseUint(s[c+1:])
	if !ok {
		return sd, missing("pid")
	}
	sd.comm, sd.pid = s[:c], pid
	return sd, nil
}

// reasonByName maps the simulator's reason annotations back to reasons.
var reasonByName = func() map[string]sched.Reason {
	m := map[string]sched.Reason{}
	for r := sched.Reason(1); r < 255; r++ {
		n := r.String()
		if strings.HasPrefix(n, "Reason(") {
			break
		}
		m[n] = r
	}
	return m
}()
