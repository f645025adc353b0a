package main

// The playground remembers: every applied scenario goes to the address bar
// (history.replaceState with the Share link's `#s=` payload, so a reload, a
// bookmark or a copied address is the current scenario) and to
// localStorage, which a page opened without a fragment offers back (never
// applies silently). A scenario whose name is a preset is compared with
// that preset key by key (scenario.KeyInfos, Scenario.Value): the header
// says "NAME (modified)" and the differences can be listed and undone.
// docs/playground.md describes the behaviour.

import (
	"bytes"
	"fmt"

	"schedplay/core/scenario"
	"schedplay/wasm/bridge"
)

// storeKey is the localStorage entry holding the last scenario's payload.
const storeKey = "schedplay.scenario"

// maxRemembered bounds the fragment kept in the address bar and in
// localStorage: what scenario.DecodeURL reads back.
const maxRemembered = scenario.MaxURL

// KeyDiff is one way the scenario differs from its preset: a -set key with
// both texts ("" when that side leaves the default), or, with Key
// otherKey, edits no key names (task groups, workloads, cgroups, text).
type KeyDiff = scenario.KeyDiff

// otherKey marks the differences no single key describes.
const otherKey = "(task groups, workloads or other fields)"

// memState is what the page remembers and compares.
type memState struct {
	Offer    *scenario.Scenario // the stored scenario offered back, nil if none
	Msg      string             // why a scenario was not kept or a stored one ignored
	Diff     []KeyDiff          // the current scenario against its preset
	ShowDiff bool               // the difference list is open
	armed    bool               // runs are remembered (not the first visit's default run)
	base     *scenario.Scenario // the preset the scenario is compared with
	baseName string
	cmp      compareMemo // the comparisons of a run's start (provmemo.go)
}

// decodeStored reads a localStorage entry back: a payload as Share makes.
func decodeStored(raw string) (*scenario.Scenario, error) {
	if len(raw) > maxRemembered {
		return nil, fmt.Errorf("%d characters, over the %d the page reads", len(raw), maxRemembered)
	}
	return scenario.DecodeURL("#s=" + raw)
}

// rememberable is the payload of sc, or an error when it is too large to
// keep in the address bar and in the browser.
func rememberable(sc *scenario.Scenario) (string, error) {
	p := scenario.EncodeURLPayload(sc)
	if n := len("#s=") + len(p); n > maxRemembered {
		return "", fmt.Errorf("this scenario's link is %d characters, over the %d the page reads back: it is not kept in the address bar or in this browser (export it from the JSON tab)", n, maxRemembered)
	}
	return p, nil
}

// diffKeys lists the keys whose values differ between base and sc, in
// key-table order (scenario.Compare), then one otherKey entry if anything
// else differs (the experiment block included).
func diffKeys(base, sc *scenario.Scenario) []KeyDiff {
	var m compareMemo
	return m.diffKeys(base, sc)
}

// diffKeys is diffKeys with the comparison kept for the run's provenance
// (provmemo.go).
func (m *compareMemo) diffKeys(base, sc *scenario.Scenario) []KeyDiff {
	p := m.compare(base, sc)
	out := p.Diff
	if p.Other || !bytes.Equal(expJSON(base), expJSON(sc)) {
		out = append(out, KeyDiff{Key: otherKey})
	}
	return out
}

// expJSON is the canonical encoding of sc's experiment block alone.
func expJSON(sc *scenario.Scenario) []byte {
	c := scenario.New()
	c.Experiment = sc.Experiment
	return c.Encode()
}

// undoKey sets key of sc back to base's value (or clears it, when base
// leaves it to its default).
func undoKey(sc, base *scenario.Scenario, key string) error { return scenario.Undo(sc, base, key) }

// baseOf is the preset the scenario is compared with (sc.Name when it
// names a preset), decoded once per name; nil when there is none.
func (m *memState) baseOf(sc *scenario.Scenario) *scenario.Scenario {
	if sc.Name == "" {
		return nil
	}
	if m.baseName != sc.Name {
		m.baseName = sc.Name
		m.base = m.cmp.presetNamed(sc.Name) // decoded once for this and the run's provenance
	}
	return m.base
}

