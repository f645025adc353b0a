package replay

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"schedplay/core/ftraceimport"
	"schedplay/core/topology"
)

// TestPublicTraces: every public real trace imports (skipping what it
// cannot read, with warnings), infers and replays without an error; the
// unsorted and truncated sample imports with warnings saying so. The
// Juno trace replays on the machine of its LISA platform file.
func TestPublicTraces(t *testing.T) {
	dir := publicTraces(t)
	files := []string{"lisa-juno-trace.txt", "tc-trace-android-sched", "tc-ftrace_syscalls.txt", "tc-trace-critical-path",
		"trappy-idle-unsorted.txt", "trappy-raw_trace.txt", "trappy-systrace.html", "trappy-trace_no_trailing_line.txt",
		"trappy-trace_sched.txt"}
	for _, name := range files {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			tr, err := ftraceimport.Import(bytes.NewReader(data), ftraceimport.Options{Lenient: true})
			if err != nil {
				t.Fatal(err)
			}
			if name == "trappy-idle-unsorted.txt" {
				if tr.Stats.Unsorted == 0 || tr.Stats.Skipped == 0 || len(tr.Warnings) < 2 {
					t.Errorf("unsorted and truncated: stats %+v, warnings %v", tr.Stats, tr.Warnings)
				}
			}
			var machine *topology.Machine
			var maxKHz []int
			topo := ""
			if name == "lisa-juno-trace.txt" {
				plat, err := os.ReadFile(filepath.Join(dir, "lisa-juno-plat_info.yml"))
				if err != nil {
					t.Fatal(err)
				}
				pl, err := ParsePlatform("juno", plat)
				if err != nil {
					t.Fatal(err)
				}
				machine, topo, maxKHz = &pl.Machine, StandIn(pl.Machine.NumCPUs()), pl.MaxKHz
			} else if m, err := topology.Preset(smpName(tr.NumCPUs)); err == nil {
				topo = m.Name
			} else {
				m, err := SMP(tr.NumCPUs)
				if err != nil {
					t.Fatal(err)
				}
				machine, topo = &m, StandIn(tr.NumCPUs)
			}
			var caps []int
			if machine != nil {
				caps = Capacities(machine)
			}
			w, err := Infer(tr, Options{Capacity: caps, MaxKHz: maxKHz})
			if err != nil {
				t.Fatal(err)
			}
			sc, err := w.Scenario(ScenarioOptions{Topology: topo})
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := Config(sc, machine)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Run(cfg, name)
			if err != nil {
				t.Fatal(err)
			}
			trep := tr.Metrics(name)
			f := Compare(w, &trep, &rep)
			if len(f.Rows) != len(w.Tasks) || f.Score < 0 || f.Score > 100 {
				t.Errorf("fidelity: %d rows for %d tasks, score %.1f", len(f.Rows), len(w.Tasks), f.Score)
			}
			t.Logf("%d tasks, %d warnings, score %.1f, %d of %d rows meet the targets", len(w.Tasks), len(tr.Warnings)+len(w.Warnings), f.Score, f.Met, len(f.Rows))
		})
	}
}

func smpName(n int) string { return "smp-" + strconv.Itoa(n) }
