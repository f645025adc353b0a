package ftraceimport

import (
	"os"
	"testing"
)

// TestRealKernelTrace imports a trace captured from this project's
// development machine (Linux 6.18.44, HZ=250, 2 vCPUs) with tracefs:
// sched_switch, sched_wakeup, sched_wakeup_new, sched_migrate_task,
// sched_process_fork and sched_process_exit enabled while two shell busy
// loops ran pinned to CPU 1 for 0.5 s, one at nice 0 and one at nice 5:
//
//	taskset -c 1 timeout 0.5 sh -c 'while :; do :; done' &
//	taskset -c 1 nice -n 5 timeout 0.5 sh -c 'while :; do :; done' &
//
// The file is the kernel's own output, unedited. Expected figures come from
// the weights, not from this importer: nice 0 (1024) against nice 5 (335)
// shares CPU 1 75.3 % / 24.7 %; on v6.18 with a 4 ms tick and a 1.4 ms
// slice, nice 0 runs three ticks per nice 5 tick, about 62 turns each per
// second, so about 30 switches each in the ~0.5 s they overlap.
func TestRealKernelTrace(t *testing.T) {
	f, err := os.Open("testdata/real-6.18-nice0-nice5.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := Import(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.NumCPUs != 2 {
		t.Errorf("NumCPUs %d, want 2 (#P:2 in the header)", tr.NumCPUs)
	}
	r := tr.Metrics("real")
	var hog0, hog5 *struct{ run, sw, invol int64 }
	for _, tk := range r.Tasks {
		if tk.Name != "sh" || tk.RuntimeNs < 100e6 {
			continue
		}
		v := &struct{ run, sw, invol int64 }{tk.RuntimeNs, tk.Switches, tk.InvoluntarySwitches}
		switch tk.Nice {
		case 0:
			hog0 = v
		case 5:
			hog5 = v
		}
	}
	if hog0 == nil || hog5 == nil {
		t.Fatalf("did not find both busy loops among %d tasks", len(r.Tasks))
	}
	share := float64(hog0.run) / float64(hog0.run+hog5.run)
	if share < 0.72 || share > 0.78 {
		t.Errorf("nice-0 share of the two loops %.3f, want 0.753 +- 0.03", share)
	}
	for name, h := range map[string]*struct{ run, sw, invol int64 }{"nice 0": hog0, "nice 5": hog5} {
		if h.sw < 25 || h.sw > 45 {
			t.Errorf("%s loop switched %d times, want about 30", name, h.sw)
		}
		if h.invol < h.sw-3 {
			t.Errorf("%s loop: %d of %d switches involuntary; a busy loop is preempted, it does not sleep", name, h.invol, h.sw)
		}
	}
	if c1 := r.CPUs[1]; float64(c1.BusyNs)/float64(r.DurationNs) < 0.95 {
		t.Errorf("CPU 1 busy %.1f %%, want the loops to fill it", 100*float64(c1.BusyNs)/float64(r.DurationNs))
	}
}
