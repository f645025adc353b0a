package main

// ThreadPanel: the experiment block of the current scenario (a seed/
// preset's mailing-list thread): the thread's subject and mechanism, A/B
// toggles that pick which configuration runs as A and which as B (on which
// variant) in the normal A/B view, and the thread's experiment: runs per
// cell, Run/Cancel with progress and time left, then one table per variant
// (metrics x configurations as `schedplay compare -preset NAME` prints
// them), the thread's published numbers beside the simulator's with the
// tolerance and pass/FAIL, a bar plot per metric, and the Markdown to copy.
// Untrusted strings (names, subjects from a pasted scenario) go through
// vg-content only.

import (
	"fmt"
	"strconv"

	"schedplay/core/scenario"
	"schedplay/wasm/bridge"
	"schedplay/wasm/report"
)

// ThreadPanel is the thread panel.
type ThreadPanel struct {
	App *App `vugu:"data"`
}

func (c *ThreadPanel) exp() *scenario.Experiment { return c.App.Sc.Experiment }

func (c *ThreadPanel) g() *GalleryState { return c.App.gal() }

func (c *ThreadPanel) head() string {
	e := c.exp()
	s := e.Thread
	if e.Date != "" {
		s += " (" + e.Date + ")"
	}
	return s
}

func (c *ThreadPanel) variants() []string {
	var out []string
	for _, v := range c.exp().Variants {
		out = append(out, v.Name)
	}
	return out
}

func (c *ThreadPanel) configs() []string {
	var out []string
	for _, cf := range c.exp().Configs {
		out = append(out, cf.Name)
	}
	return out
}

func (c *ThreadPanel) setsText(i int) string {
	cfs := c.exp().Configs
	if i < 0 || i >= len(cfs) {
		return ""
	}
	s := ""
	for _, kv := range cfs[i].Set {
		if s != "" {
			s += " "
		}
		s += kv
	}
	return s
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func (c *ThreadPanel) runsValue() string {
	if r := c.g().Runs; r > 0 {
		return strconv.Itoa(r)
	}
	return strconv.Itoa(c.exp().EffectiveRuns())
}

func (c *ThreadPanel) running() bool { return c.App.threadActive() }

// report is the finished experiment of this scenario (nil if none).
func (c *ThreadPanel) report() *report.ThreadReport {
	g := c.g()
	if g.Report == nil || c.App.threadActive() || g.Name != scName(c.App.Sc) {
		return nil
	}
	return g.Report
}

// stale is the out-of-date banner ("" when the report is current).
func (c *ThreadPanel) stale() string {
	if w := c.App.threadStale(); w != "" {
		return "Out of date: computed before " + w + ". Run the experiment again for this configuration."
	}
	return ""
}

func (c *ThreadPanel) resultClass() string {
	if c.stale() != "" {
		return "stale"
	}
	return ""
}

// verdict is a check's result cell: pass, FAIL, or n/a when the run
// changed a key the thread's number assumes.
func verdict(ck report.ThreadCheck) string {
	if ck.NotApplying != "" {
		return "n/a"
	}
	return passWord(ck.Pass)
}

func verdictClass(ck report.ThreadCheck) string {
	if ck.NotApplying != "" {
		return "verdict na"
	}
	return "verdict " + passClass(ck.Pass)
}

func scName(sc *scenario.Scenario) string {
	if sc.Name == "" {
		return "untitled"
	}
	return sc.Name
}

func (c *ThreadPanel) progressStyle() string {
	return fmt.Sprintf("width:%.1f%%", 100*c.g().Fraction)
}

func (c *ThreadPanel) progressText() string { return c.App.threadProgressText() }

func (c *ThreadPanel) summary(r *report.ThreadReport) string {
	s := fmt.Sprintf("%d runs per cell (seeds %d..%d), %s", r.Runs, r.Seeds[0], r.Seeds[len(r.Seeds)-1], r.Center)
	if r.Normalized && len(r.Configs) > 0 {
		s += fmt.Sprintf(", %s normalised to %q", r.NormalizedWhat, r.Configs[0])
	}
	if len(r.Checks) > 0 {
		na := 0
		for _, ck := range r.Checks {
			if ck.NotApplying != "" {
				na++
			}
		}
		if n := r.FailCount(); n == 0 {
			s += fmt.Sprintf("; all %d of the thread's numbers that apply within tolerance", len(r.Checks)-na)
		} else {
			s += fmt.Sprintf("; %d of the thread's %d numbers that apply outside tolerance", n, len(r.Checks)-na)
		}
		if na > 0 {
			s += fmt.Sprintf(" (%d do not apply to this configuration)", na)
		}
	}
	if r.Runs < c.exp().EffectiveRuns() {
		s += fmt.Sprintf(" (quick look: the thread's table uses %d runs)", c.exp().EffectiveRuns())
	}
	return s
}

func tableTitle(t report.ThreadTable) string {
	if t.Variant != "" {
		return t.Variant + " (" + t.Machine + ")"
	}
	return t.Machine
}

func checkNote(ck report.ThreadCheck) string {
	if ck.Note == "" {
		return ""
	}
	return ck.Note
}

func passClass(ok bool) string {
	if ok {
		return "pass"
	}
	return "fail"
}

func passWord(ok bool) string {
	if ok {
		return "pass"
	}
	return "FAIL"
}

func refClass(p report.PlotRef) string {
	if p.NA {
		return "ref na"
	}
	return "ref " + passClass(p.Pass)
}

func (c *ThreadPanel) copyMarkdown() {
	r := c.report()
	if r == nil {
		return
	}
	if err := bridge.CopyText(r.Markdown); err != nil {
		c.App.Notice = "The clipboard is unavailable: select the Markdown below."
	} else {
		c.App.Notice = "Markdown copied."
	}
}

func (c *ThreadPanel) downloadMarkdown() {
	if r := c.report(); r != nil {
		c.App.download("thread.md", "text/markdown", []byte(r.Markdown))
	}
}

func plotW() int { return report.PlotW }

func viewBox(p report.Plot) string { return fmt.Sprintf("0 0 %d %d", report.PlotW, p.H) }

func barClass(b report.PlotBar) string {
	if b.First {
		return "bar first"
	}
	return "bar"
}

// unitTitle explains a row's unit on hover.
func unitTitle(row report.ThreadRow) string {
	switch row.Unit {
	case "ratio":
		return "relative to the first configuration (no time unit)"
	case "%":
		return "percent: " + row.Help
	}
	return ""
}
