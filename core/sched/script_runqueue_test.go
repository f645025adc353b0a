package sched

// The runqueue command of the testdata scripts: the CPU's runqueue as
// [Sim.DescribeRunqueue] renders it at the current time, so the vruntimes,
// deadlines and lags a script's comment derives are checked output.

import "strconv"

func init() {
	scriptCommands["runqueue"] = cmdRunqueue
}

// runqueue CPU prints DescribeRunqueue(CPU).
func cmdRunqueue(e *scriptEnv) string {
	r := e.run()
	if len(e.d.args) == 0 || e.d.args[0].key != "" {
		e.t.Fatalf("%s:%d: runqueue: want a CPU number first", e.path, e.d.line)
	}
	cpu := e.d.args[0].val
	n, err := strconv.Atoi(cpu)
	if err != nil || n < 0 {
		e.t.Fatalf("%s:%d: runqueue: CPU %q is not a CPU number", e.path, e.d.line, cpu)
	}
	if n >= len(r.rqs) {
		e.t.Fatalf("%s:%d: runqueue: CPU %d out of range (the topology has %d)", e.path, e.d.line, n, len(r.rqs))
	}
	return r.DescribeRunqueue(CPUID(n))
}
