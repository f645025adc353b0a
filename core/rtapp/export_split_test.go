package rtapp

import (
	"crypto/sha256"
	"fmt"
	"hash"
	"strings"
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

type streamHash struct {
	h hash.Hash
	n int
}

func (s *streamHash) Event(e *sched.Event) { fmt.Fprintf(s.h, "%+v\n", *e); s.n++ }

// runStream runs sc for d and hashes its event stream (task ids, not names).
func runStream(t *testing.T, sc *scenario.Scenario, d sched.Time) (string, int) {
	t.Helper()
	s := newSim(t, sc)
	h := &streamHash{h: sha256.New()}
	s.Attach(h)
	s.RunUntil(d)
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.h.Sum(nil)), h.n
}

// TestExportSplitForkRoundTrip: a "spread" or per_cpu group that forks
// children (and a grandchild) exports as one thread per instance or CPU,
// each forking its own copies of the descendants; the import runs the same
// event stream as the original (the same tasks, ids and CPUs, other names).
func TestExportSplitForkRoundTrip(t *testing.T) {
	for _, src := range []string{
		`{ "version": 1, "topology": "xeon-4s18c", "duration": "1s", "seed": 3, "hw": { "smt": "off" }, "tasks": [
			{ "name": "a", "instances": 2, "nodes": "spread", "loop": -1, "program": [ { "run": "300us" }, { "fork": "c" }, { "sleep": "1ms" } ] },
			{ "name": "c", "parent": "a", "cpus": [1, 2, 40], "loop": 1, "program": [ { "run": "200us" }, { "fork": "g" }, { "sleep": "100us" } ] },
			{ "name": "g", "parent": "c", "loop": 1, "program": [ { "run": "50us" } ] },
			{ "name": "b", "instances": 1, "nodes": "spread", "loop": -1, "program": [ { "run": "500us" }, { "sleep": "200us" } ] } ] }`,
		`{ "version": 1, "topology": "smp-4", "duration": "1s", "seed": 5, "tasks": [
			{ "name": "g", "parent": "p", "loop": 1, "program": [ { "run": "100us" } ] },
			{ "name": "p", "per_cpu": true, "loop": -1, "program": [ { "run": "300us" },
				{ "loop": { "count": 2, "program": [ { "fork": "g" }, { "sleep": "700us" } ] } } ] },
			{ "name": "h", "instances": 2, "loop": -1, "program": [ { "run": "2ms" }, { "sleep": "1ms" } ] } ] }`,
	} {
		sc := decode(t, src)
		out, warns, err := Export(sc)
		if err != nil {
			t.Fatalf("Export: %v", err)
		}
		if !hasWarning(warns, "tasks[0].parent", "forks its own copy") && !hasWarning(warns, "tasks[1].parent", "forks its own copy") {
			t.Errorf("no warning about the copied children: %v", warns)
		}
		back, _, err := Import(out)
		if err != nil {
			t.Fatalf("Import(Export): %v\n%s", err, out)
		}
		back.Topology, back.HW, back.Seed, back.Duration = sc.Topology, sc.HW, sc.Seed, sc.Duration
		const d = 40 * sched.Millisecond
		want, n := runStream(t, sc, d)
		got, m := runStream(t, back, d)
		if got != want || n != m || n < 100 {
			t.Errorf("the imported export runs differently: %d events %s, want %d %s\n%s", m, got[:12], n, want[:12], out)
		}
	}
}

// TestExportSplitNameClash: a generated thread name that another group
// already has is refused, naming both.
func TestExportSplitNameClash(t *testing.T) {
	sc := decode(t, `{ "version": 1, "topology": "smp-2", "duration": "1s", "tasks": [
		{ "name": "p", "per_cpu": true, "loop": -1, "program": [ { "run": "1ms" }, { "sleep": "1ms" } ] },
		{ "name": "p_cpu1", "loop": -1, "program": [ { "run": "1ms" }, { "sleep": "1ms" } ] } ] }`)
	_, _, err := Export(sc)
	if err == nil || !strings.Contains(err.Error(), "tasks[0].name") || !strings.Contains(err.Error(), `tasks[1] is also exported as "p_cpu1"`) {
		t.Errorf("Export = %v", err)
	}
}
