//go:build browser

package browsertest

// What comes from outside the simulator: an rt-app configuration pasted
// into the JSON editor, the rt-app export, and a real kernel trace opened
// from disk.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// s5 is the rt-app workload of experiments S5 (the Aug 2020 SCHED_IDLE
// sleeper-credit thread), with // comments as rt-app's parser allows.
const s5 = `// rt-app workload of "sched/fair: avoid vruntime compensation for SCHED_IDLE task"
{ "tasks" : {
    "task_other" : { "instance" : 1, "cpus" : [2], "loop" : 2000,
                     "policy" : "SCHED_OTHER", "run" : -1, "priority" : 0, "sleep" : 0 }, // "run": -1 = always running
    "task_idle"  : { "instance" : 1, "cpus" : [2], "loop" : 2000,
                     "policy" : "SCHED_IDLE", "run" : 1,
                     "timer" : { "ref" : "unique2", "period" : 16000, "mode" : "absolute" } } },
  "global" : { "calibration" : "CPU0", "default_policy" : "SCHED_OTHER", "duration" : -1 } }
`

// Pasting S5 imports it, shows the import warnings and runs it with
// rt-app's thread names; Export rt-app gives the workload back; an rt-app
// error is shown at its path in the rt-app file.
func TestRTAppPasteAndExport(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.openTab("json")
	tb.applyJSON(s5)
	tb.waitFor(`window.schedplay.done && window.schedplay.preset === "" && window.schedplay.tasks && "task_idle-1" in window.schedplay.tasks`, 60*time.Second)
	tasks := eval[map[string]map[string]float64](tb, `window.schedplay.tasks`)
	if len(tasks) != 2 || tasks["task_other-0"]["runtime_ns"] <= 0 || tasks["task_idle-1"]["switches"] <= 0 {
		t.Fatalf("S5 ran with tasks %v, want task_other-0 and task_idle-1 both running", tasks)
	}
	shown := eval[[]string](tb, `Array.from(document.querySelectorAll("#warning-list li")).map(function (e) { return e.textContent; })`)
	if len(shown) == 0 || !strings.Contains(strings.Join(shown, "\n"), "calibration") {
		t.Fatalf("import warnings shown: %q, want the ignored calibration among them", shown)
	}
	if n := eval[int](tb, `document.querySelectorAll("#warning-list li *").length`); n != 0 {
		t.Fatalf("warnings rendered as markup (%d child elements), want text nodes", n)
	}
	if eval[string](tb, `window.schedplay.jsonError ? "error" : ""`) != "" {
		t.Fatal("import left an editor error")
	}
	tb.screenshot("rtapp-import")

	tb.click("#export-rtapp")
	tb.waitFor(`window.schedplay.lastExport && window.schedplay.lastExport.name === "rtapp.json"`, 10*time.Second)
	text := eval[string](tb, `window.schedplay.lastExport.text`)
	var doc struct {
		Tasks  map[string]map[string]any `json:"tasks"`
		Global map[string]any            `json:"global"`
	}
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatalf("exported rt-app file is not JSON: %v\n%s", err, text)
	}
	if len(doc.Tasks) != 2 || doc.Global == nil {
		t.Fatalf("exported rt-app file has tasks %v, global %v:\n%s", doc.Tasks, doc.Global, text)
	}
	if !strings.Contains(strings.Join(eval[[]string](tb, `window.schedplay.warnings`), "\n"), "workload") {
		t.Fatalf("export warnings %q, want the left-out machine named", eval[[]string](tb, `window.schedplay.warnings`))
	}

	bad := strings.Replace(s5, `"SCHED_IDLE"`, `"SCHED_DEADLINE"`, 1)
	tb.applyJSON(bad)
	tb.waitFor(`window.schedplay.jsonError && window.schedplay.jsonError.path.indexOf("tasks.task_idle") === 0`, 10*time.Second)
	if shown := eval[string](tb, `document.querySelector("#json-error").textContent`); !strings.Contains(shown, "tasks.task_idle") {
		t.Fatalf("rt-app error shown as %q", shown)
	}
}

