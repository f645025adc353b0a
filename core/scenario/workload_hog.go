package scenario

// Generator "hog": plain CPU hogs (while (1);), count of them, with a
// policy, nice or RT priority, optionally all pinned to one CPU. Exact:
// a hog never blocks, so there is nothing to simplify beyond the loop
// having no memory behaviour. Its program is an endless loop of 100 ms
// runs, which the scheduler cannot tell from one endless run (the task
// never leaves the CPU between them); rt-app, which checks its duration
// only between events, then ends an exported hog on time.

var genHog = &generator{
	kind:   "hog",
	models: "plain CPU hogs that never block (while(1);): count tasks of one policy, nice or RT priority, optionally pinned to one CPU",
	params: []Param{
		{Name: "count", Type: PInt, Default: "1", Min: 1, Max: 10000, Help: "number of hogs"},
		{Name: "policy", Type: PEnum, Default: "SCHED_OTHER", Enum: []string{"SCHED_OTHER", "SCHED_BATCH", "SCHED_IDLE", "SCHED_FIFO", "SCHED_RR"}, Help: "scheduling policy"},
		{Name: "nice", Type: PInt, Default: "0", Min: -20, Max: 19, Help: "nice (fair policies)"},
		{Name: "priority", Type: PInt, Default: "0", Min: 0, Max: 99, Help: "rt_priority 1..99 (SCHED_FIFO, SCHED_RR; required for them)"},
		{Name: "cpu", Type: PInt, Default: "-1", Min: -1, Max: 4095, Help: "pin every hog to this CPU; -1 = no affinity"},
	},
	expand: expandHog,
}

// hogChunk is the length of one run step of a hog.
const hogChunk = 100 * ms

func expandHog(x *expander) error {
	pol := x.str("policy")
	t := Task{Name: x.group(""), Instances: x.int("count"), Policy: pol, Loop: -1, Program: []Step{stRun(hogChunk)}}
	rt := pol == "SCHED_FIFO" || pol == "SCHED_RR"
	switch {
	case rt && x.int("priority") == 0:
		return x.fail("priority", "%s needs an RT priority 1..99", pol)
	case !rt && x.int("priority") != 0:
		return x.fail("priority", "%d: only SCHED_FIFO and SCHED_RR have an RT priority; use nice for %s", x.int("priority"), pol)
	case rt && x.int("nice") != 0:
		return x.fail("nice", "%d: nice applies to the fair policies; %s tasks have a priority", x.int("nice"), pol)
	}
	t.Nice, t.Priority = x.int("nice"), x.int("priority")
	if pol == "SCHED_OTHER" {
		t.Policy = "" // the default, as a hand-written task leaves it out
	}
	if c := x.int("cpu"); c >= 0 {
		if c >= x.ncpu {
			return x.fail("cpu", "CPU %d does not exist (CPUs 0-%d)", c, x.ncpu-1)
		}
		t.CPUs = []int{c}
	}
	x.add(t)
	return nil
}
