package sched

// The run errors of locks.go quote the scenario's mutex and task names
// bounded (core/quote): a long name is clipped, a long list or cycle has
// its tail counted, so the message stays a line.

import (
	"fmt"
	"strings"
	"testing"
)

// maxLockErr bounds one lock error: the fixed text, a few clipped names
// and two lists of at most 2*quote.Max bytes each.
const maxLockErr = 800

func TestExitHoldingManyLongMutexes(t *testing.T) {
	name := strings.Repeat("t", 5000)
	b := newRun(t).task(name).loop(1)
	for i := range 40 {
		b.lock(fmt.Sprintf("m%02d-%s", i, strings.Repeat("x", 1000)))
	}
	r := b.build()
	r.RunUntil(Second)
	err := r.Err()
	if err == nil || !strings.Contains(err.Error(), "exits holding mutex") {
		t.Fatalf("Err = %v, want the exit-holding error", err)
	}
	msg := err.Error()
	if len(msg) > maxLockErr || !strings.Contains(msg, `"m00-xxx`) || !strings.Contains(msg, " more)") {
		t.Errorf("error of %d bytes, want at most %d naming the first mutex and counting the rest: %.400s", len(msg), maxLockErr, msg)
	}
}

func TestDeadlockCycleBounded(t *testing.T) {
	const n = 30
	b := newRun(t)
	long := strings.Repeat("y", 1000)
	for i := range n {
		// Each task takes its own mutex, sleeps, then wants the next
		// one's: the last to wake closes a cycle through all n.
		b.task(fmt.Sprintf("task%02d-%s", i, long)).loop(1).
			lock(fmt.Sprintf("m%02d-%s", i, long)).sleep(Time(i+1) * Millisecond).
			lock(fmt.Sprintf("m%02d-%s", (i+1)%n, long)).run(Millisecond)
	}
	r := b.build()
	r.RunUntil(Second)
	err := r.Err()
	if err == nil || !strings.Contains(err.Error(), "deadlock") {
		t.Fatalf("Err = %v, want a deadlock", err)
	}
	msg := err.Error()
	if len(msg) > maxLockErr || !strings.Contains(msg, "which waits for") || !strings.Contains(msg, " more)") {
		t.Errorf("error of %d bytes, want at most %d with the cycle's tail counted: %.400s", len(msg), maxLockErr, msg)
	}
}

func TestUnlockNotHeldBounded(t *testing.T) {
	long := strings.Repeat("z", 5000)
	r := newRun(t).task("a-" + long).loop(1).run(Millisecond).unlock("m-" + long).build()
	r.RunUntil(Second)
	err := r.Err()
	if err == nil || !strings.Contains(err.Error(), "(EPERM)") {
		t.Fatalf("Err = %v, want the EPERM unlock error", err)
	}
	if msg := err.Error(); len(msg) > maxLockErr || !strings.Contains(msg, "(5002 bytes)") {
		t.Errorf("error of %d bytes, want at most %d with the names clipped: %.400s", len(msg), maxLockErr, msg)
	}
}
