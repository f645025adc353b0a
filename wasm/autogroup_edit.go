package main

// The autogroup nice of each session (docs/scenario-format.md "Cgroups":
// the task key autogroup_nice, /proc/<pid>/autogroup), edited in the
// cgroup tree while kernel.autogroup is on. One row per session of the
// scenario's task groups (the tasks without a session key share one); a
// nice written there goes to every task group of the session, which the
// scenario requires to agree, through the same -set path as the CLI
// (tasks.NAME.autogroup_nice), so a value it refuses is refused here with
// its message; an empty field clears it (nice 0).

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"schedplay/core/scenario"
)

// agRow is one session of the autogroup table.
type agRow struct {
	Index   int
	Session string // "" = the shared session
	Label   string
	Nice    string // "" = not set (0)
	Tasks   string // the session's task groups, comma-separated
}

// autogroupRows lists the sessions of sc's task groups in order of first
// appearance.
func autogroupRows(sc *scenario.Scenario) []agRow {
	var rows []agRow
	for _, t := range sc.Tasks {
		k := slices.IndexFunc(rows, func(r agRow) bool { return r.Session == t.Session })
		if k < 0 {
			label := t.Session
			if label == "" {
				label = "(shared session)"
			}
			rows = append(rows, agRow{Index: len(rows), Session: t.Session, Label: label})
			k = len(rows) - 1
		}
		r := &rows[k]
		if r.Tasks != "" {
			r.Tasks += ", "
		}
		r.Tasks += t.Name
		if t.AutogroupNice != nil {
			r.Nice = strconv.Itoa(*t.AutogroupNice)
		}
	}
	return rows
}

// agSetNice writes text as the autogroup nice of every task group of
// session (empty: clears it). sc is unchanged when the value is refused.
func agSetNice(sc *scenario.Scenario, session, text string) error {
	text = strings.TrimSpace(text)
	trial := sc.Clone()
	trial.Tasks = slices.Clone(sc.Tasks)
	found := false
	for i := range trial.Tasks {
		t := &trial.Tasks[i]
		if t.Session != session {
			continue
		}
		found = true
		if text == "" {
			t.AutogroupNice = nil
			continue
		}
		if err := trial.Set("tasks." + t.Name + ".autogroup_nice=" + text); err != nil {
			return err
		}
	}
	if !found {
		return fmt.Errorf("no task group in session %q", session)
	}
	if err := trial.Validate(); err != nil {
		return err
	}
	sc.Tasks = trial.Tasks
	return nil
}
