//go:build linux

// Command replaytrace records kernel traces of known workloads on this
// machine with tracefs, replays each with core/replay on the matching
// profile and topology, and writes the fidelity report
// (docs/replay-fidelity.md and .json; `make replay-fidelity`, and section 4
// of docs/VALIDATION.md through `make validate`).
//
// The workloads are scripts/realkernel/worker.c's hogs, periodic tasks and
// pipe ping-pong, started with taskset, nice and chrt; the trace is taken
// in a tracefs instance of its own (instances/schedplay-replay-NS-PID,
// record.go), so other users of the global buffer, and another recording
// at the same time, are not disturbed. Everything else running on
// the machine is traced too and replayed with the workload: its tasks are
// part of what the workload met.
//
// Usage, as root from the repository root:
//
//	go run ./scripts/replaytrace [-o docs/replay-fidelity.md] [-json docs/replay-fidelity.json]
//	    [-dir build/replay-traces] [-duration 3s] [-cases a,b] [-replay-only] [-stat-runtime=false]
//	    [-topology PRESET]
//
// -replay-only replays the traces already in -dir instead of recording;
// -stat-runtime (on by default) records sched_stat_runtime too (the clock
// readers' intervals, and a line of each task soon after its switch-in where
// the kernel prints no switch from idle) and the timer interrupt's exit events.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "replaytrace:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("replaytrace", flag.ContinueOnError)
	out := fs.String("o", "docs/replay-fidelity.md", "report to write")
	jsonOut := fs.String("json", "docs/replay-fidelity.json", "JSON record to write (\"\" = none)")
	dir := fs.String("dir", "build/replay-traces", "where the recorded traces are kept (not committed)")
	dur := fs.Duration("duration", 3*time.Second, "traced time per case (the pipe cases trace a sixth of it)")
	list := fs.String("cases", "", "comma-separated case ids (default: all)")
	replayOnly := fs.Bool("replay-only", false, "replay the traces in -dir without recording")
	statRuntime := fs.Bool("stat-runtime", true, "also record sched_stat_runtime and the timer interrupt's exit and hrtimer expiries (record.go)")
	topo := fs.String("topology", "", "the replay's machine preset (default: vm-2vcpu on the 2-vCPU guest it was measured on, else smp-N; machine.go)")
	rkJSON := fs.String("realkernel-json", "docs/real-kernel.json", "the machine's HZ and preemption model, as scripts/realkernel found them")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cases, err := selectCases(*list)
	if err != nil {
		return err
	}
	mi, err := readMachine(*rkJSON)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	rep := report{Command: "go run ./scripts/replaytrace " + strings.Join(args, " "), Machine: mi,
		Date: time.Now().UTC().Format(time.RFC3339)}
	if !*replayOnly {
		root, err := os.Getwd()
		if err != nil {
			return err
		}
		// SIGINT and SIGTERM end the recording through ctx, so the
		// deferred close removes the instance and record's the workers.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		rec, err := newRecorder(root, *statRuntime)
		if err != nil {
			return err
		}
		defer rec.close()
		rep.LoadBefore = loadavg()
		rep.TraceKernel, rep.SchedCmdline = osRelease(), schedCmdline()
		meta, _ := json.Marshal(recording{Date: rep.Date, LoadBefore: rep.LoadBefore, Command: rep.Command,
			Kernel: rep.TraceKernel, SchedCmdline: rep.SchedCmdline})
		if err := writeAtomic(filepath.Join(*dir, "recorded.json"), meta); err != nil {
			return err
		}
		for _, c := range cases {
			d := *dur
			if c.Short {
				d /= 6
			}
			fmt.Fprintf(os.Stderr, "replaytrace: recording %s for %s\n", c.ID, d)
			if err := rec.record(ctx, c, d, filepath.Join(*dir, c.ID+".txt")); err != nil {
				return fmt.Errorf("%s: %v", c.ID, err)
			}
		}
	}
	if *replayOnly {
		var m recording
		if b, err := os.ReadFile(filepath.Join(*dir, "recorded.json")); err == nil && json.Unmarshal(b, &m) == nil {
			rep.Date, rep.LoadBefore, rep.Command = m.Date, m.LoadBefore, m.Command
			rep.TraceKernel, rep.SchedCmdline = m.Kernel, m.SchedCmdline
		}
	}
	for _, c := range cases {
		fmt.Fprintf(os.Stderr, "replaytrace: replaying %s\n", c.ID)
		cr, err := replayCase(c, filepath.Join(*dir, c.ID+".txt"), mi, replayOpts{Topology: *topo})
		if err != nil {
			return fmt.Errorf("%s: %v", c.ID, err)
		}
		rep.Cases = append(rep.Cases, cr)
	}
	if err := writeAtomic(*out, []byte(rep.markdown())); err != nil {
		return err
	}
	if *jsonOut != "" {
		js, err := rep.json()
		if err != nil {
			return err
		}
		if err := writeAtomic(*jsonOut, js); err != nil {
			return err
		}
	}
	fmt.Fprintln(os.Stderr, "wrote", *out)
	return nil
}

// recording is what a recording run leaves beside its traces, for a
// later -replay-only report: Kernel is uname -r at the recording (the
// machine's kernel may have changed since scripts/realkernel measured
// it), SchedCmdline the kernel command line's sched* parameters (a
// non-mainline one changes placement: placement.go). Older recordings
// have neither.
type recording struct {
	Date, LoadBefore, Command string
	Kernel                    string   `json:",omitempty"`
	SchedCmdline              []string `json:",omitempty"`
}

func writeAtomic(path string, data []byte) error {
	if err := os.WriteFile(path+".tmp", data, 0o644); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(b))
}

// osRelease is uname -r.
func osRelease() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(b))
}

// schedCmdline is the kernel command line's parameters whose name starts
// with "sched" (at most 16 of at most 200 bytes each: the line is the
// machine's).
func schedCmdline() []string {
	b, err := os.ReadFile("/proc/cmdline")
	if err != nil {
		return nil
	}
	return schedParams(string(b))
}

// schedParams is schedCmdline's reading of a command line.
func schedParams(cmdline string) []string {
	var out []string
	for _, f := range strings.Fields(cmdline) {
		if f == "--" {
			break // the init's own arguments follow
		}
		if strings.HasPrefix(f, "sched") && len(f) <= 200 && len(out) < 16 {
			out = append(out, f)
		}
	}
	return out
}
