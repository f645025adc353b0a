//go:build browser

package browsertest

// The page without Web Workers: the engine then runs on the page's thread
// (site/pageworker.js runs worker.wasm behind a Worker's interface; the
// page itself links no engine, wasm/deps_test.go). A preset draws the
// same run as in the worker, its chunks measured (maxChunkMs) within the
// main-thread budget, and a trace opens; a page with workers never loads
// the stand-in.

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// withoutWorkers removes window.Worker from every document of tb.
func withoutWorkers(tb *tab) {
	tb.t.Helper()
	tb.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `Object.defineProperty(window, "Worker", {value: undefined, configurable: true});`,
		})
		return err
	}))
}

// loaded reports whether the document fetched a resource ending in name.
func loaded(tb *tab, name string) bool {
	return eval[bool](tb, fmt.Sprintf(`performance.getEntriesByType("resource").some(function (e) { return e.name.endsWith(%q); })`, "/"+name))
}

func TestRunsWithoutWorkers(t *testing.T) {
	const preset = "demo/sched-idle-wakeup-cfs"
	// The reference: the same preset in the worker.
	ref := newTab(t)
	ref.open("/")
	ref.waitDone()
	if e := eval[string](ref, `window.schedplay.engine`); e != "worker" {
		t.Fatalf("engine %q with workers, want worker", e)
	}
	ref.change("#preset", preset)
	ref.waitFor(fmt.Sprintf(`window.schedplay.preset === %q && window.schedplay.done`, preset), 60*time.Second)
	want := eval[string](ref, `JSON.stringify(window.schedplay.tasks)`)
	if ms := eval[float64](ref, `window.schedplay.maxChunkMs`); ms != 0 {
		t.Errorf("maxChunkMs %.1f with workers, want 0 (the worker's chunks block no page)", ms)
	}
	if loaded(ref, "pageworker.js") {
		t.Error("a page with workers loaded pageworker.js")
	}

	tb := newTab(t)
	withoutWorkers(tb)
	tb.open("/")
	tb.waitDone()
	if e := eval[string](tb, `window.schedplay.engine`); e != "main" {
		t.Fatalf("engine %q without workers, want main", e)
	}
	if !loaded(tb, "pageworker.js") || !loaded(tb, "worker.wasm") {
		t.Fatal("without workers the page did not load pageworker.js and worker.wasm")
	}
	tb.change("#preset", preset)
	tb.waitFor(fmt.Sprintf(`window.schedplay.preset === %q && window.schedplay.done`, preset), 60*time.Second)
	drawn := eval[[]int](tb, `window.schedplay.drawn`)
	if len(drawn) != 8 {
		t.Fatalf("%d lanes, want 8", len(drawn))
	}
	for cpu, n := range drawn {
		if (cpu == 2) != (n > 0) {
			t.Fatalf("drawn columns per CPU %v: want slices on CPU 2 only", drawn)
		}
	}
	// The engine's chunks on the page's thread, paced for the page
	// (runner.PagePace: 20 ms), each within the 100 ms main-thread budget
	// of docs/budgets.md.
	if ms := eval[float64](tb, `window.schedplay.maxChunkMs`); ms <= 0 || ms >= 100 {
		t.Errorf("maxChunkMs %.1f on the page's thread, want measured (> 0) and under the 100 ms main-thread budget", ms)
	}
	if got := eval[string](tb, `JSON.stringify(window.schedplay.tasks)`); got != want {
		t.Fatalf("tasks on the page's thread:\n%.400s\nin the worker:\n%.400s", got, want)
	}
	if e := eval[string](tb, `window.schedplay.engine`); e != "main" {
		t.Fatalf("engine %q after the preset, want main", e)
	}

	// A trace opens through the stand-in (the file read before it is handed on).
	file, err := filepath.Abs("../../core/ftraceimport/testdata/real-6.18-nice0-nice5.txt")
	if err != nil {
		t.Fatal(err)
	}
	tb.do(chromedp.SetUploadFiles("#trace-file", []string{file}, chromedp.NodeReady))
	tb.waitFor(`window.schedplay.mode === "trace" && window.schedplay.done === true`, 30*time.Second)
	if drawn := eval[[]int](tb, `window.schedplay.drawn`); len(drawn) != 2 || drawn[1] < 100 {
		t.Fatalf("trace: drawn columns per CPU %v: want 2 lanes, CPU 1 full of slices", drawn)
	}
	if msg := eval[string](tb, `window.schedplay.traceError || ""`); strings.TrimSpace(msg) != "" {
		t.Fatalf("trace error %q", msg)
	}
}
