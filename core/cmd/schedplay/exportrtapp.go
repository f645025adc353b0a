package main

// schedplay export-rtapp: print the workload of a scenario as an rt-app
// configuration (core/rtapp), for running the same workload on a real
// machine with rt-app.

import (
	"flag"
	"fmt"
	"io"

	"schedplay/core/rtapp"
)

func cmdExportRTApp(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("export-rtapp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	preset := fs.String("preset", "", "a built-in scenario instead of SCENARIO")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: schedplay export-rtapp [-preset NAME] [SCENARIO]\n\nPrints rt-app JSON on stdout; what rt-app cannot carry (machine, kernel, rounding) is reported on stderr.")
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
		return badInput("%s: %v", name, err)
	}
	for _, w := range warns {
		fmt.Fprintf(stderr, "warning: %s: %s\n", name, w)
	}
	_, err = stdout.Write(out)
	return err
}
