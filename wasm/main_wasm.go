//go:build js && wasm

package main

// The browser entry point: mount the root component and run Vugu's render
// loop. The App outlives renders; components only read and call it.

import (
	"time"

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
	app.marks = marks
	root := &Root{App: app}
	app.Start()
	marks["start"] = bridge.Now()
	first := true
	for ok := true; ok; ok = renderer.EventWait() {
		if !first {
			// Yield to the browser before rendering: the change that asked
			// for the render (a worker batch that ended the run, a click)
			// ran in this task; the render gets a task of its own.
			time.Sleep(time.Millisecond)
		}
		env.RLock()
		t0, gc0 := app.spans.start()
		res := buildEnv.RunBuild(root)
		t1, gc1 := app.spans.start()
		app.spans.end("build", t0, gc0)
		err := renderer.Render(res)
		t2, gc2 := app.spans.start()
		app.spans.end("dom", t1, gc1)
		if err == nil {
			app.AfterRender()
		}
		app.spans.end("after", t2, gc2)
		if first {
			first = false
			marks["build"], marks["dom"], marks["after"] = t1, t2, bridge.Now()
			bridge.Publish("loadMarks", marks)
			app.marks = nil
		}
		app.noteRender(bridge.Now() - t0)
		app.spans.publish()
		env.RUnlock()
		if err != nil {
			panic(err)
		}
	}
}
