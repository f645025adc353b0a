package main

// RunCtl: where runs execute and whether one is going. Single runs, trace
// imports, thread experiments and sweeps share one request id sequence
// (gen): whatever starts later supersedes what runs, and answers carrying
// an older id are dropped (runloop.go, batch.go).

// RunCtl is the run control part of the App.
type RunCtl struct {
	Running  bool
	Progress float64 // 0..1 of the current run
	Err      string  // the current run's error
	RunMs    float64 // wall time of the last complete run

	gen    int         // request id: a newer run or Cancel stops older loops
	link   *engineLink // the engine: the simulation worker or the page's own runner
	engine string      // where runs execute: "worker" or "main"

	// PoolSetting is the Workers setting (0: automatic; poolrun.go).
	PoolSetting int
	msPerW      float64      // the last pool batch's speed: ms of a worker per unit of job weight
	msPerWFor   string       // the scenario it ran
	outlines    outlineCache // the outline the panels' estimates use
	poolDraw    throttle     // the pool batch's progress line and probe (poolrun.go)
}
