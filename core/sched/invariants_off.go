//go:build !invariants

package sched

// invariantsEnabled is false in normal builds: the engine's expensive
// self-checks are compiled out (build with -tags invariants to enable them).
const invariantsEnabled = false

func (s *Sim) checkInvariants() {}
