package main

// SweepPanel: the sweep form (keys with the `schedplay keys` list as
// suggestions and free text, values, metrics, runs, centre), Run/Cancel
// with progress and time left, then per metric the CLI's table and a line
// plot, the CSV download and the CLI command that gives the same numbers.
// Closed, it is one line. Untrusted strings (keys, values, names from a
// pasted scenario or a shared link) reach the page through vg-content and
// attribute values only.

import (
	"fmt"
	"strconv"
	"strings"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
	"schedplay/wasm/report"
)

// SweepPanel is the sweep panel.
type SweepPanel struct {
	App *App `vugu:"data"`
}

func (c *SweepPanel) s() *SweepState { return c.App.sw() }

func (c *SweepPanel) toggle() { c.s().Open = !c.s().Open }

func (c *SweepPanel) toggleText() string {
	if c.s().Open {
		return "Hide"
	}
	return "Sweep…"
}

func (c *SweepPanel) running() bool { return c.App.sweepActive() }

func (c *SweepPanel) keys() []KeyChoice { return sweepKeys(c.App.Sc) }

func (c *SweepPanel) help(key string) string { return keyHelp(c.App.Sc, key) }

func (c *SweepPanel) metricNames() []string {
	var out []string
	for _, d := range experiment.Catalogue() {
		out = append(out, d.Name)
	}
	return out
}

// set edits one form field and re-checks the form, so an error shows at
// its field at once.
func (c *SweepPanel) set(field, v string) {
	s := c.s()
	switch field {
	case "key1":
		s.Key1 = strings.TrimSpace(v)
	case "vals1":
		s.Vals1 = v
	case "key2":
		s.Key2 = strings.TrimSpace(v)
	case "vals2":
		s.Vals2 = v
	case "metric":
		s.Metrics = v
	case "stat":
		s.Stat = v
	case "runs":
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			s.FormErr, s.FormField = fmt.Sprintf("runs %q: want an integer 1..%d", v, experiment.MaxSweepRuns), "runs"
			return
		}
		s.Runs = n
	}
	s.Spec()
}

func (c *SweepPanel) fieldErr(field string) string {
	if c.s().FormField == field {
		return c.s().FormErr
	}
	return ""
}

func (c *SweepPanel) progressStyle() string {
	return fmt.Sprintf("width:%.1f%%", 100*c.s().Fraction)
}

// report is the last finished sweep (shown until the next one starts).
func (c *SweepPanel) report() *report.SweepReport {
	if c.running() {
		return nil
	}
	return c.s().Report
}

func (c *SweepPanel) plot(i int) report.SweepPlot { return c.s().Report.Plots[i] }

func (c *SweepPanel) unitText(t report.SweepTable) string {
	return "(" + t.Unit + ", " + t.Better + ")"
}

// shellArg quotes a -sweep argument for a POSIX shell: in single quotes,
// as the panel always showed it, unless it holds one.
func shellArg(s string) string {
	if strings.Contains(s, "'") {
		return scenario.ShellQuote(s)
	}
	return "'" + s + "'"
}

// cli is the command that prints the same table (SCENARIO: the scenario
// as a file or its share URL).
func (c *SweepPanel) cli() string {
	s := c.s()
	parts := []string{"schedplay sweep"}
	for _, kv := range [][2]string{{s.Key1, s.Vals1}, {s.Key2, s.Vals2}} {
		if strings.TrimSpace(kv[0]) != "" {
			key := strings.TrimSpace(kv[0])
			arg := key + "=" + strings.Join(splitList(kv[1]), ",")
			if ax, err := formAxis(key, kv[1]); err == nil {
				arg = ax.String()
			}
			parts = append(parts, "-sweep "+shellArg(arg))
		}
	}
	parts = append(parts, "-runs "+strconv.Itoa(s.Runs))
	if m := splitList(s.Metrics); len(m) > 0 {
		parts = append(parts, "-metric '"+strings.Join(m, ",")+"'")
	}
	if s.Stat == "median" {
		parts = append(parts, "-stat median")
	}
	return strings.Join(parts, " ") + " [-csv sweep.csv] scenario.json"
}

func plotW2() int { return report.SweepPlotW }

func sweepViewBox(p report.SweepPlot) string { return fmt.Sprintf("0 0 %d %d", report.SweepPlotW, p.H) }

func (c *SweepPanel) staleClass() string {
	if c.App.SweepStale() != "" {
		return "stale"
	}
	return ""
}
