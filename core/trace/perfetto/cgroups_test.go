package perfetto

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"schedplay/core/sched"
)

func noInfo(sched.TaskID) sched.TaskInfo { return sched.TaskInfo{} }

// TestCgroupTrack: a group's throttled slice covers the union of its
// CPUs' throttled intervals; without SetCgroups the events are ignored.
func TestCgroupTrack(t *testing.T) {
	ev := func(k sched.EventKind, ms int64, cpu sched.CPUID) *sched.Event {
		return &sched.Event{Kind: k, Time: sched.Time(ms) * sched.Millisecond, CPU: cpu, Arg: 1}
	}
	stream := []*sched.Event{
		ev(sched.EvCgroupThrottle, 1, 0), ev(sched.EvCgroupThrottle, 2, 1), ev(sched.EvCgroupUnthrottle, 3, 0),
		ev(sched.EvCgroupUnthrottle, 4, 1), ev(sched.EvCgroupThrottle, 6, 1),
	}
	run := func(paths []string) string {
		var buf bytes.Buffer
		w := NewWriter(&buf, noInfo, 2)
		w.SetCgroups(paths)
		for _, e := range stream {
			w.Event(e)
		}
		w.Event(&sched.Event{Kind: sched.EvEnd, Time: 10 * sched.Millisecond})
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, buf.String())
		}
		return buf.String()
	}
	flat := run(nil)
	if strings.Contains(flat, "throttled") || strings.Contains(flat, `"pid":2`) {
		t.Errorf("cgroup output without SetCgroups:\n%s", flat)
	}
	out := run([]string{"/Q"})
	for _, want := range []string{
		`{"name":"thread_name","ph":"M","pid":2,"tid":1,"args":{"name":"/Q"}}`,
		`{"name":"throttled","ph":"X","pid":2,"tid":1,"cat":"cgroup","ts":1000.000,"dur":3000.000,"args":{"cgroup":"/Q","cpus":2}}`,
		`{"name":"throttled","ph":"X","pid":2,"tid":1,"cat":"cgroup","ts":6000.000,"dur":4000.000,"args":{"cgroup":"/Q","cpus":1}}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s in:\n%s", want, out)
		}
	}
}
