package main

// The listing commands: presets, topologies, keys.

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/core/topology"
)

func cmdPresets(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, p := range scenario.Presets() {
		fmt.Fprintf(tw, "%s\t%s\n", p.Name, p.Description)
	}
	return tw.Flush()
}

func cmdTopologies(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, m := range topology.List() {
		// "NAME  N CPUs" stays one cell so its spacing does not depend on
		// the longest name; the summaries line up after it.
		fmt.Fprintf(tw, "%s  %d CPUs\t%s\n", m.Name, m.NumCPUs(), m.Summary)
	}
	return tw.Flush()
}

func cmdKeys(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, line := range scenario.Keys() {
		fmt.Fprintln(tw, line)
	}
	fmt.Fprintln(tw, "")
	fmt.Fprintln(tw, "profile\tclass\tHZ\tpreempt\tfeatures on by default")
	for _, p := range sched.Profiles() {
		var on []string
		for _, f := range sched.Features() {
			if p.Features.Has(f) {
				on = append(on, f.String())
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", p.Name, p.Class, p.HZ, p.Preempt, strings.Join(on, " "))
	}
	return tw.Flush()
}
