package experiment

// Sweeps: one or two scenario keys over lists of values, N seeds per
// point. The grid (first key outermost), the table and the plot-ready CSV
// are built here so that `schedplay sweep` and the playground's sweep
// panel (which runs the same plan in the browser worker) print the same
// numbers in the same layout (docs/compare.md "CSV").

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"schedplay/core/quote"
)

// SweepAxis is one swept key and its values (`-sweep KEY=v1,v2,...`).
type SweepAxis struct {
	Key    string
	Values []string
}

// ParseSweepAxis reads KEY=v1,v2,... (values trimmed, none empty). A
// value in quotes, 'like this' or "like this", may hold commas: a CPU
// list swept as KEY="0-3,8","0-7" (docs/cli.md "KEY=VALUE lists").
func ParseSweepAxis(s string) (SweepAxis, error) {
	key, list, ok := strings.Cut(s, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		return SweepAxis{}, quote.Errorf("-sweep %q: want KEY=v1,v2,...", s)
	}
	ax := SweepAxis{Key: key}
	for rest := list; ; {
		v, next, err := nextSweepValue(rest)
		if err != nil {
			return SweepAxis{}, quote.Errorf("-sweep %s: %v in %q", quote.Path(key), err, list)
		}
		if v == "" {
			return SweepAxis{}, quote.Errorf("-sweep %s: empty value in %q", quote.Path(key), list)
		}
		ax.Values = append(ax.Values, v)
		if next < 0 {
			return ax, nil
		}
		rest = rest[next:]
	}
}

// nextSweepValue reads the first value of a comma-separated list: the
// value, where the rest starts after its comma (-1 at the end), or an
// error for a quote left open or followed by more than spaces. Spaces are
// those strings.TrimSpace trims, so that an unquoted value never starts
// with a quote mark once trimmed (SweepAxis.String could not print it).
func nextSweepValue(s string) (v string, next int, err error) {
	t := strings.TrimLeftFunc(s, unicode.IsSpace)
	if t == "" || (t[0] != '\'' && t[0] != '"') {
		v, _, found := strings.Cut(s, ",")
		if !found {
			return strings.TrimSpace(v), -1, nil
		}
		return strings.TrimSpace(v), len(v) + 1, nil
	}
	q := t[0]
	end := strings.IndexByte(t[1:], q)
	if end < 0 {
		return "", 0, fmt.Errorf("the value's %c is not closed", q)
	}
	v, after := t[1:1+end], strings.TrimLeftFunc(t[2+end:], unicode.IsSpace)
	skipped := len(s) - len(after)
	switch {
	case after == "":
		return v, -1, nil
	case after[0] == ',':
		return v, skipped + 1, nil
	}
	return "", 0, fmt.Errorf("want a comma after the value's closing %c", q)
}

// String is the axis as `-sweep` takes it: a value with a comma (or that
// starts with a quote) is quoted, so that ParseSweepAxis reads it back.
func (ax SweepAxis) String() string {
	vals := make([]string, len(ax.Values))
	for i, v := range ax.Values {
		vals[i] = quoteSweepValue(v)
	}
	return ax.Key + "=" + strings.Join(vals, ",")
}

func quoteSweepValue(v string) string {
	t := strings.TrimSpace(v)
	if !strings.Contains(v, ",") && t == v && (t == "" || (t[0] != '\'' && t[0] != '"')) {
		return v
	}
	if strings.Contains(v, `"`) {
		return "'" + v + "'"
	}
	return `"` + v + `"`
}

// CheckSweepAxes checks the shape of a sweep: one or two axes, distinct
// keys, each with values. The values themselves are checked by Plan (the
// scenario's Set).
func CheckSweepAxes(axes []SweepAxis) error {
	if len(axes) == 0 || len(axes) > 2 {
		return fmt.Errorf("want one or two -sweep KEY=v1,v2,... (got %d)", len(axes))
	}
	if len(axes) == 2 && axes[0].Key == axes[1].Key {
		return fmt.Errorf("-sweep %s given twice", quote.Path(axes[0].Key))
	}
	for _, ax := range axes {
		if len(ax.Values) == 0 {
			return fmt.Errorf("-sweep %s: no values", quote.Path(ax.Key))
		}
	}
	return nil
}

// SweepConfigs is the grid as configurations, the first key outermost.
func SweepConfigs(axes []SweepAxis) []Config {
	var vars []Config
	for _, v0 := range axes[0].Values {
		p := []string{axes[0].Key + "=" + v0}
		if len(axes) == 1 {
			vars = append(vars, Config{Label: p[0], Flag: "-sweep", Sets: p})
			continue
		}
		for _, v1 := range axes[1].Values {
			q := append([]string{p[0]}, axes[1].Key+"="+v1)
			vars = append(vars, Config{Label: strings.Join(q, " "), Flag: "-sweep", Sets: q})
		}
	}
	return vars
}

// Sweep is a finished sweep: per point (SweepConfigs order) the values of
// its runs in seed order.
type Sweep struct {
	Name   string
	Axes   []SweepAxis
	Runs   int
	Center Center
	Seeds  []uint64 // per job, in job order (point-major)
	Names  []string // the metrics reported
	Sides  []Side   // per point
}

