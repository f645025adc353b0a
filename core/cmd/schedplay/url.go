package main

// schedplay url: print the share URL of a scenario.

import (
	"flag"
	"fmt"
	"io"

	"schedplay/core/scenario"
)

// urlBase is the public address of the playground; the fragment carries the
// scenario, so any host serving the site opens it.
const urlBase = "https://schedplay.github.io/"

func cmdURL(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("url", flag.ContinueOnError)
	fs.SetOutput(stderr)
	preset := fs.String("preset", "", "a built-in scenario instead of SCENARIO")
	base := fs.String("base", urlBase, "address of the playground")
	if err := fs.Parse(args); err != nil {
		return badInput("%v", err)
	}
	if fs.NArg() > 1 {
		return badInput("want at most one SCENARIO")
	}
	sc, _, err := loadScenarioWarn(fs.Arg(0), *preset, stdin, stderr)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s#s=%s\n", *base, scenario.EncodeURLPayload(sc))
	return err
}
