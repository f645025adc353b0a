package scenario

// Generator "pipe": perf bench sched pipe (tools/perf/bench/sched-pipe.c).
//
// Two tasks pass a token through two pipes for -l loops: the first writes
// to pipe 1 and reads from pipe 2, the second reads from pipe 1 and writes
// to pipe 2. Each write wakes the blocked reader with WF_SYNC
// (pipe_write() -> wake_up_interruptible_sync_poll()). perf reports the
// total time and usecs/op; here `completion` / loops is usecs/op.
//
// SIMPLIFIED: the pipe syscalls are a fixed CPU cost each (cost, default
// 1 us: entry/exit, pipe lock, a 4-byte copy on a current x86 core, an
// estimate as in the demo/pipe-pingpong presets). perf's -T (threads)
// is not a parameter: threads and processes differ in the kernel by the
// mm switch (CR3 write, TLB refill), which the simulator's context-switch
// cost (hw.ctx_switch_ns) does not distinguish.

var genPipe = &generator{
	kind: "pipe",
	models: "perf bench sched pipe: two tasks pass a token through two pipes (WF_SYNC wakeups) for `loops` round trips; " +
		"completion/loops is perf's usecs/op. pin=same is `taskset -c 0`, cross puts the tasks on CPUs 0 and 1.",
	params: []Param{
		{Name: "loops", Type: PInt, Default: "10000", Min: 1, Max: 10_000_000, Help: "round trips (perf -l; perf's default is 1000000)"},
		{Name: "cost", Type: PDuration, Default: "1us", Min: 10, Max: int64(ms), Help: "CPU cost of one pipe read or write (estimate)"},
		{Name: "pin", Type: PEnum, Default: "none", Enum: []string{"none", "same", "cross"}, Help: "affinity: none, both on CPU 0, or CPUs 0 and 1"},
	},
	expand: expandPipe,
}

func expandPipe(x *expander) error {
	loops, cost := x.int("loops"), x.dur("cost")
	var a, b []int
	switch x.str("pin") {
	case "same":
		a, b = []int{0}, []int{0}
	case "cross":
		if x.ncpu < 2 {
			return x.fail("pin", "cross needs two CPUs; the machine has %d", x.ncpu)
		}
		a, b = []int{0}, []int{1}
	}
	p1, p2 := x.group("pipe1"), x.group("pipe2")
	x.add(Task{Name: x.group("sender"), Instances: 1, CPUs: a, Loop: loops,
		Program: []Step{stRun(cost), stSignal(p1, true), stWait(p2), stRun(cost)}})
	x.add(Task{Name: x.group("receiver"), Instances: 1, CPUs: b, Loop: loops,
		Program: []Step{stWait(p1), stRun(cost), stRun(cost), stSignal(p2, true)}})
	return nil
}
