package sched

// Randomised runs of mutexes with and without PI mixed with deadline, RT
// and fair tasks on several CPUs: with -tags invariants every event checks
// the lock, PI and deadline invariants (invariants_dl_on.go).

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestLocksRandom(t *testing.T) {
	for seed := range uint64(24) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 7))
			topo := []string{"smp-1", "smp-2", "smp-4"}[r.IntN(3)]
			b := newRun(t).topology(topo).kernel(rtKernels[r.IntN(len(rtKernels))]).duration(Second)
			nm := 1 + r.IntN(3)
			dlBudget := 3
			for i := range 3 + r.IntN(5) {
				b.task(fmt.Sprintf("t%d", i)).instances(1 + r.IntN(2))
				switch k := r.IntN(4); {
				case k == 0 && dlBudget > 0:
					dlBudget--
					p := Time(10+r.IntN(90)) * Millisecond
					d := p
					if r.IntN(2) == 0 {
						d = p * 3 / 4 // constrained: dl_check_constrained_dl(), revised wakeup
					}
					b.deadline(p/Time(4+r.IntN(8)), d, p)
				case k == 1:
					b.fifo(1 + r.IntN(98))
				case k == 2:
					b.rr(1 + r.IntN(98))
				default:
					b.nice(r.IntN(10) - 5)
				}
				// A body of lock/unlock sections in a consistent order
				// (no deadlock), with work and sleeps between.
				m1 := r.IntN(nm)
				m2 := m1 + 1 + r.IntN(2)
				b.op(Op{Kind: OpLock, Res: m1}).run(Time(100+r.IntN(3000)) * Microsecond)
				if m2 < nm && r.IntN(2) == 0 {
					b.op(Op{Kind: OpLock, Res: m2}).run(Time(100+r.IntN(1000)) * Microsecond).op(Op{Kind: OpUnlock, Res: m2})
				}
				b.op(Op{Kind: OpUnlock, Res: m1}).run(Time(r.IntN(2000)) * Microsecond)
				if r.IntN(3) > 0 {
					b.sleep(Time(1+r.IntN(10)) * Millisecond)
				} else {
					b.yield().run(Millisecond)
				}
			}
			cfg := b.config()
			cfg.PI = r.IntN(2) == 0
			for i := range nm {
				cfg.Resources = append(cfg.Resources, Resource{Name: fmt.Sprintf("m%d", i), Mutex: true})
			}
			s, err := New(cfg)
			if err != nil {
				if strings.Contains(err.Error(), "admission refused") {
					t.Skip(err)
				}
				t.Fatal(err)
			}
			s.RunUntil(Second)
			if err := s.Err(); err != nil {
				t.Fatalf("pi=%v: %v", cfg.PI, err)
			}
		})
	}
}
