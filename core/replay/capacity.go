package replay

// The speed a burst ran at: the CPU's capacity (arch_scale_cpu_capacity(),
// from the machine) times its current frequency over its highest
// (arch_scale_freq_capacity(), from the trace's cpu_frequency lines), so
// that a burst's work is what it would take on a CPU of capacity 1024 at
// full speed, as the simulator's run steps are measured.

import "schedplay/core/sched"

// capacity is the CPU's capacity at its current frequency, of 1024.
func (in *inferrer) capacity(cpu int) sched.Time {
	c := sched.Time(1024)
	if cpu >= 0 && cpu < len(in.opts.Capacity) && in.opts.Capacity[cpu] > 0 {
		c = sched.Time(in.opts.Capacity[cpu])
	}
	if cpu >= 0 && cpu < len(in.khz) && in.khz[cpu] > 0 && in.maxKHz[cpu] > 0 {
		c = c * sched.Time(min(in.khz[cpu], in.maxKHz[cpu])) / sched.Time(in.maxKHz[cpu])
	}
	return max(c, 1)
}

// freqsUntil applies the frequency changes up to now, accounting the work
// of the task running on each CPU at its old frequency first.
func (in *inferrer) freqsUntil(now sched.Time) {
	for ; in.nextFreq < len(in.tr.Freqs) && in.tr.Freqs[in.nextFreq].Time <= now; in.nextFreq++ {
		f := in.tr.Freqs[in.nextFreq]
		if id := in.on[f.CPU]; id != sched.NoTask {
			in.account(id, f.Time)
		}
		in.khz[f.CPU] = f.KHz
	}
}
