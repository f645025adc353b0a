//go:build !invariants

// The invariant checks multiply this test's run time tenfold and cannot
// change its output; make test runs it once without them.

package golden

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"hash"
	"os"
	"strings"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/core/trace/ftrace"
	"schedplay/core/trace/perfetto"
)

var rewrite = flag.Bool("rewrite", false, "rewrite testdata/presets.golden from the current code")

const goldenFile = "testdata/presets.golden"

// crossProfileCap bounds the run of a preset under a profile other than
// its own: the profile-dependent rules show within it, and the whole set
// stays a few seconds.
const crossProfileCap = 300 * sched.Millisecond

// TestPresetsGolden runs each preset at its own settings (full duration)
// and under every other profile (capped), hashing the three outputs.
func TestPresetsGolden(t *testing.T) {
	var b strings.Builder
	for _, p := range scenario.Presets() {
		sc, err := scenario.Preset(p.Name)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		own := sc.Kernel.Version
		fmt.Fprintf(&b, "%s %s %s\n", p.Name, own, runHashes(p.Name, "", -1))
		for _, prof := range sched.ProfileNames() {
			if prof == own {
				continue
			}
			fmt.Fprintf(&b, "%s %s %s\n", p.Name, prof, runHashes(p.Name, prof, crossProfileCap))
		}
	}
	got := b.String()
	if *rewrite {
		if err := os.WriteFile(goldenFile, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatalf("%v (run go test -rewrite to create it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			g, w := line(gl, i), line(wl, i)
			if g != w {
				t.Errorf("line %d:\n got  %s\n want %s", i+1, g, w)
			}
		}
		t.Fatalf("preset outputs changed; if deliberate, rewrite with go test ./core/internal/golden -rewrite and review the diff")
	}
}

func line(l []string, i int) string {
	if i < len(l) {
		return l[i]
	}
	return "<none>"
}

// runHashes runs one preset (under profile prof unless empty, for at most
// limit unless negative) and returns "trace=H perfetto=H metrics=H", or
// "error=..." when the scenario is refused under that profile.
func runHashes(name, prof string, limit sched.Time) string {
	sc, err := scenario.Preset(name)
	if err != nil {
		return "error=" + oneLine(err)
	}
	if prof != "" {
		if err := sc.Set("kernel.version=" + prof); err != nil {
			return "error=" + oneLine(err)
		}
	}
	if limit >= 0 {
		sc.Duration = min(sc.Duration, limit)
	}
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		return "error=" + oneLine(err)
	}
	sim, err := sched.New(cfg)
	if err != nil {
		return "error=" + oneLine(err)
	}
	col := metrics.New(sim.NumCPUs())
	sim.Attach(col)
	th, ph := sha256.New(), sha256.New()
	tw := ftrace.NewWriter(th, sim.TaskInfo, sim.NumCPUs())
	pw := perfetto.NewWriter(ph, sim.TaskInfo, sim.NumCPUs())
	sim.Attach(tw)
	sim.Attach(pw)
	if err := sim.Run(); err != nil {
		return "run-error=" + oneLine(err)
	}
	if err := tw.Close(); err != nil {
		return "error=" + oneLine(err)
	}
	if err := pw.Close(); err != nil {
		return "error=" + oneLine(err)
	}
	js, err := json.MarshalIndent(col.Build(sim, sc.Name), "", "  ")
	if err != nil {
		return "error=" + oneLine(err)
	}
	return fmt.Sprintf("trace=%s perfetto=%s metrics=%s", short(th), short(ph), short(sha256.New(), js))
}

func short(h hash.Hash, data ...[]byte) string {
	for _, d := range data {
		h.Write(d)
	}
	return fmt.Sprintf("%x", h.Sum(nil))[:16]
}

func oneLine(err error) string {
	return string(bytes.ReplaceAll([]byte(err.Error()), []byte("\n"), []byte(" | ")))
}
