//go:build browser

package browsertest

// Firefox for the browser tests: Debian's firefox-esr, headless, with a
// fresh profile, driven over WebDriver BiDi (bidi_test.go), which Firefox
// serves itself on --remote-debugging-port (no geckodriver). Port 0 lets
// Firefox pick a free port; it prints "WebDriver BiDi listening on
// ws://HOST:PORT" on stderr. Every step is bounded: a missing binary, a
// browser that does not start or dies gives an error with the tail of its
// stderr, never a hang. Without firefox the test skips with a message,
// unless CI is set (as for chromium in harness_test.go).

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// firefox is one running browser with its BiDi session. Console errors,
// uncaught exceptions and failed HTTP responses of every page are
// collected in problems.
type firefox struct {
	cmd  *exec.Cmd
	bidi *bidi
	done chan struct{} // closed when the process has exited

	// downloadDir receives every download (the profile's download prefs:
	// Firefox 140 ESR has neither browser.setDownloadBehavior nor the
	// browsingContext.downloadEnd event).
	downloadDir string

	mu       sync.Mutex
	problems []string
	stderr   []string // the last lines Firefox printed
}

// firefoxDownloadJS saves every download into dir without asking.
func firefoxDownloadJS(dir string) string {
	return fmt.Sprintf(`user_pref("browser.download.folderList", 2);
user_pref("browser.download.dir", %q);
user_pref("browser.download.useDownloadDir", true);
user_pref("browser.download.always_ask_before_handling_new_types", false);
user_pref("browser.download.start_downloads_in_tmp_dir", false);
user_pref("browser.helperApps.neverAsk.saveToDisk", "application/json,application/octet-stream,text/plain");
`, dir)
}

// Prefs for the fresh profile: no first-run pages, no update, telemetry,
// experiments or remote-settings traffic (CI may have no network). The
// remote agent applies its own recommended automation prefs on top
// (remote.prefs.recommended).
const firefoxUserJS = `user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("browser.startup.homepage_override.mstone", "ignore");
user_pref("browser.startup.page", 0);
user_pref("browser.aboutwelcome.enabled", false);
user_pref("browser.newtabpage.enabled", false);
user_pref("app.update.disabledForTesting", true);
user_pref("app.normandy.enabled", false);
user_pref("messaging-system.rsexperimentloader.enabled", false);
user_pref("services.settings.server", "data:,#remote-settings-dummy/v1");
user_pref("network.captive-portal-service.enabled", false);
user_pref("network.connectivity-service.enabled", false);
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
`

var bidiListening = regexp.MustCompile(`WebDriver BiDi listening on (ws://\S+)`)

// firefoxBinary finds the browser: $FIREFOX, firefox-esr or firefox.
func firefoxBinary() string {
	if b := os.Getenv("FIREFOX"); b != "" {
		return b
	}
	for _, name := range []string{"firefox-esr", "firefox"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// startFirefox launches the browser for one test; it is closed at the
// test's cleanup.
func startFirefox(t *testing.T) *firefox {
	t.Helper()
	bin := firefoxBinary()
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("browsertest: CI is set but no firefox was found: install Debian's firefox-esr (.ci/run does)")
		}
		t.Skip("browsertest: SKIP: no firefox on PATH (apt-get install firefox-esr); Firefox test not run")
	}
	profile, downloads := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(profile, "user.js"), []byte(firefoxUserJS+firefoxDownloadJS(downloads)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--headless", "--no-remote", "--remote-debugging-port=0",
		"--profile", profile, "about:blank")
	cmd.Env = append(os.Environ(), "MOZ_HEADLESS=1", "MOZ_CRASHREPORTER_DISABLE=1")
	// Its own process group: the content processes are ended with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = nil
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	ff := &firefox{cmd: cmd, done: make(chan struct{}), downloadDir: downloads}
	t.Cleanup(ff.stop)

	endpoint := make(chan string, 1)
	go func() { // stderr: find the endpoint, keep the tail for errors
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			line := sc.Text()
			if m := bidiListening.FindStringSubmatch(line); m != nil {
				select {
				case endpoint <- m[1]:
				default:
				}
			}
			ff.mu.Lock()
			ff.stderr = append(ff.stderr, line)
			if len(ff.stderr) > 30 {
				ff.stderr = ff.stderr[1:]
			}
			ff.mu.Unlock()
		}
		cmd.Wait()
		close(ff.done)
	}()
	var url string
	select {
	case url = <-endpoint:
	case <-ff.done:
		t.Fatalf("firefox exited before serving WebDriver BiDi:\n%s", ff.stderrTail())
	case <-time.After(45 * time.Second):
		t.Fatalf("firefox did not announce its WebDriver BiDi endpoint within 45 s:\n%s", ff.stderrTail())
	}
	listening := time.Since(start)
	// session.new answers only once Firefox has finished its idle startup
	// tasks (browser-idle-startup-tasks-finished): 1-2 s on an idle
	// machine, 10-20 s seen on a heavily loaded one.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := dialBiDi(ctx, url+"/session", ff.event)
	if err != nil {
		t.Fatalf("%v\n%s", err, ff.stderrTail())
	}
	ff.bidi = b
	var sess struct {
		Capabilities struct {
			BrowserName    string `json:"browserName"`
			BrowserVersion string `json:"browserVersion"`
		} `json:"capabilities"`
	}
	if err := b.call(ctx, "session.new", map[string]any{"capabilities": map[string]any{}}, &sess); err != nil {
		t.Fatalf("%v\n%s", err, ff.stderrTail())
	}
	if err := b.call(ctx, "session.subscribe", map[string]any{
		"events": []string{"log.entryAdded", "network.responseCompleted", "network.fetchError"},
	}, nil); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s %s: BiDi at %s after %v, session after %v", sess.Capabilities.BrowserName, sess.Capabilities.BrowserVersion,
		url, listening.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	return ff
}

