package main

// Machine: the topology picker and a drawing of the machine as nested boxes
// (package, LLC, cluster, core, SMT threads: view/machine.go lays them out
// from the core's topology package, the same machine the worker simulates)
// whose CPU cells double as a heat map of CPU utilisation: over the visible
// window when a run has finished, over the last stretch of simulated time
// while it is running (recoloured by id on animation frames, runloop.go).
// The drawing's nodes are built directly in the page (drawMachine), not by
// the Vugu template, so page renders do not re-send them.

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

// CPUBox is one CPU cell of the drawing.
type CPUBox struct {
	X, Y, W, H int
	Label      string
	Fill       string
	Title      string
	ID         string
}

// machineDrawing is the layout of one topology, computed once per choice.
type machineDrawing struct {
	name    string
	boxes   []view.MachineBox // containers and CPU cells, parents first
	cpus    []view.MachineBox // CPU cells by CPU id
	w, h    int
	compact bool
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
	}
	a.recolourMachine(true)
}

// recolourMachine sets the heat-map colours (and tooltips) of the CPU
// cells in one call.
func (a *App) recolourMachine(titles bool) {
	boxes := machineBoxes(a)
	fills := make([]string, len(boxes))
	var tips []string
	for i, b := range boxes {
		fills[i] = b.Fill
		if titles {
			tips = append(tips, b.Title)
		}
	}
	bridge.SetHeat("cpu-box-", "cpu-title-", fills, tips)
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
		out = append(out, bridge.SVGNode{Tag: "rect", Title: b.Title, TitleID: fmt.Sprintf("cpu-title-%d", b.CPU),
			Attrs: [][2]string{{"id", fmt.Sprintf("cpu-box-%d", b.CPU)}, {"x", num(b.X + 1)}, {"y", num(b.Y + 1)},
				{"width", num(b.W)}, {"height", num(b.H)}, {"rx", "2"}, {"fill", "#2a313c"}, {"class", "cpu"}}})
		if b.Label != "" {
			out = append(out, bridge.SVGNode{Tag: "text", Text: b.Label, Attrs: [][2]string{{"x", num(b.X + 4)},
				{"y", num(b.Y + 14)}, {"class", "cpu-label"}}})
		}
	}
	return out
}

// machineBoxes colours the CPU cells, indexed by CPU id (also recoloured
// directly, by id, on animation frames while a worker run streams in).
func machineBoxes(a *App) []CPUBox {
	d := a.drawing()
	r := a.Run
	t0, t1 := a.TL.VP.T0, a.TL.VP.T1
	if r != nil && a.Running {
		t1 = r.Now()
		t0 = max(0, t1-r.Duration()/20)
	}
	out := make([]CPUBox, 0, len(d.cpus))
	for i, b := range d.cpus {
		u := -1.0
		if r != nil && i < r.NumCPUs() && t1 > t0 {
			u = float64(r.Timeline.Busy(i, t0, t1)) / float64(t1-t0)
		}
		fill, title := "#2a313c", b.Title
		if u >= 0 {
			fill = view.Heat(u).Hex()
			title = fmt.Sprintf("CPU%d: %.0f%% busy in %s..%s", i, 100*u, view.FormatDur(int64(t0)), view.FormatDur(int64(t1)))
		}
		out = append(out, CPUBox{X: b.X, Y: b.Y, W: b.W, H: b.H, Label: b.Label, Fill: fill, Title: title,
			ID: fmt.Sprintf("cpu-box-%d", i)})
	}
	return out
}

func (c *Machine) height() int { return c.App.drawing().h + 2 }

func (c *Machine) width() int { return max(c.App.drawing().w+2, 60) }

func (c *Machine) svgClass() string {
	if c.App.drawing().compact {
		return "machine-svg compact"
	}
	return "machine-svg"
}
