package main

// The generator forms' view model on the host: fields generated from the
// parameter table, edits checked as the decoder checks them, errors at
// their field, the expansion preview, and the short workload form kept in
// the share URL.

import (
	"strings"
	"testing"

	"schedplay/core/scenario"
)

func hackbenchScenario(t *testing.T) *scenario.Scenario {
	sc, err := scenario.Preset("demo/hackbench") // hb: -p -g 4 -f 10 -l 200
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func TestGenFormsFromParamTable(t *testing.T) {
	sc := hackbenchScenario(t)
	forms := genForms(sc, nil, nil)
	if len(forms) != 1 || forms[0].Kind != "hackbench" || forms[0].Name != "hb" {
		t.Fatalf("forms %+v", forms)
	}
	f := forms[0]
	var kinds []scenario.WorkloadKind
	for _, k := range scenario.WorkloadKinds() {
		if k.Kind == "hackbench" {
			kinds = append(kinds, k)
		}
	}
	if len(f.Fields) != len(kinds[0].Params) {
		t.Fatalf("%d fields for %d parameters", len(f.Fields), len(kinds[0].Params))
	}
	byName := map[string]GenField{}
	for _, fd := range f.Fields {
		byName[fd.Param] = fd
	}
	if g := byName["groups"]; g.Input != "number" || g.Value != "4" || g.Min != "1" || g.Max != "1000" || g.Placeholder != "10" {
		t.Fatalf("groups field %+v", g)
	}
	if m := byName["mode"]; m.Input != "select" || strings.Join(m.Options, ",") != ",socket,pipe" || m.Value != "pipe" {
		t.Fatalf("mode field %+v", m)
	}
	if c := byName["cost"]; c.Input != "text" || c.Placeholder != "auto" || c.Value != "" {
		t.Fatalf("cost field %+v", c)
	}
	if f.Size != "expands to 44 task groups, 80 tasks" {
		t.Fatalf("size %q", f.Size)
	}
	// Every generator gets a form with one field per parameter.
	for _, k := range scenario.WorkloadKinds() {
		sc2 := hackbenchScenario(t)
		sc2.Workloads = []scenario.Workload{{Kind: k.Kind, Name: scenario.NewWorkloadName(sc2, k.Kind), Params: map[string]string{}}}
		fs := genForms(sc2, nil, nil)
		if len(fs) != 1 || len(fs[0].Fields) != len(k.Params) || !strings.HasPrefix(fs[0].Size, "expands to ") {
			t.Errorf("%s: form %+v", k.Kind, fs)
		}
	}
}

func TestApplyParam(t *testing.T) {
	sc := hackbenchScenario(t)
	if ferr, ch := applyParam(sc, 0, "groups", " 8 "); ferr != nil || !ch || sc.Workloads[0].Params["groups"] != "8" {
		t.Fatalf("groups=8: %+v %v %v", ferr, ch, sc.Workloads[0].Params)
	}
	if f := genForms(sc, nil, nil)[0]; f.Size != "expands to 88 task groups, 160 tasks" {
		t.Fatalf("size after groups=8: %q", f.Size)
	}
	// Durations are stored canonical.
	if ferr, _ := applyParam(sc, 0, "cost", "1500ns"); ferr != nil || sc.Workloads[0].Params["cost"] != "1.5us" {
		t.Fatalf("cost: %+v %q", ferr, sc.Workloads[0].Params["cost"])
	}
	// Rejected: the error at the field, the text kept, the scenario unchanged.
	ferr, ch := applyParam(sc, 0, "groups", "0")
	if ferr == nil || ch || ferr.Field != "groups" || ferr.Text != "0" || !strings.Contains(ferr.Msg, "want 1..1000") || sc.Workloads[0].Params["groups"] != "8" {
		t.Fatalf("groups=0: %+v %v %v", ferr, ch, sc.Workloads[0].Params)
	}
	f := genForms(sc, ferr, nil)[0]
	if f.Fields[0].Err == "" || f.Fields[0].Value != "0" || f.Fields[1].Err != "" {
		t.Fatalf("fields %+v", f.Fields[:2])
	}
	if ferr, _ := applyParam(sc, 0, "mode", "carrier-pigeon"); ferr == nil || !strings.Contains(ferr.Msg, "socket|pipe") {
		t.Fatalf("mode: %+v", ferr)
	}
	// Empty: back to the default, not written into the scenario.
	applyParam(sc, 0, "groups", "")
	if _, ok := sc.Workloads[0].Params["groups"]; ok {
		t.Fatal("an empty field should drop the parameter")
	}
	// The expansion limit: a valid field, an invalid expansion, shown at
	// the field the error names.
	applyParam(sc, 0, "groups", "1000")
	applyParam(sc, 0, "fds", "100")
	f = genForms(sc, nil, nil)[0]
	if f.Fields[0].Err == "" || !strings.Contains(f.Fields[0].Err, "limit") || f.Err != "" || !strings.Contains(f.Size, "does not expand") {
		t.Fatalf("over the limit: %+v", f)
	}
}

func TestApplyNameAndShortURL(t *testing.T) {
	sc := hackbenchScenario(t)
	sc.Workloads = append(sc.Workloads, scenario.Workload{Kind: "cyclictest", Name: scenario.NewWorkloadName(sc, "cyclictest"), Params: map[string]string{}})
	if ferr, _ := applyName(sc, 1, "hb"); ferr == nil || !strings.Contains(ferr.Msg, "used by another") {
		t.Fatalf("duplicate name: %+v", ferr)
	}
	if ferr, _ := applyName(sc, 1, "<b>x</b>"); ferr == nil || ferr.Field != "name" {
		t.Fatalf("bad name: %+v", ferr)
	}
	if ferr, _ := applyName(sc, 1, "ct"); ferr != nil || sc.Workloads[1].Name != "ct" {
		t.Fatalf("rename: %+v", ferr)
	}
	applyParam(sc, 1, "interval", "250us")
	enc := string(sc.Encode())
	if !strings.Contains(enc, `{"kind":"cyclictest","name":"ct","interval":"250us"}`) || strings.Contains(enc, "ct.t0") {
		t.Fatalf("encoding keeps the workload form:\n%s", enc)
	}
	back, err := scenario.DecodeURL("#s=" + scenario.EncodeURLPayload(sc))
	if err != nil || len(back.Workloads) != 2 || back.Workloads[1].Params["interval"] != "250us" {
		t.Fatalf("URL round trip: %v %+v", err, back)
	}
}
