//go:build browser

package browsertest

// Chrome performance traces of the page's main thread, to attribute long
// tasks (the Long Tasks API says only how long a task was, not what ran in
// it). startTrace/stopTrace wrap CDP's Tracing domain (the timeline
// categories DevTools' Performance panel records, plus V8's sampling CPU
// profiler); traceanalysis_test.go reads the result.
//
// Function names of main.wasm appear in the profile only in a build that
// keeps the wasm name section (no -ldflags='-s -w'): build one with
//
//	GOOS=js GOARCH=wasm go build -trimpath -o build/main-debug.wasm ./wasm
//	go run ./scripts/sitebuild -site site -wasm build/main-debug.wasm -worker build/worker.wasm -out /tmp/dist-debug
//
// and run TestLongTaskTrace with -dist /tmp/dist-debug (-chrometrace F keeps the traces as F.1.json, F.2.json; the stripped
// build shows wasm-function[N] instead).

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/io"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

var traceOut = flag.String("chrometrace", "", "TestLongTaskTrace: also write the raw Chrome trace (JSON) here, for chrome://tracing or ui.perfetto.dev")

// traceCategories: the main thread's tasks and what ran inside them
// (script, style, layout, paint, GC, compilation) and JS/wasm samples.
var traceCategories = []string{
	"toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline",
	"disabled-by-default-devtools.timeline.frame", "blink.user_timing",
	"v8", "v8.execute", "disabled-by-default-v8.gc", "disabled-by-default-v8.compile",
	"disabled-by-default-v8.cpu_profiler", "loading", "blink", "cc",
}

// startTrace starts recording a trace of the tab: the given categories,
// or traceCategories.
func (tb *tab) startTrace(cats ...string) {
	tb.t.Helper()
	if len(cats) == 0 {
		cats = traceCategories
	}
	tb.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, tracing.Start, tracing.StartParams{
			TransferMode: tracing.StartTransferModeReturnAsStream,
			StreamFormat: tracing.StreamFormatJSON,
			TraceConfig: &tracing.TraceConfig{
				RecordMode:         tracing.TraceConfigRecordModeRecordUntilFull,
				IncludedCategories: cats,
				ExcludedCategories: []string{"*"},
			},
		})
		return err
	}))
}

// stopTrace ends the recording and returns the trace (Chrome's JSON trace
// format: {"traceEvents": [...]}), also written to -chrometrace.N.json.
func (tb *tab) stopTrace(n int) []byte {
	tb.t.Helper()
	var out bytes.Buffer
	tb.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		complete := cdp.Events(ctx, tg, tracing.TracingComplete) // subscribed before End
		if _, err := cdp.Call(ctx, tg, tracing.End, cdp.Empty{}); err != nil {
			return err
		}
		var ev tracing.EventTracingComplete
		for e, err := range complete {
			if err != nil {
				return err
			}
			ev = e
			break
		}
		if ev.Stream == "" {
			return fmt.Errorf("trace complete without a stream")
		}
		for {
			r, err := cdp.Call(ctx, tg, io.Read, io.ReadParams{Handle: ev.Stream, Size: 1 << 20})
			if err != nil {
				return err
			}
			out.Write(r.Data)
			if r.EOF {
				break
			}
		}
		_, err := cdp.Call(ctx, tg, io.Close, io.CloseParams{Handle: ev.Stream})
		return err
	}))
	if *traceOut != "" {
		if err := os.WriteFile(fmt.Sprintf("%s.%d.json", *traceOut, n), out.Bytes(), 0o644); err != nil {
			tb.t.Error(err)
		}
	}
	return out.Bytes()
}

// TestLongTaskTrace records a trace of the first run after a page load
// (after the page's own first run) and of the second, for the budget
// scenario cut to 1 s (smp8) and for the 256-CPU one (epyc256), and logs every main-thread task over 50 ms (or 25 ms of CPU)
// with what ran in it. It reports, never fails on timings.
func TestLongTaskTrace(t *testing.T) {
	smp8 := strings.Replace(millionSlices, `"duration":"3s"`, `"duration":"1s"`, 1)
	for _, c := range []struct{ name, js string }{{"smp8", smp8}, {"epyc256", epyc1024}} {
		t.Run(c.name, func(t *testing.T) { traceRuns(t, c.js) })
	}
}

// traceRuns traces two runs of a scenario after a fresh page load.
func traceRuns(t *testing.T, sc string) {
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.openTab("json")
	for run := 1; run <= 2; run++ {
		eval[bool](tb, `(window.__longTasks = [], true)`)
		tb.startTrace()
		tb.applyJSON(strings.Replace(sc, `"seed":1`, fmt.Sprintf(`"seed":%d`, run), 1))
		tb.waitFor(`window.schedplay.running === true || window.schedplay.done === false`, 10*time.Second)
		tb.waitFor(`window.schedplay.done === true && window.schedplay.preset === ""`, 3*time.Minute)
		time.Sleep(300 * time.Millisecond) // the final render's long task is reported after it ends
		data := tb.stopTrace(run)
		t.Logf("run %d: long tasks (Long Tasks API) %s; slow page work %s", run, eval[string](tb, `JSON.stringify(window.__longTasks)`),
			eval[string](tb, `JSON.stringify(window.schedplay.slowSpans)`))
		tasks, err := analyzeTrace(data, 50)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("run %d: trace %.1f MB, %d main-thread tasks over 50 ms or 25 ms CPU", run, float64(len(data))/1e6, len(tasks))
		for _, lt := range tasks {
			t.Logf("run %d: %s", run, lt)
		}
	}
}
