package sched

// The menu cpuidle governor, simplified: drivers/cpuidle/governors/menu.c
// menu_select(), menu_update() (via menu_reflect()), which_bucket() and
// get_typical_interval().
//
// Kept from the kernel:
//   - the sleep length is the distance to the CPU's next timer event (its
//     sleepers' hrtimers, hard expiry); a CPU without timers sleeps
//     "forever" (capped at 1 s here, beyond MAX_INTERESTING);
//   - predicted = sleep length x correction_factor[bucket] /
//     (RESOLUTION x DECAY), buckets by decade (<10 us .. >=100 ms); no
//     iowait buckets (the simulator has no I/O), so 6 of the 12 are used;
//   - the typical interval of the last INTERVALS = 8 idle durations: their
//     average if the variance is <= 400 us^2 or avg^2 > 36 x variance,
//     dropping the largest sample while at least 3/4 of the samples are left;
//     predicted = min(predicted, typical);
//   - the deepest state whose target residency <= predicted; POLL only if
//     the next timer comes before the first physical state's residency;
//   - keep the tick if the state is POLL or predicted < TICK_NSEC (and
//     then use no state with a residency beyond the next tick);
//   - menu_update(): measured = residency - exit latency (residency / 2
//     when it is not more than twice the exit latency), at most the sleep
//     length; the factor decays by 1/DECAY and adds RESOLUTION x measured /
//     sleep length (the 3.x form differs, see menuReflect).
//
// Before v4.17 the tick was stopped on every idle entry whatever the
// governor chose (see menuSelect).
//
// Left out: PM QoS latency limits, the iowait and load multipliers of older
// kernels, the "tick already stopped" special cases, and the
// data->needs_update path for wakeups by other interrupts.

const (
	menuBuckets        = 6 // which_bucket() without the iowait half
	menuIntervals      = 8
	menuResolution     = 1024
	menuDecay          = 8
	menuUnity          = menuResolution * menuDecay
	menuMaxInteresting = 50 * Millisecond
	menuNoTimer        = Second
)

type menuState struct {
	correction  [menuBuckets]int64
	bucket      int
	nextTimerNs int64
	intervals   [menuIntervals]int64 // us
	intervalPtr int
	init        bool
}

func menuBucket(d int64) int {
	switch {
	case d < 10*int64(Microsecond):
		return 0
	case d < 100*int64(Microsecond):
		return 1
	case d < int64(Millisecond):
		return 2
	case d < 10*int64(Millisecond):
		return 3
	case d < 100*int64(Millisecond):
		return 4
	}
	return 5
}

// nextTimerDistance is tick_nohz_get_sleep_length() without the tick.
func (s *Sim) nextTimerDistance(rq *rq) int64 {
	d := int64(menuNoTimer)
	for _, tm := range rq.timers {
		if x := int64(tm.hard - s.now); x < d {
			d = max(x, 0)
		}
	}
	return d
}

// typicalInterval mirrors get_typical_interval(); ok false = no pattern.
func (m *menuState) typicalInterval() (int64, bool) {
	thresh := int64(1) << 62
	for {
		var sum, maxv int64
		n := 0
		for _, v := range m.intervals {
			if v <= thresh {
				sum += v
				n++
				maxv = max(maxv, v)
			}
		}
		if n == 0 {
			return 0, false
		}
		avg := sum / int64(n)
		var variance int64
		for _, v := range m.intervals {
			if v <= thresh {
				d := v - avg
				variance += d * d
			}
		}
		variance /= int64(n)
		if variance <= 400 || avg*avg > 36*variance {
			return avg * int64(Microsecond), true
		}
		if n*4 <= menuIntervals*3 {
			return 0, false
		}
		thresh = maxv - 1
	}
}

