package sched

// Proportional newidle balance: kernel/sched/fair.c sched_balance_newidle()
// under sched_feat(NI_RANDOM), update_newidle_stats() and the success
// argument of update_newidle_cost() (33cf66d88306 "sched/fair: Proportional
// newidle balance", Peter Zijlstra, tip sched/core Nov 2025, v6.19-rc1; in
// 6.18.y from 6.18.5 as 98a26893fad4, with the revert of the 6.17
// max_newidle_lb_cost bump, d206fbad9328, before it). Read in the tip-bot
// mail of 33cf66d88306 and in a post-6.18 fair.c (docs/kernel-rules.md
// section 9.8).
//
// Each SD_BALANCE_NEWIDLE domain keeps newidle_call, newidle_success and
// newidle_ratio (sd_init(): 512, 256, 512, "50% success rate"). Before it
// balances, the newly idle CPU throws a 1024-sided die, d1k =
// sched_rng() % 1024, against weight = 1 + newidle_ratio: if d1k > weight
// the domain is skipped (update_newidle_stats(sd, 0); continue), otherwise
// sched_balance_rq() runs and update_newidle_cost(sd, cost, w * !!pulled)
// counts the call with the success weighted by w = (1024 + weight/2) /
// weight, the inverse of the probability of having run. Every 1024 calls
// newidle_ratio becomes newidle_success and both counters halve, so the
// ratio estimates 1024 x P(a balance pulls) and a domain whose balances
// seldom pull is balanced seldom: newidle then runs in about that fraction
// of the idle entries.
//
// The die: the kernel's per-CPU prandom state (sched_rnd_state, seeded
// once by prandom_init_once()). SIMPLIFIED: each CPU draws from its own PCG
// seeded from the run's seed and the CPU number, so the same seed gives the
// same dice. update_newidle_cost() counts the call only "if (cost)", a
// sched_clock() delta that is never zero on a real machine; the call is
// counted here whenever the balance ran, so that a machine with zero
// modelled balancing costs (hw.lb_*_ns) still updates the ratio.
//
// The later "sched/fair: More complex proportional newidle balance"
// (9fe89f022c05, NI_RATE, tip sched/core Feb 2026, v7.1 merge window) adds a
// term for the call rate; no profile has it.

import "math/rand/v2"

// newidleRatioInit is sd_init()'s newidle_ratio (and 2 x newidle_success,
// newidle_call): the 50 % success rate a domain starts from.
const newidleRatioInit = 512

// niState is the part of struct sched_domain NI_RANDOM adds.
type niState struct {
	call, success, ratio int64 // newidle_call, newidle_success, newidle_ratio
}

// init is sd_init()'s "50% success rate".
func (n *niState) init() {
	*n = niState{call: newidleRatioInit, success: newidleRatioInit / 2, ratio: newidleRatioInit}
}

// update mirrors update_newidle_stats().
func (n *niState) update(success int64) {
	n.call++
	n.success += success
	if n.call >= 1024 {
		n.ratio = n.success
		n.call /= 2
		n.success /= 2
	}
}

// newidleDice is the NI_RANDOM test of sched_balance_newidle() for sd on
// rq's CPU: it reports whether the domain is balanced and, if so, the
// weight a pull counts with. A skipped domain is counted as a call without
// success.
func (s *Sim) newidleDice(rq *rq, sd *schedDomain) (run bool, weight int64) {
	if !s.feat.Has(NIRandom) {
		return true, 1
	}
	d1k := int64(s.schedRng(rq) % 1024)
	weight = 1 + sd.ni.ratio
	if d1k > weight {
		sd.ni.update(0)
		return false, 0
	}
	return true, (1024 + weight/2) / weight
}

// schedRng mirrors sched_rng(): prandom_u32_state() of this CPU's state.
func (s *Sim) schedRng(rq *rq) uint32 {
	if rq.rnd == nil {
		rq.rnd = rand.New(rand.NewPCG(s.cfg.Seed, 0x6e695f72616e64^uint64(rq.cpu))) // "ni_rand"
	}
	return rq.rnd.Uint32()
}
