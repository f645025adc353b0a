package scenario

// Built-in scenarios, embedded from presets/*.json at build time.

import (
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"schedplay/core/quote"
)

//go:embed presets/*.json
var presetFS embed.FS

// PresetInfo names and summarises a preset.
type PresetInfo struct {
	Name, Description string
}

func presetFile(name string) string {
	return "presets/" + strings.ReplaceAll(name, "/", "__") + ".json"
}

// Preset returns the named built-in scenario.
func Preset(name string) (*Scenario, error) {
	data, err := presetFS.ReadFile(presetFile(name))
	if err != nil {
		var names []string
		for _, p := range Presets() {
			names = append(names, p.Name)
		}
		return nil, quote.Errorf("unknown preset %q (known: %s)", name, strings.Join(names, ", "))
	}
	sc, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("preset %s: %v", name, err)
	}
	return sc, nil
}

// Presets lists the built-in scenarios in name order.
func Presets() []PresetInfo {
	ents, _ := presetFS.ReadDir("presets")
	var out []PresetInfo
	for _, e := range ents {
		name := strings.ReplaceAll(strings.TrimSuffix(e.Name(), ".json"), "__", "/")
		data, _ := presetFS.ReadFile("presets/" + e.Name())
		// Only the description: a full Decode builds and validates the
		// machine and every experiment configuration, 20x the cost (about
		// 90 ms natively and 1-3 s in the browser's WASM for the list, on
		// the playground's first render). Preset (and the tests that open
		// every preset) still decodes each one in full.
		var head struct {
			Description string `json:"description"`
		}
		json.Unmarshal(data, &head)
		out = append(out, PresetInfo{Name: name, Description: head.Description})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
