package main

// Editor: the scenario as JSON. Apply decodes it with the core's strict
// decoder; an error is shown with its JSON path (tasks[1].nice) next to the
// editor, and the line of the offending key is pointed out when it can be
// found, so the message sits at the field it concerns.

import (
	"strings"
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
	c.App.JSONText = prettyJSON(c.App.Sc.Encode())
	c.App.JSONErr = nil
}
