package scenario

// The key table (keys.go) as a codec: the top level of the JSON document
// (decodeScenario, Encode), `-set KEY=VALUE` (docs/scenario-format.md,
// docs/cli.md) and clearing a key back to its default. A scalar row is
// read and written by the type of its field; a family by its own codec.

import (
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

// topLevelKeys lists the JSON keys of the document, in order: a
// section's object where its first row is.
func topLevelKeys() []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range keyTable {
		s, key := sectionOf(k.name)
		if s != "" {
			key = s
		}
		if !seen[key] {
			seen[key] = true
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
	f := fieldOf(k.field(sc))
	if err := f.decode(path, v); err != nil {
		return err
	}
	err := k.checkText(path, f.text())
	if e, ok := err.(*Error); ok && k.defaultOf != "" {
		e.Msg += " (leave it out for " + k.defaultOf + ")"
	}
	return err
}

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

// encodeKeys writes every key of the table that has a value, in order:
// the keys of a section inside its object, where its first row is.
func encodeKeys(w *jw, sc *Scenario) {
	f := true
	done := map[string]bool{} // sections written
	for i := range keyTable {
		k := &keyTable[i]
		if k.fam != nil {
			var tmp jw
			if k.fam.encode(&tmp, sc) {
				w.key(k.name, &f)
				w.b.Write(tmp.b.Bytes())
			}
			continue
		}
		section, key := sectionOf(k.name)
		if section == "" {
			if k.given(sc) {
				w.key(key, &f)
				k.encodeValue(w, sc)
			}
			continue
		}
		if done[section] {
			continue
		}
		done[section] = true
		open := false
		var sf bool
		for j := range keyTable {
			r := &keyTable[j]
			s, key := sectionOf(r.name)
			if s != section || r.fam != nil || !r.given(sc) {
				continue
			}
			if !open {
				w.key(section, &f)
				w.b.WriteByte('{')
				open, sf = true, true
			}
			w.key(key, &sf)
			r.encodeValue(w, sc)
		}
		if open {
			w.b.WriteByte('}')
		}
	}
}

// given reports whether a scalar row is written: always, or when its
// field is given.
func (k *keyDef) given(sc *Scenario) bool {
	return k.always || fieldOf(k.field(sc)).given()
}

func (k *keyDef) encodeValue(w *jw, sc *Scenario) { fieldOf(k.field(sc)).writeJSON(w) }

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

// setText parses -set text by the type of the row's field; a failed
// parse leaves the scenario as it was.
func (k *keyDef) setText(sc *Scenario, key, val string) error {
	f := fieldOf(k.field(sc))
	if k.unset != "" && val == k.unset {
		f.zero()
		return nil
	}
	if err := k.checkText(key, val); err != nil {
		return err
	}
	return f.parse(key, val)
}

// Clear drops the value of a key, back to its default (the profile's,
// the machine's, or New's): e.g. "kernel.hz", "features.PLACE_LAG".
func (sc *Scenario) Clear(key string) error {
	if k := rowByName(key); k != nil && !k.noSet {
		f := fieldOf(k.field(sc))
		if !k.always {
			f.zero()
			return nil
		}
		return f.parse(key, fieldOf(k.field(New())).text())
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
	return fieldOf(k.field(sc)).text(), true
}
