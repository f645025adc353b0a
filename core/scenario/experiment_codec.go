package scenario

// JSON form of the experiment block (docs/scenario-format.md
// "experiment"): strict decoding with paths, canonical encoding.

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

func decodeExperiment(v any) (*Experiment, error) {
	const p = "experiment"
	m, err := asObject(p, v)
	if err != nil {
		return nil, err
	}
	if err := onlyKeys(p, m, "thread", "date", "kind", "explain", "configs", "variants", "metrics", "normalize", "runs", "reference"); err != nil {
		return nil, err
	}
	e := &Experiment{}
	for _, f := range []struct {
		key string
		dst *string
	}{{"thread", &e.Thread}, {"date", &e.Date}, {"kind", &e.Kind}, {"explain", &e.Explain}} {
		if err := optString(m, f.key, p+".", f.dst); err != nil {
			return nil, err
		}
	}
	if e.Configs, err = decodeExpConfigs(p+".configs", m["configs"], true); err != nil {
		return nil, err
	}
	if e.Variants, err = decodeExpConfigs(p+".variants", m["variants"], false); err != nil {
		return nil, err
	}
	if mv, ok := m["metrics"]; ok {
		if e.Metrics, err = asStrings(p+".metrics", mv, MaxExpMetrics); err != nil {
			return nil, err
		}
	}
	if nv, ok := m["normalize"]; ok {
		switch x := nv.(type) {
		case bool:
			e.Normalize = x
		case []any:
			if e.NormalizeOnly, err = asStrings(p+".normalize", x, MaxExpMetrics); err != nil {
				return nil, err
			}
			if len(e.NormalizeOnly) == 0 {
				return nil, errAt(p+".normalize", "an empty list: want true, false, or the metrics to normalise")
			}
			e.Normalize = true
		default:
			return nil, errAt(p+".normalize", "want true, false, or a list of the metrics to normalise")
		}
	}
	if rv, ok := m["runs"]; ok {
		if e.Runs, err = asInt(p+".runs", rv); err != nil {
			return nil, err
		}
		if e.Runs < 1 || e.Runs > MaxExpRuns {
			return nil, errAt(p+".runs", "%d: want 1..%d", e.Runs, MaxExpRuns)
		}
	}
	if rv, ok := m["reference"]; ok {
		arr, ok := rv.([]any)
		if !ok {
			return nil, errAt(p+".reference", "want an array of published numbers")
		}
		if len(arr) > MaxExpRefs {
			return nil, errAt(p+".reference", "%d entries: want at most %d", len(arr), MaxExpRefs)
		}
		for i, x := range arr {
			r, err := decodeExpRef(fmt.Sprintf("%s.reference[%d]", p, i), x)
			if err != nil {
				return nil, err
			}
			e.Reference = append(e.Reference, r)
		}
	}
	return e, nil
}

func decodeExpConfigs(path string, v any, required bool) ([]ExpConfig, error) {
	if v == nil {
		if required {
			return nil, errAt(path, "missing; want an array of {\"name\", \"set\"} (the first is the baseline)")
		}
		return nil, nil
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, errAt(path, "want an array of {\"name\", \"set\"}")
	}
	if len(arr) > MaxExpConfigs {
		return nil, errAt(path, "%d entries: want at most %d", len(arr), MaxExpConfigs)
	}
	var out []ExpConfig
	for i, x := range arr {
		cp := fmt.Sprintf("%s[%d]", path, i)
		m, err := asObject(cp, x)
		if err != nil {
			return nil, err
		}
		if err := onlyKeys(cp, m, "name", "set"); err != nil {
			return nil, err
		}
		var c ExpConfig
		if err := optString(m, "name", cp+".", &c.Name); err != nil {
			return nil, err
		}
		if sv, ok := m["set"]; ok {
			if c.Set, err = asStrings(cp+".set", sv, 32); err != nil {
				return nil, err
			}
		}
		out = append(out, c)
	}
	return out, nil
}

