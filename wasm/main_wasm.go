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
	renderer, err := domrender.New("#app")
	if err != nil {
		panic(err)
	}
	defer renderer.Release()
	env := renderer.EventEnv()
	buildEnv, err := vugu.NewBuildEnv(env)
	if err != nil {
		panic(err)
	}
	app := NewApp(env, bridge.Flag("SCHEDPLAY_EMBED"))
	root := &Root{App: app}
	app.Start()
	for ok := true; ok; ok = renderer.EventWait() {
		env.RLock()
		t0 := bridge.Now()
		res := buildEnv.RunBuild(root)
		err := renderer.Render(res)
		if err == nil {
			app.AfterRender()
		}
		app.noteRender(bridge.Now() - t0)
		env.RUnlock()
		if err != nil {
			panic(err)
		}
	}
}
