package main

// Knobs: the kernel panel. Its keys come from the scenario's key table
// (core/scenario/keys.go), as `schedplay keys` lists them: the kernel
// selects (profile, HZ, preemption model) offer the table's choices, the
// sched features (and the patches of the experiments) are toggles with
// one-line explanations, the on|off and true|false keys (hw.smt,
// hw.cstates, pi) are checkboxes, and the numeric hw.* costs and the
// sysctls are fields with the machine's or profile's default as their
// placeholder. Every change is a scenario key, exactly as the CLI's -set.

import (
	"strconv"
	"strings"

	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/core/topology"
)

// Knobs is the kernel panel.
type Knobs struct {
	App *App `vugu:"data"`
	// infos caches the key table's documentation (constant; building it
	// formats every feature, sysctl and hw key).
	infos []scenario.KeyInfo
}

// SelectRow is one select of the kernel row: a key and its choices.
type SelectRow struct {
	Label, ID, Key string
	Options        []Option
}

// Option is one choice of a select.
type Option struct {
	Value, Title string
	Selected     bool
}

// FeatureRow is one feature toggle.
type FeatureRow struct {
	Name, Help string
	On         bool
	Overridden bool
	Modelled   bool
	// Applies: the profile reads the feature (sched.Feature.AppliesTo);
	// otherwise the toggle is disabled, Only names the profiles that do,
	// and an override left from another profile can only be cleared.
	Applies bool
	Only    string
}

// ToggleRow is one checkbox: a key with two choices (on|off, true|false).
type ToggleRow struct {
	Key, ID, Help string
	On            bool
}

// SysctlRow is one sysctl field.
type SysctlRow struct {
	Name, Unit, Help string
	Value            string // override, "" = default
	Default          string
	Modelled         bool
}

// HWRow is one numeric hw.* key.
type HWRow struct {
	Name, Unit, Help, Source string
	Value                    string // override, "" = the machine's default
	Default                  string
}

func (c *Knobs) profile() sched.Profile {
	p, err := sched.ProfileByName(c.App.Sc.Kernel.Version)
	if err != nil {
		p, _ = sched.ProfileByName(scenario.DefaultKernel)
	}
	return p
}

func (c *Knobs) keyInfos() []scenario.KeyInfo {
	if c.infos == nil {
		c.infos = scenario.KeyInfos()
	}
	return c.infos
}

func (c *Knobs) lookup(key string) scenario.KeyInfo {
	for _, k := range c.keyInfos() {
		if k.Key == key {
			return k
		}
	}
	return scenario.KeyInfo{}
}

// members lists the table's keys under prefix (e.g. "features.").
func (c *Knobs) members(prefix string) []scenario.KeyInfo {
	var out []scenario.KeyInfo
	for _, k := range c.keyInfos() {
		if strings.HasPrefix(k.Key, prefix) {
			out = append(out, k)
		}
	}
	return out
}

// value is the key's value in the scenario, or def when it is not given.
func (c *Knobs) value(key, def string) string {
	if v, ok := c.App.Sc.Value(key); ok {
		return v
	}
	return def
}

func (c *Knobs) selects() []SelectRow {
	p := c.profile()
	row := func(label, id, key, def string) SelectRow {
		k := c.lookup(key)
		cur := c.value(key, def)
		r := SelectRow{Label: label, ID: id, Key: key}
		for _, v := range k.Choices {
			o := Option{Value: v, Selected: v == cur}
			if key == "kernel.version" {
				if vp, err := sched.ProfileByName(v); err == nil {
					o.Title = vp.Summary
				}
			}
			r.Options = append(r.Options, o)
		}
		return r
	}
	return []SelectRow{
		row("profile", "kernel", "kernel.version", p.Name),
		row("HZ", "hz", "kernel.hz", strconv.Itoa(p.HZ)),
		row("preempt", "preempt", "kernel.preempt", p.Preempt.String()),
	}
}

