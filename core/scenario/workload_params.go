package scenario

// Typed, bounded parameters of the workload generators: parsing from JSON
// and from `-set` text into one canonical text form, and reading them back
// during expansion.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ParamType is the type of a generator parameter.
type ParamType string

// Parameter types.
const (
	PInt      ParamType = "integer"
	PDuration ParamType = "duration"
	PBool     ParamType = "bool"
	PEnum     ParamType = "string"
)

// Param describes one generator parameter.
type Param struct {
	Name    string
	Type    ParamType
	Default string // canonical text; "" when it is derived (Help says how)
	Min     int64  // PInt: value; PDuration: ns
	Max     int64
	Enum    []string // PEnum: the values
	Help    string
}

// Range renders the accepted values for help text and errors.
func (p Param) Range() string {
	switch p.Type {
	case PInt:
		return fmt.Sprintf("%d..%d", p.Min, p.Max)
	case PDuration:
		return FormatDuration(Duration(p.Min)) + ".." + FormatDuration(Duration(p.Max))
	case PBool:
		return "true|false"
	}
	return strings.Join(p.Enum, "|")
}

// fromJSON checks a JSON value and returns its canonical text.
func (p Param) fromJSON(path string, v any) (string, error) {
	switch p.Type {
	case PInt:
		n, ok := v.(json.Number)
		if !ok {
			return "", errAt(path, "want an integer %s", p.Range())
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil {
			return "", errAt(path, "want an integer %s, got %s", p.Range(), n)
		}
		return p.intText(path, i)
	case PDuration:
		d, err := asDuration(path, v)
		if err != nil {
			return "", err
		}
		return p.durText(path, d)
	case PBool:
		b, ok := v.(bool)
		if !ok {
			return "", errAt(path, "want true or false")
		}
		return strconv.FormatBool(b), nil
	}
	s, ok := v.(string)
	if !ok {
		return "", errAt(path, "want one of %s", p.Range())
	}
	return p.enumText(path, s)
}

// fromText parses `-set` text and returns its canonical text.
func (p Param) fromText(path, s string) (string, error) {
	switch p.Type {
	case PInt:
		i, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return "", errAt(path, "%q: want an integer %s", s, p.Range())
		}
		return p.intText(path, i)
	case PDuration:
		d, err := ParseDuration(path, s)
		if err != nil {
			return "", err
		}
		return p.durText(path, d)
	case PBool:
		switch s {
		case "true", "on", "1":
			return "true", nil
		case "false", "off", "0":
			return "false", nil
		}
		return "", errAt(path, "%q: want true or false", s)
	}
	return p.enumText(path, s)
}

func (p Param) intText(path string, i int64) (string, error) {
	if i < p.Min || i > p.Max {
		return "", errAt(path, "%d: want %s", i, p.Range())
	}
	return strconv.FormatInt(i, 10), nil
}

func (p Param) durText(path string, d Duration) (string, error) {
	if int64(d) < p.Min || int64(d) > p.Max {
		return "", errAt(path, "%s: want %s", FormatDuration(d), p.Range())
	}
	return FormatDuration(d), nil
}

func (p Param) enumText(path, s string) (string, error) {
	for _, e := range p.Enum {
		if s == e {
			return s, nil
		}
	}
	return "", errAt(path, "%q: want one of %s", s, p.Range())
}

// encodeJSON writes canonical text t as the parameter's JSON value.
func (p Param) encodeJSON(w *jw, t string) {
	switch p.Type {
	case PInt, PBool:
		w.b.WriteString(t)
	default:
		w.str(t)
	}
}

func (g *generator) param(name string) (Param, bool) {
	for _, p := range g.params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

func (g *generator) paramNames() string {
	names := []string{"kind", "name", "taskgroup"}
	for _, p := range g.params {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}

// check re-validates every parameter of the workload (a Workload built in
// code, by the UI or by Set, gets the same checks as a decoded one).
func (x *expander) check() error {
	for _, name := range sortedStringKeys(x.w.Params) {
		p, ok := x.gen.param(name)
		if !ok {
			return errAt(x.path+"."+name, "unknown parameter of %s (known: %s)", x.gen.kind, x.gen.paramNames())
		}
		if _, err := p.fromText(x.path+"."+name, x.w.Params[name]); err != nil {
			return err
		}
	}
	return nil
}

// text is the canonical text of a parameter: given, or its default.
func (x *expander) text(name string) string {
	if t, ok := x.w.Params[name]; ok {
		return t
	}
	p, ok := x.gen.param(name)
	if !ok {
		panic("workload " + x.gen.kind + ": no parameter " + name) // a bug in a generator
	}
	return p.Default
}

// given reports whether the workload sets the parameter.
func (x *expander) given(name string) bool {
	_, ok := x.w.Params[name]
	return ok
}

func (x *expander) int(name string) int {
	i, _ := strconv.ParseInt(x.text(name), 10, 64)
	return int(i)
}

func (x *expander) dur(name string) Duration {
	d, _ := ParseDuration("", x.text(name))
	return d
}

func (x *expander) bool(name string) bool { return x.text(name) == "true" }

func (x *expander) str(name string) string { return x.text(name) }

// WorkloadKind documents one generator for `schedplay workloads`.
type WorkloadKind struct {
	Kind, Models string
	Params       []Param
}

// WorkloadKinds lists the generators with their parameters.
func WorkloadKinds() []WorkloadKind {
	var out []WorkloadKind
	for _, g := range generators {
		out = append(out, WorkloadKind{Kind: g.kind, Models: g.models, Params: append([]Param(nil), g.params...)})
	}
	return out
}
