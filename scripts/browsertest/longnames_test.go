//go:build browser

package browsertest

// Long user strings (wasm/longtext.go): a scenario whose name,
// description and a task group's name are 40 KB each opens, runs, shows
// each bounded with an ellipsis and the text still escaped, and the page
// goes on working (tabs, an edit and its rerun). Vugu's render buffer is
// 16 KiB: a longer attribute or text stopped the page's Go program.

import (
	"strings"
	"testing"
	"time"

	"schedplay/core/scenario"
)

func TestLongNames(t *testing.T) {
	sc, err := scenario.Preset("demo/periodic-vs-hog")
	if err != nil {
		t.Fatal(err)
	}
	// Markup and multi-byte characters: the display stays text and no
	// character is cut in half.
	long := func(tag string) string {
		return tag + "<b>é</b>" + strings.Repeat("ñ-"+tag+"-", 40<<10/(len(tag)+4))
	}
	sc.Name, sc.Description = long("name"), long("desc")
	task := long("task")
	sc.Tasks[0].Name = task
	for _, s := range []string{sc.Name, sc.Description, task} {
		if len(s) < 40<<10 {
			t.Fatalf("a long string of %d bytes: want 40 KB", len(s))
		}
	}
	if _, err := scenario.Decode(sc.Encode()); err != nil {
		t.Fatalf("the decoder refuses the scenario: %v", err)
	}
	tb := newTab(t)
	tb.open("/#s=" + scenario.EncodeURLPayload(sc))
	tb.waitDone()
	head := eval[string](tb, `document.querySelector("#scname").textContent`)
	if !strings.HasPrefix(head, "name<b>é</b>ñ-name-") || !strings.Contains(head, "…") || len(head) > 2<<10 {
		t.Fatalf("header %.200q (%d bytes): want the name's start, escaped, bounded with an ellipsis", head, len(head))
	}
	if strings.ContainsRune(head, '\uFFFD') {
		t.Fatalf("header has a broken character: %.200q", head)
	}
	if eval[int](tb, `document.querySelectorAll("#scname b").length`) != 0 {
		t.Fatal("the name's markup became an element")
	}
	if n := eval[int](tb, `window.schedplay.slices || 0`); n == 0 {
		t.Fatal("the scenario ran but drew no slices")
	}
	// The workload table shows the task group bounded too.
	tb.openTab("workload")
	tb.waitFor(`Array.from(document.querySelectorAll(".panel.workload code")).some(function(c){ return c.textContent.indexOf("task<b>é</b>") === 0 })`, 10*time.Second)
	cell := eval[string](tb, `Array.from(document.querySelectorAll(".panel.workload code")).map(function(c){return c.textContent}).filter(function(s){return s.indexOf("task<b>") === 0})[0]`)
	if len(cell) > 2<<10 || !strings.Contains(cell, "…") {
		t.Fatalf("workload cell of %d bytes: want it bounded with an ellipsis", len(cell))
	}
	// The full text is one hover away (bounded by the attribute's size).
	if title := eval[string](tb, `Array.from(document.querySelectorAll(".panel.workload code")).filter(function(c){return c.textContent.indexOf("task<b>") === 0})[0].title`); !strings.HasPrefix(title, "task<b>é</b>") || len(title) <= len(cell) {
		t.Fatalf("the cell's title %.100q: want more of the name", title)
	}
	// The page goes on: the other tabs render, and an edit reruns.
	tb.openTab("kernel")
	tb.openTab("json")
	if n := eval[int](tb, `document.querySelector("#json").value.length`); n < 3*40<<10 {
		t.Fatalf("the JSON tab holds %d characters: want the whole scenario", n)
	}
	tb.openTab("kernel")
	tb.change("#hz", "1000")
	tb.waitFor(`window.schedplay.done === true && document.querySelector("#scname").textContent.indexOf("(modified)") > 0`, 60*time.Second)
}
