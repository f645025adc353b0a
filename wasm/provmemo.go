package main

// compareMemo: scenario.Compare for a run's start. A run start compared
// the scenario with its preset twice (the "(modified)" list, remember.go,
// and the run's provenance, provenance.go), and one Compare decodes and
// validates three copies of the scenario: for a 144-CPU preset with an
// experiment block, the largest part of the main-thread task that opens
// it (docs/playground-perf.md, "Opening a 144-CPU preset"). The memo keeps
// the last comparison by the two scenarios' encodings, and two equal
// encodings need none: a scenario compared with an identical one is the
// bare provenance (no key differs, nothing else does).

import (
	"bytes"
	"slices"

	"schedplay/core/scenario"
)

type compareMemo struct {
	base, sc []byte // the encodings last compared
	p        scenario.Provenance
	name     string             // the preset decoded in preset
	preset   *scenario.Scenario // (not to be edited)
}

// compare is scenario.Compare(base, sc).
func (m *compareMemo) compare(base, sc *scenario.Scenario) scenario.Provenance {
	b, s := base.Encode(), sc.Encode()
	if bytes.Equal(b, s) {
		return scenario.Provenance{Preset: base.Name}
	}
	if !bytes.Equal(b, m.base) || !bytes.Equal(s, m.sc) {
		m.base, m.sc, m.p = b, s, scenario.Compare(base, sc)
	}
	p := m.p // a caller's append must not write into the memo's arrays
	p.Diff, p.Sets, p.Cleared = slices.Clip(p.Diff), slices.Clip(p.Sets), slices.Clip(p.Cleared)
	return p
}

// provenanceOf is scenario.ProvenanceOf(sc), the preset decoded once per
// name.
func (m *compareMemo) provenanceOf(sc *scenario.Scenario) scenario.Provenance {
	base := m.presetNamed(sc.Name)
	if base == nil {
		return scenario.Provenance{}
	}
	return m.compare(base, sc)
}

// presetNamed is scenario.Preset(name), decoded once per name (nil if
// there is none); the caller must not change it.
func (m *compareMemo) presetNamed(name string) *scenario.Scenario {
	if m.name != name || m.preset == nil {
		m.name, m.preset = name, nil
		if base, err := scenario.Preset(name); err == nil {
			m.preset = base
		}
	}
	return m.preset
}
