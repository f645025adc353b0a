package main

// Reading a scenario argument: a file, "-" for stdin, a share URL or its
// fragment, or a preset name via -preset.

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"schedplay/core/scenario"
)

func loadScenario(arg, preset string, stdin io.Reader) (*scenario.Scenario, string, error) {
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
		return nil, "", badInput("%s: %v", name, err)
	}
	if looksLikeRTApp(data) {
		return nil, "", badInput("%s: this looks like an rt-app configuration; rt-app import is not implemented yet (write the workload in the scenario format, docs/scenario-format.md)", name)
	}
	sc, err := scenario.Decode(data)
	if err != nil {
		return nil, "", badInput("%s: %v", name, err)
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

// looksLikeRTApp spots rt-app's layout: a "tasks" object (not array) or a
// "global" section, and no "version".
func looksLikeRTApp(data []byte) bool {
	if bytes.Contains(data, []byte(`"version"`)) {
		return false
	}
	return bytes.Contains(data, []byte(`"global"`)) || bytes.Contains(data, []byte(`"tasks" :`)) && bytes.Contains(data, []byte(`"instance"`))
}
