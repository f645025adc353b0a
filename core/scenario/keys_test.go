package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"schedplay/core/sched"
)

// base is a scenario at New's defaults with one task group.
func base(t *testing.T) *Scenario {
	t.Helper()
	sc, err := Decode([]byte(doc("", hog)))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestHZRuleOnce checks that the decoder, Set and Build accept exactly the
// CONFIG_HZ choices and refuse the rest with one message.
func TestHZRuleOnce(t *testing.T) {
	accepted := 0
	for n := -1; n <= 1200; n++ {
		valid := sched.ValidHZ(n)
		_, decErr := Decode([]byte(doc(fmt.Sprintf(`"kernel":{"hz":%d},`, n), hog)))
		setErr := base(t).Set("kernel.hz=" + strconv.Itoa(n))
		sc := base(t)
		sc.Kernel.HZ = n
		_, buildErr := sc.Build(sched.DefaultLimits())
		if n == 0 {
			buildErr = decErr // 0 in a built Scenario means "the profile's"
		}
		if valid != (decErr == nil) || valid != (setErr == nil) || valid != (buildErr == nil) {
			t.Fatalf("HZ %d: ValidHZ %v, decode %v, Set %v, Build %v", n, valid, decErr, setErr, buildErr)
		}
		if valid {
			accepted++
			continue
		}
		want := fmt.Sprintf("kernel.hz: %d: want 100, 250, 300 or 1000", n)
		if n != 0 && buildErr.Error() != want || setErr.Error() != want {
			t.Fatalf("HZ %d: Set %q, Build %q; want %q", n, setErr, buildErr, want)
		}
		if want += " (leave it out for the profile's)"; decErr.Error() != want { // a document can
			t.Fatalf("HZ %d: decode %q, want %q", n, decErr, want)
		}
	}
	if accepted != len(sched.HZChoices()) {
		t.Errorf("%d HZ values accepted, want the %d choices", accepted, len(sched.HZChoices()))
	}
	if k, _ := LookupKey("kernel.hz"); !slices.Equal(k.Choices, []string{"100", "250", "300", "1000"}) {
		t.Errorf("kernel.hz choices %v", k.Choices)
	}
}

// TestChoicesAreAccepted sets every choice the table offers (the knob
// panel's options), builds the scenario and reads the value back after a
// share-link round trip.
func TestChoicesAreAccepted(t *testing.T) {
	n := 0
	for _, k := range KeyInfos() {
		for _, c := range k.Choices {
			sc := base(t)
			if err := sc.Set(k.Key + "=" + c); err != nil {
				t.Errorf("Set(%s=%s) = %v", k.Key, c, err)
				continue
			}
			if _, err := sc.Build(sched.DefaultLimits()); err != nil {
				if !strings.HasPrefix(k.Key, "features.") { // a feature may not apply to v6.18
					t.Errorf("%s=%s: Build: %v", k.Key, c, err)
				}
				continue
			}
			back, err := Decode(sc.Encode())
			if err != nil {
				t.Fatalf("%s=%s: %v", k.Key, c, err)
			}
			v, given := back.Value(k.Key)
			if given && v != c || !given && c != k.Default {
				t.Errorf("%s=%s: Value after a round trip = %q, %v (default %q)", k.Key, c, v, given, k.Default)
			}
			n++
		}
	}
	if n < 20 {
		t.Errorf("only %d choices in the table", n)
	}
}

// TestPreemptRuleOnce: decode and Set refuse an unknown preemption model
// with the same message as Build.
func TestPreemptRuleOnce(t *testing.T) {
	for _, v := range []string{"", "rt", "Full"} {
		_, decErr := Decode([]byte(doc(fmt.Sprintf(`"kernel":{"preempt":%q},`, v), hog)))
		setErr := base(t).Set("kernel.preempt=" + v)
		sc := base(t)
		sc.Kernel.Preempt = v // "" in a built Scenario means "the profile's"
		_, buildErr := sc.Build(sched.DefaultLimits())
		want := fmt.Sprintf("kernel.preempt: unknown preemption model %q (want one of none, voluntary, full, lazy)", v)
		if setErr == nil || setErr.Error() != want {
			t.Errorf("Set %q: %v, want %q", v, setErr, want)
		}
		if hint := want + " (leave it out for the profile's)"; decErr == nil || decErr.Error() != hint {
			t.Errorf("decode %q: %v, want %q", v, decErr, hint)
		}
		if v != "" && (buildErr == nil || buildErr.Error() != want) {
			t.Errorf("Build with preempt %q: %v, want %q", v, buildErr, want)
		}
	}
}

// TestEncodeFollowsTable checks that the canonical encoding writes the
// top-level and kernel keys in the table's order.
func TestEncodeFollowsTable(t *testing.T) {
	sc := mustPreset(t, "demo/cyclictest-hackbench")
	for _, kv := range []string{"name=n", "kernel.hz=1000", "kernel.preempt=full", "kernel.tick_offset=1ms",
		"features.PLACE_LAG=off", "sysctl.sched_base_slice_ns=3000000", "hw.smt=off", "pi=true", "tasks.ct.instances=1",
		"kernel.autogroup=on", "kernel.rt_group_sched=off", "cgroups./A.cpu.weight=50"} {
		if err := sc.Set(kv); err != nil && !strings.HasPrefix(kv, "tasks.") {
			t.Fatalf("Set(%s) = %v", kv, err)
		}
	}
	sc.Description = "d"
	sc.Tasks = []Task{{Name: "t", Instances: 1, Loop: -1, Program: []Step{{Kind: "run", Run: -1}}}}
	sc.Semaphores = map[string]int{"s": 1}
	var top, kernel []string
	var m map[string]json.RawMessage
	js := sc.Encode()
	dec := json.NewDecoder(bytes.NewReader(js))
	keysOf := func(raw []byte) []string {
		var out []string
		d := json.NewDecoder(bytes.NewReader(raw))
		d.Token() // {
		for d.More() {
			k, _ := d.Token()
			out = append(out, k.(string))
			var skip json.RawMessage
			d.Decode(&skip)
		}
		return out
	}
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	top, kernel = keysOf(js), keysOf(m["kernel"])
	var want []string
	for _, k := range topLevelKeys() {
		if k != "experiment" {
			want = append(want, k)
		}
	}
	if !slices.Equal(top, want) {
		t.Errorf("top-level keys %v, want %v", top, want)
	}
	if want := sectionKeys("kernel"); !slices.Equal(kernel, want) {
		t.Errorf("kernel keys %v, want %v", kernel, want)
	}
}

// TestClearRestoresDefault sets and clears every scalar key and a member
// of each map family: the encoding returns to New's.
func TestClearRestoresDefault(t *testing.T) {
	before := string(base(t).Encode())
	vals := map[string]string{"name": "x", "topology": "smp-4", "kernel.version": "v5.8", "kernel.hz": "1000",
		"kernel.preempt": "full", "kernel.tick_offset": "1ms", "duration": "2s", "seed": "7", "pi": "true",
		"features.PLACE_LAG": "off", "sysctl.sched_base_slice_ns": "3000000", "hw.smt": "off", "hw.ctx_switch_ns": "5",
		"kernel.autogroup": "on", "kernel.rt_group_sched": "on", "cgroups./A.cpu.max": "25000 100000"}
	for _, k := range KeyInfos() {
		if rowByName(k.Key) != nil && vals[k.Key] == "" {
			t.Fatalf("no test value for scalar key %s", k.Key)
		}
	}
	for key, v := range vals {
		sc := base(t)
		if err := sc.Set(key + "=" + v); err != nil {
			t.Fatalf("Set(%s=%s) = %v", key, v, err)
		}
		if got, ok := sc.Value(key); !ok || got != v {
			t.Errorf("Value(%s) = %q, %v; want %q", key, got, ok, v)
		}
		if string(sc.Encode()) == before {
			t.Fatalf("Set(%s=%s) changed nothing", key, v)
		}
		if err := sc.Clear(key); err != nil {
			t.Fatalf("Clear(%s) = %v", key, err)
		}
		if got := string(sc.Encode()); got != before {
			t.Errorf("Clear(%s): %s, want %s", key, got, before)
		}
	}
	for _, key := range []string{"version", "description", "tasks", "tasks.hog.instances", "bogus", "features"} {
		if err := base(t).Clear(key); err == nil {
			t.Errorf("Clear(%s) succeeded", key)
		}
	}
}
