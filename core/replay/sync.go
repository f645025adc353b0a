package replay

// WF_SYNC from the trace: try_to_wake_up() with WF_SYNC tells the
// scheduler that the waker is about to sleep (a pipe write before the
// writer's read, wake_up_interruptible_sync_poll()), which wake_affine()
// and select_idle_sibling() read. The trace does not print the flag; a
// signal the waker follows by blocking within a little work is taken to
// be one.

import "schedplay/core/sched"

// markSync sets Sync on signals the waker follows by blocking within
// window of work: try_to_wake_up() with WF_SYNC, as a pipe writer that
// then reads (wake_affine() and the placement read it).
func markSync(w *Workload, window sched.Time) {
	if window < 0 {
		return
	}
	for ti := range w.Tasks {
		st := w.Tasks[ti].Steps
		for k := range st {
			if st[k].Kind != StepSignal {
				continue
			}
			var work sched.Time
			j := k + 1
			for ; j < len(st) && (st[j].Kind == StepRun || st[j].Kind == StepSignal); j++ {
				work += st[j].Work
			}
			if j < len(st) && work <= window {
				switch st[j].Kind {
				case StepWait, StepUntil, StepEnd:
					st[k].Sync = true
				}
			}
		}
	}
}
