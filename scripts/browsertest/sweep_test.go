//go:build browser

package browsertest

// The sweep panel: a 2x2 sweep (hackbench groups x HZ, two seeds, short
// runs) in the worker; the page's table and CSV are checked against the
// real CLI run on the page's own share URL (`schedplay sweep URL`, which
// carries the sweep), the plot has one line per HZ value, the CSV download
// is the CLI's bytes, a long sweep shows its progress and cancels, and
// the share link reopens the panel with the form
// filled in a fresh tab.

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

// cliSweep runs the real CLI on args (from the module root).
func cliSweep(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"run", "schedplay/core/cmd/schedplay", "sweep"}, args...)...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("schedplay sweep %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func TestSweepPanel(t *testing.T) {
	sc, err := scenario.Preset("demo/hackbench")
	if err != nil {
		t.Fatal(err)
	}
	sc.Duration = 20 * sched.Millisecond
	tb := newTab(t)
	tb.open("/#s=" + scenario.EncodeURLPayload(sc))
	tb.waitDone()

	tb.click("#toggle-sweep")
	tb.waitFor(`document.querySelector("#sweep-key1") !== null`, 10*time.Second)
	tb.change("#sweep-key1", "workloads.hb.groups")
	tb.change("#sweep-vals1", "1,2")
	tb.change("#sweep-key2", "kernel.hz")
	tb.change("#sweep-vals2", "250,1000")
	tb.change("#sweep-runs", "2")
	tb.change("#sweep-metric", "switches,throughput")
	// A value the scenario rejects is shown at its field, nothing runs.
	tb.change("#sweep-vals2", "250,123")
	tb.click("#run-sweep")
	tb.waitFor(`document.querySelector("#sweep-err-vals2") !== null`, 10*time.Second)
	if msg := eval[string](tb, `document.querySelector("#sweep-err-vals2").textContent`); !strings.Contains(msg, "kernel.hz=123") {
		t.Fatalf("error at the values field: %q", msg)
	}
	tb.change("#sweep-vals2", "250,1000")
	tb.click("#run-sweep")
	tb.waitFor(`window.schedplay.sweep && window.schedplay.sweep.csv && !window.schedplay.sweep.running`, 120*time.Second)
	st := eval[map[string]any](tb, `window.schedplay.sweep`)
	if st["error"] != "" || st["total"].(float64) != 8 || st["finished"].(float64) != 8 {
		t.Fatalf("sweep state %v", st)
	}
	pageCSV := st["csv"].(string)

	// The page's share URL carries the sweep; the CLI runs it.
	tb.click("#share")
	tb.waitFor(`document.querySelector("#share-link") !== null`, 10*time.Second)
	link := eval[string](tb, `document.querySelector("#share-link").value`)
	if !strings.Contains(link, "&sweep=") {
		t.Fatalf("share link without the sweep: %s", link)
	}
	if cli := cliSweep(t, "-csv", "-", link); cli != pageCSV {
		t.Fatalf("page CSV differs from the CLI's:\n%s\nCLI:\n%s", pageCSV, cli)
	}
	cliText := cliSweep(t, link)

	// The table read back from the page: 2 rows x 2 columns per metric,
	// every cell as the CLI prints it.
	for _, m := range []string{"switches", "throughput"} {
		sel := fmt.Sprintf(`table.sweep-table[data-metric=%q]`, m)
		cols := eval[[]string](tb, `Array.from(document.querySelectorAll('`+sel+` thead th')).map(function(e){return e.textContent})`)
		if strings.Join(cols, "|") != `workloads.hb.groups \ kernel.hz|250|1000` {
			t.Fatalf("%s header %q", m, cols)
		}
		rows := eval[[][]string](tb, `Array.from(document.querySelectorAll('`+sel+` tbody tr')).map(function(r){
  return Array.from(r.children).map(function(e){return e.textContent})})`)
		if len(rows) != 2 || rows[0][0] != "1" || rows[1][0] != "2" {
			t.Fatalf("%s rows %q", m, rows)
		}
		block := cliText[strings.Index(cliText, "\n"+m+" ("):]
		for _, r := range rows {
			line := ""
			for _, l := range strings.Split(block, "\n")[3:5] {
				if strings.Fields(l)[0] == r[0] {
					line = l
				}
			}
			for _, cell := range r[1:] {
				if cell == "" || !strings.Contains(line, cell) {
					t.Fatalf("%s groups=%s: page cell %q not in the CLI's row %q", m, r[0], cell, line)
				}
			}
		}
		if n := eval[int](tb, fmt.Sprintf(`document.querySelectorAll('svg.lines[data-metric=%q] polyline').length`, m)); n != 2 {
			t.Fatalf("%s plot: %d lines, want one per HZ value", m, n)
		}
		if n := eval[int](tb, fmt.Sprintf(`document.querySelectorAll('svg.lines[data-metric=%q] circle').length`, m)); n != 4 {
			t.Fatalf("%s plot: %d points, want 4", m, n)
		}
	}
	// More groups, more switches (the sweep changed the runs).
	if a, b := cellOf(tb, "switches", 0), cellOf(tb, "switches", 1); a == b {
		t.Fatalf("switches the same for 1 and 2 groups: %q", a)
	}

	if *shotsDir != "" {
		tb.do(scrollTo("#sweep-result"))
		tb.screenshot("sweep-panel")
	}
	tb.click("#sweep-csv")
	tb.waitFor(`window.schedplay.lastExport && window.schedplay.lastExport.name === "sweep.csv"`, 10*time.Second)
	if got := eval[string](tb, `window.schedplay.lastExport.text`); got != pageCSV {
		t.Fatalf("downloaded CSV differs from the sweep's")
	}

	// A long sweep shows its progress and cancels.
	tb.change("#sweep-runs", "50")
	tb.click("#run-sweep")
	tb.waitFor(`window.schedplay.sweep.running && window.schedplay.sweep.finished >= 1`, 60*time.Second)
	if txt := eval[string](tb, `document.querySelector("#sweep-progress-text").textContent`); !strings.Contains(txt, " / 200 runs") {
		t.Fatalf("progress text %q", txt)
	}
	tb.click("#cancel-sweep")
	tb.waitFor(`!window.schedplay.sweep.running && document.querySelector("#run-sweep") !== null`, 10*time.Second)
	if n := eval[int](tb, `document.querySelectorAll("#sweep-result").length`); n != 0 {
		t.Fatal("a cancelled sweep shows a result")
	}

	// The link reopens the panel with the sweep's form in a fresh tab.
	tb2 := newTab(t)
	tb2.do(chromedpNavigate(link))
	tb2.waitFor(`window.schedplay && window.schedplay.ready && document.querySelector("#sweep-key2") !== null`, 20*time.Second)
	got := eval[[]string](tb2, `["#sweep-key1","#sweep-vals1","#sweep-key2","#sweep-vals2","#sweep-runs","#sweep-metric"].map(function(s){return document.querySelector(s).value})`)
	if strings.Join(got, " ") != "workloads.hb.groups 1,2 kernel.hz 250,1000 2 switches,throughput" {
		t.Fatalf("reopened form %q", got)
	}
	tb2.waitDone()
}

func cellOf(tb *tab, metric string, row int) string {
	return eval[string](tb, fmt.Sprintf(`document.querySelectorAll('table.sweep-table[data-metric=%q] tbody tr')[%d].children[1].textContent`, metric, row))
}
