package main

// Knobs: kernel profile, HZ, preemption model, sched features (and the
// patches of the experiments) as toggles with one-line explanations, the
// machine model (hw.* costs with the machine's defaults and their sources,
// SMT, C-states), priority inheritance, and the sysctls. Every change is a
// scenario key, exactly as the CLI's -set.

import (
	"fmt"
	"strconv"
	"strings"

	"schedplay/core/sched"
	"schedplay/core/topology"
)

// Knobs is the kernel panel.
type Knobs struct {
	App *App `vugu:"data"`
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

// SysctlRow is one sysctl field.
type SysctlRow struct {
	Name, Unit, Help string
	Value            string // override, "" = default
	Default          string
	Modelled         bool
}

func (c *Knobs) profile() sched.Profile {
	p, err := sched.ProfileByName(c.App.Sc.Kernel.Version)
	if err != nil {
		p, _ = sched.ProfileByName("v6.18")
	}
	return p
}

func (c *Knobs) profiles() []sched.Profile { return sched.Profiles() }

func (c *Knobs) hz() string {
	if c.App.Sc.Kernel.HZ != 0 {
		return strconv.Itoa(c.App.Sc.Kernel.HZ)
	}
	return strconv.Itoa(c.profile().HZ)
}

func (c *Knobs) preempt() string {
	if c.App.Sc.Kernel.Preempt != "" {
		return c.App.Sc.Kernel.Preempt
	}
	return c.profile().Preempt.String()
}

func (c *Knobs) features() []FeatureRow {
	p := c.profile()
	var out []FeatureRow
	for _, f := range sched.Features() {
		on, over := c.App.Sc.Features[f.String()]
		if !over {
			on = p.Features.Has(f)
		}
		row := FeatureRow{Name: f.String(), Help: f.Help(), On: on, Overridden: over, Modelled: f.Modelled(),
			Applies: f.AppliesTo(p.Version())}
		if !row.Applies {
			row.On = false
			row.Only = strings.Join(f.Profiles(), ", ") + " only"
		}
		out = append(out, row)
	}
	return out
}

func (c *Knobs) sysctls() []SysctlRow {
	p := c.profile()
	cfgN := 1
	if c.App.Run != nil {
		cfgN = c.App.Run.NumCPUs()
	}
	def := p.DefaultSysctls(cfgN)
	var out []SysctlRow
	for _, k := range sched.SysctlKeys() {
		row := SysctlRow{Name: k.Name, Unit: k.Unit, Help: k.Help, Modelled: k.Modelled}
		if v, ok := def.Get(k.Name); ok {
			row.Default = strconv.FormatInt(v, 10)
		}
		if v, ok := c.App.Sc.Sysctl[k.Name]; ok {
			row.Value = strconv.FormatInt(v, 10)
		}
		out = append(out, row)
	}
	return out
}

func (c *Knobs) toggle(name string, on bool) {
	c.App.SetKey(fmt.Sprintf("features.%s=%s", name, onOff(on)))
}

// clearFeature drops an override, e.g. one the profile does not read.
func (c *Knobs) clearFeature(name string) { c.App.ClearKey("features." + name) }

func (c *Knobs) setSysctl(name, v string) {
	if v == "" {
		c.App.ClearKey("sysctl." + name)
		return
	}
	c.App.SetKey("sysctl." + name + "=" + v)
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func featID(name string) string { return "feat-" + name }

// HWRow is one numeric hw.* key.
type HWRow struct {
	Name, Unit, Help, Source string
	Value                    string // override, "" = the machine's default
	Default                  string
}

func (c *Knobs) hwKeys() []HWRow {
	var mp *topology.Machine // nil: generic defaults
	if m, err := topology.Preset(c.App.Sc.Topology); err == nil {
		mp = &m
	}
	var out []HWRow
	for _, k := range sched.HWKeys() {
		out = append(out, HWRow{Name: k.Name, Unit: k.Unit, Help: k.Help, Source: k.Source,
			Value: c.App.Sc.HW[k.Name], Default: strconv.FormatInt(k.Default(mp), 10)})
	}
	return out
}

// hwOn reads an on|off hw key (default on).
func (c *Knobs) hwOn(name string) bool { return c.App.Sc.HW[name] != "off" }

func (c *Knobs) setHWOnOff(name string, on bool) {
	if on {
		c.App.ClearKey("hw." + name)
		return
	}
	c.App.SetKey("hw." + name + "=off")
}

func (c *Knobs) setHW(name, v string) {
	if v == "" {
		c.App.ClearKey("hw." + name)
		return
	}
	c.App.SetKey("hw." + name + "=" + v)
}

func (c *Knobs) setPI(on bool) { c.App.SetKey(fmt.Sprintf("pi=%v", on)) }
