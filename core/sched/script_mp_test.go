package sched

// Script commands for multiprocessor placement (testdata/mp/): where the
// tasks are now, and how many migrations of each reason happened.

import (
	"fmt"
	"strings"
)

func init() {
	scriptCommands["where"] = cmdWhere
	scriptCommands["migrations"] = cmdMigrations
}

// where prints each task's CPU and its state there (whereState).
func cmdWhere(e *scriptEnv) string {
	r := e.run()
	var b strings.Builder
	for i := range r.NumTasks() {
		t := r.tasks[i]
		fmt.Fprintf(&b, "%s cpu%d %s\n", r.name(TaskID(i)), t.cpu, whereState(r.Sim, t))
	}
	return b.String()
}

// whereState is t's state as where shows it, read from the entity of the
// class the task is in (a deadline or RT task's fair entity is never on a
// runqueue): running, queued, throttled (a deadline task off its tree
// until its replenishment timer, dl_throttled, still runnable), blocked,
// exited or not started.
func whereState(r *Sim, t *Task) string {
	switch {
	case t.cpu < 0 || t.state == stateUnborn:
		return "not started"
	case r.rqs[t.cpu].curr == t:
		return "running"
	case t.state == stateDead:
		return "exited"
	case t.state == stateBlocked && !t.se.onRq:
		return "blocked"
	}
	switch {
	case t.isDL():
		if t.dl.onRq {
			return "queued"
		}
		if t.dl.throttled {
			return "throttled"
		}
	case t.isRT():
		if t.rt.onRq {
			return "queued"
		}
	case t.se.onRq:
		return "queued"
	}
	return "blocked"
}

// migrations [from=D] [to=D] counts migrations per task and reason.
func cmdMigrations(e *scriptEnv) string {
	r := e.run()
	from, to := e.window()
	type key struct {
		task TaskID
		why  Reason
	}
	var order []key
	count := map[key]int{}
	for i := range r.rec.events {
		ev := &r.rec.events[i]
		if ev.Kind != EvMigrate || ev.Time < from || ev.Time > to {
			continue
		}
		k := key{ev.Next, ev.Reason}
		if count[k] == 0 {
			order = append(order, k)
		}
		count[k]++
	}
	var b strings.Builder
	for _, k := range order {
		fmt.Fprintf(&b, "%s %s x%d\n", r.name(k.task), k.why, count[k])
	}
	return b.String()
}
