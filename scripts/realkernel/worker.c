//go:build ignore

// (The line above keeps the go tool from treating this file as cgo source.)

// worker.c - CPU workloads for the schedplay real-kernel harness (main.go).
//
// Usage:  worker [-n NAME] [-t MAXSEC] hog
//         worker [-n NAME] [-t MAXSEC] periodic RUN_US PERIOD_US
//
//   hog       spin forever incrementing a volatile counter (never blocks).
//   periodic  rt-app "run" + "timer" in absolute mode: anchor t_next = now; loop:
//             burn RUN_US of this thread's CPU time (CLOCK_THREAD_CPUTIME_ID, so
//             time spent preempted does not count), t_next += PERIOD_US; if now <
//             t_next sleep with clock_nanosleep(TIMER_ABSTIME) on CLOCK_MONOTONIC,
//             else (overrun) go straight on without re-anchoring the grid.
//   -n NAME   set the task's comm (as seen in /proc and ftrace).
//   -t MAXSEC exit via SIGALRM after MAXSEC seconds, a safety net in case the
//             harness dies without killing us.
//
// Start handshake on stdin/stdout, so the harness can set affinity, nice and policy
// while the worker sleeps and read a clean baseline of its counters: the worker
// writes "r" and blocks reading stdin; each byte it reads makes it write "r" and
// block again; end of file starts the workload. `worker hog </dev/null` starts at once.
//
// The loops make no library calls except clock_gettime/clock_nanosleep (plain
// system calls); nothing allocates or prints once the workload has started.
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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
		"usage: worker [-n NAME] [-t MAXSEC] hog | periodic RUN_US PERIOD_US\n";
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
	return usage();
}
