package sched_test

// Conservation and affinity, checked from the outside (events and the
// metrics report only), for every preset under every kernel profile:
//
//   - each CPU's busy + idle time is the run's duration;
//   - the tasks' run times add up to the CPUs' busy time;
//   - a switch never puts a task on a CPU outside its group's cpus list.

import (
	"fmt"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/sched"
)

// affinitySink checks every switch-in against the task's allowed CPUs.
type affinitySink struct {
	s       *sched.Sim
	allowed map[string]map[int]bool // group name -> CPUs; nil entry = all
	errs    []string
	checked int
}

func (a *affinitySink) Event(e *sched.Event) {
	if e.Kind != sched.EvSwitch || e.Next == sched.NoTask {
		return
	}
	a.checked++
	info := a.s.TaskInfo(e.Next)
	if cpus := a.allowed[info.Group]; cpus != nil && !cpus[int(e.CPU)] && len(a.errs) < 5 {
		a.errs = append(a.errs, fmt.Sprintf("%s: %s runs on cpu %d, allowed %v", e.Time, info.Name, e.CPU, cpus))
	}
}

func TestTimeConservationAndAffinity(t *testing.T) {
	dur := sched.Second
	if testing.Short() {
		dur = 300 * sched.Millisecond
	}
	for _, name := range presetNames(t) {
		for _, k := range sched.ProfileNames() {
			t.Run(name+"/"+k, func(t *testing.T) {
				dur := presetDur(t, name, dur)
				cfg := presetConfig(t, name, k, dur)
				s, err := sched.New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				aff := &affinitySink{s: s, allowed: map[string]map[int]bool{}}
				for _, g := range cfg.Tasks {
					if g.CPUs != nil {
						aff.allowed[g.Name] = map[int]bool{}
						for _, c := range g.CPUs {
							aff.allowed[g.Name][c] = true
						}
					}
				}
				col := metrics.New(s.NumCPUs())
				s.Attach(col)
				s.Attach(aff)
				if err := s.Run(); err != nil {
					t.Fatalf("run failed: %v", err)
				}
				rep := col.Build(s, name)
				if rep.DurationNs != int64(dur) {
					t.Errorf("report duration %d, want %d", rep.DurationNs, dur)
				}
				var busy, run int64
				for _, c := range rep.CPUs {
					if c.BusyNs+c.IdleNs != int64(dur) || c.BusyNs < 0 || c.IdleNs < 0 {
						t.Errorf("cpu %d: busy %d + idle %d != duration %d", c.ID, c.BusyNs, c.IdleNs, dur)
					}
					busy += c.BusyNs
				}
				for _, task := range rep.Tasks {
					if task.RuntimeNs < 0 || task.RuntimeNs > int64(dur) {
						t.Errorf("task %s: runtime %d outside [0, %d]", task.Name, task.RuntimeNs, dur)
					}
					run += task.RuntimeNs
				}
				if run != busy {
					t.Errorf("tasks ran %d ns in total, CPUs were busy %d ns", run, busy)
				}
				if busy == 0 || aff.checked == 0 {
					t.Errorf("nothing ran (busy %d, %d switches): the checks prove nothing", busy, aff.checked)
				}
				for _, e := range aff.errs {
					t.Error(e)
				}
			})
		}
	}
}
