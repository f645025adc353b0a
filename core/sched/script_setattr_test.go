package sched

// The setattr and nice program steps of the testdata scripts.

import (
	"strconv"
	"strings"
)

// setattrStep reads setattr:POLICY[:ARG][:@GROUP] or nice:N[:@GROUP]. ARG
// is the rt_priority of SCHED_FIFO/SCHED_RR, the nice of a fair policy
// (none: the task keeps its nice, as sched_setscheduler() does) and
// RUNTIME/DEADLINE/PERIOD for SCHED_DEADLINE; @GROUP changes that task
// group's instances instead of the task itself.
func (e *scriptEnv) setattrStep(b *runBuilder, parts []string) {
	target := ""
	if last := parts[len(parts)-1]; strings.HasPrefix(last, "@") {
		target, parts = last[1:], parts[:len(parts)-1]
	}
	a := &Attr{Group: -1}
	kind := OpSetattr
	atoi := func(s string) int {
		n, err := strconv.Atoi(s)
		if err != nil {
			e.t.Fatalf("%s:%d: %s: %v", e.path, e.d.line, strings.Join(parts, ":"), err)
		}
		return n
	}
	if parts[0] == "nice" {
		kind = OpNice
		a.Nice = atoi(parts[1])
	} else {
		pol, err := ParsePolicy(parts[1])
		if err != nil {
			e.t.Fatalf("%s:%d: %v", e.path, e.d.line, err)
		}
		a.Policy, a.KeepNice = pol, len(parts) < 3
		switch {
		case len(parts) < 3:
		case pol.IsRT():
			a.RTPrio = atoi(parts[2])
		case pol.IsDeadline():
			d := strings.Split(parts[2], "/")
			if len(d) != 3 {
				e.t.Fatalf("%s:%d: setattr SCHED_DEADLINE: want RUNTIME/DEADLINE/PERIOD", e.path, e.d.line)
			}
			a.DL = DLParams{Runtime: e.parseDur(d[0]), Deadline: e.parseDur(d[1]), Period: e.parseDur(d[2])}
		default:
			a.Nice = atoi(parts[2])
		}
	}
	g := b.cur()
	if target != "" {
		g.attrTo[len(g.spec.Program)] = target
	}
	b.op(Op{Kind: kind, Attr: a})
}
