package scenario

// The hw.* keys: hw.cstates and hw.smt (on|off), hw.idle_disable (state
// names) and the numeric costs of sched.HWKeys.

import (
	"fmt"
	"strconv"
	"strings"

	"schedplay/core/quote"
	"schedplay/core/sched"
	"schedplay/core/topology"
)

// setHW applies hw.name=val to h; m may be nil when only checking.
func setHW(h *sched.HW, m *topology.Machine, name, val string) error {
	if name == "smt" {
		return nil // applied to the machine first (Scenario.Build)
	}
	if name == "cstates" {
		on, err := asOnOff("hw.cstates", val)
		if err != nil {
			return quote.Errorf("%q: want on or off", val)
		}
		if m != nil {
			h.SetCStates(m, on)
		}
		return nil
	}
	if name == "idle_disable" {
		if val == "" {
			return nil
		}
		if m != nil {
			return h.DisableStates(strings.Split(val, ","))
		}
		return nil
	}
	n, err := strconv.ParseInt(val, 10, 64)
	if err != nil {
		for _, k := range sched.HWKeys() {
			if k.Name == name {
				return quote.Errorf("%q: want an integer in %s", val, k.Unit)
			}
		}
		return fmt.Errorf("unknown machine knob (see `schedplay keys`)")
	}
	return h.Set(name, n)
}
