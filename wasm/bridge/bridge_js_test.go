//go:build js && wasm

package bridge

// Bridge tests under Node (make test-wasm-node): the browser objects the
// bridge touches are stood in for by small JS fakes, so the tests check
// what the bridge does to them, and that missing APIs are errors, not
// panics (safejs).

import (
	"syscall/js"
	"testing"
)

func fake(t *testing.T, src string) {
	t.Helper()
	js.Global().Call("eval", src)
}

func TestPublishAndFlag(t *testing.T) {
	fake(t, `globalThis.schedplay = undefined; globalThis.SCHEDPLAY_EMBED = true;`)
	Publish("done", true)
	Publish("drawn", []any{3, 0})
	st := js.Global().Get("schedplay")
	if !st.Get("done").Bool() || st.Get("drawn").Index(0).Int() != 3 {
		t.Fatal("published state not readable from JS")
	}
	if !Flag("SCHEDPLAY_EMBED") || Flag("NO_SUCH_FLAG") {
		t.Fatal("Flag")
	}
}

func TestLocationAndHistory(t *testing.T) {
	fake(t, `globalThis.location = {href: "http://x/sub/index.html?q=1#s=abc", hash: "#s=abc", origin: "http://x",
  pathname: "/sub/index.html"};
globalThis.history = {replaceState: function (s, t, u) { globalThis.__replaced = u; }};`)
	if Hash() != "#s=abc" || PageURL() != "http://x/sub/index.html" || Origin() != "http://x" {
		t.Fatalf("location not read: hash %q, page %q", Hash(), PageURL())
	}
	if got := EmbedURL(PageURL(), "p"); got != "http://x/sub/embed.html#s=p" {
		t.Fatalf("embed link %q", got)
	}
	if err := ReplaceHash("s=new"); err != nil {
		t.Fatal(err)
	}
	if got := js.Global().Get("__replaced").String(); got != "#s=new" {
		t.Fatalf("replaceState got %q", got)
	}
}

func TestPutImageAndText(t *testing.T) {
	fake(t, `
globalThis.ImageData = function (arr, w, h) { this.data = arr; this.width = w; this.height = h; };
var ctx = {calls: [], putImageData: function (img, x, y) { this.calls.push(["put", img.width, img.height, img.data[4]]); },
  fillText: function (s, x, y) { this.calls.push(["text", s]); }, fillRect: function () {}};
var canvas = {clientWidth: 2, width: 1, height: 1, getContext: function () { return ctx; }};
globalThis.__ctx = ctx;
globalThis.document = {getElementById: function (id) { return id === "c" ? canvas : null; }};`)
	w, _, err := CanvasSize("c")
	if err != nil || w != 2 {
		t.Fatalf("CanvasSize = %d, %v", w, err)
	}
	pix := []byte{1, 2, 3, 255, 9, 8, 7, 255}
	if err := PutImage("c", pix, 2, 1); err != nil {
		t.Fatal(err)
	}
	if err := Text("c", 1, 2, "<b>task</b>", "#fff"); err != nil {
		t.Fatal(err)
	}
	calls := js.Global().Get("__ctx").Get("calls")
	if calls.Length() != 2 || calls.Index(0).Index(3).Int() != 9 || calls.Index(1).Index(1).String() != "<b>task</b>" {
		t.Fatalf("canvas calls: %v", js.Global().Get("JSON").Call("stringify", calls))
	}
	if err := PutImage("missing", pix, 2, 1); err == nil {
		t.Fatal("no error for a missing canvas")
	}
}

// Untrusted text goes to textContent, never innerHTML.
func TestSetTextIsNotHTML(t *testing.T) {
	fake(t, `var el = {style: {setProperty: function (k, v) { this[k] = v; }}};
globalThis.__el = el;
globalThis.document = {getElementById: function () { return el; }};`)
	if err := SetText("tip", "<img src=x onerror=alert(1)>"); err != nil {
		t.Fatal(err)
	}
	el := js.Global().Get("__el")
	if el.Get("textContent").String() != "<img src=x onerror=alert(1)>" || !el.Get("innerHTML").IsUndefined() {
		t.Fatal("text not set as textContent")
	}
	if err := SetStyle("tip", "left", "3px"); err != nil || el.Get("style").Get("left").String() != "3px" {
		t.Fatalf("SetStyle: %v", err)
	}
}

func TestMissingBrowserAPIsAreErrors(t *testing.T) {
	fake(t, `globalThis.navigator = {}; globalThis.document = undefined;`)
	if err := CopyText("x"); err == nil {
		t.Fatal("CopyText without a clipboard: want an error")
	}
	if err := SetText("x", "y"); err == nil {
		t.Fatal("SetText without a document: want an error")
	}
}

// Yield resumes each caller from a setTimeout callback of its own, in the
// order asked: two goroutines that yield together run in two browser
// tasks, not back to back in one.
func TestYieldGivesEachCallerATaskOfItsOwn(t *testing.T) {
	fake(t, `globalThis.__yieldCBs = 0; if (!globalThis.__realST) globalThis.__realST = globalThis.setTimeout;
globalThis.setTimeout = function (f, ms) {
  if (ms !== 0) return globalThis.__realST(f, ms);
  return globalThis.__realST(function () { globalThis.__yieldCBs++; f(); }, 0); };`)
	defer fake(t, `globalThis.setTimeout = globalThis.__realST;`)
	seen := make(chan int, 2)
	for range 2 {
		go func() {
			Yield()
			seen <- js.Global().Get("__yieldCBs").Int()
		}()
	}
	a, b := <-seen, <-seen
	if min(a, b) != 1 || max(a, b) != 2 {
		t.Fatalf("the two yields resumed in callbacks %d and %d, want 1 and 2 (one each)", a, b)
	}
}
