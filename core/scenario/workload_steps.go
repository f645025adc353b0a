package scenario

// Step constructors for the workload generators.

import (
	"strconv"

	"schedplay/core/sched"
)

const (
	us  = sched.Microsecond
	ms  = sched.Millisecond
	sec = sched.Second
)

func stRun(d Duration) Step   { return Step{Kind: "run", Run: d} }
func stSleep(d Duration) Step { return Step{Kind: "sleep", Sleep: d} }
func stWait(res string) Step  { return Step{Kind: "wait", Res: res} }

// stSignal is a signal; sync marks a WF_SYNC wakeup (the waker is about to
// block, or the kernel path uses a _sync wake_up).
func stSignal(res string, sync bool) Step { return Step{Kind: "signal", Res: res, Sync: sync} }

func stTimer(ref string, period Duration, mode string) Step {
	return Step{Kind: "timer", Timer: &Timer{Ref: ref, Period: period, Mode: mode}}
}

func stLoop(count int, body ...Step) Step {
	return Step{Kind: "loop", Loop: &Loop{Count: count, Program: body}}
}

func stFork(group string) Step { return Step{Kind: "fork", Fork: group} }

// stExec is an execve(): sched_exec() balancing (core/sched/sched_exec.go).
func stExec() Step { return Step{Kind: "exec"} }

// scaled returns d * pct / 100, at least 1 ns.
func scaled(d Duration, pct int) Duration {
	return max(d*Duration(pct)/100, 1)
}

// itoa is prefix followed by n in decimal ("g", 3 -> "g3").
func itoa(prefix string, n int) string { return prefix + strconv.Itoa(n) }
