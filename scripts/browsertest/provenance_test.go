//go:build browser

package browsertest

// Results say where they came from (wasm/provenance.go, wasm/abshare.go,
// wasm/abseeds.go, issue 19): a knob change followed by the thread
// experiment gives a report and Markdown that name the changed key, whose
// regenerate command the real CLI runs to the same Markdown, with the
// one-tick tolerance marked as not applying and the report marked out of
// date after a further change; the A/B share link carries A and B and
// restores the A/B view with the "what differs" line in a fresh tab; the
// A/B table over N seeds equals `schedplay compare`'s; a normalised metric
// is a ratio and sys_share above 100 % is explained; the rt-app import
// warning names the page's controls and goes once the machine changes;
// hostile names and link values stay text.

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"schedplay/core/scenario"
)

// cliRun runs the real CLI (from the module root) and returns its stdout.
func cliRun(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"run", "schedplay/core/cmd/schedplay"}, args...)...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("schedplay %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// shellFields splits a command the page prints (words, 'single-quoted').
func shellFields(t *testing.T, cmd string) []string {
	t.Helper()
	out, err := scenario.ShellFields(cmd)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestProvenanceThreadKnob(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.change("#preset", seedPreset)
	tb.waitFor(fmt.Sprintf(`window.schedplay.preset === %q && window.schedplay.done`, seedPreset), 60*time.Second)
	tb.openTab("kernel")
	tb.change("#hz", "1000")
	tb.waitFor(`window.schedplay.done && window.schedplay.modified`, 60*time.Second)
	if s := eval[string](tb, `document.querySelector("#scname").textContent`); s != seedPreset+" (modified)" {
		t.Fatalf("header %q", s)
	}
	if s := eval[string](tb, `document.querySelector("#metrics-regen").textContent`); !strings.Contains(s, "-preset "+seedPreset+" -set kernel.hz=1000") {
		t.Fatalf("metrics regenerate command %q does not name kernel.hz=1000", s)
	}
	tb.change("#thread-runs", "1")
	tb.click("#run-thread")
	tb.waitFor(`window.schedplay.thread.running === false && window.schedplay.thread.fails !== undefined`, 120*time.Second)
	md := eval[string](tb, `document.querySelector("#thread-md").textContent`)
	regen := eval[string](tb, `document.querySelector("#thread-regen").textContent`)
	if !strings.Contains(md, "-set kernel.hz=1000") || !strings.Contains(regen, "-set kernel.hz=1000") {
		t.Fatalf("Markdown or command without the changed key:\n%s\n%s", regen, md)
	}
	if s := eval[string](tb, `document.querySelector("#thread-changed").textContent`); !strings.Contains(s, "kernel.hz=1000 (preset: 250)") {
		t.Fatalf("changed line %q", s)
	}
	checks := eval[[]string](tb, `Array.from(document.querySelectorAll("#thread-checks tbody tr")).map(function(r){return r.children[4].textContent})`)
	if len(checks) != 2 || !strings.HasPrefix(checks[0], "n/a") || !strings.Contains(checks[0], "kernel.hz=1000") {
		t.Fatalf("verdicts %q: the HZ=250 tolerance should not apply at HZ=1000", checks)
	}
	// The printed command, run by the CLI, gives the page's Markdown.
	args := shellFields(t, regen)
	if args[0] != "schedplay" {
		t.Fatalf("command %q", regen)
	}
	if cli := cliRun(t, append(args[1:], "-runs", "1", "-o", "markdown")...); !sameButBuild(md, cli) {
		t.Fatalf("the page's Markdown differs from its command's:\n%s\n---\n%s", md, cli)
	}
	if eval[bool](tb, `window.schedplay.thread.stale`) || eval[bool](tb, `document.querySelector("#thread-stale") !== null`) {
		t.Fatal("a current report is marked out of date")
	}
	tb.do(chromedp.ScrollIntoView("#thread"))
	tb.screenshot("provenance-thread")
	// A further change: the report stays, marked out of date.
	tb.openTab("kernel")
	tb.change("#hz", "300")
	tb.waitFor(`window.schedplay.done && window.schedplay.thread.stale === true`, 60*time.Second)
	if s := eval[string](tb, `document.querySelector("#thread-stale").textContent`); !strings.Contains(s, "kernel.hz=300") {
		t.Fatalf("out-of-date banner %q does not name the change", s)
	}
}

const abPreset = "demo/sched-idle-wakeup-cfs"

func TestABShareRestoresAndSeeds(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.change("#preset", abPreset)
	tb.waitFor(fmt.Sprintf(`window.schedplay.preset === %q && window.schedplay.done`, abPreset), 60*time.Second)
	tb.click("#pin-a")
	tb.openTab("kernel")
	tb.click(rememberBox)
	tb.waitFor(`window.schedplay.done && !!window.schedplay.ab && window.schedplay.ab.pinned && document.querySelector("#ab-what") !== null`, 60*time.Second)
	want := "B: " + rememberKey + "=on"
	if s := eval[string](tb, `document.querySelector("#ab-what").textContent`); s != want {
		t.Fatalf("what differs: %q, want %q", s, want)
	}
	tb.click("#share")
	tb.waitFor(`!!document.querySelector("#share-link") && document.querySelector("#share-link").value.indexOf("&ab=") > 0`, 10*time.Second)
	link := eval[string](tb, `document.querySelector("#share-link").value`)

	fresh := newTab(t)
	fresh.open(strings.TrimPrefix(link, baseURL))
	fresh.waitFor(`window.schedplay && window.schedplay.ab && window.schedplay.ab.pinned && window.schedplay.done && !window.schedplay.ab.linkPending && document.querySelector("#ab-what") !== null`, 120*time.Second)
	if s := eval[string](fresh, `document.querySelector("#ab-what").textContent`); s != want {
		t.Fatalf("the link's A/B view says %q, want %q", s, want)
	}
	if n := eval[int](fresh, `document.querySelectorAll("#compare-table tbody tr").length`); n == 0 {
		t.Fatal("the link's A/B view has no table")
	}
	if eval[int](fresh, `document.querySelectorAll(".tl-wrap canvas").length`) < 2 {
		t.Fatal("the link's A/B view lacks a timeline per side")
	}
	// N seeds per side: the CLI's rows.
	fresh.change("#ab-runs", "3")
	fresh.click("#run-ab-seeds")
	fresh.waitFor(`window.schedplay.abSeeds && !window.schedplay.abSeeds.running && window.schedplay.abSeeds.rows.length > 0`, 120*time.Second)
	rows := eval[[][]string](fresh, `window.schedplay.abSeeds.rows`)
	cmd := eval[string](fresh, `window.schedplay.abSeeds.cmd`)
	args := shellFields(t, cmd)
	out := cliRun(t, args[1:]...)
	var cliRows [][]string
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) == 9 && strings.HasSuffix(f[4], "%") {
			cliRows = append(cliRows, []string{f[0], f[3], f[4], f[5], f[6], f[7], f[8]})
		}
	}
	if fmt.Sprint(rows) != fmt.Sprint(cliRows) {
		t.Fatalf("A/B over 3 seeds:\n%v\nCLI (%s):\n%v", rows, cmd, cliRows)
	}
	fresh.do(chromedp.ScrollIntoView("#ab-what"))
	fresh.screenshot("ab-seeds")
}