// NewSweep arranges measured values (one per job of Plan(SweepConfigs(axes),
// runs)) by point.
func NewSweep(name string, axes []SweepAxis, jobs []Job, vals []Values, names []string, runs int, c Center) *Sweep {
	s := &Sweep{Name: name, Axes: axes, Runs: runs, Center: c, Names: names}
	npts := 1
	for _, ax := range axes {
		npts *= len(ax.Values)
	}
	s.Sides = make([]Side, npts)
	for i, j := range jobs {
		s.Seeds = append(s.Seeds, j.Seed)
		s.Sides[j.Config] = append(s.Sides[j.Config], vals[i])
	}
	return s
}

// Point returns the axis values of point i.
func (s *Sweep) Point(i int) []string {
	if len(s.Axes) == 1 {
		return []string{s.Axes[0].Values[i]}
	}
	n := len(s.Axes[1].Values)
	return []string{s.Axes[0].Values[i/n], s.Axes[1].Values[i%n]}
}

// CSV: one header row, then per point one row per seed (stat "value"),
// followed by the aggregated rows amean, median, stddev, stddev_pct (seed
// empty). A metric a run lacks is an empty cell; numbers are plain
// decimals in their shortest exact form.
func (s *Sweep) CSV() []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	head := []string{}
	for _, ax := range s.Axes {
		head = append(head, ax.Key)
	}
	head = append(head, "seed", "stat")
	head = append(head, s.Names...)
	w.Write(head)
	for vi, side := range s.Sides {
		pt := s.Point(vi)
		for si, v := range side {
			row := append(append([]string{}, pt...), strconv.FormatUint(s.Seeds[vi*s.Runs+si], 10), "value")
			for _, n := range s.Names {
				if x, ok := v[n]; ok {
					row = append(row, CSVFloat(x))
				} else {
					row = append(row, "")
				}
			}
			w.Write(row)
		}
		sums := make([]*Summary, len(s.Names))
		for i, n := range s.Names {
			sums[i] = side.Summary(n)
		}
		for _, stat := range []string{"amean", "median", "stddev", "stddev_pct"} {
			row := append(append([]string{}, pt...), "", stat)
			for _, sm := range sums {
				if sm == nil {
					row = append(row, "")
					continue
				}
				x := map[string]float64{"amean": sm.Mean, "median": sm.Median, "stddev": sm.Stddev, "stddev_pct": sm.StddevPct}[stat]
				row = append(row, CSVFloat(x))
			}
			w.Write(row)
		}
	}
	w.Flush()
	return buf.Bytes()
}

// CSVFloat is a number as the CSV writes it.
func CSVFloat(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// BetterText is a metric's direction as tables say it.
func BetterText(b Better) string {
	switch b {
	case Higher:
		return "higher is better"
	case None:
		return "no better direction"
	}
	return "lower is better"
}

// Cell renders point i of metric n: centre and stddev% ("-" when a run
// lacks the metric).
func (s *Sweep) Cell(n string, i int) string {
	sm := s.Sides[i].Summary(n)
	if sm == nil {
		return "-"
	}
	return fmt.Sprintf("%s ±%.2f%%", FormatValue(sm.Of(s.Center)), sm.StddevPct)
}

// Header is the table's first line.
func (s *Sweep) Header() string {
	var keys []string
	for _, ax := range s.Axes {
		keys = append(keys, ax.String())
	}
	return fmt.Sprintf("sweep %s  %s  %d runs per point (seeds %d..%d)  %s, stddev%% over the runs",
		s.Name, strings.Join(keys, "  "), s.Runs, s.Seeds[0], s.Seeds[s.Runs-1], CenterTitle(s.Center))
}

// Text: one block per metric; one key gives a column, two keys a matrix
// (rows: first key, columns: second key).
func (s *Sweep) Text() string {
	var b strings.Builder
	b.WriteString(s.Header() + "\n")
	for _, n := range s.Names {
		d, _ := Lookup(n)
		fmt.Fprintf(&b, "\n%s (%s, %s)\n", n, d.Unit, BetterText(d.Better))
		if len(s.Axes) == 1 {
			fmt.Fprintf(&b, "  %-24s %24s\n", s.Axes[0].Key, CenterTitle(s.Center))
			for vi := range s.Sides {
				fmt.Fprintf(&b, "  %-24s %24s\n", s.Axes[0].Values[vi], s.Cell(n, vi))
			}
			continue
		}
		cols := s.Axes[1].Values
		fmt.Fprintf(&b, "  %-24s", s.Axes[0].Key+" \\ "+s.Axes[1].Key)
		for _, c := range cols {
			fmt.Fprintf(&b, " %24s", c)
		}
		b.WriteByte('\n')
		for ri, rv := range s.Axes[0].Values {
			fmt.Fprintf(&b, "  %-24s", rv)
			for ci := range cols {
				fmt.Fprintf(&b, " %24s", s.Cell(n, ri*len(cols)+ci))
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}
