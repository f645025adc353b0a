package scenario

// Generator "kbuild": a parallel build (make -jN of the kernel).
//
// make -jN keeps N jobs running: for each object it forks a child that
// execs the recipe's shell, which forks and execs the gcc driver; the
// driver runs cc1 (libiberty pex_run(): vfork() and execvp(), then
// wait4()) and then as, both fork+exec; cc1 reads its sources and headers
// and compiles (one CPU burst of tens of ms to seconds), writes the output
// and exits; make reaps the job with wait4() (the exit wakes the parent
// with WF_SYNC: exit_notify() -> do_notify_parent() -> __wake_up_parent()
// -> __wake_up_sync_key()) and forks the next job. A fixed set of jobs is
// a fixed amount of work, so `completion` (when the last task exited) is
// the build time. Every fork is placed by find_idlest_group() from the
// parent's CPU (SD_BALANCE_FORK) and every execve() balances again from
// the child's CPU (sched_exec(), SD_BALANCE_EXEC; core/sched/sched_exec.go).
//
// Model: task group `<name>.make` forks the jobs. A job is two processes,
// the gcc driver (`<name>.gcc0` .. `<name>.gcc7`: exec, fork cc1, exit)
// and cc1 (`<name>.cc0` .. `<name>.cc7`: exec, sleep io, one CPU burst,
// signal make (sync), exit), in eight burst-length classes of mean run:
// run x (2c+1)/8 (dist "uniform": over (0, 2 run)) or run x the measured
// octile means of a kernel build (dist "kbuild61", kbuild_dist.go). Job i of the build
// has class i mod 8, and the order of the jobs is a shuffle drawn from the
// workload's own PCG stream (seeded by the scenario's seed and the
// workload's name) when the scenario is built. So the total work depends
// only on jobs, run and spawn (it is jobs x (run + spawn) when jobs is a
// multiple of 8), not on the seed nor on the scheduler; the seed changes only the order, as two real builds differ.
// (Drawing the bursts from the run's own generator while it runs would
// make the amount of work depend on the order tasks happen to run in, and
// an A/B comparison would not compare equal work.)
// make: fork the first j jobs (each after `spawn` of make's own CPU), then
// for each further job {wait done; run spawn; fork}, then wait for the last
// j. `done` is a counting semaphore, as wait4() reaps every zombie.
//
// SIMPLIFIED: no dependencies between jobs beyond the -j limit (kbuild's
// directory recursion and link steps serialise parts of a real build);
// make's jobserver and recursive sub-makes are not modelled. Of the
// three fork+exec pairs of a job (the shell, the gcc driver, cc1) the
// shell is folded into the driver (make's child execs the driver), and
// `as` (a short fork+exec after cc1) is left out. The driver does not
// wait for cc1: it exits once cc1 is forked (a driver blocked in wait4()
// takes no CPU; only its decaying PELT load differs), and cc1's exit
// wakes make directly (the driver's and the shell's exits are folded into
// it). The CPU of the shell, the driver, exec and page faults is folded
// into `spawn` (make's CPU, default 200 us) and `io` (a sleep before the
// compile, default 1 ms: reading sources and headers that are mostly in
// the page cache); burst lengths come in 8 classes (uniform by default;
// dist "kbuild61" gives them the skewed, long-tailed shape measured on a
// real build).

var genKbuild = &generator{
	kind: "kbuild",
	models: "parallel build (make -jN): make forks `jobs` jobs, at most j at a time; each job's gcc driver execs and forks cc1, which execs, sleeps briefly (I/O) and runs one CPU burst " +
		"(8 length classes, mean `run`, uniform or the measured kernel-build shape, in a seeded order); a fixed amount of work, so completion is the build time",
	params: []Param{
		{Name: "jobs", Type: PInt, Default: "200", Min: 1, Max: 5000, Help: "compile jobs in the build"},
		{Name: "j", Type: PInt, Default: "0", Min: 0, Max: 4096, Help: "make -j; 0 = the number of CPUs"},
		{Name: "run", Type: PDuration, Default: "20ms", Min: int64(10 * us), Max: int64(10 * sec), Help: "mean CPU burst of a job"},
		{Name: "io", Type: PDuration, Default: "1ms", Min: 0, Max: int64(sec), Help: "sleep before each compile (reading sources; estimate)"},
		{Name: "spawn", Type: PDuration, Default: "200us", Min: 0, Max: int64(10 * ms), Help: "make's CPU per job (fork, exec, bookkeeping; estimate)"},
		{Name: "dist", Type: PEnum, Default: "uniform", Enum: kbuildDists, Help: "shape of the job lengths (mean `run`): uniform over (0, 2 run), or kbuild61, the measured Linux 6.1 defconfig compile jobs (kbuild_dist.go)"},
	},
	expand: expandKbuild,
}

const kbuildClasses = 8

func expandKbuild(x *expander) error {
	jobs, j := x.int("jobs"), x.int("j")
	if j == 0 {
		j = x.ncpu
	}
	j = min(j, jobs)
	run, io, spawn, dist := x.dur("run"), x.dur("io"), x.dur("spawn"), x.str("dist")
	order := make([]int, jobs)
	for i := range order {
		order[i] = i % kbuildClasses
	}
	r := x.rng()
	r.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
	mk, done := x.group("make"), x.group("done")
	x.sem(done, 0)
	forkJob := func(prog []Step, i int) []Step {
		if spawn > 0 {
			prog = append(prog, stRun(spawn))
		}
		return append(prog, stFork(x.group(itoa("gcc", order[i]))))
	}
	var prog []Step
	for i := range j {
		prog = forkJob(prog, i)
	}
	for i := j; i < jobs; i++ {
		prog = append(prog, stWait(done))
		prog = forkJob(prog, i)
	}
	for range j {
		prog = append(prog, stWait(done))
	}
	x.add(Task{Name: mk, Instances: 1, Loop: 1, Program: prog})
	for c := range kbuildClasses {
		gcc, cc1 := x.group(itoa("gcc", c)), x.group(itoa("cc", c))
		x.add(Task{Name: gcc, Instances: 1, Parent: mk, Loop: 1, Program: []Step{stExec(), stFork(cc1)}})
		cc := []Step{stExec()}
		if io > 0 {
			cc = append(cc, stSleep(io))
		}
		burst := kbuildBurst(dist, run, c)
		cc = append(cc, stRun(burst), stSignal(done, true))
		x.add(Task{Name: cc1, Instances: 1, Parent: gcc, Loop: 1, Program: cc})
	}
	return nil
}
