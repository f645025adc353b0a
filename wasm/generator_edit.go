package main

// Edits of the generator forms (generator-form.go), as pure functions of
// the scenario so they are tested on the host: a field's text is checked
// by the generator's parameter table (Param.Check, what the decoder and
// -set use) before it is stored, in its canonical text; a rejected text
// leaves the scenario unchanged and comes back as the field's error.

import (
	"fmt"
	"strings"

	"schedplay/core/scenario"
)

// applyParam sets parameter param of workload i from a field's text
// (trimmed; "" = the default): checked by Param.Check, stored in its
// canonical text. A rejected text leaves sc unchanged and is returned as
// the field's error; changed reports whether sc was edited.
func applyParam(sc *scenario.Scenario, i int, param, text string) (ferr *genFieldErr, changed bool) {
	if i < 0 || i >= len(sc.Workloads) {
		return nil, false
	}
	w := sc.Workloads[i]
	text = strings.TrimSpace(text)
	params := map[string]string{}
	for k, v := range w.Params {
		params[k] = v
	}
	if text == "" {
		delete(params, param)
	} else {
		p, ok := paramOf(w.Kind, param)
		if !ok {
			return nil, false
		}
		canon, err := p.Check(fmt.Sprintf("workloads[%d].%s", i, param), text)
		if err != nil {
			return &genFieldErr{Index: i, Field: param, Text: text, Msg: asPathError(err).Msg}, false
		}
		params[param] = canon
	}
	ws := append([]scenario.Workload(nil), sc.Workloads...) // the slice may be shared with a clone
	ws[i].Params = params
	sc.Workloads = ws
	return nil, true
}

// applyName renames workload i (checked by scenario.CheckWorkloadName).
func applyName(sc *scenario.Scenario, i int, text string) (ferr *genFieldErr, changed bool) {
	if i < 0 || i >= len(sc.Workloads) {
		return nil, false
	}
	text = strings.TrimSpace(text)
	if err := scenario.CheckWorkloadName(sc, i, text); err != nil {
		return &genFieldErr{Index: i, Field: "name", Text: text, Msg: asPathError(err).Msg}, false
	}
	ws := append([]scenario.Workload(nil), sc.Workloads...)
	ws[i].Name = text
	sc.Workloads = ws
	return nil, true
}

// paramOf finds a generator's parameter in the shared table.
func paramOf(kind, name string) (scenario.Param, bool) {
	for _, k := range scenario.WorkloadKinds() {
		if k.Kind != kind {
			continue
		}
		for _, p := range k.Params {
			if p.Name == name {
				return p, true
			}
		}
	}
	return scenario.Param{}, false
}
