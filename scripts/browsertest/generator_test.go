//go:build browser

package browsertest

// The generator forms: add a hackbench generator to the first-visit
// scenario through the form, see its expansion previewed, change a
// parameter and see the preview and the scenario change (in the workload
// form: the JSON keeps kind, name and the parameter, not the expansion),
// enter an out-of-range value and see the error at the field with the
// scenario unchanged, then remove the generator.

import (
	"strings"
	"testing"
	"time"
)

func TestGeneratorForm(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	if n := eval[int](tb, `document.querySelectorAll("#generators .gen-form").length`); n != 0 {
		t.Fatalf("%d generator forms on the first visit, want 0", n)
	}
	tb.change("#gen-kind", "hackbench")
	tb.click("#gen-add")
	tb.waitFor(`document.querySelector("#gen-0-size") !== null`, 10*time.Second)
	size := func() string { return eval[string](tb, `document.querySelector("#gen-0-size").textContent`) }
	// hackbench's defaults: 10 groups of 20 senders (one task group) and
	// 20 receivers (one task group each).
	if s := size(); s != "expands to 210 task groups, 400 tasks" {
		t.Fatalf("default hackbench preview %q", s)
	}
	// The form is generated from the parameter table: every parameter has
	// a field, the enumeration a select with its values.
	ids := eval[[]string](tb, `Array.from(document.querySelectorAll("#gen-0 .gen-field [id]")).map(function(e){return e.id})`)
	if strings.Join(ids, " ") != "gen-0-groups gen-0-fds gen-0-loops gen-0-mode gen-0-cost" {
		t.Fatalf("fields %q", ids)
	}
	if opts := eval[[]string](tb, `Array.from(document.querySelectorAll("#gen-0-mode option")).map(function(e){return e.value})`); strings.Join(opts, ",") != ",socket,pipe" {
		t.Fatalf("mode options %q", opts)
	}

	tb.change("#gen-0-groups", "2")
	tb.waitFor(`document.querySelector("#gen-0-size").textContent === "expands to 42 task groups, 80 tasks"`, 10*time.Second)
	// The scenario JSON is published after the render that shows the
	// preview: wait for the edit to reach it, then check it whole.
	tb.waitFor(`window.schedplay.scenarioJSON.indexOf('"groups": 2') >= 0`, 10*time.Second)
	js := eval[string](tb, `window.schedplay.scenarioJSON`)
	if !strings.Contains(js, `"kind": "hackbench"`) || !strings.Contains(js, `"groups": 2`) || strings.Contains(js, "hackbench.g0.snd") {
		t.Fatalf("scenario JSON after the edit:\n%s", js)
	}
	tb.change("#gen-0-fds", "5")
	tb.waitFor(`document.querySelector("#gen-0-size").textContent === "expands to 12 task groups, 20 tasks"`, 10*time.Second)
	tb.waitFor(`window.schedplay.scenarioJSON.indexOf('"fds": 5') >= 0`, 10*time.Second)

	// Out of range: the error at the field, the scenario unchanged.
	tb.change("#gen-0-groups", "0")
	tb.waitFor(`document.querySelector("#gen-0-groups-err") !== null`, 10*time.Second)
	if msg := eval[string](tb, `document.querySelector("#gen-0-groups-err").textContent`); !strings.Contains(msg, "want 1..1000") {
		t.Fatalf("field error %q", msg)
	}
	if v := eval[string](tb, `document.querySelector("#gen-0-groups").value`); v != "0" {
		t.Fatalf("the rejected value should stay in its field, got %q", v)
	}
	if s := size(); s != "expands to 12 task groups, 20 tasks" {
		t.Fatalf("preview after a rejected value %q", s)
	}
	if js2 := eval[string](tb, `window.schedplay.scenarioJSON`); !strings.Contains(js2, `"groups": 2`) {
		t.Fatalf("a rejected value reached the scenario:\n%s", js2)
	}
	if *shotsDir != "" {
		tb.do(scrollTo("#generators"))
		tb.screenshot("generator-form")
	}
	// A hostile name is refused at its field and stays text.
	tb.change("#gen-0-name", `<img src=x onerror=alert(1)>`)
	tb.waitFor(`document.querySelector("#gen-0-name-err") !== null`, 10*time.Second)
	if n := eval[int](tb, `document.querySelectorAll("#generators img").length`); n != 0 {
		t.Fatal("a name became HTML")
	}

	tb.click("#gen-0-remove")
	tb.waitFor(`document.querySelectorAll("#generators .gen-form").length === 0`, 10*time.Second)
	tb.waitFor(`window.schedplay.scenarioJSON.indexOf("hackbench") < 0`, 10*time.Second) // the removed generator left the scenario
	tb.waitDone()
}
