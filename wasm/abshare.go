package main

// A/B in the link: with A pinned, Share and the address bar carry A's
// scenario as `#s=` and B as the keys that differ from it, `&ab=`
// (scenario.ShareAB, scenario.EncodeABParam; B's whole payload when no
// keys can say it), and the seeds per side of the N-seed table. Opening
// such a link runs A, pins it, then runs B: the A/B view with both
// timelines, the table and the "B: ..." line. A page that does not know
// `ab` opens A. docs/playground.md "A/B".

import (
	"schedplay/core/scenario"
	"schedplay/wasm/bridge"
)

// abShare is A's payload and the `&ab=` parameter of b against the
// pinned A ("", "" when no A is pinned).
func (a *App) abShare(b *scenario.Scenario) (payloadA, param string) {
	if a.A == nil || a.originA == nil || a.Embed {
		return "", ""
	}
	runs := 0
	if len(a.ABS.Rows) > 0 && a.ABSeedsStale() == "" {
		runs = a.ABS.N
	} else if a.ABS.Runs > 0 {
		runs = a.ABS.Runs
	}
	spec := scenario.ShareAB(a.originA.Sc, b, runs)
	return scenario.EncodeURLPayload(a.originA.Sc), "&ab=" + scenario.EncodeABParam(spec)
}

// loadABParam reads a link's `ab` parameter: B runs after A (linkAB).
func (a *App) loadABParam(text string) {
	if text == "" {
		return
	}
	spec, err := scenario.DecodeABParam(text)
	if err == nil {
		a.linkB, err = scenario.ApplyAB(a.Sc, spec)
	}
	if err != nil {
		a.Notice = "The link's B side could not be opened (A opens alone): " + err.Error()
		a.linkB = nil
		return
	}
	a.ABS.Runs = spec.Runs
}

// linkABAfterRender pins A when the link's A run has finished and runs
// the link's B (called after every render).
func (a *App) linkABAfterRender() {
	if a.linkB == nil || a.Ctl.Running || a.Run == nil {
		return
	}
	b := a.linkB
	a.linkB = nil
	if !a.Run.Done() || a.Ctl.Err != "" {
		return // A failed or was cancelled: no B
	}
	go func() {
		a.env.Lock()
		defer a.env.UnlockRender()
		a.PinA()
		a.setScenario(b, "")
		a.StartRun()
	}()
}

// publishAB exposes the A/B state to the browser tests.
func (a *App) publishAB() {
	bridge.Publish("ab", map[string]any{"pinned": a.A != nil, "what": a.ABWhat(), "from": a.ABFrom(), "linkPending": a.linkB != nil})
}
