package main

// Machine: the topology picker and a drawing of the machine as nested boxes
// (package, LLC, cluster, core, SMT threads: view/machine.go lays them out
// from the core's topology package, the same machine the worker simulates)
// whose CPU cells double as a heat map of CPU utilisation: over the visible
// window when a run has finished, over the last stretch of simulated time
// while it is running (recoloured by id on animation frames, runloop.go).
// The drawing's nodes are built directly in the page (drawMachine), not by
// the Vugu template, so page renders do not re-send them; after a render
// only the cells whose colour or tooltip changed are updated (none when the
// window did not move), a finished run's busy shares come from the grid
// folded while it streamed in (view/busy.go), and the CPU cells' tooltips
// share one <title> that follows the pointer (bridge.SetHeat): a 256-CPU
// drawing is 438 elements instead of 694.

import (
	"fmt"
	"strconv"

	"schedplay/core/topology"
	"schedplay/wasm/bridge"
	"schedplay/wasm/view"
)

// Machine is the machine panel.
type Machine struct {
	App *App `vugu:"data"`
}

const (
	machineWidth = 408           // the drawing's width budget (the side panel)
	machineSVG   = "machine-svg" // the <svg> the drawing is built in
)

// machineDrawing is the layout of one topology, computed once per choice.
type machineDrawing struct {
	name    string
	boxes   []view.MachineBox // containers and CPU cells, parents first
	cpus    []view.MachineBox // CPU cells by CPU id
	w, h    int
	compact bool

	// The fills and tooltips last sent to the page's cells (recolourMachine),
	// reset when the cells are rebuilt.
	shownFill, shownTip []string
}

func (a *App) drawing() *machineDrawing {
	if a.machine != nil && a.machine.name == a.Sc.Topology {
		return a.machine
	}
	d := &machineDrawing{name: a.Sc.Topology}
	a.machine = d
	m, err := topology.Preset(a.Sc.Topology)
	if err != nil {
		return d
	}
	d.boxes, d.w, d.h = view.MachineLayout(&m, machineWidth)
	d.cpus = make([]view.MachineBox, m.NumCPUs())
	for _, b := range d.boxes {
		if b.Kind == "cpu" {
			d.cpus[b.CPU] = b
		}
	}
	d.compact = m.NumCPUs() > view.CompactCPUs
	return d
}

// names and summary are kept between renders: topology.Names and Preset
// build every preset machine on each call (3 ms in WASM, per render).
func (c *Machine) names() []string {
	if c.App.topoNames == nil {
		c.App.topoNames = topology.Names()
	}
	return c.App.topoNames
}

func (c *Machine) summary() string {
	a := c.App
	if a.topoSumFor == a.Sc.Topology {
		return a.topoSum
	}
	a.topoSumFor, a.topoSum = a.Sc.Topology, ""
	if m, err := topology.Preset(a.Sc.Topology); err == nil {
		a.topoSum = fmt.Sprintf("%d CPUs: %s", m.NumCPUs(), m.Summary)
	}
	return a.topoSum
}

// drawMachine builds the drawing's SVG nodes when the topology changed or
// a render replaced the <svg> (outside Vugu's tree: a full page render
// re-sends every element, and a 256-CPU drawing has a thousand), then
// colours the heat map. Called after each render.
func (a *App) drawMachine() {
	if a.Trace != nil || a.Embed {
		return
	}
	d := a.drawing()
	n := bridge.ChildCount(machineSVG)
	if n < 0 {
		return
	}
	if a.machineDrawn != d || n == 0 {
		if bridge.BuildSVG(machineSVG, machineNodes(d)) != nil {
			return
		}
		a.machineDrawn = d
		a.Probe.machBuilds++
		d.shownFill, d.shownTip = nil, nil // new cells: all colours unsent
	}
	a.recolourMachine(true)
}

