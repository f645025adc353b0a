//go:build js && wasm

package bridge

import (
	"syscall/js"
	"testing"
)

// SetValueGen sets a new generation's text once, leaves the user's typing
// alone while the generation stays, and sets it again on a new element.
func TestSetValueGen(t *testing.T) {
	fake(t, `globalThis.__els = {json: {value: ""}};
globalThis.document = {getElementById: function (id) { return globalThis.__els[id] || null; }};`)
	el := func() js.Value { return js.Global().Get("__els").Get("json") }
	if set, err := SetValueGen("json", 1, "first"); err != nil || !set || el().Get("value").String() != "first" {
		t.Fatalf("first set: %v %v %q", set, err, el().Get("value").String())
	}
	el().Set("value", "typed")
	if set, _ := SetValueGen("json", 1, "first"); set || el().Get("value").String() != "typed" {
		t.Fatal("the same generation overwrote the user's text")
	}
	if set, _ := SetValueGen("json", 2, "second"); !set || el().Get("value").String() != "second" {
		t.Fatal("a new generation was not set")
	}
	fake(t, `globalThis.__els.json = {value: ""};`) // the tab switched back: a new textarea
	if set, _ := SetValueGen("json", 2, "second"); !set || el().Get("value").String() != "second" {
		t.Fatal("a re-created element did not get the text")
	}
	if set, err := SetValueGen("none", 3, "x"); set || err != nil {
		t.Fatalf("no element: %v %v", set, err)
	}
}
