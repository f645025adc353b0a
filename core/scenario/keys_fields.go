package scenario

// The field types of the key table's scalar rows (keys.go): how a value
// of each type is read from JSON and from -set text, whether it is given,
// and how it is written. A row's field func returns a pointer; fieldOf
// wraps it. A new type of key is one type here and one case in fieldOf.

import (
	"encoding/json"
	"math"
	"strconv"
)

// field is one scalar key's value, bound to its place in a Scenario.
type field interface {
	decode(path string, v any) error // a JSON value
	parse(path, s string) error      // -set text
	given() bool                     // false: left out of the encoding (the default applies)
	text() string                    // as -set takes it
	writeJSON(w *jw)
	zero()
}

func fieldOf(p any) field {
	switch p := p.(type) {
	case *string:
		return strField{p}
	case *int:
		return intField{p}
	case *uint64:
		return uintField{p}
	case *bool:
		return boolField{p}
	case *Duration:
		return durField{p}
	case **Duration:
		return optDurField{p}
	case **bool:
		return onOffField{p}
	}
	panic("scenario: key table: unsupported field type") // a bug in the table
}

type strField struct{ p *string }

func (f strField) decode(path string, v any) error {
	s, ok := v.(string)
	if !ok {
		return errAt(path, "want a string")
	}
	*f.p = s
	return nil
}
func (f strField) parse(_, s string) error { *f.p = s; return nil }
func (f strField) given() bool             { return *f.p != "" }
func (f strField) text() string            { return *f.p }
func (f strField) writeJSON(w *jw)         { w.str(*f.p) }
func (f strField) zero()                   { *f.p = "" }

type intField struct{ p *int }

func (f intField) decode(path string, v any) error {
	n, err := asInt(path, v)
	*f.p = n
	return err
}
func (f intField) parse(path, s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errAt(path, "%q: want an integer", s)
	}
	*f.p = n
	return nil
}
func (f intField) given() bool     { return *f.p != 0 }
func (f intField) text() string    { return strconv.Itoa(*f.p) }
func (f intField) writeJSON(w *jw) { w.b.WriteString(f.text()) }
func (f intField) zero()           { *f.p = 0 }

// uintRange is what a seed may be.
var uintRange = "a non-negative integer up to " + strconv.FormatUint(math.MaxUint64, 10)

type uintField struct{ p *uint64 }

func (f uintField) decode(path string, v any) error {
	n, ok := v.(json.Number)
	u, err := strconv.ParseUint(string(n), 10, 64)
	if !ok || err != nil {
		return errAt(path, "want an integer: %s", uintRange)
	}
	*f.p = u
	return nil
}
func (f uintField) parse(path, s string) error {
	u, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return errAt(path, "%q: want %s", s, uintRange)
	}
	*f.p = u
	return nil
}
func (f uintField) given() bool     { return *f.p != 0 }
func (f uintField) text() string    { return strconv.FormatUint(*f.p, 10) }
func (f uintField) writeJSON(w *jw) { w.b.WriteString(f.text()) }
func (f uintField) zero()           { *f.p = 0 }

type boolField struct{ p *bool }

func (f boolField) decode(path string, v any) error {
	b, ok := v.(bool)
	if !ok {
		return errAt(path, "want true or false")
	}
	*f.p = b
	return nil
}
func (f boolField) parse(path, s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return errAt(path, "%q: want true or false", s)
	}
	*f.p = b
	return nil
}
func (f boolField) given() bool     { return *f.p }
func (f boolField) text() string    { return strconv.FormatBool(*f.p) }
func (f boolField) writeJSON(w *jw) { w.b.WriteString(f.text()) }
func (f boolField) zero()           { *f.p = false }

type durField struct{ p *Duration }

func (f durField) decode(path string, v any) error {
	d, err := asDuration(path, v)
	*f.p = d
	return err
}
func (f durField) parse(path, s string) error {
	d, err := ParseDuration(path, s)
	if err != nil {
		return err
	}
	*f.p = d
	return nil
}
func (f durField) given() bool     { return *f.p != 0 }
func (f durField) text() string    { return FormatDuration(*f.p) }
func (f durField) writeJSON(w *jw) { w.str(f.text()) }
func (f durField) zero()           { *f.p = 0 }

// optDurField is a duration whose absence (nil) has a meaning of its own
// (kernel.tick_offset: drawn from the seed).
type optDurField struct{ p **Duration }

func (f optDurField) decode(path string, v any) error {
	d, err := asDuration(path, v)
	if err != nil {
		return err
	}
	*f.p = &d
	return nil
}
func (f optDurField) parse(path, s string) error {
	d, err := ParseDuration(path, s)
	if err != nil {
		return err
	}
	*f.p = &d
	return nil
}
func (f optDurField) given() bool     { return *f.p != nil }
func (f optDurField) text() string    { return FormatDuration(**f.p) }
func (f optDurField) writeJSON(w *jw) { w.str(f.text()) }
func (f optDurField) zero()           { *f.p = nil }

// onOffField is an on|off switch whose absence (nil) means the profile's
// or machine's default; written "on"/"off" as the features are.
type onOffField struct{ p **bool }

func (f onOffField) decode(path string, v any) error {
	on, err := asOnOff(path, v)
	if err != nil {
		return err
	}
	*f.p = &on
	return nil
}
func (f onOffField) parse(path, s string) error { return f.decode(path, s) }
func (f onOffField) given() bool                { return *f.p != nil }
func (f onOffField) text() string               { return onOffText(**f.p) }
func (f onOffField) writeJSON(w *jw)            { w.str(f.text()) }
func (f onOffField) zero()                      { *f.p = nil }
