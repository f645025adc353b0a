//go:build ignore

// (The line above keeps the go tool from treating this file as cgo source.)

// worker.c - CPU workloads for the schedplay real-kernel harness (main.go).
//
// Usage:  worker [-n NAME] [-t MAXSEC] hog
//         worker [-n NAME] [-t MAXSEC] periodic RUN_US PERIOD_US
//         worker [-n NAME] [-t MAXSEC] runsleep RUN_US SLEEP_US [RUN_US SLEEP_US ...]
//         worker [-t MAXSEC] pipe LOOPS CPU_A CPU_B
//         worker [-n NAME] [-t MAXSEC] sleeper SLEEP_US [SLEEP_US ...]
//         worker [-n NAME] [-t MAXSEC] pipewake GAP_US CPU_A CPU_B
//
//   hog       spin forever incrementing a volatile counter (never blocks).
//   periodic  rt-app "run" + "timer" in absolute mode: anchor t_next = now; loop:
//             burn RUN_US of this thread's CPU time (CLOCK_THREAD_CPUTIME_ID, so
//             time spent preempted does not count), t_next += PERIOD_US; if now <
//             t_next sleep with clock_nanosleep(TIMER_ABSTIME) on CLOCK_MONOTONIC,
//             else (overrun) go straight on without re-anchoring the grid.
//   runsleep  the scenario program [run R1, sleep S1, run R2, sleep S2, ...] looped
//             forever: burn Ri of thread CPU time as periodic does, then
//             clock_nanosleep(Si) relative on CLOCK_MONOTONIC (the simulator's
//             `sleep` step). At most 64 pairs.
//   pipe      perf bench sched pipe: the process forks a child; the parent, pinned
//             to CPU_A, writes one byte into pipe 1 and reads one from pipe 2,
//             LOOPS times; the child, pinned to CPU_B, reads pipe 1 and writes
//             pipe 2. No handshake: it prints one line
//             "loops=N ns=ELAPSED user_ns=U sys_ns=S" (CLOCK_MONOTONIC around
//             the loops; getrusage of both processes) and exits.
//   sleeper   clock_nanosleep(SLEEP_US) relative on CLOCK_MONOTONIC, the lengths
//             in turn, forever, doing nothing else: timer wakeups (vmcosts.go).
//   pipewake  the process forks a child; the parent, pinned to CPU_A, sleeps
//             GAP_US, writes one byte into pipe 1 and reads the reply from pipe 2,
//             forever; the child, pinned to CPU_B, reads pipe 1 and writes pipe 2
//             and exits when the parent has gone (end of file). Each byte is a
//             pipe wakeup across CPUs onto a CPU that idles (vmcosts.go).
//   -n NAME   set the task's comm (as seen in /proc and ftrace).
//   -t MAXSEC exit via SIGALRM after MAXSEC seconds, a safety net in case the
//             harness dies without killing us.
//
// Start handshake on stdin/stdout, so the harness can set affinity, nice and policy
// while the worker sleeps and read a clean baseline of its counters: the worker
// writes "r" and blocks reading stdin; each byte it reads makes it write "r" and
// block again; end of file starts the workload. `worker hog </dev/null` starts at once.
//
// The loops make no library calls except clock_gettime/clock_nanosleep and
// the pipe read/write (plain system calls); nothing allocates or prints once
// the workload has started.
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_SEC 1000000000LL

static volatile unsigned long counter;

static long long now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void hog(void)
{
	for (;;)
		counter++;
}

// burn spins until this thread has consumed cpu_ns more CPU time. The clock is
// read every 1024 increments (1-3 us) to keep the syscall cost small.
static void burn(long long cpu_ns)
{
	long long end = now_ns(CLOCK_THREAD_CPUTIME_ID) + cpu_ns;

	do {
		for (int i = 0; i < 1024; i++)
			counter++;
	} while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end);
}