// A real 6.18 trace (two shell busy loops on CPU 1 at nice 0 and 5) opened
// through the file input: trace mode, slices on CPU 1, both loops in the
// task table; a broken trace names its line.
func TestOpenTrace(t *testing.T) {
	file, err := filepath.Abs("../../core/ftraceimport/testdata/real-6.18-nice0-nice5.txt")
	if err != nil {
		t.Fatal(err)
	}
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.do(chromedp.SetUploadFiles("#trace-file", []string{file}, chromedp.NodeReady))
	tb.waitFor(`window.schedplay.mode === "trace" && window.schedplay.done === true`, 30*time.Second)
	drawn := eval[[]int](tb, `window.schedplay.drawn`)
	if len(drawn) != 2 || drawn[1] < 100 {
		t.Fatalf("drawn columns per CPU %v: want 2 lanes, CPU 1 full of slices", drawn)
	}
	// The task table renders after the done flag: wait for the trace's rows.
	tb.waitFor(`Array.from(document.querySelectorAll("#task-table tbody tr")).some(function (r) {
  return r.cells.length > 0 && r.cells[0].textContent === "sh"; })`, 10*time.Second)
	rows := eval[[][]string](tb, `Array.from(document.querySelectorAll("#task-table tbody tr")).map(function (r) {
  return Array.from(r.cells).map(function (c) { return c.textContent; }); })`)
	nices := map[string]bool{}
	for _, r := range rows {
		if len(r) > 3 && r[0] == "sh" {
			nices[r[3]] = true
		}
	}
	if !nices["0"] || !nices["5"] {
		t.Fatalf("task table rows %q: want sh at nice 0 and nice 5", rows)
	}
	if eval[bool](tb, `!!document.querySelector("#run") || !!document.querySelector(".knobs") || !!document.querySelector(".tabs")`) {
		t.Fatal("trace mode shows Run, the kernel knobs or the side panel's tabs")
	}
	tb.screenshot("trace")

	bad := filepath.Join(t.TempDir(), "bad.txt")
	os.WriteFile(bad, []byte("# tracer: nop\n"+
		"  sh-1  [000] d..2.  1.000000: sched_switch: prev_comm=sh prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=x next_pid=2 next_prio=120\n"+
		"  sh-1  [000] d..2.  1.000100: sched_switch: garbage\n"), 0o644)
	tb.do(chromedp.SetUploadFiles("#trace-file", []string{bad}, chromedp.NodeReady))
	tb.waitFor(`window.schedplay.traceError !== ""`, 30*time.Second)
	if msg := eval[string](tb, `document.querySelector("#trace-error").textContent`); !strings.Contains(msg, "bad.txt: line 3") {
		t.Fatalf("broken trace error shown as %q", msg)
	}

	tb.click("#leave-trace")
	tb.waitFor(`window.schedplay.mode === "sim" && window.schedplay.done === true`, 60*time.Second)
	tb.openTab("kernel")
	if !eval[bool](tb, `!!document.querySelector(".knobs")`) {
		t.Fatal("back in the simulation without the kernel knobs")
	}
}

// Replay in the trace panel: the trace's inferred workload opens as the
// scenario and runs, with the trace pinned as A, so the A/B table compares
// the trace's two loops with the replay's.
func TestReplayTrace(t *testing.T) {
	file, err := filepath.Abs("../../core/ftraceimport/testdata/real-6.18-nice0-nice5.txt")
	if err != nil {
		t.Fatal(err)
	}
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.do(chromedp.SetUploadFiles("#trace-file", []string{file}, chromedp.NodeReady))
	tb.waitFor(`window.schedplay.mode === "trace" && window.schedplay.done === true && !!document.querySelector("#trace-replay")`, 30*time.Second)
	tb.click("#trace-replay")
	tb.waitFor(`window.schedplay.mode === "sim" && window.schedplay.done === true && !!document.querySelector("#compare-table tbody tr")`, 60*time.Second)
	rows := eval[[]string](tb, `Array.from(document.querySelectorAll("#compare-table tbody tr")).map(function (r) { return r.cells[0].textContent; })`)
	if len(rows) == 0 || !strings.Contains(strings.Join(rows, "|"), "sh runtime") {
		t.Fatalf("A/B rows %q: want the trace's sh loops beside the replay's", rows)
	}
	// The fidelity table: the score line and rows of `schedplay replay`
	// for the same trace on the same (default) settings.
	tb.waitFor(`!!document.querySelector("#fidelity-score")`, 10*time.Second)
	score := eval[string](tb, `document.querySelector("#fidelity-score").textContent`)
	cmd := exec.Command("go", "run", "./core/cmd/schedplay", "replay", file)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("schedplay replay: %v", err)
	}
	var cliScore string
	cliRows := map[string]string{} // group -> "cpu_ms switches" as the CLI prints them
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "score ") {
			cliScore = line
		}
		if f := strings.Fields(line); len(f) > 6 && strings.HasPrefix(f[0], "sh_") {
			cliRows[f[0]] = f[2] + " " + f[5]
		}
	}
	if score == "" || score != cliScore {
		t.Fatalf("page fidelity %q, schedplay replay %q", score, cliScore)
	}
	page := eval[[][]string](tb, `Array.from(document.querySelectorAll("#fidelity-table tbody tr")).map(function (r) {
  return Array.from(r.cells).map(function (c) { return c.textContent; }); })`)
	var seen int
	for _, r := range page {
		want, ok := cliRows[r[0]]
		if !ok {
			continue
		}
		seen++
		if got := strings.ReplaceAll(r[2], " ", "") + " " + strings.ReplaceAll(r[5], " ", ""); got != want {
			t.Errorf("fidelity row %s: page %q, schedplay replay %q", r[0], got, want)
		}
	}
	if seen != 2 || len(cliRows) != 2 {
		t.Errorf("fidelity rows of sh: %d on the page, %d from schedplay replay; want 2", seen, len(cliRows))
	}
	tb.screenshot("replay-fidelity")

	// A changed replay: the table reads trace | replay | changed replay,
	// the unchanged replay's score kept above the changed one's.
	tb.openTab("kernel")
	tb.change("#hz", "1000")
	tb.waitFor(`window.schedplay.done && !!document.querySelector("#fidelity-score-base")`, 60*time.Second)
	if base := eval[string](tb, `document.querySelector("#fidelity-score-base").textContent`); base != "replay: "+cliScore {
		t.Fatalf("unchanged replay's score %q, want %q", base, "replay: "+cliScore)
	}
	cells := eval[[]string](tb, `Array.from(document.querySelectorAll("#fidelity-table tbody tr")).map(function (r) { return r.cells[5].textContent; })`)
	if len(cells) == 0 || strings.Count(cells[0], "|") != 2 {
		t.Fatalf("switch cells %q: want trace | replay | changed replay", cells)
	}
	tb.screenshot("replay-fidelity-changed")
}
