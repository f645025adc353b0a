package experiment

// SweepSpec: a sweep as the playground keeps it and shares it: the axes,
// metrics, runs and centre that `schedplay sweep` takes as flags. In a
// share URL it is a fragment parameter beside the scenario,
// `#s=<scenario payload>&sweep=<spec>`, where spec is base64url (no
// padding) of the JSON
//
//	{"v":1,"sweep":["KEY=v1,v2",...],"runs":3,"metric":["completion"],"stat":"amean"}
//
// Scenario URLs without the parameter are unchanged, and pages that do not
// know it ignore it (scenario.DecodeURL reads only s=). Decoding is
// bounded and every field is checked, so a hostile URL gets an error
// naming the field, never a panic or an unbounded sweep.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"schedplay/core/quote"
)

// SweepSpec is a sweep's parameters.
type SweepSpec struct {
	Axes    []string `json:"sweep"` // KEY=v1,v2,... (one or two)
	Runs    int      `json:"runs"`
	Metrics []string `json:"metric,omitempty"` // empty: the default set
	Stat    string   `json:"stat,omitempty"`   // amean (default) or median
}

// Bounds of a sweep spec, which comes from a link (the CLI's flags have
// none but -runs 1..10000).
const (
	MaxSweepPoints   = 400
	MaxSweepRuns     = 100
	maxSweepSpecLen  = 8 << 10
	maxSweepMetrics  = 32
	sweepSpecVersion = 1
)

// Check validates the spec and returns its parsed axes.
func (s SweepSpec) Check() ([]SweepAxis, error) {
	var axes []SweepAxis
	for _, a := range s.Axes {
		ax, err := ParseSweepAxis(a)
		if err != nil {
			return nil, err
		}
		axes = append(axes, ax)
	}
	if err := CheckSweepAxes(axes); err != nil {
		return nil, err
	}
	n := 1
	for _, ax := range axes {
		n *= len(ax.Values)
	}
	if n > MaxSweepPoints {
		return nil, fmt.Errorf("-sweep: %d points; the limit is %d", n, MaxSweepPoints)
	}
	if s.Runs < 1 || s.Runs > MaxSweepRuns {
		return nil, fmt.Errorf("runs %d: want 1..%d", s.Runs, MaxSweepRuns)
	}
	if len(s.Metrics) > maxSweepMetrics {
		return nil, fmt.Errorf("metric: %d metrics; the limit is %d", len(s.Metrics), maxSweepMetrics)
	}
	if s.Stat != "" && s.Stat != string(CenterMean) && s.Stat != string(CenterMedian) {
		return nil, quote.Errorf("stat %q: want amean or median", s.Stat)
	}
	return axes, nil
}

// Center is the spec's centre (amean by default).
func (s SweepSpec) Center() Center {
	if s.Stat == string(CenterMedian) {
		return CenterMedian
	}
	return CenterMean
}

// EncodeFragment returns the value of the `sweep=` fragment parameter.
func (s SweepSpec) EncodeFragment() string {
	b, _ := json.Marshal(struct {
		V int `json:"v"`
		SweepSpec
	}{sweepSpecVersion, s})
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeSweepFragment reads a `sweep=` fragment parameter and checks it.
func DecodeSweepFragment(p string) (SweepSpec, error) {
	var s SweepSpec
	if len(p) > maxSweepSpecLen {
		return s, fmt.Errorf("sweep: %d characters; the limit is %d", len(p), maxSweepSpecLen)
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(p, "="))
	if err != nil {
		return s, fmt.Errorf("sweep: not base64url: %v", err)
	}
	var doc struct {
		V int `json:"v"`
		SweepSpec
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return s, fmt.Errorf("sweep: %v", quote.Bound(err))
	}
	if doc.V != sweepSpecVersion {
		return s, fmt.Errorf("sweep: version %d: want %d", doc.V, sweepSpecVersion)
	}
	if _, err := doc.SweepSpec.Check(); err != nil {
		return s, fmt.Errorf("sweep: %v", err)
	}
	return doc.SweepSpec, nil
}

// SweepFragmentParam finds the `sweep=` parameter in a URL or "#..."
// fragment ("" if there is none).
func SweepFragmentParam(u string) string {
	frag := u
	if i := strings.IndexByte(u, '#'); i >= 0 {
		frag = u[i+1:]
	}
	for _, part := range strings.Split(frag, "&") {
		if p, ok := strings.CutPrefix(part, "sweep="); ok {
			return p
		}
	}
	return ""
}
