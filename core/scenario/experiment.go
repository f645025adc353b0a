package scenario

// The optional "experiment" block: what turns a scenario into a
// reproduction of a mailing-list thread (docs/scenario-format.md "Experiment"). It names the
// thread, the configurations the thread compared (A/B, or more columns as
// in the 2013 nohz thread), the machines or workload sizes it ran them on
// (variants), the metrics of its table, and the thread's published numbers
// with the tolerance the simulator must meet. `schedplay compare -preset
// seed/...` runs every variant x configuration; `schedplay validate` checks
// the reference numbers and writes docs/VALIDATION.md.
//
// Nothing here changes how the scenario itself runs: configurations and
// variants are `-set` overrides applied on top of it, validated when the
// scenario is decoded so that a broken preset fails at load time.

import (
	"fmt"
	"math"
	"strings"

	"schedplay/core/quote"
)

// Experiment kinds (docs/scenario-format.md "Experiment").
const (
	KindCalibration = "calibration" // depends on hw cost parameters calibrated once
	KindEmergent    = "emergent"    // follows from kernel rules alone, never tuned
)

// Bounds of the experiment block.
const (
	MaxExpConfigs  = 8
	MaxExpVariants = 8
	MaxExpMetrics  = 128 // room for an A/B table's default set (experiment.DefaultCandidates)
	MaxExpRefs     = 64
	MaxExpRuns     = 100
)

// Experiment is a scenario's experiment block.
type Experiment struct {
	Thread    string      // the thread's subject line
	Date      string      // when it was posted, e.g. "2024-09"
	Kind      string      // KindCalibration or KindEmergent
	Explain   string      // the mechanism behind the outcome, in a sentence or two
	Configs   []ExpConfig // the compared configurations; the first is the baseline
	Variants  []ExpConfig // machines / workload sizes; none = the scenario as is
	Metrics   []string    // experiment metric names (docs/compare.md)
	Normalize bool        // report values relative to the first configuration
	// NormalizeOnly limits Normalize to these metrics (the JSON form
	// "normalize": ["completion", ...]); empty = every metric.
	NormalizeOnly []string
	Runs          int      // seeds per variant and configuration (0 = 5)
	Reference     []ExpRef // the thread's published numbers
}

// ExpConfig is a named set of `-set` overrides.
type ExpConfig struct {
	Name string
	Set  []string // KEY=VALUE
}

// ExpRef is one published number: the value of Metric under Config (on
// Variant), normalised like the table when Normalize is set, with its
// tolerance: absolute (Tol) or relative in percent (TolPct).
type ExpRef struct {
	Variant string
	Config  string
	Metric  string
	Value   float64
	Tol     float64
	TolPct  float64
	Note    string // e.g. "thread: over 500 us"
	// Depends lists the -set keys whose preset values the number, its
	// tolerance and its note assume ("one tick at HZ=250": kernel.hz); a
	// run that changes one of them is not checked against it.
	Depends []string
}

// Check reports whether got is within the reference's tolerance.
func (r ExpRef) Check(got float64) bool {
	tol := r.Tol
	if r.TolPct > 0 {
		tol = math.Abs(r.Value) * r.TolPct / 100
	}
	return math.Abs(got-r.Value) <= tol+1e-12
}

// ToleranceText renders the tolerance as the tables show it: "±0.03", "±30%".
func (r ExpRef) ToleranceText() string {
	if r.TolPct > 0 {
		return fmt.Sprintf("±%g%%", r.TolPct)
	}
	return fmt.Sprintf("±%g", r.Tol)
}

// Normalizes reports whether metric's values are shown relative to the
// first configuration.
func (e *Experiment) Normalizes(metric string) bool {
	if !e.Normalize {
		return false
	}
	if len(e.NormalizeOnly) == 0 {
		return true
	}
	for _, m := range e.NormalizeOnly {
		if m == metric {
			return true
		}
	}
	return false
}

// NormalizedText names what is normalised, for table headers: "" (nothing),
// "values" (every metric) or the metrics' names.
func (e *Experiment) NormalizedText() string {
	switch {
	case !e.Normalize:
		return ""
	case len(e.NormalizeOnly) == 0:
		return "values"
	}
	return strings.Join(e.NormalizeOnly, ", ")
}

// EffectiveRuns is the number of seeds per cell.
func (e *Experiment) EffectiveRuns() int {
	if e.Runs == 0 {
		return 5
	}
	return e.Runs
}

// VariantList returns the variants, or one unnamed variant with no
// overrides when the experiment has none.
func (e *Experiment) VariantList() []ExpConfig {
	if len(e.Variants) == 0 {
		return []ExpConfig{{}}
	}
	return e.Variants
}

