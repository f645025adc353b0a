//go:build browser

package browsertest

// Long user strings (wasm/longtext.go). Vugu's render buffer is 16 KiB:
// a longer attribute or property stopped the page's Go program, and a
// longer vg-content broke a character at each cut. A link whose scenario
// name or task name is 40 KB gets the decoder's bounded message and the
// page goes on; an experiment whose description, thread text, explanation
// and notes are 40 KB each opens and runs, shows them bounded with more
// one hover away, breaks no character, shares a link longer than 16 KiB,
// and the page goes on (an edit reruns).

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"schedplay/core/scenario"
)

// longText is about 40 KB of markup and multi-byte characters; with r,
// random letters too, so that a share link cannot compress it away (a
// link is bounded at 64 Ki characters: one such text per scenario).
func longText(tag string, r *rand.Rand) string {
	var b strings.Builder
	b.WriteString(tag + "<b>é</b>")
	for b.Len() < 40<<10 {
		b.WriteString("ñ")
		for i := range 8 {
			if r != nil {
				b.WriteByte(byte('a' + r.IntN(26)))
			} else {
				b.WriteByte(tag[i%len(tag)])
			}
		}
	}
	return b.String()
}

// aliveAfterEdit checks that the page still answers: HZ 1000 reruns.
func aliveAfterEdit(tb *tab) {
	tb.t.Helper()
	tb.openTab("kernel")
	tb.change("#hz", "1000")
	tb.waitFor(`window.schedplay.done === true && (JSON.parse(window.schedplay.scenarioJSON).kernel || {}).hz === 1000`, 60*time.Second)
}

func TestLongNamesRefused(t *testing.T) {
	for _, c := range []struct {
		what, path string
		edit       func(*scenario.Scenario)
	}{
		{"name", "name: ", func(sc *scenario.Scenario) { sc.Name = longText("name", nil) }},
		{"task name", "tasks[0].name: ", func(sc *scenario.Scenario) { sc.Tasks[0].Name = longText("task", nil) }},
	} {
		sc, err := scenario.Preset("demo/periodic-vs-hog")
		if err != nil {
			t.Fatal(err)
		}
		c.edit(sc)
		tb := newTab(t)
		tb.open("/#s=" + scenario.EncodeURLPayload(sc))
		tb.waitDone()
		msg := eval[string](tb, `document.querySelector("#notice") ? document.querySelector("#notice").textContent : ""`)
		if !strings.Contains(msg, c.path) || len(msg) > 1<<10 {
			t.Fatalf("a 40 KB %s: notice of %d bytes %.300q, want the decoder's message at %q, bounded", c.what, len(msg), msg, c.path)
		}
		aliveAfterEdit(tb)
	}
}

func TestLongTextsShown(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 19))
	sc, err := scenario.Preset(seedPreset)
	if err != nil {
		t.Fatal(err)
	}
	e := sc.Experiment
	sc.Description, e.Thread, e.Explain = longText("desc", r), longText("thread", nil), longText("explain", nil)
	for i := range e.Reference {
		e.Reference[i].Note = longText("note", nil)
	}
	tb := newTab(t)
	tb.open("/#s=" + scenario.EncodeURLPayload(sc))
	tb.waitDone()
	tb.waitFor(`!!document.querySelector(".thread-subject b")`, 20*time.Second)
	head := eval[string](tb, `document.querySelector(".thread-subject b").textContent`)
	title := eval[string](tb, `document.querySelector(".thread-subject b").title`)
	if !strings.HasPrefix(head, "thread<b>é</b>ñ") || !strings.HasSuffix(head, "…") || len(head) > 1<<10 {
		t.Fatalf("thread subject of %d bytes %.120q: want the start, as text, bounded with an ellipsis", len(head), head)
	}
	if len(title) <= len(head) || len(title) > 8<<10 || !strings.HasPrefix(title, strings.TrimSuffix(head, "…")) {
		t.Fatalf("thread subject's title of %d bytes: want more of the text than the %d shown, bounded", len(title), len(head))
	}
	if n := eval[int](tb, `document.querySelectorAll(".thread-subject b b").length`); n != 0 {
		t.Fatal("the thread text's markup became an element")
	}
	if ex := eval[string](tb, `document.querySelector(".thread-explain").textContent`); len(ex) > 20<<10 || !strings.HasSuffix(ex, "…") {
		t.Fatalf("explanation of %d bytes: want it bounded with an ellipsis", len(ex))
	}
	if eval[bool](tb, `document.body.textContent.indexOf("\uFFFD") >= 0`) {
		t.Fatal("the page shows a broken character (U+FFFD)")
	}
	tb.click("#share")
	tb.waitFor(`!!document.querySelector("#share-link") && document.querySelector("#share-link").value.indexOf("#s=") > 0`, 10*time.Second)
	if n := eval[int](tb, `document.querySelector("#share-link").value.length`); n <= 16<<10 {
		t.Fatalf("share link of %d bytes: the test wants one longer than Vugu's buffer", n)
	}
	if s := eval[string](tb, `document.querySelector("#embed-snippet").value`); !strings.HasPrefix(s, "<iframe") {
		t.Fatalf("embed snippet %.80q", s)
	}
	aliveAfterEdit(tb)
}
