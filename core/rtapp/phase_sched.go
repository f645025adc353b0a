package rtapp

// Per-phase scheduling parameters: rt-app's phase-level policy, priority
// and dl-runtime/dl-period/dl-deadline.
//
// rt-app's thread_body() calls set_thread_param() at every phase start
// with the phase's sched_data, after set_thread_affinity() and before
// set_thread_taskgroup() [M: the order]; a phase without scheduling keys
// keeps the parameters in force, across the thread loop too. For the fair
// policies that is pthread_setschedparam() then setpriority() (the
// priority is the nice value), for SCHED_FIFO/SCHED_RR
// pthread_setschedparam() with the RT priority, for SCHED_DEADLINE
// sched_setattr(). The import writes one setattr step at the start of
// each phase that has scheduling keys (the same end state as rt-app's two
// calls for a fair policy), outside the phase's loop, where rt-app's
// repeated calls change nothing; when every phase only restates the
// thread's parameters it writes none. The export (export_sched.go) writes
// them back.

import (
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// schedParams are a thread's or phase's scheduling parameters.
type schedParams struct {
	policy string       // never ""
	prio   int          // nice for the fair policies, RT priority for FIFO/RR
	dl     [3]schedTime // runtime, deadline, period
}

type schedTime = sched.Time

func threadParams(t scenario.Task) schedParams {
	sp := schedParams{policy: policyName(t.Policy), prio: t.Nice}
	if t.Priority != 0 {
		sp.prio = t.Priority
	}
	if sp.policy == "SCHED_DEADLINE" {
		sp.prio = 0
		sp.dl = [3]sched.Time{t.DLRuntime, t.DLDeadline, t.DLPeriod}
	}
	return sp
}

func rtPolicy(p string) bool { return p == "SCHED_FIFO" || p == "SCHED_RR" }

// phaseSched reads a phase's scheduling keys against the parameters in
// force, cur; it reports whether the phase has any.
func (im *importer) phaseSched(p string, v *Value, cur schedParams) (schedParams, bool, error) {
	if v.Get("policy") == nil && v.Get("priority") == nil && v.Get("dl-runtime") == nil &&
		v.Get("dl-period") == nil && v.Get("dl-deadline") == nil {
		return cur, false, nil
	}
	pol, err := im.policy(p, v, cur.policy, "")
	if err != nil {
		return cur, false, err
	}
	out := schedParams{policy: pol, prio: cur.prio}
	if pol != cur.policy {
		switch {
		case rtPolicy(pol):
			out.prio = 10 // rt-app's DEFAULT_THREAD_PRIORITY
		case rtPolicy(cur.policy), cur.policy == "SCHED_DEADLINE":
			out.prio = 0
		}
	}
	if m := v.Get("priority"); m != nil {
		n, err := intAt(join(p, "priority"), m.Val)
		if err != nil {
			return cur, false, err
		}
		switch {
		case pol == "SCHED_DEADLINE":
			im.warn(join(p, "priority"), "ignored: SCHED_DEADLINE threads run by dl-runtime/dl-deadline/dl-period")
		case rtPolicy(pol) && (n < 1 || n > 99):
			return cur, false, errAt(join(p, "priority"), "%d: for %s the priority is the RT priority, 1..99 (sched_setscheduler() fails with EINVAL)", n, pol)
		case !rtPolicy(pol) && (n < -20 || n > 19):
			return cur, false, errAt(join(p, "priority"), "%d: for %s the priority is the nice value, -20..19 (rt-app exits: \"setpriority %d nice invalid\")", n, pol, n)
		default:
			out.prio = n
		}
	}
	if pol == "SCHED_DEADLINE" {
		out.prio = 0
		tmp := &taskIn{path: p}
		if err := im.deadline(tmp, v, pol); err != nil {
			return cur, false, err
		}
		out.dl = [3]sched.Time{tmp.out.DLRuntime, tmp.out.DLDeadline, tmp.out.DLPeriod}
	} else if err := im.deadline(&taskIn{path: p}, v, pol); err != nil { // warns about stray dl-* keys
		return cur, false, err
	}
	return out, true, nil
}

// setattrStep is the setattr step that sets sp.
func setattrStep(sp schedParams) scenario.Step {
	a := &scenario.SetAttr{Policy: sp.policy}
	switch {
	case rtPolicy(sp.policy):
		a.Priority = sp.prio
	case sp.policy == "SCHED_DEADLINE":
		a.DLRuntime, a.DLDeadline, a.DLPeriod = sp.dl[0], sp.dl[1], sp.dl[2]
	default:
		n := sp.prio
		a.Nice = &n
	}
	return scenario.Step{Kind: "setattr", SetAttr: a}
}

// phaseSchedSteps puts a setattr step first in each phase body whose phase
// had scheduling keys (set[i] non-nil), when any of them differs from the
// thread's parameters.
func phaseSchedSteps(thread schedParams, set []*schedParams, bodies [][]scenario.Step) {
	changes := false
	for _, sp := range set {
		if sp != nil && *sp != thread {
			changes = true
		}
	}
	if !changes {
		return
	}
	for i, sp := range set {
		if sp != nil {
			bodies[i] = append([]scenario.Step{setattrStep(*sp)}, bodies[i]...)
		}
	}
}