// validate checks the block against sc: names unique, every override a
// valid key and value on a copy of the scenario, references naming
// existing variants, configurations and metrics of the block.
func (e *Experiment) validate(sc *Scenario) error {
	const p = "experiment"
	if strings.TrimSpace(e.Thread) == "" {
		return errAt(p+".thread", "missing; want the thread's subject line")
	}
	if e.Kind != KindCalibration && e.Kind != KindEmergent {
		return errAt(p+".kind", "%q: want %q or %q", e.Kind, KindCalibration, KindEmergent)
	}
	if len(e.Configs) < 2 || len(e.Configs) > MaxExpConfigs {
		return errAt(p+".configs", "%d configurations: want 2..%d", len(e.Configs), MaxExpConfigs)
	}
	if len(e.Variants) > MaxExpVariants {
		return errAt(p+".variants", "%d variants: want at most %d", len(e.Variants), MaxExpVariants)
	}
	if len(e.Metrics) == 0 || len(e.Metrics) > MaxExpMetrics {
		return errAt(p+".metrics", "%d metrics: want 1..%d", len(e.Metrics), MaxExpMetrics)
	}
	if e.Runs < 0 || e.Runs > MaxExpRuns {
		return errAt(p+".runs", "%d: want 1..%d", e.Runs, MaxExpRuns)
	}
	if len(e.Reference) > MaxExpRefs {
		return errAt(p+".reference", "%d entries: want at most %d", len(e.Reference), MaxExpRefs)
	}
	if err := validateConfigs(p+".configs", e.Configs, sc); err != nil {
		return err
	}
	if err := validateConfigs(p+".variants", e.Variants, sc); err != nil {
		return err
	}
	for i, m := range e.Metrics {
		if m == "" || len(m) > 64 {
			return errAt(fmt.Sprintf("%s.metrics[%d]", p, i), "want a metric name (docs/compare.md)")
		}
	}
	for i, m := range e.NormalizeOnly {
		found := false
		for _, x := range e.Metrics {
			found = found || x == m
		}
		if !found {
			return errAt(fmt.Sprintf("%s.normalize[%d]", p, i), "%q: want one of experiment.metrics (%s)", m, quote.List(e.Metrics))
		}
	}
	for i, r := range e.Reference {
		rp := fmt.Sprintf("%s.reference[%d]", p, i)
		if len(e.Variants) > 0 && !hasConfig(e.Variants, r.Variant) {
			return errAt(rp+".variant", "%q: want one of the variants (%s)", r.Variant, configNames(e.Variants))
		}
		if len(e.Variants) == 0 && r.Variant != "" {
			return errAt(rp+".variant", "the experiment has no variants")
		}
		if !hasConfig(e.Configs, r.Config) {
			return errAt(rp+".config", "%q: want one of the configurations (%s)", r.Config, configNames(e.Configs))
		}
		found := false
		for _, m := range e.Metrics {
			found = found || m == r.Metric
		}
		if !found {
			return errAt(rp+".metric", "%q: want one of experiment.metrics (%s)", r.Metric, quote.List(e.Metrics))
		}
		for di, k := range r.Depends {
			if _, ok := LookupKey(k); !ok {
				return errAt(fmt.Sprintf("%s.depends[%d]", rp, di), "%q: want a -set key (see `schedplay keys`)", k)
			}
		}
		if (r.Tol > 0) == (r.TolPct > 0) {
			return errAt(rp, "want exactly one of tolerance (absolute) and tolerance_pct (relative, percent), positive")
		}
	}
	return nil
}

func validateConfigs(path string, cs []ExpConfig, sc *Scenario) error {
	for i, c := range cs {
		cp := fmt.Sprintf("%s[%d]", path, i)
		if c.Name == "" || len(c.Name) > 64 {
			return errAt(cp+".name", "want a name of 1..64 characters")
		}
		for j := 0; j < i; j++ {
			if cs[j].Name == c.Name {
				return errAt(cp+".name", "%q is used twice", c.Name)
			}
		}
		probe := sc.Clone()
		for j, kv := range c.Set {
			if err := probe.Set(kv); err != nil {
				return errAt(fmt.Sprintf("%s.set[%d]", cp, j), "%v", err)
			}
		}
		if len(c.Set) > 0 {
			if err := probe.buildOnly(); err != nil {
				return errAt(cp, "the scenario with these overrides: %v", err)
			}
		}
	}
	return nil
}

func hasConfig(cs []ExpConfig, name string) bool {
	for _, c := range cs {
		if c.Name == name {
			return true
		}
	}
	return false
}

func configNames(cs []ExpConfig) string {
	n := make([]string, len(cs))
	for i, c := range cs {
		n[i] = c.Name
	}
	return quote.List(n)
}
