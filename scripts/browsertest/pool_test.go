//go:build browser

package browsertest

// The worker pool (wasm/pool): a thread experiment's table and Markdown
// are the real CLI's bytes at pool sizes 1 and 2 (and a sweep's CSV at
// 2); a cancel stops every worker and the pool runs the next batch; a
// worker that panics with a job in flight, and one the test terminates
// behind the page's back, are reported and their jobs retried on another
// worker, the result still the CLI's; before a batch starts the panel
// says how many runs and about how long; a finished batch's "N runs in X
// s" does not follow the user to another preset; the runs field shows
// its largest value whole.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

var (
	cliOnce sync.Once
	cliPath string
	cliErr  error
)

// cliBinary builds the real CLI once (with the profile make build uses).
func cliBinary(t *testing.T) string {
	t.Helper()
	cliOnce.Do(func() {
		dir, err := os.MkdirTemp("", "schedplay-cli-*")
		if err != nil {
			cliErr = err
			return
		}
		cliPath = filepath.Join(dir, "schedplay")
		cmd := exec.Command("go", "build", "-pgo=wasm/worker/default.pgo", "-o", cliPath, "./core/cmd/schedplay")
		cmd.Dir = "../.."
		if out, err := cmd.CombinedOutput(); err != nil {
			cliErr = err
			t.Logf("%s", out)
		}
	})
	if cliErr != nil {
		t.Fatalf("building the CLI: %v", cliErr)
	}
	return cliPath
}

// cli runs the CLI on one core (GOMAXPROCS=1: its worker pool is one
// worker) and returns its output and wall time.
func cli(t *testing.T, args ...string) (string, time.Duration) {
	t.Helper()
	out, wall, _ := cliCPU(t, args...)
	return out, wall
}

// cliCPU is cli with the process's CPU time (user and system), which a
// loaded machine stretches less than the wall time.
func cliCPU(t *testing.T, args ...string) (string, time.Duration, time.Duration) {
	t.Helper()
	cmd := exec.Command(cliBinary(t), args...)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	t0 := time.Now()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("schedplay %v: %v\n%s", args, err, out)
	}
	wall := time.Since(t0)
	return string(out), wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// setPool picks n workers in the Workers setting.
func (tb *tab) setPool(n string) {
	tb.t.Helper()
	tb.change("#pool-size", n)
	want := n
	if n == "auto" {
		want = "window.schedplay.pool.auto"
	}
	tb.waitFor(`window.schedplay.pool && window.schedplay.pool.size === `+want, 5*time.Second)
}

// runThread presses Run the thread's experiment and waits for the table.
func (tb *tab) runThread(timeout time.Duration) map[string]any {
	tb.t.Helper()
	id := eval[int](tb, `window.schedplay.thread ? (window.schedplay.thread.id || 0) : 0`)
	tb.click("#run-thread")
	tb.waitFor(fmt.Sprintf(`window.schedplay.thread.id > %d && window.schedplay.thread.running === false && (window.schedplay.thread.fails !== undefined || window.schedplay.thread.error !== "")`, id), timeout)
	st := eval[map[string]any](tb, `window.schedplay.thread`)
	if st["error"] != "" {
		tb.t.Fatalf("thread experiment failed: %v", st["error"])
	}
	return st
}

// checkThreadIsCLI compares the page's thread report with the CLI's
// `compare -runs N -o markdown` and `-o text` of the same scenario (a
// share link).
func checkThreadIsCLI(tb *tab, link, runs, what string) {
	t := tb.t
	t.Helper()
	md := eval[string](tb, `document.querySelector("#thread-md").textContent`)
	want, _ := cli(t, "compare", "-runs", runs, "-o", "markdown", link)
	if !sameButBuild(md, want) {
		t.Fatalf("%s: the page's Markdown differs from the CLI's:\n%s\n---\n%s", what, md, want)
	}
	text, _ := cli(t, "compare", "-runs", runs, link)
	rows := eval[[][]string](tb, `Array.from(document.querySelectorAll("#thread-result .thread-table tbody tr")).map(function(r){
  return Array.from(r.children).map(function(c){return c.textContent})})`)
	if len(rows) == 0 {
		t.Fatalf("%s: no table rows", what)
	}
	for _, r := range rows {
		if !lineWithInOrder(text, append([]string{r[0]}, r[3:]...)) {
			t.Fatalf("%s: row %q is not a line of the CLI's table:\n%s", what, r, text)
		}
	}
}

