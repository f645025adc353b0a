package scenario

// The key table (keys.go) as a codec: the top level of the JSON document
// (decodeScenario, Encode), `-set KEY=VALUE` (docs/scenario-format.md,
// docs/cli.md) and clearing a key back to its default. A scalar row is
// read and written by the type of its field; a family by its own codec.

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// sectionOf splits "kernel.hz" into its JSON object and key ("kernel",
// "hz"); a top-level key has no section.
func sectionOf(name string) (section, key string) {
	if s, k, ok := strings.Cut(name, "."); ok {
		return s, k
	}
	return "", name
}

// topLevelKeys lists the JSON keys of the document, in order.
func topLevelKeys() []string {
	var out []string
	for _, k := range keyTable {
		s, key := sectionOf(k.name)
		if s != "" {
			key = s
		}
		if len(out) == 0 || out[len(out)-1] != key {
			out = append(out, key)
		}
	}
	return out
}

// sectionKeys lists the keys of JSON object section, in order.
func sectionKeys(section string) []string {
	var out []string
	for _, k := range keyTable {
		if s, key := sectionOf(k.name); s == section {
			out = append(out, key)
		}
	}
	return out
}

// decodeKeys reads every key of the table from the top-level object m.
func decodeKeys(m map[string]any, sc *Scenario) error {
	if err := onlyKeys("", m, topLevelKeys()...); err != nil {
		return err
	}
	var late []*keyDef
	decoded := map[string]bool{} // sections read
	for i := range keyTable {
		k := &keyTable[i]
		if k.fam != nil && k.fam.late {
			late = append(late, k)
			continue
		}
		section, key := sectionOf(k.name)
		if section == "" {
			if err := k.decodeFrom(sc, m, key, k.name); err != nil {
				return err
			}
			continue
		}
		if decoded[section] {
			continue
		}
		decoded[section] = true
		sv, ok := m[section]
		if !ok {
			continue
		}
		sm, err := asObject(section, sv)
		if err != nil {
			return err
		}
		if err := onlyKeys(section, sm, sectionKeys(section)...); err != nil {
			return err
		}
		for j := range keyTable {
			if s, key := sectionOf(keyTable[j].name); s == section {
				if err := keyTable[j].decodeFrom(sc, sm, key, keyTable[j].name); err != nil {
					return err
				}
			}
		}
	}
	for _, k := range late {
		if err := k.decodeFrom(sc, m, k.name, k.name); err != nil {
			return err
		}
	}
	return nil
}

// decodeFrom reads key of object m (at path) into sc, if present.
func (k *keyDef) decodeFrom(sc *Scenario, m map[string]any, key, path string) error {
	v, ok := m[key]
	if !ok {
		if k.required != "" {
			return errAt(path, "%s", k.required)
		}
		return nil
	}
	if k.fam != nil {
		return k.fam.decode(sc, v)
	}
	return k.decodeValue(sc, path, v)
}

// decodeValue reads a scalar row's JSON value by the type of its field.
func (k *keyDef) decodeValue(sc *Scenario, path string, v any) error {
	switch p := k.field(sc).(type) {
	case *string:
		s, ok := v.(string)
		if !ok {
			return errAt(path, "want a string")
		}
		if err := k.checkText(path, s); err != nil {
			return err
		}
		*p = s
	case *int:
		n, err := asInt(path, v)
		if err != nil {
			return err
		}
		if err := k.checkText(path, strconv.Itoa(n)); err != nil {
			return err
		}
		*p = n
	case *uint64:
		n, ok := v.(json.Number)
		u, err := strconv.ParseUint(string(n), 10, 64)
		if !ok || err != nil {
			return errAt(path, "want an integer: %s", uintRange)
		}
		*p = u
	case *bool:
		b, ok := v.(bool)
		if !ok {
			return errAt(path, "want true or false")
		}
		*p = b
	case *Duration:
		d, err := asDuration(path, v)
		if err != nil {
			return err
		}
		*p = d
	case **Duration:
		d, err := asDuration(path, v)
		if err != nil {
			return err
		}
		*p = &d
	default:
		panic("scenario: key " + k.name + ": unsupported field type") // a bug in the table
	}
	return nil
}

// uintRange is what a seed may be.
var uintRange = "a non-negative integer up to " + strconv.FormatUint(math.MaxUint64, 10)

// checkText applies the row's rule, naming path.
func (k *keyDef) checkText(path, text string) error {
	if k.check == nil {
		return nil
	}
	if err := k.check(text); err != nil {
		if e, ok := err.(*Error); ok {
			return errAt(path, "%s", e.Msg)
		}
		return errAt(path, "%v", err)
	}
	return nil
}

// encodeKeys writes every key of the table that has a value, in order,
// the keys of a section inside its object.
func encodeKeys(w *jw, sc *Scenario) {
	f := true
	var open string // the section being written
	var sf bool     // first key of the section
	closeSection := func() {
		if open != "" {
			w.b.WriteByte('}')
			open = ""
		}
	}
	for i := range keyTable {
		k := &keyTable[i]
		section, key := sectionOf(k.name)
		if section != open {
			closeSection()
		}
		if k.fam != nil {
			var tmp jw
			if k.fam.encode(&tmp, sc) {
				w.key(k.name, &f)
				w.b.Write(tmp.b.Bytes())
			}
			continue
		}
		if !k.given(sc) {
			continue
		}
		if section != "" {
			if open == "" {
				w.key(section, &f)
				w.b.WriteByte('{')
				open, sf = section, true
			}
			w.key(key, &sf)
		} else {
			w.key(key, &f)
		}
		k.encodeValue(w, sc)
	}
	closeSection()
}

