package main

// Gallery: a card for every built-in preset, the seed/ presets (the
// mailing-list threads of docs/VALIDATION.md) first with their thread's
// subject, date and kind, then the demos. Opening a card loads the preset
// and runs it; a card with an experiment block lists its configurations
// and can start the thread's experiment at once (thread-panel.go shows
// it). Every string is rendered with vg-content (escaped).

import (
	"sort"
	"strings"

	"schedplay/core/scenario"
)

// Gallery is the gallery view.
type Gallery struct {
	App *App `vugu:"data"`
}

// Card is one preset in the gallery.
type Card struct {
	Name, Description string
	Thread, Date      string // the experiment block's thread ("" if none)
	Kind              string // calibration or emergent
	Configs           []string
	Variants          []string
	Seed              bool // a seed/ preset
}

// galleryCards builds the cards of the presets: the seed presets first,
// then other presets with an experiment block (e.g. a seed's earlier
// workload kept as a demo), then the others, each by name.
func galleryCards(presets []scenario.PresetInfo) []Card {
	var out []Card
	for _, p := range presets {
		c := Card{Name: p.Name, Description: p.Description, Seed: strings.HasPrefix(p.Name, "seed/")}
		if sc, err := scenario.Preset(p.Name); err == nil && sc.Experiment != nil {
			e := sc.Experiment
			c.Thread, c.Date, c.Kind = e.Thread, e.Date, e.Kind
			for _, cf := range e.Configs {
				c.Configs = append(c.Configs, cf.Name)
			}
			for _, v := range e.Variants {
				c.Variants = append(c.Variants, v.Name)
			}
		}
		out = append(out, c)
	}
	rank := func(c Card) int {
		switch {
		case c.Seed:
			return 0
		case c.Thread != "":
			return 1
		}
		return 2
	}
	sort.SliceStable(out, func(i, j int) bool {
		if ri, rj := rank(out[i]), rank(out[j]); ri != rj {
			return ri < rj
		}
		return out[i].Name < out[j].Name
	})
	return out
}

func (c *Gallery) cards() []Card {
	g := c.App.gal()
	if g.cards == nil {
		g.cards = galleryCards(c.App.Presets)
	}
	return g.cards
}

// ToggleGallery opens or closes the gallery.
func (a *App) ToggleGallery() { a.gal().Open = !a.gal().Open }

// OpenPreset loads a preset ready to run (and runs it), closing the
// gallery.
func (a *App) OpenPreset(name string) {
	g := a.gal()
	g.Open = false
	if g.Name != name {
		g.Variant, g.CfgA, g.CfgB, g.Runs = 0, 0, 1, 0
	}
	a.SelectPreset(name)
}

// OpenThread opens a preset and runs its thread's experiment.
func (a *App) OpenThread(name string) {
	a.OpenPreset(name)
	if a.PresetName == name {
		a.StartThread()
	}
}

func cardClass(c Card) string {
	if c.Thread != "" {
		return "card seed"
	}
	return "card"
}

func (c Card) cardID() string { return "card-" + strings.ReplaceAll(c.Name, "/", "-") }

func (c Card) threadLine() string {
	s := c.Thread
	if c.Date != "" {
		s += " (" + c.Date + ")"
	}
	return s
}

func (c Card) configsLine() string {
	s := "configurations: " + strings.Join(c.Configs, " · ")
	if len(c.Variants) > 0 {
		s += "; variants: " + strings.Join(c.Variants, " · ")
	}
	return s
}