// lineWithInOrder reports whether some line of text holds every part, in
// order.
func lineWithInOrder(text string, parts []string) bool {
	for _, l := range strings.Split(text, "\n") {
		rest, ok := l, true
		for _, p := range parts {
			k := strings.Index(rest, p)
			if k < 0 {
				ok = false
				break
			}
			rest = rest[k+len(p):]
		}
		if ok {
			return true
		}
	}
	return false
}

// shareLink presses Share and returns the link.
func (tb *tab) shareLink() string {
	tb.t.Helper()
	tb.click("#share")
	tb.waitFor(`document.querySelector("#share-link") !== null && document.querySelector("#share-link").value !== ""`, 10*time.Second)
	return eval[string](tb, `document.querySelector("#share-link").value`)
}

func TestPoolResultsAreTheCLIs(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.change("#preset", seedPreset)
	tb.waitFor(`window.schedplay.preset === "`+seedPreset+`" && window.schedplay.done`, 60*time.Second)
	link := tb.shareLink()
	defer tb.setPool("auto") // the setting is kept in this browser profile: leave it as found
	for _, n := range []string{"1", "2"} {
		tb.setPool(n)
		tb.change("#thread-runs", "3")
		st := tb.runThread(180 * time.Second)
		if st["total"] != 6.0 || st["finished"] != 6.0 {
			t.Fatalf("pool %s: state %v, want 6 runs", n, st)
		}
		if p := tb.progressText("#thread-progress-text"); !strings.Contains(p, "6 runs in") || !strings.Contains(p, "on "+n+" worker") {
			t.Fatalf("pool %s: after the run %q", n, p)
		}
		checkThreadIsCLI(tb, link, "3", "pool of "+n)
	}

	// A sweep on 2 workers: the CLI's CSV.
	tb.click("#toggle-sweep")
	tb.waitFor(`document.querySelector("#sweep-key1") !== null`, 10*time.Second)
	tb.change("#sweep-key1", "kernel.hz")
	tb.change("#sweep-vals1", "250,1000")
	tb.change("#sweep-runs", "2")
	tb.click("#run-sweep")
	tb.waitFor(`window.schedplay.sweep && window.schedplay.sweep.csv && !window.schedplay.sweep.running`, 180*time.Second)
	csv := eval[string](tb, `window.schedplay.sweep.csv`)
	if want, _ := cli(t, "sweep", "-csv", "-", tb.shareLink()); csv != want {
		t.Fatalf("the pool's sweep CSV differs from the CLI's:\n%s\n---\n%s", csv, want)
	}
}

func (tb *tab) progressText(sel string) string {
	tb.t.Helper()
	return eval[string](tb, `document.querySelector("`+sel+`").textContent`)
}

// slowThread is an experiment whose jobs take seconds each (144 CPUs), so
// that a test can act while they are in flight.
func slowThread(t *testing.T) *scenario.Scenario {
	sc, err := scenario.Decode([]byte(bigThread))
	if err != nil {
		t.Fatal(err)
	}
	sc.Experiment.Variants = sc.Experiment.Variants[1:] // 144 CPUs only
	sc.Duration = 100 * sched.Millisecond
	return sc
}

func TestPoolCancel(t *testing.T) {
	sc := slowThread(t)
	tb := newTab(t)
	tb.open("/#s=" + scenario.EncodeURLPayload(sc))
	tb.waitFor(`document.querySelector("#run-thread") !== null && window.schedplay.done`, 60*time.Second)
	tb.setPool("2")
	defer tb.setPool("auto")
	tb.change("#thread-runs", "2")
	tb.click("#run-thread")
	tb.waitFor(`window.schedplay.pool.jobs[0] >= 0 && window.schedplay.pool.jobs[1] >= 0 && window.schedplay.thread.fraction > 0.02`, 90*time.Second)
	tb.click("#cancel-thread")
	tb.waitFor(`window.schedplay.thread.running === false && window.schedplay.pool.jobs.every(function (j) { return j < 0; })`, 5*time.Second)
	if eval[bool](tb, `document.querySelector("#thread-result") !== null`) {
		t.Fatal("a cancelled experiment shows results")
	}
	// The pool is free: the next batch runs to the end.
	tb.change("#thread-runs", "1")
	st := tb.runThread(180 * time.Second)
	if st["finished"] != 2.0 {
		t.Fatalf("after the cancel: %v", st)
	}
}