// event records what makes a page fail: console.error, an uncaught
// exception, a failed or >= 400 HTTP response.
func (ff *firefox) event(method string, params json.RawMessage) {
	var p struct {
		Type   string `json:"type"`
		Level  string `json:"level"`
		Text   string `json:"text"`
		Source struct {
			Context string `json:"context"`
		} `json:"source"`
		StackTrace struct {
			CallFrames []struct {
				URL  string `json:"url"`
				Line int    `json:"lineNumber"`
			} `json:"callFrames"`
		} `json:"stackTrace"`
		Request struct {
			URL string `json:"url"`
		} `json:"request"`
		Response struct {
			Status int `json:"status"`
		} `json:"response"`
		ErrorText string `json:"errorText"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	var problem string
	switch method {
	case "log.entryAdded":
		if p.Level != "error" {
			return
		}
		problem = fmt.Sprintf("%s error: %s", p.Type, p.Text)
		if f := p.StackTrace.CallFrames; len(f) > 0 {
			problem += fmt.Sprintf(" (%s:%d)", f[0].URL, f[0].Line+1) // BiDi lines count from 0
		}
	case "network.responseCompleted":
		if p.Response.Status < 400 {
			return
		}
		problem = fmt.Sprintf("HTTP %d for %s", p.Response.Status, p.Request.URL)
	case "network.fetchError":
		problem = fmt.Sprintf("fetch error %s for %s", p.ErrorText, p.Request.URL)
	default:
		return
	}
	ff.mu.Lock()
	ff.problems = append(ff.problems, problem)
	ff.mu.Unlock()
}

// problemsSince returns the problems recorded after the first n.
func (ff *firefox) problemsSince(n int) []string {
	ff.mu.Lock()
	defer ff.mu.Unlock()
	return append([]string(nil), ff.problems[n:]...)
}

func (ff *firefox) problemCount() int {
	ff.mu.Lock()
	defer ff.mu.Unlock()
	return len(ff.problems)
}

func (ff *firefox) stderrTail() string {
	ff.mu.Lock()
	defer ff.mu.Unlock()
	return "firefox stderr (tail):\n  " + strings.Join(ff.stderr, "\n  ")
}

// stop asks Firefox to quit (browser.close), then ends its process group
// if it has not exited within a few seconds.
func (ff *firefox) stop() {
	if ff.bidi != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		ff.bidi.call(ctx, "browser.close", nil, nil)
		cancel()
		ff.bidi.close()
	}
	select {
	case <-ff.done:
		return
	case <-time.After(5 * time.Second):
	}
	syscall.Kill(-ff.cmd.Process.Pid, syscall.SIGKILL)
	select {
	case <-ff.done:
	case <-time.After(5 * time.Second):
	}
}