// menuSelect mirrors menu_select(): the state index and the stop-tick
// verdict. With no cpuidle driver (ideal machine) the kernel's
// cpuidle_idle_call() stops the tick; the simulator keeps the engine's
// earlier behaviour there (the tick stops at its first idle firing).
func (s *Sim) menuSelect(rq *rq) (int, bool) {
	if s.ideal() {
		return 0, false
	}
	m := &rq.idle.menu
	if !m.init {
		m.init = true
		for i := range m.correction {
			m.correction[i] = menuUnity
		}
		for i := range m.intervals {
			// SIMPLIFIED: unknown history counts as long idles, so a fresh
			// CPU is not predicted to wake at once.
			m.intervals[i] = int64(menuNoTimer / Microsecond)
		}
	}
	next := s.nextTimerDistance(rq)
	m.nextTimerNs = next
	m.bucket = menuBucket(next)
	predicted := next * m.correction[m.bucket] / menuUnity
	if typ, ok := m.typicalInterval(); ok && typ < predicted {
		predicted = typ
	}
	idx := 0
	for i := range s.idleStates {
		st := &s.idleStates[i]
		if st.TargetResidencyNs > predicted {
			if i > 0 && s.idleStates[idx].Polling && st.TargetResidencyNs <= next {
				idx = i // a physical state rather than polling, unless a timer is close
			}
			break
		}
		idx = i
	}
	stop := true
	tick := int64(s.tickNs)
	if !s.rules.governorStopsTick {
		// Before "sched: idle: Select idle state before stopping the
		// tick" (554c8aa8ecad, v4.17) the governor had no say:
		// tick_nohz_idle_enter() stopped the tick on every idle entry
		// unless a timer is due within the next jiffy
		// (tick_nohz_stop_sched_tick()).
		if next <= tick {
			stop = false
		}
	} else if s.idleStates[idx].Polling || predicted < tick {
		stop = false
		// menu keeps the tick: no state deeper than the next tick.
		for idx > 0 && s.idleStates[idx].TargetResidencyNs > tick {
			idx--
		}
	}
	if stop && s.feat.Has(NohzRatelimit) && rq.avgIdle < s.sys.MigrationCostNs {
		stop = false // "sched: ratelimit nohz": sched_needs_cpu() (tick_nohz.go)
	}
	return idx, stop
}

// menuReflect mirrors menu_update() for a residency of d ns in the state.
//
// v5.x/v6.x (menu.c at torvalds/linux 010e85f9, and the ns conversion of
// the same code): measured = residency - exit latency if the residency is
// more than twice the exit latency, else residency / 2; then clamped to
// next_timer ("Make sure our coefficients do not exceed unity"); the
// clamped value also goes into intervals[]. The 3.x menu_update() (copies
// with data->exit_us and __get_cpu_var()) subtracted the exit latency only
// when the residency exceeded it and did not clamp; that form is used for
// profiles before v5.0 (the commit that changed it is not resolved; no
// profile lies between). Those copies also store the raw residency
// (last_idle_us) in intervals[]; the simulator keeps the exit-corrected
// value there for v3.11 [M: not changed, it moves the S4 calibration and
// belongs to the v3.11 accounting work].
func (s *Sim) menuReflect(rq *rq, d int64) {
	if s.ideal() {
		return
	}
	m := &rq.idle.menu
	measured := d
	lat := s.idleStates[rq.idle.state].ExitLatencyNs
	if !s.rules.menuUpdateV5 {
		if measured > lat {
			measured -= lat
		}
	} else {
		if measured > 2*lat {
			measured -= lat
		} else {
			measured /= 2
		}
		measured = min(measured, m.nextTimerNs)
	}
	f := m.correction[m.bucket]
	f -= f / menuDecay
	if m.nextTimerNs > 0 && measured < int64(menuMaxInteresting) {
		f += menuResolution * measured / m.nextTimerNs
	} else {
		f += menuResolution
	}
	if f == 0 {
		f = 1
	}
	m.correction[m.bucket] = f
	m.intervals[m.intervalPtr] = measured / int64(Microsecond)
	m.intervalPtr = (m.intervalPtr + 1) % menuIntervals
}
