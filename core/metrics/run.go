package metrics

// Run: one simulation measured whole, the shape every caller that wants
// only the report shares (the trace replay, tests of the CLI, the
// scenario format and the playground).

import "schedplay/core/sched"

// Run simulates cfg to its end with a Collector attached and returns the
// report named name, or the simulator's error.
func Run(cfg sched.Config, name string) (Report, error) {
	sim, err := sched.New(cfg)
	if err != nil {
		return Report{}, err
	}
	col := New(sim.NumCPUs())
	sim.Attach(col)
	if err := sim.Run(); err != nil {
		return Report{}, err
	}
	return col.Build(sim, name), nil
}
