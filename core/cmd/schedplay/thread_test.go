package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"schedplay/core/scenario"
)

const s5Seed = "seed/sched-idle-wakeup"

// TestThreadModeMatchesRun: compare on a preset with an experiment block
// runs each configuration over the seeds, in parallel, and every raw value
// equals what `schedplay run` gives for that configuration and seed alone;
// the output is the same bytes twice.
func TestThreadModeMatchesRun(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	args := []string{"compare", "-preset", s5Seed, "-runs", "2", "-duration", "500ms", "-o", "json"}
	out := runJSON(t, args...)
	if again := runJSON(t, args...); again != out {
		t.Fatalf("two runs differ:\n%s\n---\n%s", out, again)
	}
	var d threadDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if d.Schema != ThreadSchema || len(d.Tables) != 1 || len(d.Configs) != 2 || len(d.Checks) != 2 {
		t.Fatalf("doc shape: %s", out)
	}
	sets := []string{"features.SCHED_IDLE_NO_SLEEPER_CREDIT=off", "features.SCHED_IDLE_NO_SLEEPER_CREDIT=on"}
	var sw *threadMetricDoc
	for i := range d.Tables[0].Metrics {
		if d.Tables[0].Metrics[i].Name == "switches@task_idle" {
			sw = &d.Tables[0].Metrics[i]
		}
	}
	if sw == nil {
		t.Fatal("no switches@task_idle row")
	}
	for ci, set := range sets {
		for si, seed := range d.Seeds {
			var rep struct {
				Tasks []struct {
					Name     string `json:"name"`
					Switches int64  `json:"switches"`
				} `json:"tasks"`
			}
			js := runJSON(t, "run", "-preset", s5Seed, "-duration", "500ms", "-seed", fmt.Sprint(seed), "-set", set, "-o", "json")
			if err := json.Unmarshal([]byte(js), &rep); err != nil {
				t.Fatal(err)
			}
			var want float64
			for _, tk := range rep.Tasks {
				if strings.HasPrefix(tk.Name, "task_idle") {
					want += float64(tk.Switches)
				}
			}
			if got := sw.Cells[ci].Raw.Values[si]; got != want {
				t.Errorf("%s seed %d: thread mode %g switches, run alone %g", set, seed, got, want)
			}
		}
	}
	// Only the patch changes the idle task's switch count.
	if sw.Cells[0].Raw.Mean == sw.Cells[1].Raw.Mean {
		t.Errorf("both configurations give %g switches", sw.Cells[0].Raw.Mean)
	}
}

// TestValidateCheck: validate runs every seed preset's thread and exits 3
// with -check when a thread's number is missed; text and markdown name
// the thread and the verdict.
func TestValidateCheck(t *testing.T) {
	code, out, stderr := cli(t, "", "validate", "-runs", "1", "-o", "markdown", s5Seed)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, w := range []string{"| [`seed/sched-idle-wakeup`]", "avoid vruntime compensation", "| the thread's number |", "pass"} {
		if !strings.Contains(out, w) {
			t.Errorf("markdown lacks %q:\n%s", w, out)
		}
	}
	code, _, _ = cli(t, "", "validate", "-runs", "1", "-check", s5Seed)
	if code != 0 {
		t.Errorf("-check on the preset as is: exit %d, want 0", code)
	}
	// The same experiment with the thread's switch count moved out of
	// reach: -check exits 3 and the text says FAIL.
	sc, err := scenario.Preset(s5Seed)
	if err != nil {
		t.Fatal(err)
	}
	sc.Experiment.Reference[1].Value = 1000
	file := filepath.Join(t.TempDir(), "s5.json")
	if err := os.WriteFile(file, sc.Encode(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = cli(t, "", "validate", "-runs", "1", "-check", file)
	if code != 3 || !strings.Contains(out, "FAIL") || !strings.Contains(stderr, "misses the thread's numbers") {
		t.Errorf("-check with a missed number: exit %d\n%s\n%s", code, out, stderr)
	}
	code, _, stderr = cli(t, "", "validate", "-check", "demo/nice-shares")
	if code != 2 || !strings.Contains(stderr, "no experiment block") {
		t.Errorf("validate of a preset without a block: exit %d %q", code, stderr)
	}
	code, _, stderr = cli(t, "", "compare", "-preset", s5Seed, "-metric", "switches")
	if code != 2 || !strings.Contains(stderr, "experiment block") {
		t.Errorf("thread mode with -metric: exit %d %q", code, stderr)
	}
}

// TestCompareMarkdown: -o markdown gives a GitHub table with a row per
// metric and both sides' overrides.
func TestCompareMarkdown(t *testing.T) {
	out := runJSON(t, append([]string{"compare", "-preset", s5, "-runs", "2", "-o", "markdown",
		"-metric", "switches@task_idle,latency.max@task_idle"}, s5AB...)...)
	for _, w := range []string{"- A: `features.SCHED_IDLE_NO_SLEEPER_CREDIT=off`", "- B: `features.SCHED_IDLE_NO_SLEEPER_CREDIT=on`",
		"| metric | unit | better | AMean A |", "| switches@task_idle | count | lower |", "| latency.max@task_idle | us | lower |"} {
		if !strings.Contains(out, w) {
			t.Errorf("markdown lacks %q:\n%s", w, out)
		}
	}
}
