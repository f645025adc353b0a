package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/core/metrics"
)

const cliTrace = `# tracer: nop
#
# entries-in-buffer/entries-written: 3/3   #P:2
          <idle>-0       [001] d..2. 100.000000: sched_wakeup: comm=a pid=10 prio=120 target_cpu=001
          <idle>-0       [001] d..2. 100.000020: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120
               a-10      [001] d..2. 100.001020: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
`

func TestTraceMetricsCLI(t *testing.T) {
	path := filepath.Join(t.TempDir(), "real.trace")
	if err := os.WriteFile(path, []byte(cliTrace), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if rc := run([]string{"trace-metrics", "-o", "json", path}, nil, &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	var rep metrics.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Schema != metrics.Schema || rep.Scenario != "real.trace" || rep.Kernel != "real" ||
		rep.Topology != "unknown" || rep.Events != 3 || len(rep.CPUs) != 2 || len(rep.Tasks) != 1 ||
		rep.Tasks[0].RuntimeNs != 1_000_000 || rep.Tasks[0].WakeupLatencyNs.Max != 20_000 {
		t.Errorf("%s", out.String())
	}

	out.Reset()
	if rc := run([]string{"trace-metrics", "-"}, strings.NewReader(cliTrace), &out, &errb); rc != 0 ||
		!strings.Contains(out.String(), "scenario stdin") || !strings.Contains(out.String(), "3 sched events") {
		t.Errorf("rc %d text:\n%s", rc, out.String())
	}

	bad := cliTrace + " a-10 [001] d..2. 100.002: sched_wakeup: comm=a pid=\n"
	errb.Reset()
	if rc := run([]string{"trace-metrics", "-strict", "-"}, strings.NewReader(bad), &out, &errb); rc != 2 ||
		!strings.Contains(errb.String(), "line 7: sched_wakeup: missing or bad pid") {
		t.Errorf("-strict: rc %d: %s", rc, errb.String())
	}
	errb.Reset()
	out.Reset()
	if rc := run([]string{"trace-metrics", "-"}, strings.NewReader(bad), &out, &errb); rc != 0 ||
		!strings.Contains(errb.String(), "line 7: sched_wakeup: missing or bad pid: line skipped") ||
		!strings.Contains(out.String(), "3 sched events") {
		t.Errorf("default (lenient): rc %d: %s\n%s", rc, errb.String(), out.String())
	}
	if rc := run([]string{"trace-metrics", filepath.Join(t.TempDir(), "none")}, nil, &out, &errb); rc != 2 {
		t.Errorf("missing file: rc %d", rc)
	}
}
