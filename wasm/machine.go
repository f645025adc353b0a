package main

// Machine: the topology picker and a drawing of the machine (one box per
// CPU inside its package) that doubles as a heat map of CPU utilisation:
// over the visible window when a run has finished, over the last stretch of
// simulated time while it is running.

import (
	"fmt"

	"schedplay/core/sched"
	"schedplay/core/topology"
	"schedplay/wasm/view"
)

// Machine is the machine panel.
type Machine struct {
	App *App `vugu:"data"`
}

// CPUBox is one CPU of the drawing.
type CPUBox struct {
	X, Y, W, H int
	Label      string
	Fill       string
	Title      string
	ID         string
}

func (c *Machine) names() []string { return topology.Names() }

func (c *Machine) summary() string {
	m, err := topology.Preset(c.App.Sc.Topology)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d CPUs: %s", m.NumCPUs(), m.Summary)
}

const boxW, boxH, boxGap, perRow = 34, 24, 4, 8

func (c *Machine) boxes() []CPUBox { return machineBoxes(c.App) }

// machineBoxes lays out and colours the CPU boxes (also recoloured
// directly, by id, on animation frames while a worker run streams in).
func machineBoxes(a *App) []CPUBox {
	m, err := topology.Preset(a.Sc.Topology)
	if err != nil {
		return nil
	}
	r := a.Run
	t0, t1 := a.TL.VP.T0, a.TL.VP.T1
	if r != nil && a.Running {
		t1 = r.Now()
		t0 = max(0, t1-r.Duration()/20)
	}
	out := make([]CPUBox, 0, m.NumCPUs())
	for i := range m.CPUs {
		u := -1.0
		if r != nil && i < r.NumCPUs() && t1 > t0 {
			u = float64(r.Timeline.Busy(i, t0, t1)) / float64(t1-t0)
		}
		fill, title := "#2a313c", fmt.Sprintf("CPU%d", i)
		if u >= 0 {
			fill = view.Heat(u).Hex()
			title = fmt.Sprintf("CPU%d: %.0f%% busy in %s..%s", i, 100*u, view.FormatDur(int64(t0)), view.FormatDur(int64(t1)))
		}
		out = append(out, CPUBox{X: 8 + (i%perRow)*(boxW+boxGap), Y: 24 + (i/perRow)*(boxH+boxGap),
			W: boxW, H: boxH, Label: fmt.Sprint(i), Fill: fill, Title: title, ID: fmt.Sprintf("cpu-box-%d", i)})
	}
	return out
}

func (c *Machine) height() int {
	m, _ := topology.Preset(c.App.Sc.Topology)
	rows := (max(m.NumCPUs(), 1) + perRow - 1) / perRow
	return 32 + rows*(boxH+boxGap)
}

func (c *Machine) width() int { return 16 + perRow*(boxW+boxGap) }

func (c *Machine) pkgLabel() string {
	return fmt.Sprintf("package 0 · LLC 0 · %s", c.App.Sc.Topology)
}

var _ = sched.Second
