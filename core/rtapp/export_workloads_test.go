package rtapp

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/core/scenario"
)

// TestExportWorkloads: generators export as their expansion; those that
// need what rt-app lacks (counting semaphores, pending signals) are an
// error naming the workload.
func TestExportWorkloads(t *testing.T) {
	sc := decode(t, `{ "version": 1, "topology": "smp-2", "duration": "1s",
		"tasks": [ { "name": "own", "program": [ { "run": "1ms" }, { "sleep": "1ms" } ] } ],
		"workloads": [ { "kind": "cyclictest", "name": "ct", "interval": "200us" },
		               { "kind": "hog", "name": "h", "count": 2, "nice": 3 } ] }`)
	out, _, err := Export(sc)
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := Import(out)
	if err != nil {
		t.Fatalf("Import(Export): %v\n%s", err, out)
	}
	full, err := sc.Expanded()
	if err != nil {
		t.Fatal(err)
	}
	if a, b := workload(back), workload(full); a != b {
		t.Errorf("round trip changed the workload\n got %s\nwant %s\n%s", a, b, out)
	}
	for _, name := range []string{`"ct.t0"`, `"ct.t1"`, `"h"`, `"own"`} {
		if !strings.Contains(string(out), name) {
			t.Errorf("no task %s in\n%s", name, out)
		}
	}
	for _, c := range []struct{ doc, path, msg string }{
		{`{"version":1,"workloads":[{"kind":"hackbench","name":"hb","groups":1,"fds":2}]}`, "workloads[0] (hackbench)", `"hb.g0.p0.data" is a counting semaphore`},
		{`{"version":1,"workloads":[{"kind":"kbuild","name":"kb"}]}`, "workloads[0] (kbuild)", `"kb.done" is a counting semaphore`},
		{`{"version":1,"tasks":[{"name":"a","program":[{"signal":"s"},{"run":"1ms"}]},{"name":"b","program":[{"wait":"s"}]}],"semaphores":{"s":1}}`, "semaphores.s", "counting semaphore"},
		{`{"version":1,"tasks":[{"name":"a","program":[{"run":"1ms"}]}],"workloads":[{"kind":"pipe","name":"pp"}]}`, "workloads[0] (task group pp.sender).program[1].signal", "stays pending"},
	} {
		_, _, err := Export(decode(t, c.doc))
		var se *scenario.Error
		if !errors.As(err, &se) || se.Path != c.path || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("%s: got %v; want path %q and %q", c.doc, err, c.path, c.msg)
		}
	}
}

// TestRealRTAppHogWorkload: an exported hog workload runs under Debian's
// rt-app and ends at the duration (a hog is a loop of finite runs, which
// rt-app checks its duration between).
func TestRealRTAppHogWorkload(t *testing.T) {
	bin := rtAppBin(t)
	out, _, err := Export(decode(t, `{ "version": 1, "topology": "smp-2", "duration": "1s",
		"workloads": [ { "kind": "hog", "name": "h", "count": 2, "nice": 5 } ] }`))
	if err != nil {
		t.Fatal(err)
	}
	_, dir := runRTApp(t, bin, out, "hog.json")
	if logs, _ := filepath.Glob(filepath.Join(dir, "rt-app-*.log")); len(logs) != 2 {
		t.Errorf("%d thread logs, want 2: %v", len(logs), logs)
	}
}
