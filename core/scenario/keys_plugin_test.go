package scenario

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// plugIn adds row to the key table after the row named after, for the
// test.
func plugIn(t *testing.T, after string, row keyDef) {
	t.Helper()
	saved := slices.Clone(keyTable)
	t.Cleanup(func() { keyTable = saved })
	for i, k := range keyTable {
		if k.name == after {
			keyTable = slices.Insert(slices.Clone(keyTable), i+1, row)
			return
		}
	}
	t.Fatalf("no row %s", after)
}

// TestKeyTablePlugIn adds a kernel switch and a family keyed by path, as
// the cgroups keys were added (cgroup_keys.go), each with one entry, and checks that
// the decoder, the encoder, Set, Clear, Clone and Keys all take them up
// while a scenario without them keeps its encoding.
func TestKeyTablePlugIn(t *testing.T) {
	presets := map[string]string{}
	for _, p := range Presets() {
		presets[p.Name] = string(mustPreset(t, p.Name).Encode())
	}
	// The storage a Scenario field would be, per scenario.
	autogroup := map[*Scenario]**bool{}
	groups := map[*Scenario]map[string]string{}
	plugIn(t, "kernel.tick_offset", keyDef{name: "kernel.test_switch", typ: "on|off", help: "test switch",
		choices: onOffChoices, field: func(sc *Scenario) any {
			if autogroup[sc] == nil {
				autogroup[sc] = new(*bool)
			}
			return autogroup[sc]
		}})
	plugIn(t, "semaphores", keyDef{name: "testgroups", fam: &family{
		members: func() []KeyInfo {
			return []KeyInfo{{Key: "testgroups.PATH.FILE", Type: "per file", Help: "test family"}}
		},
		decode: func(sc *Scenario, v any) error {
			m, err := asObject("testgroups", v)
			if err != nil {
				return err
			}
			groups[sc] = map[string]string{}
			for _, k := range sortedKeys(m) {
				s, ok := m[k].(string)
				if !ok {
					return errAt("testgroups."+k, "want a string")
				}
				groups[sc][k] = s
			}
			return nil
		},
		encode: func(w *jw, sc *Scenario) bool {
			if len(groups[sc]) == 0 {
				return false
			}
			f := true
			w.b.WriteByte('{')
			for _, k := range sortedStringKeys(groups[sc]) {
				w.key(k, &f)
				w.str(groups[sc][k])
			}
			w.b.WriteByte('}')
			return true
		},
		set: func(sc *Scenario, key, rest, val string) error {
			if !strings.HasPrefix(rest, "/") {
				return errAt(key, "want an absolute cgroup path")
			}
			g := maps.Clone(groups[sc])
			if g == nil {
				g = map[string]string{}
			}
			g[rest] = val
			groups[sc] = g
			return nil
		},
		clear: func(sc *Scenario, rest string) bool { delete(groups[sc], rest); return true },
		clone: func(dst, src *Scenario) { groups[dst] = maps.Clone(groups[src]) },
	}})

	for name, want := range presets {
		if got := string(mustPreset(t, name).Encode()); got != want {
			t.Errorf("%s: encoding changed by rows it does not use", name)
		}
	}
	if !slices.Contains(Keys(), "kernel.test_switch\ton|off\ttest switch") || !slices.Contains(Keys(), "testgroups.PATH.FILE\tper file\ttest family") {
		t.Errorf("Keys() does not list the new rows")
	}

	sc, err := Decode([]byte(doc(`"kernel":{"test_switch":"on"},"testgroups":{"/A":"w25"},`, hog)))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := sc.Value("kernel.test_switch"); !ok || v != "on" || groups[sc]["/A"] != "w25" {
		t.Fatalf("decoded autogroup %q %v, cgroups %v", v, ok, groups[sc])
	}
	js := string(sc.Encode())
	if !strings.Contains(js, `"kernel":{"version":"v6.18","test_switch":"on"}`) || !strings.Contains(js, `"seed":1,"tasks":[`) ||
		!strings.HasSuffix(js, `"testgroups":{"/A":"w25"}}`) {
		t.Errorf("encoding %s", js)
	}
	c := sc.Clone()
	for _, kv := range []string{"testgroups./B=w50", "kernel.test_switch=off"} {
		if err := c.Set(kv); err != nil {
			t.Fatalf("Set(%s) = %v", kv, err)
		}
	}
	if string(sc.Encode()) != js {
		t.Errorf("Set on a clone changed the original")
	}
	back, err := Decode(c.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := back.Value("kernel.test_switch"); v != "off" || !maps.Equal(groups[back], map[string]string{"/A": "w25", "/B": "w50"}) {
		t.Errorf("after Set and a round trip: autogroup %q, cgroups %v", v, groups[back])
	}
	for _, kv := range []string{"testgroups.B=1", "kernel.test_switch=maybe"} {
		if err := c.Set(kv); err == nil {
			t.Errorf("Set(%s) succeeded", kv)
		}
	}
	if _, err := Decode([]byte(doc(`"kernel":{"test_switch":1},`, hog))); err == nil || !strings.Contains(err.Error(), `kernel.test_switch: want "on" or "off"`) {
		t.Errorf("bad autogroup: %v", err)
	}
	if _, err := Decode([]byte(doc(`"kernel":{"nope":1},`, hog))); err == nil || !strings.Contains(err.Error(), "known here: version, hz, preempt, tick_offset, test_switch") {
		t.Errorf("unknown kernel key: %v", err)
	}
	for _, key := range []string{"kernel.test_switch", "testgroups./A", "testgroups./B"} {
		if err := c.Clear(key); err != nil {
			t.Fatalf("Clear(%s) = %v", key, err)
		}
	}
	if got := string(c.Encode()); strings.Contains(got, "autogroup") || strings.Contains(got, "testgroups") {
		t.Errorf("after Clear: %s", got)
	}
}
