package scenario

// Generator "schbench": a schbench-like request loop (Chris Mason's
// schbench, git.kernel.org/pub/scm/linux/kernel/git/mason/schbench.git).
//
// schbench starts `messages` message threads, each with `workers` worker
// threads. A worker posts a request to its message thread and sleeps on a
// futex; the message thread wakes up, takes the request and wakes the
// worker, which runs the request (CPU work: schbench's matrix multiply)
// and posts the next one. schbench reports the workers' wakeup latency
// percentiles (from the wake to the worker running), the request latency
// and requests per second.
//
// Model: per message thread M, semaphores `<name>.req<M>` (posted
// requests) and `<name>.go<M>` (workers released). Worker: {signal req;
// wait go; run work; sleep sleep (if > 0)}; message thread: {wait req;
// run cost; signal go}. Metrics: the wakeup latency of the worker groups
// (`latency.p99@<name>.w<M>`) is schbench's wakeup latency; wakeups of
// the workers per second are its RPS. Request latency (post to done) is
// not a metric of the simulator: it is the wakeup latencies of the message
// thread and the worker plus cost and work.
//
// SIMPLIFIED: a message thread wakes one worker per request it takes
// (schbench's takes the whole posted list and wakes each, a burst of
// wakeups from one CPU); futex wakeups carry no WF_SYNC, as in the kernel;
// the work is CPU time without schbench's cache footprint.

var genSchbench = &generator{
	kind: "schbench",
	models: "schbench-like: message threads each waking their worker threads for requests of CPU work; " +
		"the worker groups' wakeup latency (latency.p99@NAME.wM) is schbench's wakeup latency, their wakeups per second its RPS",
	params: []Param{
		{Name: "messages", Type: PInt, Default: "2", Min: 1, Max: 256, Help: "message threads (schbench -m)"},
		{Name: "workers", Type: PInt, Default: "16", Min: 1, Max: 1024, Help: "worker threads per message thread (schbench -t)"},
		{Name: "work", Type: PDuration, Default: "1ms", Min: int64(us), Max: int64(sec), Help: "CPU work per request"},
		{Name: "sleep", Type: PDuration, Default: "0s", Min: 0, Max: int64(sec), Help: "a worker's sleep after each request (0 = post the next at once)"},
		{Name: "cost", Type: PDuration, Default: "5us", Min: 10, Max: int64(ms), Help: "message thread CPU per request (futex wake, list handling; estimate)"},
	},
	expand: expandSchbench,
}

func expandSchbench(x *expander) error {
	msgs, workers := x.int("messages"), x.int("workers")
	if msgs*(workers+1) > maxWorkloadTasks {
		return x.fail("workers", "%d message threads with %d workers each are %d tasks; the limit is %d", msgs, workers, msgs*(workers+1), maxWorkloadTasks)
	}
	work, sleep, cost := x.dur("work"), x.dur("sleep"), x.dur("cost")
	for m := range msgs {
		req, gov := x.group(itoa("req", m)), x.group(itoa("go", m))
		x.sem(req, 0)
		x.sem(gov, 0)
		x.add(Task{Name: x.group(itoa("m", m)), Instances: 1, Loop: -1,
			Program: []Step{stWait(req), stRun(cost), stSignal(gov, false)}})
		prog := []Step{stSignal(req, false), stWait(gov), stRun(work)}
		if sleep > 0 {
			prog = append(prog, stSleep(sleep))
		}
		x.add(Task{Name: x.group(itoa("w", m)), Instances: workers, Loop: -1, Program: prog})
	}
	return nil
}
