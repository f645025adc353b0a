package main

// schedplay url: print the share URL of a scenario (docs/cli.md "Share URLs").
// The link's origin is -base, else SCHEDPLAY_BASE (read by main), else the
// public playground; the fragment carries the scenario, so any host serving
// dist/ opens it (docs/publishing.md).

import (
	"flag"
	"fmt"
	"io"
	"net/url"

	"schedplay/core/scenario"
)

// defaultURLBase is the public address of the playground.
const defaultURLBase = "https://schedplay.github.io/"

// baseEnvVar names the environment variable that sets the share link's origin.
const baseEnvVar = "SCHEDPLAY_BASE"

func cmdURL(args []string, e env, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("url", flag.ContinueOnError)
	fs.SetOutput(stderr)
	preset := fs.String("preset", "", "a built-in scenario instead of SCENARIO")
	baseFlag := fs.String("base", "", "address of the playground, an absolute http(s) URL (default $"+baseEnvVar+", else "+defaultURLBase+")")
	if err := fs.Parse(args); err != nil {
		return badInput("%v", err)
	}
	if fs.NArg() > 1 {
		return badInput("want at most one SCENARIO")
	}
	base, err := shareBase(*baseFlag, e.base)
	if err != nil {
		return err
	}
	sc, _, err := loadScenarioWarn(fs.Arg(0), *preset, stdin, stderr)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s#s=%s\n", base, scenario.EncodeURLPayload(sc))
	return err
}

// shareBase picks the link's origin (the flag wins over the environment)
// and checks it.
func shareBase(flagValue, envValue string) (string, error) {
	switch {
	case flagValue != "":
		return checkBase("-base", flagValue)
	case envValue != "":
		return checkBase(baseEnvVar, envValue)
	}
	return defaultURLBase, nil
}

// checkBase accepts an absolute http or https URL without a fragment (the
// fragment is the scenario's) and gives a bare host the path "/".
func checkBase(source, raw string) (string, error) {
	want := "want an absolute http(s) URL such as https://example.org/schedplay/"
	u, err := url.Parse(raw)
	if err != nil {
		return "", badInput("%s %q: %v: %s", source, raw, err, want)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", badInput("%s %q: scheme %q: %s", source, raw, u.Scheme, want)
	}
	if u.Host == "" || u.Opaque != "" {
		return "", badInput("%s %q: no host: %s", source, raw, want)
	}
	if u.Fragment != "" || u.RawFragment != "" || raw[len(raw)-1] == '#' {
		return "", badInput("%s %q: has a fragment: the link's fragment carries the scenario", source, raw)
	}
	if u.Path == "" && u.RawQuery == "" {
		return raw + "/", nil
	}
	return raw, nil
}
