// Package browsertest drives the built playground (dist/) in Debian's
// Chromium with chromedp, and in Debian's firefox-esr over WebDriver BiDi
// (firefox_test.go, with the small client in bidi_test.go): page state is
// read back from window.schedplay (published by wasm/bridge), not inferred
// from the absence of errors, and every test fails on any console error or
// uncaught exception.
//
// The tests carry the build tag `browser` so that `go test ./...` stays
// browser-free; `make test-browser` runs them after `make site`. Without a
// chromium (firefox) binary the Chromium (Firefox) tests skip with a
// message, unless CI is set, where that is a failure. `make bench-browser`
// runs the budget measurements and writes the README screenshots.
package browsertest
