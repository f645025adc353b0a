package scenario

// `-set KEY=VALUE` overrides (docs/cli.md "The contract"): the same keys
// as the JSON document, addressed by dotted path.

import (
	"fmt"
	"strconv"
	"strings"

	"schedplay/core/sched"
)

// Set applies one KEY=VALUE override.
func (sc *Scenario) Set(kv string) error {
	key, val, ok := strings.Cut(kv, "=")
	if !ok || key == "" {
		return errAt("", "-set %q: want KEY=VALUE", kv)
	}
	bad := func(want string) error { return errAt(key, "%q: want %s", val, want) }
	section, name, _ := strings.Cut(key, ".")
	switch {
	case key == "topology":
		sc.Topology = val
	case key == "duration":
		d, err := ParseDuration(key, val)
		if err != nil {
			return err
		}
		sc.Duration = d
	case key == "seed":
		n, err := strconv.ParseUint(val, 10, 64)
		if err != nil {
			return bad("a non-negative integer")
		}
		sc.Seed = n
	case key == "name":
		sc.Name = val
	case key == "pi":
		b, err := strconv.ParseBool(val)
		if err != nil {
			return bad("true or false")
		}
		sc.PI = b
	case key == "kernel.version":
		sc.Kernel.Version = val
	case key == "kernel.hz":
		n, err := strconv.Atoi(val)
		if err != nil || !sched.ValidHZ(n) {
			return bad("100, 250, 300 or 1000")
		}
		sc.Kernel.HZ = n
	case key == "kernel.tick_offset":
		if val == "random" {
			sc.Kernel.TickOffset = nil
			break
		}
		d, err := ParseDuration(key, val)
		if err != nil {
			return err
		}
		sc.Kernel.TickOffset = &d
	case key == "kernel.preempt":
		if _, err := sched.ParsePreempt(val); err != nil {
			return errAt(key, "%v", err)
		}
		sc.Kernel.Preempt = val
	case section == "features" && name != "":
		if _, ok := sched.FeatureByName(name); !ok {
			return errAt(key, "unknown feature (see `schedplay keys`)")
		}
		on, err := asOnOff(key, val)
		if err != nil {
			return err
		}
		sc.Features[name] = on
	case section == "sysctl" && name != "":
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			return bad("an integer in the sysctl's unit")
		}
		var probe sched.Sysctls
		if err := probe.Set(name, n); err != nil {
			return errAt(key, "%v", err)
		}
		sc.Sysctl[name] = n
	case section == "workloads" && name != "":
		return sc.setWorkload(key, name, val) // workload_codec.go
	case section == "hw" && name != "":
		sc.HW[name] = val // checked by Build (hw.go), which knows the machine
	case section == "tasks" && strings.HasSuffix(name, ".instances"):
		group := strings.TrimSuffix(name, ".instances")
		n, err := strconv.Atoi(val)
		if err != nil || n < 1 {
			return bad("a positive integer")
		}
		// Copy the slice first: scenarios cloned for compare, sweep and
		// experiment variants share it.
		sc.Tasks = append([]Task(nil), sc.Tasks...)
		found := false
		for i := range sc.Tasks {
			if sc.Tasks[i].Name == group {
				sc.Tasks[i].Instances, found = n, true
			}
		}
		if !found {
			return errAt(key, "no task group %q in the scenario", group)
		}
	default:
		return errAt(key, "unknown key (see `schedplay keys`)")
	}
	return nil
}

// Keys documents every key `-set` accepts, one line each, for
// `schedplay keys`.
func Keys() []string {
	out := []string{
		"topology\tstring\tmachine preset (schedplay topologies)",
		"duration\tduration\tsimulated time, e.g. 10s or 250ms",
		"seed\tinteger\tseed of the run's random number generator",
		"pi\ttrue|false\tmutexes of lock/unlock steps with priority inheritance (rt-app pi_enabled); default false",
		"kernel.version\tstring\tkernel profile: " + strings.Join(sched.ProfileNames(), ", "),
		"kernel.hz\tinteger\tCONFIG_HZ: 100, 250, 300 or 1000",
		"kernel.preempt\tstring\tpreemption model: none, voluntary, full, lazy (lazy from v6.13)",
		"kernel.tick_offset\tduration|random\twhere the jiffies grid lies after the run's start (0 <= x < 1/HZ); default random: drawn from the seed",
		"tasks.NAME.instances\tinteger\thow many copies of task group NAME run (the group's instances); e.g. a workload size in an experiment variant",
	}
	out = append(out, "workloads.NAME.PARAM\tper generator\ta parameter of workload NAME (`schedplay workloads` lists the generators and their parameters); workloads.NAME.kind=KIND adds a workload")
	for _, f := range sched.Features() {
		status := ""
		if !f.Modelled() {
			status = " [accepted, not modelled yet]"
		}
		if !f.AllProfiles() {
			status += " [profiles " + strings.Join(f.Profiles(), ", ") + " only]"
		}
		out = append(out, fmt.Sprintf("features.%s\ton|off\t%s%s", f, f.Help(), status))
	}
	for _, k := range sched.SysctlKeys() {
		status := ""
		if !k.Modelled {
			status = " [accepted, not modelled yet]"
		}
		out = append(out, fmt.Sprintf("sysctl.%s\t%s (%d..%d)\t%s%s", k.Name, k.Unit, k.Min, k.Max, k.Help, status))
	}
	out = append(out, "hw.cstates\ton|off\tC-states: off models C-states disabled in the BIOS: POLL and the driver's C1, or the machine's own BIOS-off table (xeon-2s8c-2013: POLL and ACPI C1 = HLT); default on; tables per machine in `schedplay topologies`/core/topology/cstates.go")
	out = append(out, "hw.idle_disable\tstate names, comma-separated\tidle states disabled on every CPU (cpuidle stateN/disable), applied after hw.cstates, e.g. C2; default none")
	out = append(out, "hw.smt\ton|off\tSMT: off takes every SMT sibling but the first thread of each core offline (/sys/devices/system/cpu/smt/control), as with hyperthreading disabled; default on")
	for _, k := range sched.HWKeys() {
		per := ""
		for _, mc := range k.MachineDefaults() {
			per += fmt.Sprintf("; %s: %d (%s)", mc.Machine, mc.Value, mc.Source)
		}
		out = append(out, fmt.Sprintf("hw.%s\t%s\t%s; default %s%s; source: %s", k.Name, k.Unit, k.Help, strconv.FormatInt(k.Default(nil), 10), per, k.Source))
	}
	return out
}
