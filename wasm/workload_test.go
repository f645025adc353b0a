package main

import (
	"strings"
	"testing"

	"schedplay/core/scenario"
)

// TestWithoutGroup: the last task group may go when workloads provide the
// tasks; it stays, with the reason, when nothing would be left, as does a
// group another one forks.
func TestWithoutGroup(t *testing.T) {
	dec := func(js string) *scenario.Scenario {
		sc, err := scenario.Decode([]byte(js))
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	withWL := dec(`{"version":1,"topology":"smp-2","tasks":[{"name":"hog","program":[{"run":-1}]}],"workloads":[{"kind":"pipe","name":"pp"}]}`)
	tasks, err := withoutGroup(withWL, 0)
	if err != nil || len(tasks) != 0 {
		t.Fatalf("last group with a workload: %v, %d groups", err, len(tasks))
	}
	if len(withWL.Tasks) != 1 {
		t.Fatal("the scenario was changed before the edit was applied")
	}
	alone := dec(`{"version":1,"tasks":[{"name":"hog","program":[{"run":-1}]}]}`)
	if _, err := withoutGroup(alone, 0); err == nil || !strings.Contains(err.Error(), `task group "hog" stays`) || !strings.Contains(err.Error(), "at least one task group (or a workload)") {
		t.Errorf("last group alone: %v", err)
	}
	forked := dec(`{"version":1,"tasks":[{"name":"p","program":[{"run":"1ms"},{"fork":"c"}]},{"name":"c","parent":"p","loop":1,"program":[{"run":"1ms"}]}]}`)
	if _, err := withoutGroup(forked, 1); err == nil || !strings.Contains(err.Error(), `"c" stays`) {
		t.Errorf("forked group: %v", err)
	}
	if tasks, err := withoutGroup(forked, 0); err == nil {
		t.Errorf("the parent of a forked group went: %v", tasks)
	}
}