func TestHonestUnits(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.change("#preset", "seed/nohz-pipe")
	tb.waitFor(`window.schedplay.preset === "seed/nohz-pipe" && window.schedplay.done`, 120*time.Second)
	tb.change("#thread-runs", "1")
	tb.click("#run-thread")
	tb.waitFor(`window.schedplay.thread.running === false && window.schedplay.thread.fails !== undefined`, 240*time.Second)
	rows := eval[[][]string](tb, `Array.from(document.querySelectorAll("#thread-result .thread-table tbody tr")).map(function(r){
  return [r.children[0].firstChild.textContent, r.children[1].textContent, r.children[0].title, r.children[0].textContent]})`)
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r[0]] = true
		switch r[0] {
		case "completion":
			if r[1] != "ratio" {
				t.Errorf("completion normalised, unit %q: want ratio", r[1])
			}
		case "sys_share":
			if r[1] != "%" || r[2] == "" || !strings.Contains(r[3], "above 100 %") {
				t.Errorf("sys_share row %q: want %%, its definition as title and the above-100 %% note", r)
			}
		}
	}
	if !seen["completion"] || !seen["sys_share"] {
		t.Fatalf("rows %v", rows)
	}
	for _, c := range eval[[]string](tb, `Array.from(document.querySelectorAll("#thread-result figcaption")).map(function(e){return e.textContent})`) {
		if strings.HasPrefix(c, "completion ") && strings.Contains(c, "ms") {
			t.Errorf("plot caption %q: a ratio in ms", c)
		}
	}
	tb.do(chromedp.ScrollIntoView("#thread-result .thread-table"))
	tb.screenshot("units")
}

func TestRTAppWarningSpeaksPage(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.openTab("json")
	tb.applyJSON(s5)
	tb.waitFor(`window.schedplay.done && window.schedplay.tasks && "task_idle-1" in window.schedplay.tasks`, 60*time.Second)
	shown := strings.Join(eval[[]string](tb, `Array.from(document.querySelectorAll("#warning-list li")).map(function (e) { return e.textContent; })`), "\n")
	if strings.Contains(shown, "-topology") || strings.Contains(shown, "-kernel") || strings.Contains(shown, "-duration") || !strings.Contains(shown, "Machine select") {
		t.Fatalf("warnings %q: want the page's controls, not CLI flags", shown)
	}
	tb.change("#topology", "smp-8")
	tb.waitFor(`window.schedplay.done`, 60*time.Second)
	tb.waitFor(`Array.from(document.querySelectorAll("#warning-list li")).every(function (e) { return e.textContent.indexOf("Machine select") < 0; })`, 10*time.Second)
	if s := strings.Join(eval[[]string](tb, `Array.from(document.querySelectorAll("#warning-list li")).map(function (e) { return e.textContent; })`), "\n"); !strings.Contains(s, "calibration") {
		t.Fatalf("the other warnings went too: %q", s)
	}
}

