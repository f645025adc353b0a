//go:build browser

package browsertest

// The harness: one headless Chromium (fresh --user-data-dir) shared by the
// tests, a local server for dist/ plus a host page for the iframe test, and
// per-tab console capture. Without chromium (and CI unset) the Chromium
// tests skip but the server still runs, for the Firefox test.

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"

	"schedplay/scripts/static"
)

var (
	distDir     = flag.String("dist", "../../dist", "built site to serve")
	shotsDir    = flag.String("screenshots", "", "write README screenshots here")
	browserCtx  context.Context
	baseURL     string
	skipMessage string
)

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(run(m))
}

func run(m *testing.M) int {
	bin := os.Getenv("CHROMIUM")
	if bin == "" {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
			if p, err := exec.LookPath(name); err == nil {
				bin = p
				break
			}
		}
	}
	if bin == "" {
		if os.Getenv("CI") != "" {
			fmt.Fprintln(os.Stderr, "browsertest: CI is set but no chromium was found: install Debian's chromium (.ci/run does)")
			return 1
		}
		// The Firefox test (firefox_test.go) decides for itself.
		skipMessage = "browsertest: SKIP: no chromium on PATH (apt-get install chromium); Chromium tests not run"
		fmt.Println(skipMessage)
		if firefoxBinary() == "" {
			fmt.Println("browsertest: SKIP: no firefox on PATH (apt-get install firefox-esr); Firefox test not run")
			return 0
		}
	}
	if _, err := os.Stat(filepath.Join(*distDir, "index.html")); err != nil {
		fmt.Fprintf(os.Stderr, "browsertest: %s has no index.html: run `make site` first\n", *distDir)
		return 1
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/host.html", func(w http.ResponseWriter, r *http.Request) {
		// Another local page embedding the playground, as a blog would.
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>host</title><link rel="icon" href="data:,"></head><body>
<h1>A blog post</h1><iframe id="embed" width="900" height="420" src="/embed.html#%s"></iframe></body></html>`,
			strings.TrimPrefix(r.URL.Query().Get("frag"), "#"))
	})
	mux.Handle("/", static.Handler(*distDir))
	go http.Serve(ln, mux)
	baseURL = "http://" + ln.Addr().String()
	if bin == "" {
		return m.Run()
	}

	profile, err := os.MkdirTemp("", "schedplay-chromium-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(profile)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin),
		chromedp.Headless,
		chromedp.NoSandbox, // CI runs as root
		chromedp.DisableGPU,
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1440, 1000),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	bctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	if err := chromedp.Do(bctx); err != nil { // start the browser
		fmt.Fprintln(os.Stderr, "browsertest: starting chromium:", err)
		return 1
	}
	browserCtx = bctx
	return m.Run()
}

// tab is one browser tab with its console captured.
type tab struct {
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	errs   []string
	t      *testing.T
}

// newTab opens a tab; at cleanup the test fails if the page logged a
// console error or threw.
func newTab(t *testing.T) *tab {
	t.Helper()
	if browserCtx == nil {
		t.Skip(skipMessage)
	}
	ctx, cancel := chromedp.NewContext(browserCtx)
	tb := &tab{ctx: ctx, cancel: cancel, t: t}
	msgs := chromedp.Console(ctx)
	// Observe long tasks from the first instant of every document.
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `window.__longTasks = []; try { new PerformanceObserver(function (l) {
  l.getEntries().forEach(function (e) { window.__longTasks.push(e.duration); });
}).observe({entryTypes: ["longtask"]}); } catch (e) {}`,
		})
		return err
	})); err != nil {
		t.Fatalf("tab setup: %v", err)
	}
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
				tb.mu.Lock()
				tb.errs = append(tb.errs, fmt.Sprintf("%s: %s (%s:%d)", m.Type, m.Text, m.URL, m.Line))
				tb.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		time.Sleep(100 * time.Millisecond) // let late console events arrive
		tb.mu.Lock()
		defer tb.mu.Unlock()
		for _, e := range tb.errs {
			t.Errorf("console: %s", e)
		}
		cancel()
	})
	return tb
}

func (tb *tab) do(steps ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, steps...); err != nil {
		tb.t.Fatal(err)
	}
}

// eval evaluates a JS expression and decodes its value into T.
func eval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		tb.t.Fatalf("eval %s: %v", expr, err)
	}
	return v
}

// waitFor polls a JS predicate until it is truthy.
func (tb *tab) waitFor(expr string, timeout time.Duration) {
	tb.t.Helper()
	if _, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(timeout),
		chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		state := eval[string](tb, `JSON.stringify(window.schedplay || null)`)
		tb.t.Fatalf("waiting for %s: %v\npage state: %.600s", expr, err, state)
	}
}

// open navigates to path and waits for the app's first finished run.
func (tb *tab) open(path string) {
	tb.t.Helper()
	tb.do(chromedp.Navigate(baseURL + path))
	tb.waitFor(`window.schedplay && window.schedplay.ready`, 20*time.Second)
}

// waitDone waits until the current run has finished.
func (tb *tab) waitDone() {
	tb.t.Helper()
	tb.waitFor(`window.schedplay && window.schedplay.done === true`, 60*time.Second)
}

// change sets a form control's value and fires the events Vugu listens to.
func (tb *tab) change(sel, value string) {
	tb.t.Helper()
	eval[bool](tb, changeJS(sel, value))
}

// applyJSON puts text in the JSON tab's editor and presses Apply (the
// tab must be open: openTab("json"), or the first visit's default).
func (tb *tab) applyJSON(text string) {
	tb.t.Helper()
	tb.change("#json", text)
	tb.click("#apply-json")
}

// openTab selects a tab of the side panel ("workload", "kernel", "json";
// wasm/tabs.go): only the selected tab's panel is in the page.
func (tb *tab) openTab(name string) {
	tb.t.Helper()
	if !eval[bool](tb, fmt.Sprintf(`!!document.querySelector("#tab-%s")`, name)) {
		return // a build from before the tabs (-dist of an older build): every panel is in the page
	}
	tb.click("#tab-" + name)
	tb.waitFor(fmt.Sprintf(`document.querySelector("#tab-%s").getAttribute("aria-selected") === "true"`, name), 10*time.Second)
}

// openSection opens a closed section of the Kernel tab ("hw", "sysctl").
func (tb *tab) openSection(name string) {
	tb.t.Helper()
	tb.openTab("kernel")
	if eval[string](tb, fmt.Sprintf(`document.querySelector("#sec-%s").getAttribute("aria-expanded")`, name)) != "true" {
		tb.click("#sec-" + name)
	}
	tb.waitFor(fmt.Sprintf(`document.querySelector("#sec-%s").getAttribute("aria-expanded") === "true"`, name), 10*time.Second)
}

func (tb *tab) click(sel string) {
	tb.t.Helper()
	eval[bool](tb, clickJS(sel))
}

// changeJS and clickJS are the page interactions shared by the Chromium
// and the Firefox harness.
func changeJS(sel, value string) string {
	return fmt.Sprintf(`(function(){ var e = document.querySelector(%q); e.value = %q;
e.dispatchEvent(new Event("input", {bubbles: true})); e.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, sel, value)
}

func clickJS(sel string) string {
	return fmt.Sprintf(`(function(){ document.querySelector(%q).click(); return true; })()`, sel)
}

// keyJS sends a keydown for key to the document (the page's shortcuts),
// with Shift held if shift.
func keyJS(key string, shift bool) string {
	return fmt.Sprintf(`(document.dispatchEvent(new KeyboardEvent("keydown", {key: %q, shiftKey: %v, bubbles: true, cancelable: true})), true)`, key, shift)
}

// key presses key on the page.
func (tb *tab) key(key string, shift bool) {
	tb.t.Helper()
	eval[bool](tb, keyJS(key, shift))
	tb.waitDrawn()
}

// waitDrawn waits until the timeline's drawing in progress, if any, is
// complete: the page draws in steps, a browser task each
// (wasm/timeline_paint.go), and publishes painting while it does.
func (tb *tab) waitDrawn() {
	tb.t.Helper()
	tb.waitFor(`!window.schedplay.painting`, 30*time.Second)
}

// clickTimeline clicks the main timeline at fraction x of its width, 30
// pixels below its top (a lane): the time cursor goes there.
func (tb *tab) clickTimeline(x float64) {
	tb.t.Helper()
	eval[bool](tb, fmt.Sprintf(`(function () {
  var c = document.getElementById("tl-canvas"), r = c.getBoundingClientRect();
  var at = {clientX: r.left + r.width * %.2f, clientY: r.top + 30, bubbles: true, buttons: 1};
  c.dispatchEvent(new MouseEvent("mousedown", at)); c.dispatchEvent(new MouseEvent("mouseup", at));
  return true; })()`, x))
}

// screenshot saves a PNG of the page when -screenshots is set.
func (tb *tab) screenshot(name string) {
	tb.t.Helper()
	if *shotsDir == "" {
		return
	}
	png, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		tb.t.Fatal(err)
	}
	os.MkdirAll(*shotsDir, 0o755)
	if err := os.WriteFile(filepath.Join(*shotsDir, name+".png"), png, 0o644); err != nil {
		tb.t.Fatal(err)
	}
}

func chromedpNavigate(url string) chromedp.Action[chromedp.Void] { return chromedp.Navigate(url) }

// scrollTo scrolls an element into view.
func scrollTo(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[bool](fmt.Sprintf(`(document.querySelector(%q).scrollIntoView(), true)`, sel))(ctx, t)
		return err
	})
}

// mainThreadCPU returns Chrome's Performance-domain durations of the tab's
// main thread in thread time (CPU seconds, not wall time: a loaded machine
// stretches wall time, not these): TaskDuration, ScriptDuration,
// LayoutDuration, RecalcStyleDuration. The first call enables the domain.
func (tb *tab) mainThreadCPU() map[string]float64 {
	tb.t.Helper()
	out := map[string]float64{}
	err := chromedp.Do(tb.ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, performance.Enable, performance.EnableParams{TimeDomain: performance.EnableTimeDomainThreadTicks}); err != nil {
			return err
		}
		res, err := cdp.Call(ctx, tg, performance.GetMetrics, cdp.Empty{})
		if err != nil {
			return err
		}
		for _, m := range res.Metrics {
			out[m.Name] = m.Value
		}
		return nil
	}))
	if err != nil {
		tb.t.Fatalf("performance metrics: %v", err)
	}
	return out
}