func (c *Knobs) features() []FeatureRow {
	p := c.profile()
	var out []FeatureRow
	for _, k := range c.members("features.") {
		name := strings.TrimPrefix(k.Key, "features.")
		f, ok := sched.FeatureByName(name)
		if !ok {
			continue
		}
		on, over := c.App.Sc.Features[name]
		if !over {
			on = p.Features.Has(f)
		}
		row := FeatureRow{Name: name, Help: k.Help, On: on, Overridden: over, Modelled: f.Modelled(),
			Applies: f.AppliesTo(p.Version())}
		if !row.Applies {
			row.On = false
			row.Only = strings.Join(f.Profiles(), ", ") + " only"
		}
		out = append(out, row)
	}
	return out
}

// toggles are the keys with two choices outside the features: hw.cstates,
// hw.smt and pi.
func (c *Knobs) toggles() []ToggleRow {
	var out []ToggleRow
	for _, k := range c.keyInfos() {
		if len(k.Choices) != 2 || strings.HasPrefix(k.Key, "features.") {
			continue
		}
		out = append(out, ToggleRow{Key: k.Key, ID: strings.ReplaceAll(k.Key, ".", "-"), Help: k.Help,
			On: onValue(c.value(k.Key, k.Default))})
	}
	return out
}

// setToggle checks (on) or unchecks a two-choice key.
func (c *Knobs) setToggle(key string, on bool) {
	if kv, clear := toggleEdit(key, on); clear != "" {
		c.App.ClearKey(clear)
	} else {
		c.App.SetKey(kv)
	}
}

// toggleEdit is the edit a checkbox makes: KEY=VALUE for -set, or the key
// to clear when the choice is its default (so the scenario keeps no
// override that changes nothing).
func toggleEdit(key string, on bool) (kv, clear string) {
	k, _ := scenario.LookupKey(key)
	v := ""
	for _, ch := range k.Choices {
		if onValue(ch) == on {
			v = ch
		}
	}
	if v == k.Default {
		return "", key
	}
	return key + "=" + v, ""
}

func onValue(v string) bool { return v == "on" || v == "true" }

func (c *Knobs) sysctls() []SysctlRow {
	p := c.profile()
	cfgN := 1
	if c.App.Run != nil {
		cfgN = c.App.Run.NumCPUs()
	}
	def := p.DefaultSysctls(cfgN)
	byName := map[string]sched.SysctlKey{}
	for _, k := range sched.SysctlKeys() {
		byName[k.Name] = k
	}
	var out []SysctlRow
	for _, k := range c.members("sysctl.") {
		name := strings.TrimPrefix(k.Key, "sysctl.")
		sk := byName[name]
		row := SysctlRow{Name: name, Unit: sk.Unit, Help: k.Help, Modelled: sk.Modelled, Value: c.value(k.Key, "")}
		if v, ok := def.Get(name); ok {
			row.Default = strconv.FormatInt(v, 10)
		}
		out = append(out, row)
	}
	return out
}

func (c *Knobs) hwKeys() []HWRow {
	var mp *topology.Machine // nil: generic defaults
	if m, err := topology.Preset(c.App.Sc.Topology); err == nil {
		mp = &m
	}
	byName := map[string]sched.HWKey{}
	for _, k := range sched.HWKeys() {
		byName[k.Name] = k
	}
	var out []HWRow
	for _, k := range c.members("hw.") {
		hk, ok := byName[strings.TrimPrefix(k.Key, "hw.")]
		if !ok {
			continue // hw.smt, hw.cstates (toggles), hw.idle_disable
		}
		out = append(out, HWRow{Name: hk.Name, Unit: hk.Unit, Help: k.Help, Source: hk.Source,
			Value: c.value(k.Key, ""), Default: strconv.FormatInt(hk.Default(mp), 10)})
	}
	return out
}

func (c *Knobs) toggle(name string, on bool) {
	c.App.SetKey("features." + name + "=" + onOff(on))
}

// clearFeature drops an override, e.g. one the profile does not read.
func (c *Knobs) clearFeature(name string) { c.App.ClearKey("features." + name) }

// setField sets a numeric key from its field, or clears it when the
// field is emptied.
func (c *Knobs) setField(key, v string) {
	if v == "" {
		c.App.ClearKey(key)
		return
	}
	c.App.SetKey(key + "=" + v)
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func featID(name string) string { return "feat-" + name }
