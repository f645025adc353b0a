package main

// Reading a scenario argument: a file, "-" for stdin, a share URL or its
// fragment, or a preset name via -preset.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"schedplay/core/quote"
	"schedplay/core/rtapp"
	"schedplay/core/scenario"
)

// loadScenarioWarn reads a scenario argument (a file, - for stdin, a share
// URL or fragment, or -preset); warnOut receives rt-app
// import warnings, one per line: "warning: FILE: PATH: MESSAGE".
func loadScenarioWarn(arg, preset string, stdin io.Reader, warnOut io.Writer) (*scenario.Scenario, string, error) {
	switch {
	case preset != "" && arg != "":
		return nil, "", badInput("give either -preset or a SCENARIO, not both")
	case preset != "":
		sc, err := scenario.Preset(preset)
		if err != nil {
			return nil, "", badInput("%v", err)
		}
		return sc, preset, nil
	case arg == "":
		sc, err := scenario.Preset("demo/nice-shares")
		if err != nil {
			return nil, "", err
		}
		return sc, "demo/nice-shares", nil
	case strings.HasPrefix(arg, "#") || strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://") || strings.HasPrefix(arg, "s="):
		sc, err := scenario.DecodeURL(arg)
		if err != nil {
			return nil, "", badInput("share URL: %v", err)
		}
		return sc, "url", nil
	}
	var data []byte
	var err error
	name := arg
	if arg == "-" {
		name = "<stdin>"
		data, err = io.ReadAll(io.LimitReader(stdin, scenario.MaxInput+1))
	} else {
		data, err = readFileLimited(arg)
	}
	if err != nil {
		return nil, "", badInput("%s: %v", quote.Clip(name), pathless(err))
	}
	if looksLikeRTApp(data) {
		sc, warns, err := rtapp.Import(data)
		if err != nil {
			return nil, "", badInput("%s: rt-app file: %v", quote.Clip(name), err)
		}
		for _, w := range warns {
			fmt.Fprintf(warnOut, "warning: %s: %s\n", quote.Clip(name), w)
		}
		return sc, name, nil
	}
	sc, err := scenario.Decode(data)
	if err != nil {
		return nil, "", badInput("%s: %v", quote.Clip(name), err)
	}
	return sc, name, nil
}

func readFileLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, scenario.MaxInput+1))
	if err != nil {
		return nil, err
	}
	if len(data) > scenario.MaxInput {
		return nil, fmt.Errorf("larger than %d bytes", scenario.MaxInput)
	}
	return data, nil
}

// pathless is err without the path a *fs.PathError repeats (the caller
// names the file, clipped: quote.Clip).
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// looksLikeRTApp is rtapp.LooksLikeRTApp (one rule for the CLI and the
// playground).
func looksLikeRTApp(data []byte) bool { return rtapp.LooksLikeRTApp(data) }
