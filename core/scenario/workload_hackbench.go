package scenario

// Generator "hackbench": hackbench / perf bench sched messaging
// (rt-tests src/hackbench/hackbench.c, tools/perf/bench/sched-messaging.c).
//
// What the program does: `groups` groups of `fds` senders and `fds`
// receivers. Each receiver owns one pipe (-p) or AF_UNIX stream socket
// pair (the default); each sender writes `loops` rounds of one 100-byte
// message to every receiver of its group; each receiver reads
// loops x fds messages, one read per message, then exits. The time
// reported is from the start until every receiver is done, which is
// `completion` here. A writer wakes a blocked reader with WF_SYNC
// (pipe_write() and sock_def_readable() use
// wake_up_interruptible_sync_poll()); a reader that frees room wakes a
// blocked writer the same way (pipe_read(), unix_write_space()). Writers
// block only when the buffer is full.
//
// Model: receiver R of group G is a task group of its own,
// `<name>.g<G>.rcv<R>` (its pipe is its own resource), the senders of a
// group are one task group `<name>.g<G>.snd` with fds instances. Each pipe
// is two counting semaphores: `<name>.g<G>.p<R>.data` holds the written,
// unread messages, `<name>.g<G>.p<R>.space` the free room (initially the
// capacity). Sender: loops times, for each receiver R in order {wait
// space R; run cost; signal data R (sync)}; receiver R: loops x fds times
// {wait data R; run cost; signal space R (sync)}. So a receiver blocks
// exactly when its own pipe is empty and a sender when the pipe it
// writes is full, as in the kernel.
//
// SIMPLIFIED:
//   - a reader that frees room wakes one blocked writer per message; the
//     kernel wakes the writers when a page (40 messages) is free.
//   - capacity: a pipe holds 16 pages of 40 merged 100-byte messages (640);
//     a socket's sk_sndbuf (wmem_default 212992) holds about 277 messages
//     of ~768 bytes truesize (SKB_TRUESIZE of a small skb), an estimate.
//   - the per-message syscall cost is a fixed CPU time (cost): default
//     1 us for a pipe read or write and 2 us for a socket sendmsg/recvmsg
//     (skb allocation and free), estimates on a current x86 core.
//   - hackbench's start-up handshake (all tasks poll a wakeup fd) and the
//     parent's fork/wait are left out: every task starts at time 0.
//   - threads (-T) and processes are the same here, as for pipe.

var genHackbench = &generator{
	kind: "hackbench",
	models: "hackbench / perf bench sched messaging: groups of fds senders and fds receivers; every sender writes loops messages " +
		"to every receiver of its group over pipes or AF_UNIX sockets (WF_SYNC wakeups, writers block when the buffer is full); " +
		"completion is hackbench's Time",
	params: []Param{
		{Name: "groups", Type: PInt, Default: "10", Min: 1, Max: 1000, Help: "groups (hackbench -g)"},
		{Name: "fds", Type: PInt, Default: "20", Min: 1, Max: 100, Help: "senders and receivers per group (hackbench -f)"},
		{Name: "loops", Type: PInt, Default: "100", Min: 1, Max: 1_000_000, Help: "messages each sender sends each receiver (hackbench -l)"},
		{Name: "mode", Type: PEnum, Default: "socket", Enum: []string{"socket", "pipe"}, Help: "AF_UNIX socket pairs (hackbench's default) or pipes (-p)"},
		{Name: "cost", Type: PDuration, Min: 10, Max: int64(ms), Help: "CPU cost of one message write or read (default 1us for pipes, 2us for sockets; estimates)"},
	},
	expand: expandHackbench,
}

// Buffer capacity in 100-byte messages (see above).
const (
	hackbenchPipeMsgs   = 640
	hackbenchSocketMsgs = 277
)

func expandHackbench(x *expander) error {
	groups, fds, loops := x.int("groups"), x.int("fds"), x.int("loops")
	if groups*fds*2 > maxWorkloadTasks {
		return x.fail("groups", "%d groups of %d senders and %d receivers are %d tasks; the limit is %d", groups, fds, fds, groups*fds*2, maxWorkloadTasks)
	}
	if groups*(fds+1) > maxWorkloadGroups {
		return x.fail("groups", "%d groups of %d receivers and a sender group are %d task groups; the limit is %d", groups, fds, groups*(fds+1), maxWorkloadGroups)
	}
	cost, capacity := 2*us, hackbenchSocketMsgs
	if x.str("mode") == "pipe" {
		cost, capacity = 1*us, hackbenchPipeMsgs
	}
	if x.given("cost") {
		cost = x.dur("cost")
	}
	for g := range groups {
		grp := itoa("g", g)
		var round []Step // one message to every receiver of the group
		for r := range fds {
			pipe := x.group(grp + itoa(".p", r))
			x.sem(pipe+".data", 0)
			x.sem(pipe+".space", capacity)
			round = append(round, stWait(pipe+".space"), stRun(cost), stSignal(pipe+".data", true))
		}
		x.add(Task{Name: x.group(grp + ".snd"), Instances: fds, Loop: 1, Program: []Step{stLoop(loops, round...)}})
		for r := range fds {
			pipe := x.group(grp + itoa(".p", r))
			x.add(Task{Name: x.group(grp + itoa(".rcv", r)), Instances: 1, Loop: 1,
				Program: []Step{stLoop(loops*fds, stWait(pipe+".data"), stRun(cost), stSignal(pipe+".space", true))}})
		}
	}
	return nil
}
