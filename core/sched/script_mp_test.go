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

// where prints each task's CPU and whether it is running there now.
func cmdWhere(e *scriptEnv) string {
	r := e.run()
	var b strings.Builder
	for i := range r.NumTasks() {
		t := r.tasks[i]
		st := "queued"
		switch {
		case t.cpu < 0:
			st = "not started"
		case r.rqs[t.cpu].curr == t:
			st = "running"
		case !t.se.onRq:
			st = "blocked"
		}
		fmt.Fprintf(&b, "%s cpu%d %s\n", r.name(TaskID(i)), t.cpu, st)
	}
	return b.String()
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
