// Package browsertest drives the built playground (dist/) in Debian's
// Chromium with chromedp: page state is read back from window.schedplay
// (published by wasm/bridge), not inferred from the absence of errors, and
// every test fails on any console error or uncaught exception.
//
// The tests carry the build tag `browser` so that `go test ./...` stays
// browser-free; `make test-browser` runs them after `make site`. Without a
// chromium binary they skip with a message, unless CI is set, where that
// is a failure. `make bench-browser` runs the budget measurements and
// writes the README screenshots.
package browsertest