func TestProvenanceHostile(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.change("#preset", abPreset)
	tb.waitFor(fmt.Sprintf(`window.schedplay.preset === %q && window.schedplay.done`, abPreset), 60*time.Second)
	tb.openTab("json")
	eval[bool](tb, `(function(){ var s = JSON.parse(document.querySelector("#json").value);
  s.name = '<img id="px1" src="x" onerror="window.__pxss=1">';
  var e = document.querySelector("#json"); e.value = JSON.stringify(s);
  e.dispatchEvent(new Event("input", {bubbles: true})); e.dispatchEvent(new Event("change", {bubbles: true}));
  return true; })()`)
	tb.click("#apply-json")
	tb.waitFor(`window.schedplay.done && document.querySelector("#metrics-from") !== null && document.querySelector("#metrics-from").textContent.indexOf("<img") >= 0`, 60*time.Second)
	tb.click("#pin-a")
	tb.openTab("kernel")
	tb.click(rememberBox)
	tb.waitFor(`window.schedplay.done && document.querySelector("#ab-from") !== null && document.querySelector("#ab-from").textContent.indexOf("<img") >= 0`, 60*time.Second)
	tb.click("#share")
	tb.waitFor(`!!document.querySelector("#share-link") && document.querySelector("#share-link").value.indexOf("&ab=") > 0`, 10*time.Second)
	link := eval[string](tb, `document.querySelector("#share-link").value`)
	// A link whose B names a hostile key: the error is text, A opens alone.
	bad := strings.TrimPrefix(link[:strings.Index(link, "&ab=")], baseURL) + "&ab=" +
		eval[string](tb, `btoa(JSON.stringify({b: ['<b id="px2">x</b>=<img id="px3" src=x onerror="window.__pxss=2">']})).replace(/\+/g,"-").replace(/\//g,"_").replace(/=+$/,"")`)
	fresh := newTab(t)
	fresh.open(bad)
	fresh.waitFor(`window.schedplay && window.schedplay.done && document.querySelector("#notice") !== null`, 60*time.Second)
	if s := eval[string](fresh, `document.querySelector("#notice").textContent`); !strings.Contains(s, `<b id=`) || !strings.Contains(s, "onerror") {
		t.Fatalf("notice %q: want the bad key quoted as text", s)
	}
	for _, x := range []*tab{tb, fresh} {
		if n := eval[int](x, `document.querySelectorAll("#px1, #px2, #px3").length`); n != 0 {
			t.Fatalf("%d injected elements in the page", n)
		}
		if eval[bool](x, `window.__pxss !== undefined`) {
			t.Fatal("injected script ran")
		}
	}
}

// The sweep says where it came from: its regenerate command (the CLI on
// the sweep's own link) prints the page's table, and a later change marks
// it out of date.
func TestProvenanceSweep(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.change("#preset", abPreset)
	tb.waitFor(fmt.Sprintf(`window.schedplay.preset === %q && window.schedplay.done`, abPreset), 60*time.Second)
	tb.click("#toggle-sweep")
	tb.waitFor(`document.querySelector("#sweep-key1") !== null`, 10*time.Second)
	tb.change("#sweep-key1", "kernel.hz")
	tb.change("#sweep-vals1", "250,1000")
	tb.change("#sweep-runs", "1")
	tb.click("#run-sweep")
	tb.waitFor(`window.schedplay.sweep && window.schedplay.sweep.csv && !window.schedplay.sweep.running && document.querySelector("#sweep-regen") !== null`, 120*time.Second)
	regen := eval[string](tb, `document.querySelector("#sweep-regen").textContent`)
	args := shellFields(t, regen)
	if len(args) != 3 || args[1] != "sweep" {
		t.Fatalf("sweep command %q", regen)
	}
	if cli, page := cliRun(t, args[1:]...), eval[string](tb, `document.querySelector("#sweep-text").textContent`); cli != page {
		t.Fatalf("the sweep's command prints another table:\n%s\n---\n%s", cli, page)
	}
	if eval[bool](tb, `document.querySelector("#sweep-stale") !== null`) {
		t.Fatal("a current sweep is marked out of date")
	}
	tb.openTab("kernel")
	tb.click(rememberBox)
	tb.waitFor(`window.schedplay.done && document.querySelector("#sweep-stale") !== null`, 60*time.Second)
	if s := eval[string](tb, `document.querySelector("#sweep-stale").textContent`); !strings.Contains(s, rememberKey+"=on") {
		t.Fatalf("out-of-date banner %q", s)
	}
}
