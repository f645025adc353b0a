package scenario

import (
	"strings"
	"testing"
)

// exp returns a document with the experiment block body (without braces).
func exp(body string) string {
	return doc(`"experiment":{`+body+`},`, hog)
}

const expOK = `"thread":"T","kind":"emergent","configs":[{"name":"a","set":["features.SM_IDLE=off"]},{"name":"b"}],"metrics":["switches"]`

func TestExperimentDecodeErrors(t *testing.T) {
	tests := []struct{ name, in, path, msg string }{
		{"not object", doc(`"experiment":[],`, hog), "experiment", "want a JSON object"},
		{"unknown key", exp(expOK + `,"bogus":1`), "experiment.bogus", "unknown key"},
		{"no thread", exp(`"kind":"emergent","configs":[{"name":"a"},{"name":"b"}],"metrics":["x"]`), "experiment.thread", "subject line"},
		{"bad kind", exp(strings.Replace(expOK, `"emergent"`, `"guess"`, 1)), "experiment.kind", `want "calibration" or "emergent"`},
		{"no configs", exp(`"thread":"T","kind":"emergent","metrics":["x"]`), "experiment.configs", "missing"},
		{"one config", exp(`"thread":"T","kind":"emergent","configs":[{"name":"a"}],"metrics":["x"]`), "experiment.configs", "want 2..8"},
		{"dup config", exp(`"thread":"T","kind":"emergent","configs":[{"name":"a"},{"name":"a"}],"metrics":["x"]`), "experiment.configs[1].name", "used twice"},
		{"unnamed config", exp(`"thread":"T","kind":"emergent","configs":[{"name":"a"},{"set":[]}],"metrics":["x"]`), "experiment.configs[1].name", "1..64"},
		{"bad set key", exp(`"thread":"T","kind":"emergent","configs":[{"name":"a","set":["features.NOPE=on"]},{"name":"b"}],"metrics":["x"]`), "experiment.configs[0].set[0]", "NOPE"},
		{"set not strings", exp(`"thread":"T","kind":"emergent","configs":[{"name":"a","set":[1]},{"name":"b"}],"metrics":["x"]`), "experiment.configs[0].set[0]", "want a string"},
		{"bad variant", exp(expOK + `,"variants":[{"name":"v","set":["topology=nowhere"]}]`), "experiment.variants[0]", "nowhere"},
		{"no metrics", exp(`"thread":"T","kind":"emergent","configs":[{"name":"a"},{"name":"b"}],"metrics":[]`), "experiment.metrics", "want 1..128"},
		{"runs 0", exp(expOK + `,"runs":0`), "experiment.runs", "want 1..100"},
		{"normalize string", exp(expOK + `,"normalize":"yes"`), "experiment.normalize", "true, false, or a list"},
		{"normalize empty list", exp(expOK + `,"normalize":[]`), "experiment.normalize", "an empty list"},
		{"normalize other metric", exp(expOK + `,"normalize":["busy"]`), "experiment.normalize[0]", "want one of experiment.metrics"},
		{"ref config", exp(expOK + `,"reference":[{"config":"c","metric":"switches","value":1,"tolerance":1}]`), "experiment.reference[0].config", "want one of the configurations (a, b)"},
		{"ref metric", exp(expOK + `,"reference":[{"config":"a","metric":"busy","value":1,"tolerance":1}]`), "experiment.reference[0].metric", "experiment.metrics"},
		{"ref variant without variants", exp(expOK + `,"reference":[{"variant":"v","config":"a","metric":"switches","value":1,"tolerance":1}]`), "experiment.reference[0].variant", "no variants"},
		{"ref both tolerances", exp(expOK + `,"reference":[{"config":"a","metric":"switches","value":1,"tolerance":1,"tolerance_pct":5}]`), "experiment.reference[0]", "exactly one of"},
		{"ref no tolerance", exp(expOK + `,"reference":[{"config":"a","metric":"switches","value":1}]`), "experiment.reference[0]", "exactly one of"},
		{"ref no value", exp(expOK + `,"reference":[{"config":"a","metric":"switches","tolerance":1}]`), "experiment.reference[0].value", "missing"},
		{"ref huge", exp(expOK + `,"reference":[{"config":"a","metric":"switches","value":1e300,"tolerance":1}]`), "experiment.reference[0].value", "at most 1e15"},
	}
	for _, tc := range tests {
		_, err := Decode([]byte(tc.in))
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		e := asError(t, tc.name, err)
		if e.Path != tc.path || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%s: got %q at %q, want %q at %q", tc.name, e.Msg, e.Path, tc.msg, tc.path)
		}
	}
}

func TestExperimentRoundTrip(t *testing.T) {
	in := exp(expOK + `,"date":"2020-08","explain":"why","normalize":true,"runs":3,` +
		`"variants":[{"name":"v1","set":["topology=smp-2"]},{"name":"v2","set":["topology=smp-4"]}],` +
		`"reference":[{"variant":"v2","config":"b","metric":"switches","value":0.8,"tolerance":0.03,"note":"n"},` +
		`{"variant":"v1","config":"a","metric":"switches","value":500,"tolerance_pct":30}]`)
	sc, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, sc)
	e := sc.Experiment
	if e.EffectiveRuns() != 3 || len(e.VariantList()) != 2 || !e.Normalize {
		t.Errorf("decoded %+v", e)
	}
	r := e.Reference[1]
	for _, c := range []struct {
		got  float64
		want bool
	}{{350, true}, {650, true}, {349, false}, {651, false}} {
		if r.Check(c.got) != c.want {
			t.Errorf("%g within 500 ±30%%: got %v", c.got, !c.want)
		}
	}
	if r.ToleranceText() != "±30%" || e.Reference[0].ToleranceText() != "±0.03" {
		t.Errorf("tolerance texts %q %q", r.ToleranceText(), e.Reference[0].ToleranceText())
	}
}

// TestSeedPresetsHaveExperiments: every seed/ preset carries an
// experiment block with reference numbers (the thread's), and round-trips.
func TestSeedPresetsHaveExperiments(t *testing.T) {
	n := 0
	for _, p := range Presets() {
		if !strings.HasPrefix(p.Name, "seed/") {
			continue
		}
		n++
		sc := mustPreset(t, p.Name)
		if sc.Experiment == nil || len(sc.Experiment.Reference) == 0 {
			t.Errorf("%s: no experiment block with the thread's numbers", p.Name)
			continue
		}
		roundTrip(t, sc)
	}
	if n == 0 {
		t.Error("no seed/ presets")
	}
}

func TestExperimentNormalizeList(t *testing.T) {
	sc, err := Decode([]byte(exp(`"thread":"T","kind":"emergent","configs":[{"name":"a"},{"name":"b"}],"metrics":["switches","busy"],"normalize":["switches"]`)))
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, sc)
	e := sc.Experiment
	if !e.Normalizes("switches") || e.Normalizes("busy") || e.NormalizedText() != "switches" {
		t.Errorf("normalize list: switches %v busy %v text %q", e.Normalizes("switches"), e.Normalizes("busy"), e.NormalizedText())
	}
	e.NormalizeOnly = nil
	if !e.Normalizes("busy") || e.NormalizedText() != "values" {
		t.Errorf("normalize true: busy %v text %q", e.Normalizes("busy"), e.NormalizedText())
	}
}
