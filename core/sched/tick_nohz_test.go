package sched

// Clock-event writes of a tick stop and restart (tick_nohz.go; v3.11
// kernel/time/hrtimer.c __remove_hrtimer(), hrtimer_force_reprogram(),
// hrtimer_reprogram()): unpatched, removing the tick reprograms the event
// and the new expiry is programmed (two writes each way); with
// HRTIMER_NO_REPROGRAM_ON_REMOVE the event stays armed for the old tick, so
// a stop and a restart before that instant write nothing and a restart
// after it writes the next tick once.

import "testing"

func TestTickStopRestartClockEventWrites(t *testing.T) {
	for _, patched := range []bool{false, true} {
		b := newRun(t).topology("xeon-2s8c-2013").kernel("v3.11").duration(10*Millisecond).
			feature(HrtimerNoReprogramOnRemove, patched)
		b.task("w").cpus(0).run(Millisecond)
		cfg := b.config()
		cfg.HW = DefaultHW(&cfg.Machine)
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		ce, stopBK, restartBK := s.hw.ClockEventNs, s.hw.TickStopNs, s.hw.TickRestart
		if ce == 0 || stopBK == 0 || restartBK == 0 {
			t.Fatalf("machine costs: clockevent %d, stop %d, restart %d: want all > 0", ce, stopBK, restartBK)
		}
		writes := int64(2)
		if patched {
			writes = 0
		}
		rq := &s.rqs[1]
		// A CPU idling 5 us inside a jiffy (the S4 ping-pong).
		s.now = s.tickOffset + 7*s.tickNs + 3*Microsecond
		s.armTick(rq)
		if got, want := s.tickStopCost(), stopBK+writes*ce; got != want {
			t.Errorf("patched=%v: stop costs %d, want %d (%d writes)", patched, got, want, writes)
		}
		s.tickNohzStop(rq)
		if want := s.tickOffset + 8*s.tickNs; rq.idle.lastTick != want {
			t.Errorf("patched=%v: last_tick %s, want the armed tick %s", patched, rq.idle.lastTick, want)
		}
		s.now += 5 * Microsecond
		if got, want := s.tickNohzRestart(rq), restartBK+writes*ce; got != want {
			t.Errorf("patched=%v: restart within the jiffy costs %d, want %d (%d writes)", patched, got, want, writes)
		}
		// An idle period across the old tick: its interrupt reprogrammed
		// the event to the far expiry, the restart programs the next tick.
		s.tickNohzStop(rq)
		s.now = rq.idle.lastTick + 20*Microsecond
		want := restartBK + 2*ce
		if patched {
			want = restartBK + ce
		}
		if got := s.tickNohzRestart(rq); got != want {
			t.Errorf("patched=%v: restart after the old tick costs %d, want %d", patched, got, want)
		}
	}
}