// given reports whether a scalar row is written: always, or when its
// field is not zero.
func (k *keyDef) given(sc *Scenario) bool {
	if k.always {
		return true
	}
	switch p := k.field(sc).(type) {
	case *string:
		return *p != ""
	case *int:
		return *p != 0
	case *uint64:
		return *p != 0
	case *bool:
		return *p
	case *Duration:
		return *p != 0
	case **Duration:
		return *p != nil
	}
	return false
}

func (k *keyDef) encodeValue(w *jw, sc *Scenario) {
	switch p := k.field(sc).(type) {
	case *string:
		w.str(*p)
	case *int:
		w.b.WriteString(strconv.Itoa(*p))
	case *uint64:
		w.b.WriteString(strconv.FormatUint(*p, 10))
	case *bool:
		w.b.WriteString(strconv.FormatBool(*p))
	case *Duration:
		w.str(FormatDuration(*p))
	case **Duration:
		w.str(FormatDuration(**p))
	}
}

// Set applies one KEY=VALUE override: a key of the table, or a member of
// one of its families.
func (sc *Scenario) Set(kv string) error {
	key, val, ok := strings.Cut(kv, "=")
	if !ok || key == "" {
		return errAt("", "-set %q: want KEY=VALUE", kv)
	}
	if k := rowByName(key); k != nil && !k.noSet {
		return k.setText(sc, key, val)
	}
	section, rest, _ := strings.Cut(key, ".")
	if k := familyByName(section); k != nil && k.fam.set != nil && rest != "" {
		return k.fam.set(sc, key, rest, val)
	}
	return errUnknownKey(key)
}

func errUnknownKey(key string) error {
	return errAt(key, "unknown key (see `schedplay keys`)")
}

// setText parses -set text by the type of the row's field.
func (k *keyDef) setText(sc *Scenario, key, val string) error {
	if err := k.checkText(key, val); err != nil {
		return err
	}
	switch p := k.field(sc).(type) {
	case *string:
		*p = val
	case *int:
		n, err := strconv.Atoi(val)
		if err != nil {
			return errAt(key, "%q: want an integer", val)
		}
		*p = n
	case *uint64:
		n, err := strconv.ParseUint(val, 10, 64)
		if err != nil {
			return errAt(key, "%q: want %s", val, uintRange)
		}
		*p = n
	case *bool:
		b, err := strconv.ParseBool(val)
		if err != nil {
			return errAt(key, "%q: want true or false", val)
		}
		*p = b
	case *Duration:
		d, err := ParseDuration(key, val)
		if err != nil {
			return err
		}
		*p = d
	case **Duration:
		if k.unset != "" && val == k.unset {
			*p = nil
			return nil
		}
		d, err := ParseDuration(key, val)
		if err != nil {
			return err
		}
		*p = &d
	}
	return nil
}

// Clear drops the value of a key, back to its default (the profile's,
// the machine's, or New's): e.g. "kernel.hz", "features.PLACE_LAG".
func (sc *Scenario) Clear(key string) error {
	if k := rowByName(key); k != nil && !k.noSet {
		def := New()
		switch p := k.field(sc).(type) {
		case *string:
			*p = *k.field(def).(*string)
		case *int:
			*p = *k.field(def).(*int)
		case *uint64:
			*p = *k.field(def).(*uint64)
		case *bool:
			*p = *k.field(def).(*bool)
		case *Duration:
			*p = *k.field(def).(*Duration)
		case **Duration:
			*p = nil
		}
		return nil
	}
	section, rest, _ := strings.Cut(key, ".")
	if k := familyByName(section); k != nil && k.fam.clear != nil && rest != "" && k.fam.clear(sc, rest) {
		return nil
	}
	return errAt(key, "cannot be cleared (not a key with a default; see `schedplay keys`)")
}

// Value returns the text of a key as -set takes it, and whether the
// scenario gives it (false: the default applies): a scalar key or a
// member of features, sysctl or hw.
func (sc *Scenario) Value(key string) (string, bool) {
	k := rowByName(key)
	if k == nil {
		section, rest, _ := strings.Cut(key, ".")
		if f := familyByName(section); f != nil && f.fam.value != nil && rest != "" {
			return f.fam.value(sc, rest)
		}
		return "", false
	}
	if !k.given(sc) {
		return "", false
	}
	switch p := k.field(sc).(type) {
	case *string:
		return *p, true
	case *int:
		return strconv.Itoa(*p), true
	case *uint64:
		return strconv.FormatUint(*p, 10), true
	case *bool:
		return strconv.FormatBool(*p), true
	case *Duration:
		return FormatDuration(*p), true
	case **Duration:
		return FormatDuration(**p), true
	}
	return "", false
}
