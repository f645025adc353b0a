//go:build browser

package browsertest

// Task groups in the playground: a cpu.max scenario's per-cgroup table
// holds the digits the CLI prints, its throttled intervals are underlined
// on the lanes with a tooltip naming the group; the cgroup tree adds,
// nests, edits, renames and removes groups, assigns a task group and a
// generator, shows a bad value at its field (and a hostile name as
// text), and its share link restores the tree in a fresh tab.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// throttledJS finds, per lane, the columns of the canvas whose bar's last
// row is the throttled band's colour (view.throttleColor).
const throttledJS = `(function () {
  var c = document.getElementById("tl-canvas"), g = c.getContext("2d"), s = window.schedplay, out = [];
  for (var l = 0; l < s.drawn.length; l++) {
    var top = s.lanes[0] + l * s.lanes[1];
    if (top < 18 || top + s.lanes[1] > c.height) { out.push(-1); continue; }
    var d = g.getImageData(0, top + s.lanes[1] - 3, c.width, 1).data, first = -1, n = 0;
    for (var x = 0; x < c.width; x++) if (d[4*x] === 0xe5 && d[4*x+1] === 0x48 && d[4*x+2] === 0x4d) { n++; if (first < 0) first = x; }
    out.push(n > 0 ? first : -1);
  }
  return out; })()`

func TestCgroupResultsAndShading(t *testing.T) {
	sc, err := scenario.Preset("cgroup/throttled-within-quota")
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range []string{"duration=600ms", "cgroups./svc.cpu.max=5000 100000"} {
		if err := sc.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	// The CLI's cgroup lines, computed natively.
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	rep, err := metrics.Run(cfg, sc.Name)
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	var cli []string
	lines := strings.Split(text.String(), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "cgroup ") {
			for _, row := range lines[i+1:] {
				if f := strings.Fields(row); len(f) > 0 {
					cli = append(cli, strings.Join(f, " "))
				}
			}
		}
	}
	if len(cli) != 1 || rep.Cgroups[0].NrThrottled == 0 {
		t.Fatalf("CLI cgroup rows %q (throttled %d): want /svc throttled", cli, rep.Cgroups[0].NrThrottled)
	}

	tb := newTab(t)
	tb.open("/#s=" + scenario.EncodeURLPayload(sc))
	tb.waitDone()
	tb.waitFor(`document.querySelectorAll("#cgroup-table tbody tr").length > 0`, 10*time.Second)
	page := eval[[]string](tb, `Array.from(document.querySelectorAll("#cgroup-table tbody tr")).map(function(r){
  return Array.from(r.cells).map(function(c){return c.textContent}).join(" ")})`)
	if strings.Join(page, "\n") != strings.Join(cli, "\n") {
		t.Fatalf("page cgroup rows\n%s\nCLI rows\n%s", strings.Join(page, "\n"), strings.Join(cli, "\n"))
	}
	head := eval[string](tb, `Array.from(document.querySelectorAll("#cgroup-table thead th")).map(function(c){return c.textContent}).join(" ")`)
	if head != strings.Join(metrics.CgroupHead, " ") {
		t.Fatalf("header %q", head)
	}

	// Throttled intervals: underlined on the lanes of the CPUs whose
	// cfs_rq of /svc was throttled, and the tooltip there names /svc.
	first := eval[[]int](tb, throttledJS)
	lane := -1
	for l, x := range first {
		if x >= 0 {
			lane = l
			break
		}
	}
	if lane < 0 {
		t.Fatalf("no throttled band on any lane: %v", first)
	}
	lanes := eval[[]float64](tb, `window.schedplay.lanes`)
	y := lanes[0] + float64(lane)*lanes[1] + lanes[1]/2
	eval[bool](tb, fmt.Sprintf(`(function () {
  var c = document.getElementById("tl-canvas"), r = c.getBoundingClientRect();
  c.dispatchEvent(new MouseEvent("mousemove", {clientX: r.left + (%d + 1.5) * r.width / c.width, clientY: r.top + %.0f * r.height / c.height, bubbles: true}));
  return true; })()`, first[lane], y))
	tip := eval[string](tb, `document.getElementById("tl-tip").textContent`)
	if !strings.Contains(tip, "throttled: cgroup /svc") {
		t.Fatalf("tooltip at lane %d column %d: %q", lane, first[lane], tip)
	}
	tb.screenshot("cgroup-throttled")
}

