//go:build browser

package browsertest

// The JSON tab takes any scenario the decoder's bound accepts
// (wasm/editor.go): the largest preset's JSON, pasted and applied, runs
// and stays in the editor (Vugu's 16 KiB render instruction used to stop
// the page's Go program on it), and a paste over scenario.MaxInput gets
// the decoder's message at Apply while the page keeps working.

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"schedplay/core/scenario"
)

// largestPreset is the preset with the longest JSON, as the editor shows it.
func largestPreset(t *testing.T) (string, string) {
	t.Helper()
	var name, text string
	for _, p := range scenario.Presets() {
		sc, err := scenario.Preset(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := json.Indent(&b, sc.Encode(), "", "  "); err != nil {
			t.Fatal(err)
		}
		if b.Len() > len(text) {
			name, text = p.Name, b.String()
		}
	}
	return name, text
}

func TestJSONTabLargeScenario(t *testing.T) {
	name, text := largestPreset(t)
	if len(text) <= 16<<10 {
		t.Fatalf("the largest preset, %s, is %d bytes: not past Vugu's 16 KiB buffer, the test shows nothing", name, len(text))
	}
	tb := newTab(t)
	tb.open("/")
	tb.waitDone()
	tb.openTab("json")
	// A new name, so the applied scenario is told from the first visit's.
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatal(err)
	}
	m["name"] = "pasted/large"
	big, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	tb.applyJSON(string(big))
	tb.waitFor(`window.schedplay.done && !window.schedplay.jsonError && document.querySelector("#scname").textContent.indexOf("pasted/large") >= 0`, 90*time.Second)
	if n := eval[int](tb, `document.querySelector("#json").value.length`); n < len(text)*9/10 {
		t.Fatalf("the editor holds %d characters after applying %s's %d", n, name, len(big))
	}
	if n := eval[int](tb, `window.schedplay.slices || 0`); n == 0 {
		t.Fatalf("%s's JSON applied but drew no slices", name)
	}
	// Switching tabs re-creates the textarea: it gets the text again.
	tb.openTab("kernel")
	tb.openTab("json")
	if got := eval[string](tb, `document.querySelector("#json").value`); !strings.Contains(got, `"pasted/large"`) {
		t.Fatalf("the JSON tab opened again without the scenario (%d characters)", len(got))
	}

	// Over the bound: the decoder's message, and the page goes on.
	m["description"] = strings.Repeat("x", scenario.MaxInput)
	over, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	tb.applyJSON(string(over))
	tb.waitFor(`!!document.querySelector("#json-error")`, 30*time.Second)
	msg := eval[string](tb, `document.querySelector("#json-error").textContent`)
	if !strings.Contains(msg, strconv.Itoa(len(over))+" bytes") || !strings.Contains(msg, "the limit is "+strconv.Itoa(scenario.MaxInput)) {
		t.Fatalf("over the bound, the editor says %q", msg)
	}
	tb.openTab("kernel")
	tb.change("#hz", "1000")
	tb.waitFor(`window.schedplay.done && window.schedplay.scenarioJSON.indexOf('"hz": 1000') >= 0`, 90*time.Second)
	tb.openTab("json")
	if got := eval[string](tb, `document.querySelector("#json").value`); !strings.Contains(got, `"hz": 1000`) || strings.Contains(got, "xxxxxxxx") {
		t.Fatalf("after a knob change the editor holds %d characters without the change", len(got))
	}
}
