package ftraceimport

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"schedplay/core/quote"
	"schedplay/core/sched"
)

// FuzzImport: no input panics the importer or the metrics built on it, and
// an accepted trace is a well-formed event stream.
func FuzzImport(f *testing.F) {
	f.Add([]byte(s5Trace))
	f.Add([]byte(tracecmdReport))
	if b, err := os.ReadFile("../trace/ftrace/testdata/fork.txt"); err == nil {
		f.Add(b)
	}
	f.Add([]byte(" a-1 [000] 1.0: sched_switch: a:1 [120] R ==> b:2 [-1]\n"))
	f.Add([]byte(" a-1 [000] 1.0: sched_switch: prev_comm=" + strings.Repeat("k", 40<<10) + " prev_pid=1\n"))
	f.Add([]byte(" a-1 (  1) [7] d..2. 18446744073.709551: sched_wakeup_new: comm= pid=3 prio=120\n"))
	f.Add([]byte(" <...>-5 [001] 12: cpu_idle: state=-1 cpu_id=8191\n x-5 [000] 11: sched_process_exit: comm=x pid=5 prio=120\n"))
	f.Add([]byte(" x-9 [000] 1.5: sched_process_fork: comm=x pid=9 child_comm=x child_pid=9\n x-9 [000] 1.5: sched_migrate_task: comm=x pid=9 prio=0 orig_cpu=0 dest_cpu=2\n"))
	f.Add([]byte(manyNames(MaxOtherNames+3, true)))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Import(bytes.NewReader(data), Options{MaxBytes: 1 << 16, MaxLineLen: 4096})
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if len(err.Error()) > maxMsgBytes || quote.Raw(err.Error()) {
				t.Fatalf("error of %d bytes, want at most %d escaped: %.300q", len(err.Error()), maxMsgBytes, err)
			}
			return
		}
		if len(tr.Warnings) > MaxWarnings {
			t.Fatalf("%d warnings, bound %d", len(tr.Warnings), MaxWarnings)
		}
		for _, w := range tr.Warnings {
			if msg := w.String(); len(msg) > maxMsgBytes || quote.Raw(msg) {
				t.Fatalf("warning of %d bytes, want at most %d escaped: %.300q", len(msg), maxMsgBytes, msg)
			}
		}
		if len(tr.Stats.Other) > MaxOtherNames {
			t.Fatalf("%d event names in Stats.Other, bound %d", len(tr.Stats.Other), MaxOtherNames)
		}
		other := tr.Stats.OtherMore
		for _, n := range tr.Stats.Other {
			other += n
		}
		if other > tr.Stats.Lines {
			t.Fatalf("%d other entries counted from %d lines", other, tr.Stats.Lines)
		}
		var last sched.Time
		for i, e := range tr.Events {
			if e.Time < last || e.Time > tr.Duration {
				t.Fatalf("event %d at %d (last %d, duration %d)", i, e.Time, last, tr.Duration)
			}
			last = e.Time
			if e.CPU < 0 || int(e.CPU) >= tr.NumCPUs {
				t.Fatalf("event %d on cpu %d of %d", i, e.CPU, tr.NumCPUs)
			}
			for _, id := range []sched.TaskID{e.Prev, e.Next} {
				if id < sched.NoTask || int(id) >= len(tr.Tasks) {
					t.Fatalf("event %d names task %d of %d", i, id, len(tr.Tasks))
				}
			}
		}
		if tr.Events[len(tr.Events)-1].Kind != sched.EvEnd {
			t.Fatal("no end event")
		}
		rep := tr.Metrics("fuzz")
		for _, tk := range rep.Tasks {
			if tk.RuntimeNs < 0 || tk.WaitNs < 0 || tk.SleepNs < 0 {
				t.Fatalf("negative time: %+v", tk)
			}
		}
	})
}