// recolourMachine sets the heat-map colours (and tooltips) of the CPU
// cells in one call, sending only the cells whose colour or tooltip
// changed since the last call (after a render that moved nothing, none:
// no call at all).
func (a *App) recolourMachine(titles bool) {
	d := a.drawing()
	if a.machineDrawn != d {
		return // not in the page yet
	}
	fills, tips := machineHeat(a, titles)
	if d.shownFill == nil {
		d.shownFill, d.shownTip = make([]string, len(fills)), make([]string, len(fills))
	}
	changed := false
	for i := range fills {
		if fills[i] == d.shownFill[i] {
			fills[i] = "" // unchanged: the page skips it
		} else {
			d.shownFill[i], changed = fills[i], true
		}
		if tips == nil {
			continue
		}
		if tips[i] == d.shownTip[i] {
			tips[i] = ""
		} else {
			d.shownTip[i], changed = tips[i], true
		}
	}
	if changed {
		a.Probe.machSends++
		bridge.SetHeat("cpu-box-", fills, tips)
	}
}

// machineNodes are the SVG elements of a drawing: containers (parents
// first), their labels, then the CPU cells with their numbers.
func machineNodes(d *machineDrawing) []bridge.SVGNode {
	var out []bridge.SVGNode
	num := func(v int) string { return strconv.Itoa(v) }
	for _, b := range d.boxes {
		if b.Kind == "cpu" {
			continue
		}
		title := b.Title
		if d.compact && b.Kind == "core" {
			title = "" // a core's threads say it all; a thousand fewer nodes
		}
		out = append(out, bridge.SVGNode{Tag: "rect", Title: title, Attrs: [][2]string{{"x", num(b.X + 1)}, {"y", num(b.Y + 1)},
			{"width", num(b.W)}, {"height", num(b.H)}, {"rx", "4"}, {"class", "mbox m-" + b.Kind}}})
		if b.Label != "" {
			out = append(out, bridge.SVGNode{Tag: "text", Text: b.Label, Attrs: [][2]string{{"x", num(b.X + 5)},
				{"y", num(b.Y + 11)}, {"class", "box-label"}}})
		}
	}
	for _, b := range d.cpus {
		// No <title> per cell: recolourMachine's tooltips are shown by one
		// <title> moved into the cell under the pointer (bridge.SetHeat).
		out = append(out, bridge.SVGNode{Tag: "rect", Attrs: [][2]string{{"id", fmt.Sprintf("cpu-box-%d", b.CPU)}, {"x", num(b.X + 1)}, {"y", num(b.Y + 1)},
			{"width", num(b.W)}, {"height", num(b.H)}, {"rx", "2"}, {"fill", "#2a313c"}, {"class", "cpu"}}})
		if b.Label != "" {
			out = append(out, bridge.SVGNode{Tag: "text", Text: b.Label, Attrs: [][2]string{{"x", num(b.X + 4)},
				{"y", num(b.Y + 14)}, {"class", "cpu-label"}}})
		}
	}
	return out
}

// machineHeat is the heat-map colour of each CPU cell, indexed by CPU id,
// and with titles its tooltip: the busy share over the visible window when
// a run has finished, over the last twentieth of the run while it streams
// in (also recoloured, by id, on animation frames then). A finished run's
// busy time is read from the grid folded while it streamed in
// (view/busy.go), not by walking its slices.
func machineHeat(a *App, titles bool) (fills, tips []string) {
	d := a.drawing()
	r := a.Run
	t0, t1 := a.TL.VP.T0, a.TL.VP.T1
	if r != nil && a.Ctl.Running {
		t1 = r.Now()
		t0 = max(0, t1-r.Duration()/20)
	}
	fills = make([]string, len(d.cpus))
	if titles {
		tips = make([]string, len(d.cpus))
	}
	var window string
	for i, b := range d.cpus {
		fills[i] = "#2a313c"
		if titles {
			tips[i] = b.Title
		}
		if r == nil || i >= r.NumCPUs() || t1 <= t0 {
			continue
		}
		u := float64(r.Timeline.BusyFolded(i, t0, t1)) / float64(t1-t0)
		fills[i] = view.Heat(u).Hex()
		if titles {
			if window == "" {
				window = view.FormatDur(int64(t0)) + ".." + view.FormatDur(int64(t1))
			}
			tips[i] = fmt.Sprintf("CPU%d: %.0f%% busy in %s", i, 100*u, window)
		}
	}
	return fills, tips
}

func (c *Machine) height() int { return c.App.drawing().h + 2 }

func (c *Machine) width() int { return max(c.App.drawing().w+2, 60) }

func (c *Machine) svgClass() string {
	if c.App.drawing().compact {
		return "machine-svg compact"
	}
	return "machine-svg"
}
