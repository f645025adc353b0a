package main

// The kernel panel's feature rows follow the profile: a feature the
// profile does not read is disabled and names the profiles that do.

import (
	"strconv"
	"strings"
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
)

func TestKnobsFeatureRowsFollowProfile(t *testing.T) {
	sc, err := scenario.Preset("seed/cluster-hybrid")
	if err != nil {
		t.Fatal(err)
	}
	row := func(c *Knobs, name string) FeatureRow {
		for _, r := range c.features() {
			if r.Name == name {
				return r
			}
		}
		t.Fatalf("no row %s", name)
		return FeatureRow{}
	}
	c := &Knobs{App: &App{Sc: sc}}
	if r := row(c, "HYBRID_CLUSTER_SERIES"); !r.Applies || !r.On || r.Only != "" {
		t.Errorf("v6.6: %+v", r)
	}
	if r := row(c, "GENTLE_FAIR_SLEEPERS"); r.Applies || r.Only != "v3.11, v5.8 only" {
		t.Errorf("v6.6 GENTLE_FAIR_SLEEPERS: %+v", r)
	}
	sc.Kernel.Version = "v5.8"
	sc.Features["HYBRID_CLUSTER_SERIES"] = true // left from v6.6
	if r := row(c, "HYBRID_CLUSTER_SERIES"); r.Applies || r.On || !r.Overridden || r.Only != "v6.6, v6.12, v6.18 only" {
		t.Errorf("v5.8: %+v", r)
	}
}

// The selects offer the key table's choices and select the scenario's
// value, or the profile's default when the scenario gives none.
func TestKnobsSelectsFromKeyTable(t *testing.T) {
	sc, err := scenario.Preset("demo/nice-shares")
	if err != nil {
		t.Fatal(err)
	}
	c := &Knobs{App: &App{Sc: sc}}
	sel := func(id string) (opts []string, selected string) {
		for _, r := range c.selects() {
			if r.ID != id {
				continue
			}
			for _, o := range r.Options {
				opts = append(opts, o.Value)
				if o.Selected {
					selected += o.Value
				}
			}
		}
		return
	}
	hz, cur := sel("hz")
	if strings.Join(hz, ",") != "100,250,300,1000" || cur != strconv.Itoa(c.profile().HZ) {
		t.Errorf("hz options %v, selected %q (profile HZ %d)", hz, cur, c.profile().HZ)
	}
	sc.Kernel.HZ = 1000
	if _, cur := sel("hz"); cur != "1000" {
		t.Errorf("hz=1000 selects %q", cur)
	}
	pre, cur := sel("preempt")
	if strings.Join(pre, ",") != "none,voluntary,full,lazy" || cur != c.profile().Preempt.String() {
		t.Errorf("preempt options %v, selected %q", pre, cur)
	}
	vers, cur := sel("kernel")
	if strings.Join(vers, ",") != strings.Join(sched.ProfileNames(), ",") || cur != sc.Kernel.Version {
		t.Errorf("profile options %v, selected %q", vers, cur)
	}
}

// The checkboxes are the table's two-choice keys with their element ids;
// unchecking back to the default drops the key instead of writing it.
func TestKnobsToggles(t *testing.T) {
	sc, err := scenario.Preset("demo/nice-shares")
	if err != nil {
		t.Fatal(err)
	}
	c := &Knobs{App: &App{Sc: sc}}
	ids := map[string]ToggleRow{}
	for _, g := range c.toggles() {
		ids[g.ID] = g
	}
	// The cgroup keys (kernel.autogroup, kernel.rt_group_sched) come from
	// the key table like the others, off by default.
	if len(ids) != 5 || !ids["hw-smt"].On || !ids["hw-cstates"].On || ids["pi"].On ||
		ids["kernel-autogroup"].On || ids["kernel-rt_group_sched"].On {
		t.Fatalf("toggles %+v", ids)
	}
	before := string(sc.Encode())
	toggle := func(key string, on bool) { // what setToggle does, without the run
		kv, clear := toggleEdit(key, on)
		if clear != "" {
			err = sc.Clear(clear)
		} else {
			err = sc.Set(kv)
		}
		if err != nil {
			t.Fatalf("%s %v: %v", key, on, err)
		}
	}
	toggle("hw.smt", false)
	toggle("pi", true)
	toggle("kernel.autogroup", true)
	toggle("kernel.rt_group_sched", true)
	if sc.HW["smt"] != "off" || !sc.PI || sc.Kernel.Autogroup == nil || !*sc.Kernel.Autogroup ||
		sc.Kernel.RTGroupSched == nil || !*sc.Kernel.RTGroupSched {
		t.Errorf("after unchecking hw.smt and checking pi, autogroup and rt_group_sched: hw %v, pi %v, kernel %+v", sc.HW, sc.PI, sc.Kernel)
	}
	if _, err := sc.Build(sched.DefaultLimits()); err != nil {
		t.Errorf("the scenario with the cgroup kernel keys on: %v", err)
	}
	for _, g := range c.toggles() {
		if g.ID == "hw-smt" && g.On || g.ID != "hw-smt" && g.ID != "hw-cstates" && !g.On {
			t.Errorf("toggle %s shows %v", g.ID, g.On)
		}
	}
	toggle("hw.smt", true)
	toggle("pi", false)
	toggle("kernel.autogroup", false)
	toggle("kernel.rt_group_sched", false)
	if got := string(sc.Encode()); got != before {
		t.Errorf("toggling back left the scenario changed:\n%s\nwant\n%s", got, before)
	}
}

// The fields list every sysctl and numeric hw key of the table, with the
// scenario's value.
func TestKnobsFields(t *testing.T) {
	sc, err := scenario.Preset("demo/nice-shares")
	if err != nil {
		t.Fatal(err)
	}
	c := &Knobs{App: &App{Sc: sc}}
	if n := len(c.sysctls()); n != len(sched.SysctlKeys()) {
		t.Errorf("%d sysctl fields, want %d", n, len(sched.SysctlKeys()))
	}
	if n := len(c.hwKeys()); n != len(sched.HWKeys()) {
		t.Errorf("%d hw fields, want %d", n, len(sched.HWKeys()))
	}
	for _, kv := range []string{"sysctl.sched_base_slice_ns=3000000", "hw.ctx_switch_ns=5000", "sysctl.sched_cfs_bandwidth_slice_us=2000"} {
		if err := sc.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	field := func(rows []SysctlRow, name string) string {
		for _, r := range rows {
			if r.Name == name {
				return r.Value
			}
		}
		return "?"
	}
	if v := field(c.sysctls(), "sched_base_slice_ns"); v != "3000000" {
		t.Errorf("sysctl field shows %q", v)
	}
	if v := field(c.sysctls(), "sched_cfs_bandwidth_slice_us"); v != "2000" {
		t.Errorf("bandwidth slice field shows %q", v)
	}
	for _, h := range c.hwKeys() {
		if h.Name == "ctx_switch_ns" && (h.Value != "5000" || h.Default == "") {
			t.Errorf("hw field %+v", h)
		}
	}
}
