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
// Model: per group, a counting semaphore `<name>.g<G>.data` holds the
// written, unread messages, and `<name>.g<G>.space` the free buffer room
// (initially fds x capacity). Sender: loops x fds times {wait space; run
// cost; signal data (sync)}; receiver: loops x fds times {wait data; run
// cost; signal space (sync)}.
//
// SIMPLIFIED:
//   - the receivers of a group share one queue: a message wakes the
//     receiver of the group that has waited longest, not the owner of the
//     pipe it was written to; each receiver still reads loops x fds
//     messages and the group's total is exact.
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
	cost, capacity := 2*us, hackbenchSocketMsgs
	if x.str("mode") == "pipe" {
		cost, capacity = 1*us, hackbenchPipeMsgs
	}
	if x.given("cost") {
		cost = x.dur("cost")
	}
	for g := range groups {
		data, space := x.group(itoa("g", g)+".data"), x.group(itoa("g", g)+".space")
		x.sem(data, 0)
		x.sem(space, fds*capacity)
		x.add(Task{Name: x.group(itoa("g", g) + ".snd"), Instances: fds, Loop: 1,
			Program: []Step{stLoop(loops, stLoop(fds, stWait(space), stRun(cost), stSignal(data, true)))}})
		x.add(Task{Name: x.group(itoa("g", g) + ".rcv"), Instances: fds, Loop: 1,
			Program: []Step{stLoop(loops*fds, stWait(data), stRun(cost), stSignal(space, true))}})
	}
	return nil
}