func decodeExpRef(path string, v any) (ExpRef, error) {
	var r ExpRef
	m, err := asObject(path, v)
	if err != nil {
		return r, err
	}
	if err := onlyKeys(path, m, "variant", "config", "metric", "value", "tolerance", "tolerance_pct", "note", "depends"); err != nil {
		return r, err
	}
	if dv, ok := m["depends"]; ok {
		if r.Depends, err = asStrings(path+".depends", dv, 8); err != nil {
			return r, err
		}
	}
	for _, f := range []struct {
		key string
		dst *string
	}{{"variant", &r.Variant}, {"config", &r.Config}, {"metric", &r.Metric}, {"note", &r.Note}} {
		if err := optString(m, f.key, path+".", f.dst); err != nil {
			return r, err
		}
	}
	for _, f := range []struct {
		key string
		dst *float64
		req bool
	}{{"value", &r.Value, true}, {"tolerance", &r.Tol, false}, {"tolerance_pct", &r.TolPct, false}} {
		x, ok := m[f.key]
		if !ok {
			if f.req {
				return r, errAt(path+"."+f.key, "missing; want a number")
			}
			continue
		}
		if *f.dst, err = asFloat(path+"."+f.key, x); err != nil {
			return r, err
		}
	}
	return r, nil
}

func asFloat(path string, v any) (float64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, errAt(path, "want a number")
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || math.Abs(f) > 1e15 {
		return 0, errAt(path, "%s: want a finite number of magnitude at most 1e15", n)
	}
	return f, nil
}

func asStrings(path string, v any, limit int) ([]string, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, errAt(path, "want an array of strings")
	}
	if len(arr) > limit {
		return nil, errAt(path, "%d entries: want at most %d", len(arr), limit)
	}
	var out []string
	for i, x := range arr {
		s, ok := x.(string)
		if !ok {
			return nil, errAt(fmt.Sprintf("%s[%d]", path, i), "want a string")
		}
		out = append(out, s)
	}
	return out, nil
}

func encodeExperiment(w *jw, e *Experiment) {
	f := true
	w.b.WriteByte('{')
	w.key("thread", &f)
	w.str(e.Thread)
	if e.Date != "" {
		w.key("date", &f)
		w.str(e.Date)
	}
	w.key("kind", &f)
	w.str(e.Kind)
	if e.Explain != "" {
		w.key("explain", &f)
		w.str(e.Explain)
	}
	w.key("configs", &f)
	encodeExpConfigs(w, e.Configs)
	if len(e.Variants) > 0 {
		w.key("variants", &f)
		encodeExpConfigs(w, e.Variants)
	}
	w.key("metrics", &f)
	encodeStrings(w, e.Metrics)
	if e.Normalize {
		w.key("normalize", &f)
		if len(e.NormalizeOnly) > 0 {
			encodeStrings(w, e.NormalizeOnly)
		} else {
			w.b.WriteString("true")
		}
	}
	if e.Runs != 0 {
		w.key("runs", &f)
		w.b.WriteString(strconv.Itoa(e.Runs))
	}
	if len(e.Reference) > 0 {
		w.key("reference", &f)
		w.b.WriteByte('[')
		for i, r := range e.Reference {
			if i > 0 {
				w.b.WriteByte(',')
			}
			rf := true
			w.b.WriteByte('{')
			if r.Variant != "" {
				w.key("variant", &rf)
				w.str(r.Variant)
			}
			w.key("config", &rf)
			w.str(r.Config)
			w.key("metric", &rf)
			w.str(r.Metric)
			w.key("value", &rf)
			w.b.WriteString(strconv.FormatFloat(r.Value, 'g', -1, 64))
			if r.Tol > 0 {
				w.key("tolerance", &rf)
				w.b.WriteString(strconv.FormatFloat(r.Tol, 'g', -1, 64))
			}
			if r.TolPct > 0 {
				w.key("tolerance_pct", &rf)
				w.b.WriteString(strconv.FormatFloat(r.TolPct, 'g', -1, 64))
			}
			if r.Note != "" {
				w.key("note", &rf)
				w.str(r.Note)
			}
			if len(r.Depends) > 0 {
				w.key("depends", &rf)
				encodeStrings(w, r.Depends)
			}
			w.b.WriteByte('}')
		}
		w.b.WriteByte(']')
	}
	w.b.WriteByte('}')
}

func encodeExpConfigs(w *jw, cs []ExpConfig) {
	w.b.WriteByte('[')
	for i, c := range cs {
		if i > 0 {
			w.b.WriteByte(',')
		}
		f := true
		w.b.WriteByte('{')
		w.key("name", &f)
		w.str(c.Name)
		if len(c.Set) > 0 {
			w.key("set", &f)
			encodeStrings(w, c.Set)
		}
		w.b.WriteByte('}')
	}
	w.b.WriteByte(']')
}

func encodeStrings(w *jw, ss []string) {
	w.b.WriteByte('[')
	for i, s := range ss {
		if i > 0 {
			w.b.WriteByte(',')
		}
		w.str(s)
	}
	w.b.WriteByte(']')
}
