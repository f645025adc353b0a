package sched

// nohz.idle_cpus_mask membership (nohz_mask.go): a CPU joins when its tick
// stops (nohz_balance_enter_idle() from tick_nohz_idle_stop_tick()), stays
// through the tick's restart and an idle tick (nohz_balancer_kick() returns
// before nohz_balance_exit_idle() when rq->idle_balance is set), and leaves
// at its first busy tick; a CPU without sched domains never joins.

import "testing"

func TestNohzMaskFollowsTheStoppedTick(t *testing.T) {
	b := newRun(t).topology("smp-2").kernel("v6.18").duration(10 * Millisecond)
	b.task("w").cpus(0).run(Millisecond)
	cfg := b.config()
	cfg.HW = DefaultHW(&cfg.Machine)
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rq := &s.rqs[1]
	if s.inNohzMask(1) {
		t.Fatal("cpu 1 in the mask before its tick stopped")
	}
	s.armTick(rq)
	s.tickNohzStop(rq)
	if !s.inNohzMask(1) {
		t.Fatal("cpu 1 not in the mask after its tick stopped")
	}
	s.tickNohzRestart(rq)
	if !s.inNohzMask(1) {
		t.Error("cpu 1 left the mask at the tick's restart: it leaves at its first busy tick")
	}
	s.triggerLoadBalance(rq, true) // an idle tick: rq->idle_balance
	if !s.inNohzMask(1) {
		t.Error("cpu 1 left the mask at an idle tick")
	}
	s.triggerLoadBalance(rq, false) // the first busy tick
	if s.inNohzMask(1) {
		t.Error("cpu 1 still in the mask after a busy tick")
	}

	b = newRun(t).topology("smp-1").kernel("v6.18").duration(10 * Millisecond)
	b.task("w").run(Millisecond)
	cfg = b.config()
	cfg.HW = DefaultHW(&cfg.Machine)
	if s, err = New(cfg); err != nil {
		t.Fatal(err)
	}
	s.armTick(&s.rqs[0])
	s.tickNohzStop(&s.rqs[0])
	if s.inNohzMask(0) {
		t.Error("smp-1's cpu 0 (no sched domains) joined the mask")
	}
}
