package main

// schedplay sweep: one or two scenario keys over lists of values, N seeds
// per point, as a table per metric and a plot-ready CSV.

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"schedplay/core/experiment"
)

// sweepAxis is one -sweep KEY=v1,v2,...
type sweepAxis struct {
	key    string
	values []string
}

func parseAxis(s string) (sweepAxis, error) {
	key, list, ok := strings.Cut(s, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		return sweepAxis{}, badInput("-sweep %q: want KEY=v1,v2,...", s)
	}
	ax := sweepAxis{key: key}
	for _, v := range strings.Split(list, ",") {
		if v = strings.TrimSpace(v); v == "" {
			return sweepAxis{}, badInput("-sweep %s: empty value in %q", key, list)
		}
		ax.values = append(ax.values, v)
	}
	return ax, nil
}

func cmdSweep(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var f expFlags
	var axesFlag multiFlag
	var csvOut string
	fs := newExpFlagSet("sweep", &f, stderr)
	fs.Var(&axesFlag, "sweep", "KEY=v1,v2,... a scenario key and its values (once or twice)")
	fs.StringVar(&csvOut, "csv", "", `write the plot-ready CSV to FILE ("-" = stdout instead of the table)`)
	if err := fs.Parse(args); err != nil {
		return badInput("%v", err)
	}
	if err := f.check(); err != nil {
		return err
	}
	if len(axesFlag) == 0 || len(axesFlag) > 2 {
		return badInput("want one or two -sweep KEY=v1,v2,... (got %d)", len(axesFlag))
	}
	var axes []sweepAxis
	for _, s := range axesFlag {
		ax, err := parseAxis(s)
		if err != nil {
			return err
		}
		if len(axes) == 1 && axes[0].key == ax.key {
			return badInput("-sweep %s given twice", ax.key)
		}
		axes = append(axes, ax)
	}
	sc, name, err := loadExperiment(fs, &f, stdin, stderr)
	if err != nil {
		return err
	}
	vars := sweepPoints(axes)
	bt, err := runBatch(sc, name, vars, &f, newProgress(stderr, f.progress, "sweep"))
	if err != nil {
		return err
	}
	jobs, sides, names := bt.jobs, bt.sides, bt.names
	res := &sweepResult{name: name, axes: axes, vars: vars, jobs: jobs, sides: sides, names: names,
		center: experiment.Center(f.stat), runs: f.runs}
	if csvOut != "" {
		data := res.csv()
		if csvOut == "-" {
			_, err := stdout.Write(data)
			return err
		}
		if err := writeFileAtomic(csvOut, data); err != nil {
			return err
		}
	}
	_, err = io.WriteString(stdout, res.text())
	return err
}

// sweepPoints is the grid, the first key outermost.
func sweepPoints(axes []sweepAxis) []experiment.Config {
	var vars []experiment.Config
	for _, v0 := range axes[0].values {
		p := []string{axes[0].key + "=" + v0}
		if len(axes) == 1 {
			vars = append(vars, experiment.Config{Label: p[0], Flag: "-sweep", Sets: p})
			continue
		}
		for _, v1 := range axes[1].values {
			q := append([]string{p[0]}, axes[1].key+"="+v1)
			vars = append(vars, experiment.Config{Label: strings.Join(q, " "), Flag: "-sweep", Sets: q})
		}
	}
	return vars
}

type sweepResult struct {
	name   string
	axes   []sweepAxis
	vars   []experiment.Config
	jobs   []experiment.Job
	sides  []experiment.Side
	names  []string
	center experiment.Center
	runs   int
}

// point returns the axis values of variant i.
func (r *sweepResult) point(i int) []string {
	var out []string
	for _, kv := range r.vars[i].Sets {
		_, v, _ := strings.Cut(kv, "=")
		out = append(out, v)
	}
	return out
}

// csv: one row per point and seed (stat "value"), then per point the
// aggregated rows amean, median, stddev, stddev_pct (seed empty).
func (r *sweepResult) csv() []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	head := []string{}
	for _, ax := range r.axes {
		head = append(head, ax.key)
	}
	head = append(head, "seed", "stat")
	head = append(head, r.names...)
	w.Write(head)
	for vi, side := range r.sides {
		pt := r.point(vi)
		for si, v := range side {
			row := append(append([]string{}, pt...), strconv.FormatUint(r.jobs[vi*r.runs+si].Seed, 10), "value")
			for _, n := range r.names {
				if x, ok := v[n]; ok {
					row = append(row, csvFloat(x))
				} else {
					row = append(row, "")
				}
			}
			w.Write(row)
		}
		sums := make([]*experiment.Summary, len(r.names))
		for i, n := range r.names {
			sums[i] = side.Summary(n)
		}
		for _, stat := range []string{"amean", "median", "stddev", "stddev_pct"} {
			row := append(append([]string{}, pt...), "", stat)
			for _, s := range sums {
				if s == nil {
					row = append(row, "")
					continue
				}
				x := map[string]float64{"amean": s.Mean, "median": s.Median, "stddev": s.Stddev, "stddev_pct": s.StddevPct}[stat]
				row = append(row, csvFloat(x))
			}
			w.Write(row)
		}
	}
	w.Flush()
	return buf.Bytes()
}

func csvFloat(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// text: one block per metric; one key gives a column, two keys a matrix
// (rows: first key, columns: second key). Cells: centre and stddev%.
func (r *sweepResult) text() string {
	var b strings.Builder
	var keys []string
	for _, ax := range r.axes {
		keys = append(keys, ax.key+"="+strings.Join(ax.values, ","))
	}
	fmt.Fprintf(&b, "sweep %s  %s  %d runs per point (seeds %d..%d)  %s, stddev%% over the runs\n",
		r.name, strings.Join(keys, "  "), r.runs, r.jobs[0].Seed, r.jobs[r.runs-1].Seed, centerTitle[string(r.center)])
	for _, n := range r.names {
		d, _ := experiment.Lookup(n)
		better := "lower is better"
		switch d.Better {
		case experiment.Higher:
			better = "higher is better"
		case experiment.None:
			better = "no better direction"
		}
		fmt.Fprintf(&b, "\n%s (%s, %s)\n", n, d.Unit, better)
		cell := func(vi int) string {
			s := r.sides[vi].Summary(n)
			if s == nil {
				return "-"
			}
			return fmt.Sprintf("%s ±%.2f%%", fmtVal(s.Of(r.center)), s.StddevPct)
		}
		if len(r.axes) == 1 {
			fmt.Fprintf(&b, "  %-24s %24s\n", r.axes[0].key, centerTitle[string(r.center)])
			for vi := range r.vars {
				fmt.Fprintf(&b, "  %-24s %24s\n", r.axes[0].values[vi], cell(vi))
			}
			continue
		}
		cols := r.axes[1].values
		fmt.Fprintf(&b, "  %-24s", r.axes[0].key+" \\ "+r.axes[1].key)
		for _, c := range cols {
			fmt.Fprintf(&b, " %24s", c)
		}
		b.WriteByte('\n')
		for ri, rv := range r.axes[0].values {
			fmt.Fprintf(&b, "  %-24s", rv)
			for ci := range cols {
				fmt.Fprintf(&b, " %24s", cell(ri*len(cols)+ci))
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}
