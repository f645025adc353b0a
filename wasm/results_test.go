package main

import (
	"strings"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/bridge"
)

// The tables hold the rows asked for, in report order, with the task
// names as text.
func TestResultsTables(t *testing.T) {
	rep := &metrics.Report{DurationNs: 1000}
	for i := range 30 {
		rep.Tasks = append(rep.Tasks, metrics.Task{Name: "t" + strings.Repeat("x", i), PID: 100 + i, Policy: "SCHED_NORMAL", RuntimeNs: 500})
	}
	rep.Tasks[3].Name = `<script>alert(1)</script>`
	for i := range 40 {
		rep.CPUs = append(rep.CPUs, metrics.CPU{ID: i, BusyNs: 250, IdleNs: 750})
	}
	var b bridge.Markup
	taskTable(&b, rep, 24)
	s := b.String()
	if n := strings.Count(s, "<tr>"); n != 25 { // the header row and 24
		t.Errorf("task table with limit 24 has %d rows, want 25 with the header", n)
	}
	if strings.Contains(s, "<script>") || !strings.Contains(s, "&lt;script&gt;") {
		t.Error("a task name became markup")
	}
	if !strings.Contains(s, "<td>100</td><td>SCHED_NORMAL</td><td>0</td><td>50.0%</td>") {
		t.Errorf("first task row: %s", s[:min(len(s), 600)])
	}
	var c bridge.Markup
	cpuTable(&c, rep, rowLimit(0, true))
	if n := strings.Count(c.String(), "<tr>"); n != 41 {
		t.Errorf("CPU table with every row has %d rows, want 41 with the header", n)
	}
	if !strings.HasPrefix(c.String(), `<table class="data" id="cpu-table"><thead><tr><th>cpu</th>`) || !strings.HasSuffix(c.String(), "</tbody></table>") {
		t.Errorf("CPU table markup: %.120s", c.String())
	}
}

// Row limits: 24, then pages of 64; "show all" only up to allRows rows.
func TestRowLimits(t *testing.T) {
	if rowLimit(0, false) != 24 || rowLimit(2, false) != 24+128 {
		t.Errorf("row limits %d, %d", rowLimit(0, false), rowLimit(2, false))
	}
	if !canShowAll(256) || canShowAll(1024) {
		t.Error("show all: want it for 256 rows, not for 1024")
	}
	if got := hiddenRows(256, 24, "CPUs"); got != "232 more CPUs (or export metrics.json):" {
		t.Errorf("hidden rows text %q", got)
	}
	if hiddenRows(20, 24, "CPUs") != "" {
		t.Error("hidden rows text with every row shown")
	}
}

// The per-cgroup table shows what the CLI summary prints, to the last
// digit: a cpu.max preset run natively, its report's table cells against
// the fields of the cgroup lines of WriteText.
func TestCgroupTableMatchesCLI(t *testing.T) {
	sc, err := scenario.Preset("cgroup/throttled-within-quota")
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range []string{"duration=400ms", `cgroups./svc.cpu.max=5000 100000`} {
		if err := sc.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	r, err := metrics.Run(cfg, sc.Name)
	if err != nil {
		t.Fatal(err)
	}
	rep := &r
	if len(rep.Cgroups) == 0 || rep.Cgroups[0].NrThrottled == 0 {
		t.Fatalf("report cgroups %+v: want /svc throttled", rep.Cgroups)
	}
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	cli := map[string][]string{} // cgroup path -> the CLI's fields
	lines := strings.Split(text.String(), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "cgroup ") {
			for _, row := range lines[i+1:] {
				if f := strings.Fields(row); len(f) > 0 {
					cli[f[0]] = f
				}
			}
		}
	}
	var b bridge.Markup
	cgroupTable(&b, rep)
	rows := strings.Split(b.String(), "<tr>")[2:] // after the table head and the header row
	if len(rows) != len(rep.Cgroups) || len(cli) != len(rep.Cgroups) {
		t.Fatalf("%d page rows, %d CLI rows, want %d", len(rows), len(cli), len(rep.Cgroups))
	}
	for _, row := range rows {
		var cells []string
		for _, c := range strings.Split(row, "<td>")[1:] {
			cells = append(cells, c[:strings.Index(c, "</td>")])
		}
		if want := cli[cells[0]]; strings.Join(cells, " ") != strings.Join(want, " ") {
			t.Errorf("page row %q\n CLI row %q", cells, want)
		}
	}
}