// Modified reports whether the scenario differs from its preset.
func (a *App) Modified() bool { return len(a.Mem.Diff) > 0 }

// remember keeps the scenario just applied: its difference from the
// preset, the address bar and localStorage (StartRun calls it).
func (a *App) remember() {
	a.Mem.Diff = nil
	if base := a.Mem.baseOf(a.Sc); base != nil {
		a.Mem.Diff = a.Mem.cmp.diffKeys(base, a.Sc)
	}
	if a.Embed || !a.Mem.armed {
		return
	}
	p, err := rememberable(a.Sc)
	if err != nil {
		a.Mem.Msg = err.Error()
		return
	}
	a.Mem.Msg = ""
	hash := "s=" + p + a.SW.shareParam()
	if pa, ab := a.abShare(a.Sc); ab != "" && len(pa)+len(ab) <= maxRemembered {
		hash = "s=" + pa + a.SW.shareParam() + ab // A pinned: the A/B view (abshare.go)
	}
	bridge.ReplaceHash(hash)
	if err := bridge.StorageSet(storeKey, p); err != nil {
		a.Mem.Msg = "This browser did not keep the scenario (" + err.Error() + "); the address bar has it."
	}
}

// loadOffer looks for a stored scenario when the page opens without a
// fragment: one that differs from what opened is offered back; a corrupt
// entry is dropped with a message.
func (a *App) loadOffer() {
	raw, ok, err := bridge.StorageGet(storeKey)
	if err != nil || !ok {
		return
	}
	sc, err := decodeStored(raw)
	if err != nil {
		a.Mem.Msg = "The scenario saved in this browser could not be read and was ignored: " + err.Error()
		bridge.StorageRemove(storeKey)
		return
	}
	if !bytes.Equal(sc.Encode(), a.Sc.Encode()) {
		a.Mem.Offer = sc
	}
}

// OfferName is how the offer names its scenario.
func (a *App) OfferName() string {
	if a.Mem.Offer == nil {
		return ""
	}
	if a.Mem.Offer.Name == "" {
		return "an untitled scenario"
	}
	return a.Mem.Offer.Name
}

// AcceptOffer opens the stored scenario and runs it.
func (a *App) AcceptOffer() {
	sc := a.Mem.Offer
	if sc == nil {
		return
	}
	a.Mem.Offer = nil
	a.setScenario(sc, presetNamed(sc.Name))
	a.StartRun()
}

// DismissOffer forgets the offer (the stored entry stays until the next
// applied change replaces it).
func (a *App) DismissOffer() { a.Mem.Offer = nil }

// UndoKey sets one key back to its preset's value and reruns.
func (a *App) UndoKey(key string) {
	base := a.Mem.baseOf(a.Sc)
	if base == nil {
		return
	}
	if key == otherKey {
		a.UndoAll()
		return
	}
	if err := undoKey(a.Sc, base, key); err != nil {
		a.Notice = err.Error()
		return
	}
	a.edited()
}

// UndoAll goes back to the preset.
func (a *App) UndoAll() {
	if base := a.Mem.baseOf(a.Sc); base != nil {
		a.SelectPreset(base.Name)
	}
}

// presetNamed is name when it is a built-in preset, else "".
func presetNamed(name string) string {
	for _, p := range scenario.Presets() {
		if p.Name == name {
			return name
		}
	}
	return ""
}

// diffText is one difference as the list shows it.
func diffText(d KeyDiff) string {
	if d.Key == otherKey {
		return d.Key + " edited"
	}
	or := func(s string) string {
		if s == "" {
			return "default"
		}
		return s
	}
	return fmt.Sprintf("%s = %s (preset: %s)", d.Key, or(d.Value), or(d.Base))
}

// publishMem exposes the remembered state to the browser tests.
func (a *App) publishMem() {
	keys := make([]any, len(a.Mem.Diff))
	for i, d := range a.Mem.Diff {
		keys[i] = d.Key
	}
	bridge.Publish("modified", a.Modified())
	bridge.Publish("diffKeys", keys)
	bridge.Publish("offer", a.Mem.Offer != nil)
}
