package main

// Tabs and collapsible sections of the side panel. The side panel shows
// the machine drawing (the live heat map) and below it one tab at a time:
// Workload (the default), Kernel (knobs) or JSON (the scenario editor).
// Panels of other tabs, and closed sections of the Kernel tab, are not in
// the page at all (vg-if), for two reasons:
//
//   - Vugu v0.4.0's DOM renderer re-sends every attribute, property and
//     vg-content of the whole tree on each render (it keeps no copy of the
//     previous values), so a render costs in proportion to the page; the
//     Kernel panel alone was over half of it (a feature list with help
//     lines, the hw keys and the sysctls), rendered at each run start and
//     end. Leaving it out cut the render and the first render.
//   - A laptop screen shows one panel beside the timeline without
//     scrolling the page.
//
// The open sections are App state, not <details>: Vugu removes every
// attribute it did not set, so a <details> the user had opened closed again
// at the next render (a run's end).
//
// Adding a panel: a button in root.vugu's <nav class="tabs"> with id
// "tab-NAME" and a `vg-if='c.App.TabShown("NAME")'` line for the panel
// after the others.

// Tab names.
const (
	TabWorkload = "workload"
	TabKernel   = "kernel"
	TabJSON     = "json"
)

// ShowTab selects the side panel's tab.
func (a *App) ShowTab(name string) { a.Tab = name }

// TabShown reports whether name is the selected tab (Workload by default).
func (a *App) TabShown(name string) bool {
	if a.Tab == "" {
		return name == TabWorkload
	}
	return a.Tab == name
}

// ToggleSection opens or closes a collapsible section.
func (a *App) ToggleSection(name string) {
	if a.open == nil {
		a.open = map[string]bool{}
	}
	a.open[name] = !a.SectionOpen(name)
}

// SectionOpen reports whether the section is open; the feature list is
// open unless closed, the others closed unless opened.
func (a *App) SectionOpen(name string) bool {
	if on, ok := a.open[name]; ok {
		return on
	}
	return name == "features"
}

func (c *Root) tabClass(name string) string {
	if c.App.TabShown(name) {
		return "tab on"
	}
	return "tab"
}

func (c *Root) tabSelected(name string) string {
	if c.App.TabShown(name) {
		return "true"
	}
	return "false"
}

// sectionHead is a section button's text, with its open/closed marker.
func (c *Knobs) sectionHead(name, title string) string {
	if c.App.SectionOpen(name) {
		return "▾ " + title
	}
	return "▸ " + title
}

func (c *Knobs) expanded(name string) string {
	if c.App.SectionOpen(name) {
		return "true"
	}
	return "false"
}
