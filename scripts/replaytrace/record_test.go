//go:build linux

package main

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestSleepEndsOnSignal: a recording's waits end when the signal context
// does, so the deferred cleanup removes the instance at once.
func TestSleepEndsOnSignal(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if err := sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("sleep on a cancelled context: %v, want context.Canceled", err)
	}
	if time.Since(start) > time.Minute {
		t.Fatal("sleep waited despite the cancelled context")
	}
	if err := sleep(context.Background(), time.Millisecond); err != nil {
		t.Fatalf("sleep 1ms: %v", err)
	}
}