func TestCgroupTreeShare(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	js := func() string { return eval[string](tb, `window.schedplay.scenarioJSON`) }
	waitJSON := func(sub string) {
		t.Helper()
		tb.waitFor(fmt.Sprintf(`window.schedplay.scenarioJSON.indexOf(%q) >= 0`, sub), 10*time.Second)
	}
	if n := eval[int](tb, `document.querySelectorAll("#cgroups .cg-row").length`); n != 0 {
		t.Fatalf("%d cgroup rows on the first visit, want 0", n)
	}
	tb.click("#cg-add")
	tb.waitFor(`document.querySelector("#cg-0-name") !== null`, 10*time.Second)
	tb.click("#cg-0-add") // nested: /g1/g1
	tb.waitFor(`document.querySelector("#cg-1-name") !== null`, 10*time.Second)
	if paths := eval[[]string](tb, `Array.from(document.querySelectorAll("#cgroups .cg-row")).map(function(r){return r.dataset.path})`); strings.Join(paths, " ") != "/g1 /g1/g1" {
		t.Fatalf("tree %q", paths)
	}

	// A bad weight: the scenario layer's message at the row, the text
	// kept in its field, the scenario unchanged.
	before := js()
	tb.change("#cg-0-weight", "0")
	tb.waitFor(`document.querySelector("#cg-0-err") !== null`, 10*time.Second)
	if msg := eval[string](tb, `document.querySelector("#cg-0-err").textContent`); msg != `cgroups./g1.cpu.weight: "0": want an integer 1..10000` {
		t.Fatalf("weight error %q", msg)
	}
	if v := eval[string](tb, `document.querySelector("#cg-0-weight").value`); v != "0" || js() != before {
		t.Fatalf("rejected weight: field %q, scenario changed %v", v, js() != before)
	}
	// A hostile name is refused and stays text.
	tb.change("#cg-0-name", `<img src=x onerror=alert(1)>`)
	tb.waitFor(`document.querySelector("#cg-0-err") !== null && document.querySelector("#cg-0-err").textContent.indexOf("want 1-64 characters") >= 0`, 10*time.Second)
	if n := eval[int](tb, `document.querySelectorAll("#cgroups img").length`); n != 0 {
		t.Fatal("a cgroup name became HTML")
	}

	tb.change("#cg-0-weight", "50")
	waitJSON(`"cpu.weight": 50`)
	tb.change("#cg-1-quota", "20000")
	waitJSON(`"cpu.max": "20000 100000"`)
	tb.change("#cg-1-burst", "5000")
	waitJSON(`"cpu.max.burst": 5000`)
	tb.click("#cg-1-idle")
	waitJSON(`"cpu.idle": 1`)
	tb.change("#cg-0-cpus", "0")
	waitJSON(`"cpuset.cpus": "0"`)

	// The first task group into the nested group, a generator into /g1.
	tb.change("#task-0-cgroup", "/g1/g1")
	waitJSON(`"taskgroup": "/g1/g1"`)
	tb.change("#gen-kind", "hog")
	tb.click("#gen-add")
	tb.waitFor(`document.querySelector("#gen-0-cgroup") !== null`, 10*time.Second)
	tb.change("#gen-0-cgroup", "/g1")
	waitJSON(`"taskgroup": "/g1"`)

	// Rename moves the nested group and the task group with it.
	tb.change("#cg-0-name", "web")
	waitJSON(`"/web/g1"`)
	if s := js(); strings.Contains(s, `"/g1`) || !strings.Contains(s, `"taskgroup": "/web/g1"`) || !strings.Contains(s, `"taskgroup": "/web"`) {
		t.Fatalf("after rename:\n%s", s)
	}
	// Removing a group with tasks is refused, saying why.
	tb.click("#cg-0-remove")
	tb.waitFor(`document.querySelector("#cg-0-err") !== null && document.querySelector("#cg-0-err").textContent.indexOf("has tasks") >= 0`, 10*time.Second)
	tb.waitDone()
	tb.waitFor(`document.querySelectorAll("#cgroup-table tbody tr").length === 2`, 20*time.Second)

	tb.click("#share")
	tb.waitFor(`document.querySelector("#share-link") && document.querySelector("#share-link").value.indexOf("#s=") > 0`, 10*time.Second)
	link := eval[string](tb, `document.querySelector("#share-link").value`)
	want := js()
	tree := `Array.from(document.querySelectorAll("#cgroups .cg-row")).map(function(r){
  var q = function(f){ var e = document.querySelector("#" + r.id.replace("-row", "-" + f)); return f === "idle" ? String(e.checked) : e.value; };
  return [r.dataset.path, q("name"), q("weight"), q("quota"), q("period"), q("burst"), q("idle"), q("cpus")].join("|") })`
	wantTree := eval[[]string](tb, tree)

	fresh := newTab(t)
	fresh.open(strings.TrimPrefix(link, baseURL))
	fresh.waitDone()
	if got := eval[string](fresh, `window.schedplay.scenarioJSON`); got != want {
		t.Fatalf("shared link restored\n%s\nwant\n%s", got, want)
	}
	if got := eval[[]string](fresh, tree); strings.Join(got, "\n") != strings.Join(wantTree, "\n") || len(got) != 2 {
		t.Fatalf("tree from the link\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantTree, "\n"))
	}
	if v := eval[string](fresh, `document.querySelector("#task-0-cgroup").value`); v != "/web/g1" {
		t.Fatalf("task group's cgroup from the link %q", v)
	}
}
