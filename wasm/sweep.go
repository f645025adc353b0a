package main

// Sweeps on the page: the form behind the sweep panel (sweep-panel.go) and
// its link with the share URL. A sweep is `schedplay sweep` in the
// browser: one or two scenario keys (the keys `schedplay keys` lists, plus
// this scenario's tasks.NAME.instances and workloads.NAME.PARAM, or any
// key typed in), their values, the metrics (none: the CLI's default set),
// runs per point and the centre. The form turns into an
// experiment.SweepSpec, which the worker runs (sweep_run.go) and the share
// URL carries as `&sweep=` beside the scenario (core/experiment/sweepspec.go;
// `schedplay sweep URL` runs the same sweep).

import (
	"fmt"
	"strconv"
	"strings"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
	"schedplay/wasm/report"
)

// SweepState is the sweep panel's form and the sweep it runs.
type SweepState struct {
	Open        bool
	Key1, Vals1 string
	Key2, Vals2 string // Key2 "": one key
	Metrics     string // comma-separated; "" = the default set
	Runs        int
	Stat        string // amean or median
	FormErr     string // what is wrong with the form (shown at the field)
	FormField   string // which field FormErr concerns: key1, vals1, key2, vals2, runs, metric

	batch                       // the sweep's progress (batch.go)
	Report  *report.SweepReport // the last finished sweep
	RanSpec experiment.SweepSpec
	RanOn   string     // the scenario it ran on (its name)
	ran     *runOrigin // the scenario it ran on (provenance.go)
	ranLink string     // the share link of that scenario and sweep
}

// sw returns the sweep state, creating it on first use.
func (a *App) sw() *SweepState {
	if a.SW == nil {
		a.SW = &SweepState{Runs: 3, Stat: "amean", Key1: "kernel.hz", Vals1: "250,1000"}
	}
	return a.SW
}

// splitList splits a comma-separated list, trimming blanks.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// formAxis reads a values field as -sweep does (experiment.ParseSweepAxis:
// comma-separated, a quoted value may hold commas, e.g. "0-3,8","0-7").
func formAxis(key, vals string) (experiment.SweepAxis, error) {
	if strings.Trim(vals, " \t,") == "" {
		return experiment.SweepAxis{}, fmt.Errorf("%s: want values separated by commas, e.g. 250,1000", key)
	}
	return experiment.ParseSweepAxis(key + "=" + vals)
}

// Spec builds the sweep from the form, checking its shape (the values
// themselves are checked when the sweep is planned, with the scenario);
// a bad field sets FormErr and FormField.
func (s *SweepState) Spec() (experiment.SweepSpec, bool) {
	s.FormErr, s.FormField = "", ""
	fail := func(field, msg string) (experiment.SweepSpec, bool) {
		s.FormErr, s.FormField = msg, field
		return experiment.SweepSpec{}, false
	}
	spec := experiment.SweepSpec{Runs: s.Runs, Metrics: splitList(s.Metrics), Stat: s.Stat}
	for i, kv := range [][2]string{{s.Key1, s.Vals1}, {s.Key2, s.Vals2}} {
		key := strings.TrimSpace(kv[0])
		n := strconv.Itoa(i + 1)
		if key == "" && i == 1 {
			continue
		}
		if key == "" || strings.ContainsAny(key, "= ,") {
			return fail("key"+n, "key "+n+": want a scenario key such as kernel.hz (schedplay keys)")
		}
		ax, err := formAxis(key, kv[1])
		if err != nil {
			return fail("vals"+n, err.Error())
		}
		spec.Axes = append(spec.Axes, ax.String())
	}
	if _, err := spec.Check(); err != nil {
		field := "vals1"
		if strings.HasPrefix(err.Error(), "runs") {
			field = "runs"
		} else if strings.Contains(err.Error(), "given twice") {
			field = "key2"
		}
		return fail(field, err.Error())
	}
	return spec, true
}

// load fills the form from a spec (a shared link) and opens the panel.
func (s *SweepState) load(spec experiment.SweepSpec) {
	s.Open, s.Key2, s.Vals2 = true, "", ""
	for i, a := range spec.Axes {
		k, v, _ := strings.Cut(a, "=")
		if i == 0 {
			s.Key1, s.Vals1 = k, v
		} else {
			s.Key2, s.Vals2 = k, v
		}
	}
	s.Runs, s.Metrics, s.Stat = spec.Runs, strings.Join(spec.Metrics, ","), string(spec.Center())
}

// shareParam is the `&sweep=` part of the share URL ("" when the panel is
// closed or its form is incomplete).
func (s *SweepState) shareParam() string {
	if s == nil || !s.Open {
		return ""
	}
	spec, ok := s.Spec()
	if !ok {
		return ""
	}
	return "&sweep=" + spec.EncodeFragment()
}

// KeyChoice is one key the panel suggests, with its type and meaning.
type KeyChoice struct{ Key, Help string }

// sweepKeys lists the keys of `schedplay keys` (minus its NAME templates)
// followed by this scenario's tasks.NAME.instances and
// workloads.NAME.PARAM.
func sweepKeys(sc *scenario.Scenario) []KeyChoice {
	var out []KeyChoice
	for _, line := range scenario.Keys() {
		f := strings.SplitN(line, "\t", 3)
		if len(f) < 3 || strings.Contains(f[0], "NAME") {
			continue
		}
		out = append(out, KeyChoice{f[0], f[1] + ": " + f[2]})
	}
	for _, t := range sc.Tasks {
		out = append(out, KeyChoice{"tasks." + t.Name + ".instances", "integer: copies of task group " + t.Name})
	}
	kinds := scenario.WorkloadKinds()
	for _, w := range sc.Workloads {
		for _, k := range kinds {
			if k.Kind != w.Kind {
				continue
			}
			for _, p := range k.Params {
				out = append(out, KeyChoice{"workloads." + w.Name + "." + p.Name, string(p.Type) + " " + p.Range() + ": " + p.Help})
			}
		}
	}
	return out
}

// keyHelp is the meaning of a key for the line under its field.
func keyHelp(sc *scenario.Scenario, key string) string {
	key = strings.TrimSpace(key)
	if key == "" {
		return ""
	}
	for _, k := range sweepKeys(sc) {
		if k.Key == key {
			return k.Help
		}
	}
	return "not a listed key: it is checked when the sweep starts"
}

// loadSweepParam opens the sweep panel with a shared link's sweep (the
// `sweep=` fragment parameter); a damaged one is reported, not run.
func (a *App) loadSweepParam(p string) {
	if p == "" {
		return
	}
	spec, err := experiment.DecodeSweepFragment(p)
	if err != nil {
		a.sw().Open, a.sw().Err = true, "The link's sweep could not be opened: "+err.Error()
		return
	}
	a.sw().load(spec)
}
