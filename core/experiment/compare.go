package experiment

// A/B rows: the change of each metric and whether it stands out of the
// run-to-run noise.

import "math"

// Verdict classifies a change.
type Verdict string

// Verdicts.
const (
	Same     Verdict = "same"    // identical centres
	Noise    Verdict = "noise"   // |B - A| within the larger run-to-run stddev of the two sides
	Improved Verdict = "better"  // out of the noise, in the better direction
	Worse    Verdict = "worse"   // out of the noise, in the worse direction
	Changed  Verdict = "changed" // out of the noise, metric without a better direction
	Missing  Verdict = "n/a"     // a side lacks the metric
)

// Row is one metric of an A/B comparison.
type Row struct {
	Def
	A, B *Summary // nil when that side's runs lack the metric
	// ChangePct is (B - A) / |A| * 100 of the centres; nil when A is 0
	// (and B is not) or a side is missing.
	ChangePct *float64
	Verdict   Verdict
}

// Side collects the per-seed values of one configuration.
type Side []Values

// Summary summarises metric name over the side's runs; nil if any run
// lacks it.
func (s Side) Summary(name string) *Summary {
	v := make([]float64, 0, len(s))
	for _, r := range s {
		x, ok := r[name]
		if !ok {
			return nil
		}
		v = append(v, x)
	}
	if len(v) == 0 {
		return nil
	}
	sum := Summarize(v)
	return &sum
}

// Compare builds the rows of an A/B table for the given metrics (full
// names, known to Lookup).
//
// The noise rule is the one the mailing-list threads apply by eye: a
// change is within the run-to-run deviation when the difference of the
// centres is no larger than the larger of the two sides' sample standard
// deviations.
func Compare(names []string, a, b Side, c Center) []Row {
	rows := make([]Row, 0, len(names))
	for _, n := range names {
		d, _ := Lookup(n)
		r := Row{Def: d, A: a.Summary(n), B: b.Summary(n)}
		r.ChangePct, r.Verdict = judge(r.A, r.B, c, d.Better)
		rows = append(rows, r)
	}
	return rows
}

func judge(a, b *Summary, c Center, better Better) (*float64, Verdict) {
	if a == nil || b == nil {
		return nil, Missing
	}
	ca, cb := a.Of(c), b.Of(c)
	var pct *float64
	switch {
	case ca != 0:
		p := 100 * (cb - ca) / math.Abs(ca)
		pct = &p
	case cb == 0:
		p := 0.0
		pct = &p
	}
	diff := cb - ca
	switch {
	case diff == 0:
		return pct, Same
	case math.Abs(diff) <= max(a.Stddev, b.Stddev):
		return pct, Noise
	case better == None:
		return pct, Changed
	case (diff < 0) == (better == Lower):
		return pct, Improved
	default:
		return pct, Worse
	}
}
