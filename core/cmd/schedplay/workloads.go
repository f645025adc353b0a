package main

// schedplay workloads: the workload generators and their parameters, or
// (-expand) the task groups a scenario's workloads expand to.

import (
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"schedplay/core/quote"
	"schedplay/core/scenario"
)

func cmdWorkloads(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("workloads", flag.ContinueOnError)
	fs.SetOutput(stderr)
	expand := fs.Bool("expand", false, "print SCENARIO with its workloads expanded into task groups (canonical JSON)")
	preset := fs.String("preset", "", "with -expand: a built-in scenario instead of SCENARIO")
	var sets multiFlag
	fs.Var(&sets, "set", "with -expand: override a scenario key first, KEY=VALUE (repeatable)")
	if err := fs.Parse(args); err != nil {
		return badInput("%v", err)
	}
	if !*expand {
		if fs.NArg() > 0 || *preset != "" || len(sets) > 0 {
			return badInput("a SCENARIO, -preset or -set needs -expand")
		}
		return listWorkloads(stdout)
	}
	if fs.NArg() > 1 {
		return badInput("want at most one SCENARIO, got %d", fs.NArg())
	}
	sc, name, err := loadScenarioWarn(fs.Arg(0), *preset, stdin, stderr)
	if err != nil {
		return err
	}
	for _, kv := range sets {
		if err := sc.Set(kv); err != nil {
			return badInput("-set: %v", err)
		}
	}
	full, err := sc.Expanded()
	if err != nil {
		return badInput("%s: %v", quote.Clip(name), err)
	}
	if err := full.Validate(); err != nil {
		return badInput("%s: %v", quote.Clip(name), err)
	}
	_, err = fmt.Fprintf(stdout, "%s\n", full.Encode())
	return err
}

// listWorkloads prints every generator: its kind and what it models, then
// one line per parameter (name, type, default, range, meaning).
func listWorkloads(w io.Writer) error {
	for i, k := range scenario.WorkloadKinds() {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s: %s\n", k.Kind, k.Models)
		tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
		for _, p := range k.Params {
			def := p.Default
			if def == "" {
				def = "(see text)"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", p.Name, p.Type, def, p.Range(), p.Help)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}
