package main

// schedplay export-rtapp: print the workload of a scenario as an rt-app
// configuration (core/rtapp), for running the same workload on a real
// machine with rt-app.

import (
	"flag"
	"fmt"
	"io"

	"schedplay/core/quote"
	"schedplay/core/rtapp"
)

func cmdExportRTApp(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("export-rtapp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	preset := fs.String("preset", "", "a built-in scenario instead of SCENARIO")
	cgScript := fs.String("cgroups", "", "write the shell script that creates the scenario's cgroups with their settings (run it as root before rt-app) to this file")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: schedplay export-rtapp [-preset NAME] [-cgroups SCRIPT] [SCENARIO]\n\nPrints rt-app JSON on stdout; what rt-app cannot carry (machine, kernel, rounding) is reported on stderr.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return badInput("%v", err)
	}
	if fs.NArg() > 1 {
		return badInput("want at most one SCENARIO")
	}
	sc, name, err := loadScenarioWarn(fs.Arg(0), *preset, stdin, stderr)
	if err != nil {
		return err
	}
	out, warns, err := rtapp.Export(sc)
	if err != nil {
		return badInput("%s: %v", quote.Clip(name), err)
	}
	script, cgWarns, err := rtapp.CgroupScript(sc)
	if err != nil {
		return badInput("%s: %v", quote.Clip(name), err)
	}
	switch {
	case script != "" && *cgScript != "":
		warns = append(warns, cgWarns...)
		if err := writeFileAtomic(*cgScript, []byte(script)); err != nil {
			return err
		}
	case script != "":
		warns = append(warns, rtapp.Warning{Path: "cgroups", Msg: "rt-app creates the taskgroups but sets no cpu.weight, cpu.max or cpuset: pass -cgroups FILE for the script that does"})
	case *cgScript != "":
		warns = append(warns, rtapp.Warning{Path: "cgroups", Msg: "the scenario has no cgroups: no script written"})
	}
	for _, w := range warns {
		fmt.Fprintf(stderr, "warning: %s: %s\n", quote.Clip(name), w)
	}
	_, err = stdout.Write(out)
	return err
}
