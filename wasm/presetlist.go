package main

// The header's preset list: a <select> whose options the bridge writes
// once (bridge.Fill), outside Vugu's tree.
//
// In the template, each of the ~20 presets was an <option> with its
// value, title (the description) and selected state, and its name as a
// vg-content: Vugu v0.4.0 re-sends every attribute and innerHTML of the
// tree on each render (rendersize.go), so the list was about a fifth of
// every page render's elements, a third of its innerHTML sets, for a list
// that never changes. Now a render sets only the select's value, after it
// (AfterRender): the preset shown, or "" (the "gallery…" entry) for a
// scenario that is not a preset as it stands.

import "schedplay/wasm/bridge"

// fillPresets writes the options once (Fill's key: the list is fixed for
// the page's life) and selects the current preset.
func (a *App) fillPresets() {
	if a.Embed {
		return // no list in the embedded page
	}
	bridge.Fill(idPreset, "presets", func(b *bridge.Markup) {
		b.El("option", "gallery…", "value", "")
		for _, p := range a.Presets {
			b.El("option", p.Name, "value", p.Name, "title", p.Description)
		}
	})
	bridge.SetValue(idPreset, a.PresetName)
}
