package sched

import "testing"

func TestZZHeapStats(t *testing.T) {
	s := benchEpyc(t, "v6.18")
	s.RunUntil(500 * Millisecond)
	t.Logf("epyc heap %d", len(s.q.h))
	var kinds [32]int
	for _, e := range s.q.h {
		kinds[e.kind]++
	}
	t.Logf("kinds %v", kinds)
	var popped [32]int
	for i := 0; i < 1000000; i++ {
		e := s.q.h[0]
		popped[e.kind]++
		s.Step()
	}
	t.Logf("popped %v heap %d", popped, len(s.q.h))
	s2 := benchSimGroups(t, "v6.18", false, true)
	s2.RunUntil(Second)
	t.Logf("64 heap %d", len(s2.q.h))
}
