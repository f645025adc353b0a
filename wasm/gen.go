// Command wasm is the schedplay browser playground: Vugu components over the
// simulation core, compiled to WebAssembly (GOOS=js GOARCH=wasm).
//
// State lives in [App] (app.go), a view model the components render; the
// components are thin (name.vugu + name.go). Runs advance in bounded chunks
// on a goroutine that yields to the browser between chunks (runloop.go), so
// the page never freezes and partial results stream into the timeline.
// The timeline canvas (timeline.go) is drawn from Go into a pixel buffer and
// handles its own mouse and keyboard input without re-rendering the DOM.
// All browser access goes through wasm/bridge.
//
// On the host, main only explains how to build; the package still compiles
// (`go build ./...`) and its models are tested with `go test`.
package main

//go:generate go tool vugugen -skip-go-mod -skip-main .
