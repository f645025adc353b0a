// Command wasm is the schedplay browser playground: Vugu components over the
// simulation core, compiled to WebAssembly (GOOS=js GOARCH=wasm).
//
// State lives in [App] (app.go), a view model the components render; the
// components are thin (name.vugu + name.go). App keeps the scenario and
// the UI state; [RunCtl] (runctl.go) where and whether runs go; [Probe]
// (probe.go) what the page publishes of itself for the browser tests.
// Runs execute in the simulation worker (wasm/worker), or without one in
// the same engine runner on the page (wasm/runner, enginelink.go); either
// way their batches stream into the timeline between the page's tasks
// (runloop.go), so the page never freezes.
// The timeline canvas (timeline.go) is drawn from Go into a pixel buffer and
// handles its own mouse and keyboard input without re-rendering the DOM.
// All browser access goes through wasm/bridge.
//
// On the host, main only explains how to build; the package still compiles
// (`go build ./...`) and its models are tested with `go test`.
package main

//go:generate go tool vugugen -skip-go-mod -skip-main .