static void periodic(long long run_ns, long long period_ns)
{
	long long next = now_ns(CLOCK_MONOTONIC);

	for (;;) {
		burn(run_ns);
		next += period_ns;
		if (now_ns(CLOCK_MONOTONIC) < next) {
			struct timespec ts = { .tv_sec = next / NSEC_PER_SEC,
					       .tv_nsec = next % NSEC_PER_SEC };
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
	}
}

#define MAX_PAIRS 64

static void runsleep(const long long *run_ns, const long long *sleep_ns, int n)
{
	for (;;) {
		for (int i = 0; i < n; i++) {
			struct timespec ts = { .tv_sec = sleep_ns[i] / NSEC_PER_SEC,
					       .tv_nsec = sleep_ns[i] % NSEC_PER_SEC };

			burn(run_ns[i]);
			clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		}
	}
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static long long tv_ns(struct timeval tv)
{
	return tv.tv_sec * NSEC_PER_SEC + tv.tv_usec * 1000LL;
}

static int pipe_pingpong(long long loops, int cpu_a, int cpu_b)
{
	int p1[2], p2[2];
	char c = 0;
	pid_t child;
	long long t0, t1;
	struct rusage self, kids;
	int st;

	if (pipe(p1) < 0 || pipe(p2) < 0)
		return 1;
	child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		// Only the parent writes pipe 1: if it dies (the harness's
		// timeout kills it), the read sees end of file and the child
		// exits instead of holding the harness's stdout open forever.
		close(p1[1]);
		close(p2[0]);
		if (pin(cpu_b) < 0)
			_exit(1);
		for (long long i = 0; i < loops; i++) {
			if (read(p1[0], &c, 1) != 1 || write(p2[1], &c, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	close(p1[0]);
	close(p2[1]);
	if (pin(cpu_a) < 0)
		return 1;
	t0 = now_ns(CLOCK_MONOTONIC);
	for (long long i = 0; i < loops; i++) {
		if (write(p1[1], &c, 1) != 1 || read(p2[0], &c, 1) != 1)
			return 1;
	}
	t1 = now_ns(CLOCK_MONOTONIC);
	if (waitpid(child, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 1;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	printf("loops=%lld ns=%lld user_ns=%lld sys_ns=%lld\n", loops, t1 - t0,
	       tv_ns(self.ru_utime) + tv_ns(kids.ru_utime), tv_ns(self.ru_stime) + tv_ns(kids.ru_stime));
	return 0;
}

static void sleeper(const long long *sleep_ns, int n)
{
	for (;;) {
		for (int i = 0; i < n; i++) {
			struct timespec ts = { .tv_sec = sleep_ns[i] / NSEC_PER_SEC,
					       .tv_nsec = sleep_ns[i] % NSEC_PER_SEC };

			clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		}
	}
}

static int pipewake(long long gap_ns, int cpu_a, int cpu_b)
{
	int p1[2], p2[2];
	char c = 0;
	struct timespec ts = { .tv_sec = gap_ns / NSEC_PER_SEC, .tv_nsec = gap_ns % NSEC_PER_SEC };

	if (pipe(p1) < 0 || pipe(p2) < 0)
		return 1;
	switch (fork()) {
	case -1:
		return 1;
	case 0:
		close(p1[1]);
		close(p2[0]);
		if (pin(cpu_b) < 0)
			_exit(1);
		while (read(p1[0], &c, 1) == 1)
			if (write(p2[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(p1[0]);
	close(p2[1]);
	if (pin(cpu_a) < 0)
		return 1;
	for (;;) {
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		if (write(p1[1], &c, 1) != 1 || read(p2[0], &c, 1) != 1)
			return 1;
	}
}

// handshake implements the stdin/stdout start protocol described at the top.
static void handshake(void)
{
	char c;

	for (;;) {
		if (write(1, "r", 1) < 0) {
			// Nobody listening (stdout closed): fine, carry on.
		}
		if (read(0, &c, 1) <= 0)
			return;
	}
}

static int usage(void)
{
	static const char msg[] =
		"usage: worker [-n NAME] [-t MAXSEC] hog | periodic RUN_US PERIOD_US |"
		" runsleep RUN_US SLEEP_US [...] | pipe LOOPS CPU_A CPU_B |"
		" sleeper SLEEP_US [...] | pipewake GAP_US CPU_A CPU_B\n";
	write(2, msg, sizeof(msg) - 1);
	return 2;
}

int main(int argc, char **argv)
{
	int i = 1;

	while (i + 1 < argc && argv[i][0] == '-') {
		if (strcmp(argv[i], "-n") == 0)
			prctl(PR_SET_NAME, argv[i + 1], 0, 0, 0);
		else if (strcmp(argv[i], "-t") == 0)
			alarm((unsigned)atoi(argv[i + 1]));
		else
			return usage();
		i += 2;
	}
	if (i < argc && strcmp(argv[i], "hog") == 0 && i + 1 == argc) {
		handshake();
		hog();
	}
	if (i < argc && strcmp(argv[i], "periodic") == 0 && i + 3 == argc) {
		long long run_us = atoll(argv[i + 1]), period_us = atoll(argv[i + 2]);

		if (run_us <= 0 || period_us <= 0)
			return usage();
		handshake();
		periodic(run_us * 1000, period_us * 1000);
	}
	if (i < argc && strcmp(argv[i], "runsleep") == 0 && argc - i - 1 >= 2 && (argc - i - 1) % 2 == 0 &&
	    (argc - i - 1) / 2 <= MAX_PAIRS) {
		static long long run_ns[MAX_PAIRS], sleep_ns[MAX_PAIRS];
		int n = (argc - i - 1) / 2;

		for (int k = 0; k < n; k++) {
			run_ns[k] = atoll(argv[i + 1 + 2 * k]) * 1000;
			sleep_ns[k] = atoll(argv[i + 2 + 2 * k]) * 1000;
			if (run_ns[k] <= 0 || sleep_ns[k] <= 0)
				return usage();
		}
		handshake();
		runsleep(run_ns, sleep_ns, n);
	}
	if (i < argc && strcmp(argv[i], "sleeper") == 0 && argc - i - 1 >= 1 && argc - i - 1 <= MAX_PAIRS) {
		static long long sleep_ns[MAX_PAIRS];
		int n = argc - i - 1;

		for (int k = 0; k < n; k++) {
			sleep_ns[k] = atoll(argv[i + 1 + k]) * 1000;
			if (sleep_ns[k] <= 0)
				return usage();
		}
		handshake();
		sleeper(sleep_ns, n);
	}
	if (i < argc && strcmp(argv[i], "pipewake") == 0 && i + 4 == argc) {
		long long gap_us = atoll(argv[i + 1]);

		if (gap_us <= 0)
			return usage();
		handshake();
		return pipewake(gap_us * 1000, atoi(argv[i + 2]), atoi(argv[i + 3]));
	}
	if (i < argc && strcmp(argv[i], "pipe") == 0 && i + 4 == argc) {
		long long loops = atoll(argv[i + 1]);

		if (loops <= 0)
			return usage();
		return pipe_pingpong(loops, atoi(argv[i + 2]), atoi(argv[i + 3]));
	}
	return usage();
}