func TestPoolRetry(t *testing.T) {
	sc := slowThread(t)
	tb := newTab(t)
	tb.open("/#s=" + scenario.EncodeURLPayload(sc))
	tb.waitFor(`document.querySelector("#run-thread") !== null && window.schedplay.done`, 60*time.Second)
	link := tb.shareLink()
	tb.setPool("2")
	defer tb.setPool("auto")
	tb.change("#thread-runs", "2") // 4 jobs

	// Worker 2's Go program panics with a job in flight.
	tb.click("#run-thread")
	tb.waitFor(`window.schedplay.pool.jobs[1] >= 0 && window.schedplay.pool.spoke[1]`, 90*time.Second)
	eval[bool](tb, `(window.schedplayWorkers["1"].postMessage({type: "crash"}), true)`)
	tb.waitFor(`window.schedplay.pool.notes.indexOf("worker 2 failed") >= 0`, 30*time.Second)
	notes := eval[string](tb, `window.schedplay.pool.notes`)
	if !strings.Contains(notes, "panic") || !strings.Contains(notes, "retrying") {
		t.Fatalf("notes %q: want the panic and the retry", notes)
	}
	if !strings.Contains(eval[string](tb, `document.querySelector("#notice").textContent`), "worker 2 failed") {
		t.Fatal("the failure is not in the notice line")
	}
	tb.waitFor(`window.schedplay.thread.running === false`, 240*time.Second)
	if e := eval[string](tb, `window.schedplay.thread.error`); e != "" {
		t.Fatalf("after the crash: %s", e)
	}
	checkThreadIsCLI(tb, link, "2", "after a worker's panic")

	// Worker 1 is terminated behind the pool's back: the watchdog finds it.
	tb.click("#run-thread")
	tb.waitFor(`window.schedplay.pool.jobs[0] >= 0 && window.schedplay.pool.spoke[0]`, 90*time.Second)
	eval[bool](tb, `(window.schedplayWorkers["0"].terminate(), true)`)
	tb.waitFor(`window.schedplay.pool.notes.indexOf("worker 1 failed (no answer") >= 0`, 60*time.Second)
	tb.waitFor(`window.schedplay.thread.running === false`, 240*time.Second)
	if e := eval[string](tb, `window.schedplay.thread.error`); e != "" {
		t.Fatalf("after the kill: %s", e)
	}
	checkThreadIsCLI(tb, link, "2", "after a worker was terminated")
	// Slot 0 is the timeline's worker too: its replacement runs the next run.
	tb.click("#run")
	tb.waitDone()
}

func TestBatchEstimateAndFields(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.change("#preset", seedPreset)
	tb.waitFor(`window.schedplay.preset === "`+seedPreset+`" && window.schedplay.done`, 60*time.Second)
	tb.setPool("1")
	defer tb.setPool("auto")
	// Before the start: the runs (2 configurations x the block's 5) and a
	// time from the run above.
	est := tb.progressText("#thread-estimate")
	if !strings.HasPrefix(est, "10 runs · about ") || !strings.Contains(est, " on 1 worker") {
		t.Fatalf("estimate before the start %q", est)
	}
	tb.change("#thread-runs", "1")
	tb.waitFor(`document.querySelector("#thread-estimate").textContent.indexOf("2 runs") === 0`, 5*time.Second)
	tb.runThread(120 * time.Second)
	if p := tb.progressText("#thread-progress-text"); !strings.Contains(p, "2 runs in") {
		t.Fatalf("after the run: %q", p)
	}
	// Another preset: no figure of the previous one.
	tb.change("#preset", "seed/nohz-pipe")
	tb.waitFor(`window.schedplay.preset === "seed/nohz-pipe" && window.schedplay.done`, 90*time.Second)
	if p := tb.progressText("#thread-progress-text"); p != "" {
		t.Fatalf("seed/nohz-pipe shows %q from seed/sched-idle-wakeup", p)
	}
	if est := tb.progressText("#thread-estimate"); !strings.Contains(est, " runs · about ") {
		t.Fatalf("seed/nohz-pipe estimate %q", est)
	}

	// The runs fields hold their largest value whole: the text of "100"
	// fits beside the spin buttons.
	tb.click("#toggle-sweep")
	tb.waitFor(`document.querySelector("#sweep-runs") !== null`, 10*time.Second)
	for _, sel := range []string{"#thread-runs", "#sweep-runs"} {
		room := eval[float64](tb, `(function () {
  var e = document.querySelector("`+sel+`"), cs = getComputedStyle(e);
  var ctx = document.createElement("canvas").getContext("2d"); ctx.font = cs.font;
  var text = ctx.measureText(e.max).width;
  var inner = e.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  return inner - 15 - text; })()`) // Chromium's spin buttons are 15 px wide
		if room < 0 {
			t.Errorf("%s: %.1f px short of showing its maximum", sel, -room)
		}
	}
}
