package main

// Editor: the scenario as JSON. Apply decodes it with the core's strict
// decoder; an error is shown with its JSON path (tasks[1].nice) next to the
// editor, and the line of the offending key is pointed out when it can be
// found, so the message sits at the field it concerns.
//
// The textarea's value is not a Vugu attribute: Vugu sends a property as
// one render instruction, and one longer than its 16 KiB instruction
// buffer stops the page's Go program ("requested instruction does not fit
// in the buffer"), which any large scenario (seed/newidle-rt-latency's
// JSON is 23 KB) would do. The page sets the value itself after the
// render (fillEditor), only when its text changed, so every scenario up
// to the decoder's bound (scenario.MaxInput) shows and applies, and a
// longer one is refused with the decoder's message at Apply.

import (
	"strings"

	"schedplay/wasm/bridge"
)

// Editor is the JSON editor panel.
type Editor struct {
	App *App `vugu:"data"`
}

func (c *Editor) apply() { c.App.ApplyJSON(c.App.JSONText) }

func (c *Editor) textOr() string { return c.App.JSONText }

// input keeps the text being typed; it is decoded only on Apply.
func (c *Editor) input(v string) { c.App.JSONText = v }

func (c *Editor) errPath() string {
	if c.App.JSONErr == nil || c.App.JSONErr.Path == "" {
		return "(document)"
	}
	return c.App.JSONErr.Path
}

// errLine guesses the line of the error's last path element.
func (c *Editor) errLine() string {
	e := c.App.JSONErr
	if e == nil || e.Path == "" {
		return ""
	}
	key := e.Path
	if i := strings.LastIndexAny(key, ".]"); i >= 0 && key[i] == '.' {
		key = key[i+1:]
	}
	if i := strings.IndexByte(key, '['); i >= 0 {
		key = key[:i]
	}
	for n, line := range strings.Split(c.textOr(), "\n") {
		if strings.Contains(line, `"`+key+`"`) {
			return "line " + itoa(n+1) + ": " + strings.TrimSpace(line)
		}
	}
	return ""
}

func itoa(n int) string {
	b := []byte{}
	for n > 0 || len(b) == 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

func (c *Editor) reset() {
	c.App.setJSONText(prettyJSON(c.App.Sc.Encode()))
	c.App.JSONErr = nil
}

// setJSONText replaces the editor's text with the page's own (a new
// scenario, an edit elsewhere): the textarea gets it after the render.
func (a *App) setJSONText(s string) {
	a.JSONText = s
	a.jsonGen++
}

// fillEditor puts the page's text in the JSON tab's textarea when it
// changed since the textarea last got it (called after each render).
func (a *App) fillEditor() {
	if _, err := bridge.SetValueGen("json", a.jsonGen, a.JSONText); err != nil {
		a.Notice = "JSON editor: " + err.Error()
	}
}
