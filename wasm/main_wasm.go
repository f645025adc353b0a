//go:build js && wasm

package main

// The browser entry point: mount the root component and run Vugu's render
// loop. The App outlives renders; components only read and call it.

import (
	"github.com/vugu/vugu"
	"github.com/vugu/vugu/domrender"

	"schedplay/wasm/bridge"
)

func main() {
	// Load marks (performance.now() at each step of the first render),
	// published as window.schedplay.loadMarks for the first-render budget.
	marks := map[string]any{"goMain": bridge.Now()}
	renderer, err := domrender.New("#app")
	if err != nil {
		panic(err)
	}
	defer renderer.Release()
	marks["renderer"] = bridge.Now()
	env := renderer.EventEnv()
	buildEnv, err := vugu.NewBuildEnv(env)
	if err != nil {
		panic(err)
	}
	marks["buildEnv"] = bridge.Now()
	app := NewApp(env, bridge.Flag("SCHEDPLAY_EMBED"))
	marks["app"] = bridge.Now()
	app.Probe.marks = marks
	root := &Root{App: app}
	app.Start()
	marks["start"] = bridge.Now()
	// Render requests (every UnlockRender: each DOM event, a finished
	// run) are coalesced: requests that arrive before a render starts are
	// served by it (it builds from the state as it is then), so an edit
	// and the click that follows it cost one page render, not two.
	renders := make(chan struct{}, 1)
	go func() {
		for renderer.EventWait() {
			select {
			case renders <- struct{}{}:
			default:
			}
		}
		close(renders)
	}()
	for first := true; ; first = false {
		if !first {
			if _, ok := <-renders; !ok {
				break
			}
			// The render gets a browser task of its own (bridge.Yield):
			// the change that asked for it (a click, the batch that ended
			// a run) ran in this one, and waking on a timer would run the
			// render inside whatever callback enters Go next (an animation
			// frame's drawing, a worker message's ingestion).
			bridge.Yield()
		}
		env.RLock()
		t0, gc0 := app.Probe.spans.start()
		res := buildEnv.RunBuild(root)
		guardBuild(res) // no string can stop the page (longtext.go)
		app.Probe.spans.end("build", t0, gc0)
		bridge.Publish("renderSize", renderSize(res).publish())
		t1, gc1 := app.Probe.spans.start()
		err := renderer.Render(res)
		app.Probe.spans.end("dom", t1, gc1)
		t2, gc2 := app.Probe.spans.start()
		if err == nil {
			app.AfterRender()
		}
		app.Probe.spans.end("after", t2, gc2)
		if first {
			marks["build"], marks["dom"], marks["after"] = t1, t2, bridge.Now()
			bridge.Publish("loadMarks", marks)
			app.Probe.marks = nil
		}
		app.noteRender(bridge.Now() - t0)
		app.Probe.spans.publish()
		select { // requests made before this render are served by it
		case <-renders:
		default:
		}
		env.RUnlock()
		if err != nil {
			panic(err)
		}
	}
}
