package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/core/topology"
)

// A hand-made trace on alderlake-6p8e: CPUs 0 and 1 (one P-core) busy
// together for 1 s, then CPUs 12 and 13 (one E cluster) for 2 s.
func TestAnalyzeFile(t *testing.T) {
	sw := func(cpu string, ts string, pid string) string {
		return "          <idle>-0       [" + cpu + "] d..2.     " + ts + ": sched_switch: prev_comm=x prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=y next_pid=" + pid + " next_prio=120\n"
	}
	trace := "# tracer: nop\n" +
		sw("000", "1.000000", "1000") + sw("001", "1.000000", "1001") +
		sw("000", "2.000000", "0") + sw("001", "2.000000", "0") +
		sw("012", "2.000000", "1000") + sw("013", "2.000000", "1001") +
		sw("012", "4.000000", "0") + sw("013", "4.000000", "0")
	p := filepath.Join(t.TempDir(), "t.txt")
	if err := os.WriteFile(p, []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := topology.Preset("alderlake-6p8e")
	if err != nil {
		t.Fatal(err)
	}
	a, err := analyzeFile(p, shapeOf(m), 42, 5)
	if err != nil {
		t.Fatal(err)
	}
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	near("smt_paired", a.smtPaired, 2) // two CPUs x 1 s
	near("smt_alone", a.smtAlone, 0)
	near("l2_k1", a.l2k[1], 4) // two CPUs x 2 s, one other busy core each
	near("l2_k0", a.l2k[0], 0)
	near("lost_smt", a.lostSMT, 2*0.42)
	e := float64(m.CPUs[12].Capacity) / 1024
	near("lost_l2", a.lostL2, 4*e*0.05)
	near("end", a.end, 4)

	bad := filepath.Join(t.TempDir(), "bad.txt")
	_ = os.WriteFile(bad, []byte(sw("099", "1.0", "1")), 0o644)
	if _, err := analyzeFile(bad, shapeOf(m), 42, 5); err == nil || !strings.Contains(err.Error(), "CPU 99") {
		t.Errorf("CPU outside the machine: err = %v", err)
	}
}
