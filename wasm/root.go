package main

// Root: the page layout. Full chrome (header, side panel with machine,
// knobs, workload and editor; main area with timeline, A/B, metrics) or,
// when embedded (embed.html), just the title, Run and the timeline.

import (
	"fmt"

	"schedplay/wasm/view"
)

// Root is the top component.
type Root struct {
	App *App `vugu:"data"`
}

func (c *Root) title() string {
	if c.App.Trace != nil {
		return "trace: " + c.App.Trace.Name
	}
	if c.App.Sc.Name != "" {
		if c.App.Modified() {
			return c.App.Sc.Name + " (modified)"
		}
		return c.App.Sc.Name
	}
	return "untitled scenario"
}

func (c *Root) progressText() string { return progressText(c.App) }

// progressText is the line beside the progress bar (also updated directly
// on animation frames while a worker run streams in).
func progressText(a *App) string {
	if a.Run == nil {
		return ""
	}
	if a.Trace != nil {
		if a.Trace.Loading {
			return "importing " + a.Trace.Name + " (" + a.Trace.sizeText() + ")…"
		}
		s := fmt.Sprintf("trace of %s", view.FormatDur(int64(a.Run.Duration())))
		if a.Run.Done() && a.Ctl.RunMs > 0 {
			s += fmt.Sprintf(", imported in %.0f ms, %d events, %d slices", a.Ctl.RunMs, a.Run.Events(), a.Run.Timeline.NumSlices())
		}
		return s
	}
	done, total := a.Run.Progress()
	s := fmt.Sprintf("%s / %s simulated", view.FormatDur(int64(done)), view.FormatDur(int64(total)))
	if !a.Ctl.Running && a.Ctl.RunMs > 0 {
		s += fmt.Sprintf(" in %.0f ms, %d events, %d slices", a.Ctl.RunMs, a.Run.Events(), a.Run.Timeline.NumSlices())
	}
	return s
}

func (c *Root) progressStyle() string {
	return fmt.Sprintf("width:%.1f%%", 100*c.App.Ctl.Progress)
}

func (c *Root) fullURL() string {
	return "index.html#s=" + c.App.payload()
}

func (c *Root) openTrace() { c.App.OpenTrace() }

func (c *Root) simMode() bool { return c.App.Trace == nil }

func (c *Root) rootClass() string {
	if c.App.Embed {
		return "embed"
	}
	return "full"
}
