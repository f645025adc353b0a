package main

// The runqueue panel under the timeline: at the time cursor, what each
// non-idle CPU runs and queues. The bridge writes it into an empty title
// and list of the template (#rq-title, #rq-list), as it draws the
// canvases; Vugu does not render it, so a click on the timeline rewrites
// the list only, not the page (docs/playground-perf.md, "Time cursor
// without a page render").

import (
	"fmt"

	"schedplay/core/sched"
	"schedplay/wasm/bridge"
	"schedplay/wasm/view"
)

// rqKey is what the shown list depends on. A run that is still streaming
// is listed when the cursor moves and once more when it is done.
type rqKey struct {
	run    *view.Run
	cursor sched.Time
	done   bool
}

// showRunqueues writes the list if what it shows changed (or a render
// replaced the elements).
func (tc *TimelineCtl) showRunqueues() {
	r := tc.app.Run
	k := rqKey{run: r, cursor: tc.Cursor}
	if r != nil {
		k.done = r.Done()
	}
	n := bridge.ChildCount(idRQList)
	if n < 0 {
		return // not in the page (no run yet, or the embed page before its first render)
	}
	if k == tc.rqShown && n == tc.rqLines {
		return
	}
	rows := tc.Runqueues()
	lines := make([]string, len(rows))
	for i, row := range rows {
		lines[i] = rqText(row)
	}
	title := ""
	if r != nil && tc.Cursor >= 0 {
		title = "Runqueues at " + view.FormatDur(int64(tc.Cursor))
	}
	if bridge.SetText(idRQTitle, title) != nil || bridge.SetList(idRQList, lines) != nil {
		return
	}
	tc.rqShown, tc.rqLines = k, len(lines)
	bridge.Publish("runqueues", len(lines))
}

func rqText(r RunqueueRow) string {
	s := fmt.Sprintf("CPU%d: running %s", r.CPU, r.Running)
	if len(r.Queued) > 0 {
		s += fmt.Sprintf("; queued %v", r.Queued)
	}
	return s
}
