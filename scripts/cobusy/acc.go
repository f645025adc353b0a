package main

// The accumulator of cobusy: CPU-seconds by contention state.

import (
	"fmt"
	"io"
)

const maxMates = 8 // l2_kN columns kept (N >= maxMates-1 share the last)

type acc struct {
	smtAlone, smtPaired float64
	l2k                 [maxMates]float64
	lostSMT, lostL2     float64
	end                 float64
}

// interval adds dt seconds of the current busy state.
func (a *acc) interval(busy []bool, sh shape, dt, smtPct, l2Pct float64) {
	if dt <= 0 {
		return
	}
	for c, b := range busy {
		if !b {
			continue
		}
		if len(sh.smt[c]) > 0 {
			paired := false
			for _, x := range sh.smt[c] {
				paired = paired || busy[x]
			}
			if paired {
				a.smtPaired += dt
				a.lostSMT += dt * sh.cap[c] * smtPct / 100
			} else {
				a.smtAlone += dt
			}
		}
		if len(sh.l2[c]) > 0 {
			k := 0
			for _, x := range sh.l2[c] {
				if busy[x] {
					k++
				}
			}
			a.l2k[min(k, maxMates-1)] += dt
			a.lostL2 += dt * sh.cap[c] * min(l2Pct*float64(k), 90) / 100
		}
	}
}

func (a *acc) add(b *acc) {
	a.smtAlone += b.smtAlone
	a.smtPaired += b.smtPaired
	for i := range a.l2k {
		a.l2k[i] += b.l2k[i]
	}
	a.lostSMT += b.lostSMT
	a.lostL2 += b.lostL2
	a.end += b.end
}

func (a *acc) print(w io.Writer, n float64) {
	fmt.Fprintf(w, "files %g (means per file, CPU-seconds)\n", n)
	fmt.Fprintf(w, "smt_alone %.3f  smt_paired %.3f\n", a.smtAlone/n, a.smtPaired/n)
	last := 0
	for i, v := range a.l2k {
		if v > 0 {
			last = i
		}
	}
	for i := 0; i <= last; i++ {
		fmt.Fprintf(w, "l2_k%d %.3f  ", i, a.l2k[i]/n)
	}
	fmt.Fprintf(w, "\nlost_smt %.3f  lost_l2 %.3f  (work at capacity 1024)\nlast_switch %.3f s\n", a.lostSMT/n, a.lostL2/n, a.end/n)
}
