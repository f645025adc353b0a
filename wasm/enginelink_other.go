//go:build !(js && wasm)

package main

// The page engine on the host (the page's tests: no browser, no worker):
// wasm/runner's Service on goroutines of the page, answering through the
// same queue as a worker. The browser build has no such engine
// (enginelink_js.go), so it never links the runner.

import (
	"errors"

	"schedplay/wasm/bridge"
	"schedplay/wasm/protocol"
	"schedplay/wasm/runner"
)

// serviceEngine is the runner's service as a page engine.
type serviceEngine struct{ s *runner.Service }

func (e serviceEngine) Post(m protocol.Message) error { e.s.Handle(m); return nil }
func (e serviceEngine) PostFile(protocol.OpenTrace, string) (string, float64, error) {
	return "", 0, errors.New("no files here")
}
func (e serviceEngine) Terminate() {}

// startPageEngine starts the service; its buffers are copied, as a
// worker's post copies them (the service reuses its batch buffers).
func (l *engineLink) startPageEngine() (pageEngine, error) {
	svc := runner.NewService(runner.PagePace(), bridge.Now, bridge.Yield, func(m protocol.Message) {
		w := m.Wire()
		if w.Buf != nil {
			w.Buf = append([]byte(nil), w.Buf...)
		}
		l.onMsg(w)
	})
	return serviceEngine{svc}, nil
}
