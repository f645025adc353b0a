//go:build browser

package browsertest

// The playground remembers (wasm/remember.go): an edit survives a reload
// through the address bar; a page opened without a fragment offers the last
// scenario back from localStorage; an edited preset says "(modified)",
// lists the differing key and undoes it.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

const (
	rememberPreset = "demo/sched-idle-wakeup-cfs"
	rememberKey    = "features.SCHED_IDLE_NO_SLEEPER_CREDIT"
	rememberBox    = "#feat-SCHED_IDLE_NO_SLEEPER_CREDIT"
)

// editPreset opens the preset and toggles the feature: a modified scenario.
func editPreset(tb *tab) {
	tb.t.Helper()
	tb.change("#preset", rememberPreset)
	tb.waitFor(fmt.Sprintf(`window.schedplay.preset === %q && window.schedplay.done && !window.schedplay.modified`, rememberPreset), 60*time.Second)
	tb.openTab("kernel")
	tb.click(rememberBox)
	tb.waitFor(`window.schedplay.done && window.schedplay.modified`, 60*time.Second)
	if keys := eval[[]string](tb, `window.schedplay.diffKeys`); len(keys) != 1 || keys[0] != rememberKey {
		tb.t.Fatalf("differences %v, want [%s]", keys, rememberKey)
	}
}

// Edit, reload: the edited scenario is back, still marked modified.
func TestRememberReloadKeepsEdit(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	editPreset(tb)
	if h := eval[string](tb, `location.hash`); !strings.HasPrefix(h, "#s=") {
		t.Fatalf("address bar fragment %q after the edit", h)
	}
	tb.do(chromedp.Reload())
	tb.waitFor(`window.schedplay && window.schedplay.ready`, 20*time.Second)
	tb.waitDone()
	if !eval[bool](tb, `window.schedplay.modified`) {
		t.Fatal("reload lost the edit (not modified)")
	}
	tb.openTab("kernel")
	if !eval[bool](tb, `document.querySelector(`+fmt.Sprintf("%q", rememberBox)+`).checked`) {
		t.Fatal("reload lost the feature toggle")
	}
	if s := eval[string](tb, `document.querySelector("#scname").textContent`); s != rememberPreset+" (modified)" {
		t.Fatalf("header %q", s)
	}
}

// Open without a fragment: the stored scenario is offered, not applied;
// accepting it restores the edit.
func TestRememberOfferAccept(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	editPreset(tb)
	tb.open("/index.html")
	tb.waitDone()
	tb.waitFor(`window.schedplay.offer === true && !!document.querySelector("#offer-accept")`, 10*time.Second)
	if eval[bool](tb, `window.schedplay.modified`) || eval[string](tb, `window.schedplay.preset`) != "demo/periodic-vs-hog" {
		t.Fatal("the stored scenario was applied without asking")
	}
	if s := eval[string](tb, `document.querySelector("#offer").textContent`); !strings.Contains(s, rememberPreset) {
		t.Fatalf("offer %q does not name the scenario", s)
	}
	tb.click("#offer-accept")
	tb.waitFor(`window.schedplay.done && window.schedplay.modified && !window.schedplay.offer`, 60*time.Second)
	if keys := eval[[]string](tb, `window.schedplay.diffKeys`); len(keys) != 1 || keys[0] != rememberKey {
		t.Fatalf("restored differences %v", keys)
	}
	tb.screenshot("remember-offer")
}

// The modified label lists the differing key and undoes it.
func TestRememberModifiedUndo(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	editPreset(tb)
	tb.click("#show-diff")
	tb.waitFor(`document.querySelectorAll("#diff-list li").length === 1`, 10*time.Second)
	if s := eval[string](tb, `document.querySelector("#diff-list li").textContent`); !strings.Contains(s, rememberKey+" = on (preset: ") {
		t.Fatalf("difference shown as %q", s)
	}
	tb.screenshot("remember-diff")
	tb.click("#diff-list .undo-key")
	tb.waitFor(`window.schedplay.done && !window.schedplay.modified`, 60*time.Second)
	if s := eval[string](tb, `document.querySelector("#scname").textContent`); s != rememberPreset {
		t.Fatalf("header after undo %q", s)
	}
	tb.openTab("kernel")
	if eval[bool](tb, `document.querySelector(`+fmt.Sprintf("%q", rememberBox)+`).checked`) {
		t.Fatal("undo left the feature on")
	}
}

// A corrupt localStorage entry is ignored with a message: the default
// scenario runs, nothing is offered, and nothing is thrown.
func TestRememberCorruptEntry(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	eval[bool](tb, `localStorage.setItem("schedplay.scenario", "%%%not-a-payload"), true`)
	tb.open("/index.html")
	tb.waitDone()
	if eval[bool](tb, `window.schedplay.offer`) {
		t.Fatal("a corrupt entry was offered")
	}
	if s := eval[string](tb, `(document.querySelector("#remember-msg") || {}).textContent || ""`); !strings.Contains(s, "could not be read and was ignored") {
		t.Fatalf("message %q", s)
	}
	if eval[bool](tb, `localStorage.getItem("schedplay.scenario") !== null`) {
		t.Fatal("the corrupt entry was kept")
	}
}

// A hostile scenario name kept in the browser is shown in the offer as
// text: no element is made of it and its handler never runs.
func TestRememberOfferEscapes(t *testing.T) {
	const hostile = `<img src=x onerror="window.__pwned=1">`
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.openTab("json")
	text := eval[string](tb, `document.querySelector("#json").value`)
	named := strings.Replace(text, `"name": "demo/periodic-vs-hog"`, `"name": `+fmt.Sprintf("%q", hostile), 1)
	if named == text {
		t.Fatalf("no name line in %.200s", text)
	}
	tb.applyJSON(named)
	tb.waitFor(`window.schedplay.done && location.hash.indexOf("#s=") === 0`, 60*time.Second)
	tb.open("/index.html")
	tb.waitDone()
	tb.waitFor(`window.schedplay.offer === true && !!document.querySelector("#offer b")`, 10*time.Second)
	if s := eval[string](tb, `document.querySelector("#offer b").textContent`); s != hostile {
		t.Fatalf("offer shows %q, want the name as text", s)
	}
	if eval[bool](tb, `!!document.querySelector("#offer img") || window.__pwned === 1`) {
		t.Fatal("the stored name became markup")
	}
}
