//go:build browser

package browsertest

// A Firefox tab for TestFirefox: a BiDi top-level browsing context with
// the same operations as the Chromium harness's tab (open, waitFor,
// change, click, eval), plus real input through input.performActions.
// Every step is bounded by a timeout.

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// fxTab is one Firefox tab (a BiDi top-level browsing context).
type fxTab struct {
	t   *testing.T
	ff  *firefox
	ctx string
}

func (ff *firefox) newTab(t *testing.T) *fxTab {
	t.Helper()
	var res struct {
		Context string `json:"context"`
	}
	if err := ff.bidi.call(context.Background(), "browsingContext.create", map[string]any{"type": "tab"}, &res); err != nil {
		t.Fatal(err)
	}
	return &fxTab{t: t, ff: ff, ctx: res.Context}
}

func (ft *fxTab) navigate(path string) {
	ft.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := ft.ff.bidi.call(ctx, "browsingContext.navigate", map[string]any{
		"context": ft.ctx, "url": baseURL + path, "wait": "complete"}, nil); err != nil {
		ft.t.Fatal(err)
	}
}

// fxEval evaluates a JS expression in the tab and decodes its value into T.
func fxEval[T any](ft *fxTab, expr string) T {
	ft.t.Helper()
	var v T
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := ft.ff.bidi.evaluate(ctx, ft.ctx, expr, &v); err != nil {
		ft.t.Fatalf("eval %s: %v", expr, err)
	}
	return v
}

// waitFor polls a JS predicate until it is truthy (an exception counts as
// false: the page may still be loading).
func (ft *fxTab) waitFor(expr string, timeout time.Duration) {
	ft.t.Helper()
	deadline := time.Now().Add(timeout)
	var last error
	for time.Now().Before(deadline) {
		var ok bool
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		last = ft.ff.bidi.evaluate(ctx, ft.ctx, "!!("+expr+")", &ok)
		cancel()
		if last == nil && ok {
			return
		}
		select {
		case <-ft.ff.done:
			ft.t.Fatalf("waiting for %s: firefox exited\n%s", expr, ft.ff.stderrTail())
		case <-time.After(50 * time.Millisecond):
		}
	}
	state := fxEval[any](ft, `window.schedplay || null`)
	ft.t.Fatalf("waiting for %s: not true after %v (last error %v)\npage state: %.600v", expr, timeout, last, state)
}

func (ft *fxTab) open(path string) {
	ft.t.Helper()
	ft.navigate(path)
	ft.waitFor(`window.schedplay && window.schedplay.ready`, 30*time.Second)
}

func (ft *fxTab) waitDone() {
	ft.t.Helper()
	ft.waitFor(`window.schedplay && window.schedplay.done === true`, 90*time.Second)
}

func (ft *fxTab) change(sel, value string) { ft.t.Helper(); fxEval[bool](ft, changeJS(sel, value)) }
func (ft *fxTab) click(sel string)         { ft.t.Helper(); fxEval[bool](ft, clickJS(sel)) }

// noProblems fails the (sub)test on console errors, exceptions or failed
// responses recorded since mark.
func (ff *firefox) noProblems(t *testing.T, mark int) {
	t.Helper()
	time.Sleep(200 * time.Millisecond) // let late events arrive
	for _, p := range ff.problemsSince(mark) {
		t.Errorf("firefox: %s", p)
	}
}

// input sends one WebDriver BiDi input source's actions (real, trusted
// events) to the tab.
func (ft *fxTab) input(source map[string]any) {
	ft.t.Helper()
	if err := ft.ff.bidi.call(context.Background(), "input.performActions", map[string]any{
		"context": ft.ctx, "actions": []any{source}}, nil); err != nil {
		ft.t.Fatal(err)
	}
}

// span is the width of the timeline's viewport (window.schedplay.viewport
// is [t0, t1] in ns).
func (ft *fxTab) span() float64 {
	ft.t.Helper()
	vp := fxEval[[]float64](ft, `window.schedplay.viewport`)
	if len(vp) != 2 {
		ft.t.Fatalf("viewport %v", vp)
	}
	return vp[1] - vp[0]
}

// openTab selects a side-panel tab ("workload", "kernel", "json"): only the
// selected tab's panel is in the page.
func (ft *fxTab) openTab(name string) {
	ft.t.Helper()
	ft.click("#tab-" + name)
	ft.waitFor(fmt.Sprintf(`document.querySelector("#tab-%s").getAttribute("aria-selected") === "true"`, name), 10*time.Second)
}
