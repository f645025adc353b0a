package replay

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/core/ftraceimport"
	"schedplay/core/sched"
)

// FuzzInfer: no imported trace makes the inference panic or hang, its
// output stays within its bounds, and a workload it accepts builds as a
// valid scenario that runs (short traces are run to their end).
// go test ./core/replay -run '^$' -fuzz FuzzInfer -fuzztime 30s
func FuzzInfer(f *testing.F) {
	us := sched.Microsecond
	f.Add([]byte(pingPong(5, 50*us, 30*us, 5*us)))
	f.Add([]byte(periodicHog(6)))
	f.Add([]byte(queuedPingPong(5, 11*us, 19*us, us, false)))
	f.Add([]byte(" a-1 [000] d.h2. 1.0: sched_waking: comm=a pid=1 prio=120 target_cpu=000\n a-1 [000] 1.0: sched_wakeup: comm=a pid=1 prio=120 target_cpu=000\n"))
	f.Add([]byte(" a-1 [000] 1.0: sched_process_fork: comm=a pid=1 child_comm=b child_pid=2\n b-2 [000] 1.1: sched_switch: prev_comm=b prev_pid=2 prev_prio=5 prev_state=X ==> next_comm=a next_pid=1 next_prio=120\nCPU:0 [LOST 3 EVENTS]\n"))
	f.Add([]byte(" a-1 [000] d.h1. 1.0: local_timer_entry: vector=236\n a-1 [000] 1.003: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=R ==> next_comm=b next_pid=2 next_prio=120\n b-2 [001] d.h1. 1.004: reschedule_entry: vector=253\n b-2 [000] 1.006: sched_switch: prev_comm=b prev_pid=2 prev_prio=120 prev_state=R+ ==> next_comm=a next_pid=1 next_prio=120\n"))
	if dir, ok := publicTracesDir(); ok {
		for _, name := range []string{"trappy-trace_sched.txt", "trappy-idle-unsorted.txt", "tc-trace-critical-path"} {
			if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ftraceimport.Import(bytes.NewReader(data), ftraceimport.Options{MaxBytes: 1 << 16, MaxLineLen: 4096, Lenient: true})
		if err != nil {
			return
		}
		const maxTasks, maxSteps = 64, 4096
		w, err := Infer(tr, Options{MaxTasks: maxTasks, MaxSteps: maxSteps, Capacity: []int{512, 1024}})
		if err != nil {
			return
		}
		steps := 0
		for _, tk := range w.Tasks {
			steps += len(tk.Steps)
			for _, s := range tk.Steps {
				if s.Kind == StepRun && s.Work <= 0 || (s.Kind == StepSignal || s.Kind == StepWait || s.Kind == StepFork) && (s.Peer < 0 || s.Peer >= len(w.Tasks)) {
					t.Fatalf("bad step %+v in %s", s, tk.Group)
				}
			}
		}
		if len(w.Tasks) > maxTasks || steps > maxSteps+len(w.Tasks) {
			t.Fatalf("%d tasks, %d steps over the bounds", len(w.Tasks), steps)
		}
		_ = w.Describe()
		sc, err := w.Scenario(ScenarioOptions{Topology: "smp-8"})
		if err != nil {
			return // no task, or over the duration bound
		}
		if tr.NumCPUs > 8 {
			return
		}
		cfg, err := Config(sc, nil)
		if err != nil {
			t.Fatalf("the inferred scenario does not build: %v\n%s", err, sc.Encode())
		}
		if cfg.Duration > 20*sched.Millisecond {
			return
		}
		cfg.Limits.MaxEvents = 50_000
		if _, err := Run(cfg, "fuzz"); err != nil {
			t.Logf("run: %v", err) // an engine limit, not an inference error
		}
	})
}

// publicTracesDir is publicTraces without a test to skip.
func publicTracesDir() (string, bool) {
	root, err := filepath.Abs("../..")
	if err != nil {
		return "", false
	}
	for _, up := range []string{"..", "../.."} {
		dir := filepath.Join(root, up, "shared/data/public-traces")
		if _, err := os.Stat(filepath.Join(dir, "README.md")); err == nil {
			return dir, true
		}
	}
	return "", false
}

// FuzzParsePlatform: no topology file (JSON or a LISA plat_info.yml)
// panics; an error is short and escaped (core/quote); a machine parsed is
// valid, within MaxPlatformCPUs, and its max_khz has one entry per CPU.
// go test ./core/replay -run '^$' -fuzz FuzzParsePlatform -fuzztime 60s
func FuzzParsePlatform(f *testing.F) {
	f.Add([]byte(`{"name":"big.LITTLE","capacities":[446,446,1024,1024],"clusters":[[0,1],[2,3]],"max_khz":[1400000,1400000,2000000,2000000]}`))
	f.Add([]byte(`{"capacities":[1024]}`))
	f.Add([]byte(`{"capacities":[1024,0],"clusters":[[0,1],[1]]}`))
	f.Add([]byte("cpu-capacities:\n  0: 446\n  1: 1024\nfreqs:\n  0:\n    - 450000\n    - 850000\n  1:\n    - 1100000\nfreq-domains:\n  - [0]\n  - [1]\n"))
	f.Add([]byte("cpu-capacities:\n  x: 1\n"))
	if dir, ok := publicTracesDir(); ok {
		if b, err := os.ReadFile(filepath.Join(dir, "lisa-juno-plat_info.yml")); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePlatform("plat", data)
		if err != nil {
			msg := err.Error()
			if len(msg) > 1024 || strings.ContainsAny(msg, "\n\r\x00\x1b") {
				t.Fatalf("error of %d bytes, want at most 1024 escaped: %.300q", len(msg), msg)
			}
			return
		}
		n := p.Machine.NumCPUs()
		if err := p.Machine.Validate(); err != nil || n < 1 || n > MaxPlatformCPUs {
			t.Fatalf("ParsePlatform accepted a machine of %d CPUs that fails validation: %v", n, err)
		}
		if p.MaxKHz != nil && len(p.MaxKHz) != n {
			t.Fatalf("max_khz has %d entries for %d CPUs", len(p.MaxKHz), n)
		}
	})
}
