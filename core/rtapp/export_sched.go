package rtapp

// Export of setattr and nice steps as rt-app's per-phase "policy",
// "priority" and dl-runtime/dl-period/dl-deadline (phase_sched.go reads
// them back).
//
// rt-app sets a phase's scheduling parameters at the phase's start, for
// the thread itself, and keeps them until another phase sets new ones; a
// scenario's step holds until the next one too. So a step is exported
// where a phase starts: at the program's top level or first in a
// top-level loop (before a taskgroup step there). A nice step becomes the
// phase's "priority" under the policy in force, which must then be a fair
// one (rt-app's priority is the RT priority for SCHED_FIFO/SCHED_RR); a
// setattr without nice writes the nice in force. The policy in force is
// followed through the program in order from the task's own; a program
// that repeats and changes it must start with a setattr step, as rt-app's
// first phase does not go back to the thread's parameters either, so both
// keep the last ones.

import (
	"fmt"
	"strings"

	"schedplay/core/scenario"
)

// phaseSchedAt turns the setattr or nice step st at sp into the parameters
// in force after it.
func (ex *exporter) phaseSchedAt(sp string, st scenario.Step, cur schedParams) (schedParams, error) {
	if st.Task != "" {
		return cur, errAt(sp+".task", "rt-app sets the scheduling parameters of the thread itself only (a phase's policy/priority): a step that changes task group %q has no rt-app equivalent", st.Task)
	}
	if st.Kind == "nice" {
		if rtPolicy(cur.policy) || cur.policy == "SCHED_DEADLINE" {
			return cur, errAt(sp+".nice", "the task is %s here: rt-app's phase priority would be its RT priority, and setpriority() of an RT or deadline task changes nothing until it is fair again; set a fair policy first", cur.policy)
		}
		cur.prio = st.Nice
		return cur, nil
	}
	a := st.SetAttr
	out := schedParams{policy: a.Policy, prio: cur.prio}
	switch {
	case rtPolicy(a.Policy):
		out.prio = a.Priority
	case a.Policy == "SCHED_DEADLINE":
		out.prio = 0
		out.dl = [3]schedTime{a.DLRuntime, a.DLDeadline, a.DLPeriod}
	case a.Nice != nil:
		out.prio = *a.Nice
	case rtPolicy(cur.policy) || cur.policy == "SCHED_DEADLINE":
		out.prio = 0 // the task's static nice: its own (see the file comment)
	}
	return out, nil
}

// writePhaseSched writes a phase's scheduling keys.
func (ex *exporter) writePhaseSched(p string, sp *schedParams) {
	if sp == nil {
		return
	}
	if sp.policy == "SCHED_IDLE" || sp.policy == "SCHED_BATCH" {
		ex.warnOnce("phase "+sp.policy, p, "%s: upstream rt-app accepts it; Debian's rt-app 1.0 knows only SCHED_OTHER, SCHED_FIFO, SCHED_RR and SCHED_DEADLINE and exits with \"Invalid policy\"", sp.policy)
	}
	fmt.Fprintf(&ex.b, ",\n\t\t\t\t\t\"policy\" : %s", jsonStr(sp.policy))
	if sp.policy == "SCHED_DEADLINE" {
		fmt.Fprintf(&ex.b, ",\n\t\t\t\t\t\"dl-runtime\" : %d,\n\t\t\t\t\t\"dl-period\" : %d,\n\t\t\t\t\t\"dl-deadline\" : %d",
			ex.us(p+".dl_runtime", sp.dl[0]), ex.us(p+".dl_period", sp.dl[2]), ex.us(p+".dl_deadline", sp.dl[1]))
		return
	}
	fmt.Fprintf(&ex.b, ",\n\t\t\t\t\t\"priority\" : %d", sp.prio)
}

// checkPhaseSched refuses a repeating program whose parameters at its end
// differ from the task's own while its first phase sets none (the
// scenario and rt-app would both keep the last ones, but the import would
// read the first phase as running with the thread's).
func checkPhaseSched(p string, t scenario.Task, phases []phase, last schedParams) error {
	if t.Loop == 1 || len(phases) == 0 || phases[0].sched != nil || last == threadParams(t) {
		return nil
	}
	return errAt(p+".program", "ends with %s but starts with the task's %s: start the program with a setattr step (rt-app's first phase keeps the parameters the last one set, which the import cannot see)", last.String(), threadParams(t).String())
}

func (sp schedParams) String() string {
	var b strings.Builder
	b.WriteString(sp.policy)
	switch {
	case sp.policy == "SCHED_DEADLINE":
		fmt.Fprintf(&b, " %s/%s/%s", scenario.FormatDuration(sp.dl[0]), scenario.FormatDuration(sp.dl[1]), scenario.FormatDuration(sp.dl[2]))
	case rtPolicy(sp.policy):
		fmt.Fprintf(&b, " priority %d", sp.prio)
	default:
		fmt.Fprintf(&b, " nice %d", sp.prio)
	}
	return b.String()
}
