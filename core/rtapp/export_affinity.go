package rtapp

// Export of affinity steps as rt-app's per-phase "cpus".
//
// rt-app's thread_body() sets, at every phase start, the phase's cpus, or
// the thread's, or the thread's initial affinity (phase_affinity.go). A
// scenario's affinity step instead holds until the next one, across the
// program's repetitions. So once a step has changed the mask, every later
// phase writes the mask in force as its "cpus"; the phases before the
// first step write none (the thread's "cpus" apply), which is only right
// on later repetitions if the program ends with the task's own mask: if
// not, the export is refused. A mask of every CPU is written as the
// machine's CPU list when the thread has "cpus" of its own.

import (
	"strconv"
	"strings"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// phaseCPUs fills each phase's "cpus" for task t (path p).
func (ex *exporter) phaseCPUs(p string, t scenario.Task, phases []phase) error {
	changed := false
	cur := t.CPUs // nil: every CPU
	for i := range phases {
		ph := &phases[i]
		if ph.set {
			cur, changed = ph.mask, true
		}
		if !changed {
			continue
		}
		ph.cpus = cur
		if cur == nil {
			if t.CPUs == nil {
				ph.cpus = nil // rt-app's default: the initial affinity, every CPU
				continue
			}
			all, err := ex.machineCPUs()
			if err != nil {
				return err
			}
			ph.cpus = all
		}
	}
	if changed && t.Loop != 1 && !phases[0].set && !sameMask(cur, t.CPUs) {
		return errAt(p+".program", "ends with affinity %s but starts with the task's %s: rt-app gives the first phase the thread's \"cpus\" again on every repetition, the scenario keeps the last mask; start the program with an affinity step", maskString(cur), maskString(t.CPUs))
	}
	return nil
}

// machineCPUs lists the CPUs of the scenario's machine.
func (ex *exporter) machineCPUs() ([]int, error) {
	if ex.all == nil {
		cfg, err := ex.sc.Build(sched.DefaultLimits())
		if err != nil {
			return nil, err
		}
		for c := range cfg.Machine.NumCPUs() {
			ex.all = append(ex.all, c)
		}
	}
	return ex.all, nil
}

func cpuList(cpus []int) string {
	s := make([]string, len(cpus))
	for i, c := range cpus {
		s[i] = strconv.Itoa(c)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func maskString(cpus []int) string {
	if cpus == nil {
		return "all"
	}
	return cpuList(cpus)
}
