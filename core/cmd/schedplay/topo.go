package main

// schedplay topo NAME: the machine and its sched domains, rendered like the
// kernel's CONFIG_SCHED_DEBUG output (sched_domain_debug() with
// sched_verbose) and the /sys/kernel/debug/sched/domains view.

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"schedplay/core/quote"
	"schedplay/core/sched"
	"schedplay/core/topology"
)

func cmdTopo(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("topo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kernel := fs.String("kernel", "v6.18", "kernel profile, e.g. v5.8, v6.6, v6.18")
	var sets multiFlag
	fs.Var(&sets, "set", "features.NAME=on|off (repeatable), e.g. features.SCHED_CLUSTER=on")
	debugfs := fs.Bool("debugfs", false, "also print /sys/kernel/debug/sched/domains/cpuN/domainM/{name,flags,...}")
	// Flags may come before or after NAME.
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return badInput("%v", err)
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(pos) != 1 {
		return badInput("want one topology NAME (see `schedplay topologies`)")
	}
	m, err := topology.Preset(pos[0])
	if err != nil {
		return badInput("%v", err)
	}
	prof, err := sched.ProfileByName(*kernel)
	if err != nil {
		return badInput("-kernel: %v", err)
	}
	for _, kv := range sets {
		k, v, ok := strings.Cut(kv, "=")
		name, isFeat := strings.CutPrefix(k, "features.")
		if !ok || !isFeat || (v != "on" && v != "off") {
			return badInput("-set %q: want features.NAME=on|off", kv)
		}
		f, ok := sched.FeatureByName(name)
		if !ok {
			return badInput("-set %q: unknown feature %s", kv, quote.Clip(name))
		}
		if err := prof.CheckFeature(f); err != nil {
			return badInput("-set %q: %v", kv, err)
		}
		prof.Features = prof.Features.With(f, v == "on")
	}
	s, err := sched.New(sched.Config{Machine: m, Profile: prof, Sysctls: prof.DefaultSysctls(m.NumCPUs()),
		Duration: sched.Millisecond, Seed: 1})
	if err != nil {
		return badInput("%v", err)
	}
	fmt.Fprint(stdout, m.Describe())
	if m.Source != "" {
		fmt.Fprintf(stdout, "source: %s\n", m.Source)
	}
	fmt.Fprintf(stdout, "\nkernel %s (%s)\n", prof.Name, prof.Features.Describe())
	fmt.Fprint(stdout, s.DescribeDomains())
	if *debugfs {
		fmt.Fprintln(stdout)
		fmt.Fprint(stdout, s.DescribeDebugfs())
	}
	return nil
}
