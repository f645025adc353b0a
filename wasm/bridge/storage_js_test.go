//go:build js && wasm

package bridge

import "testing"

// localStorage round trip against a fake; an absent or throwing storage
// (a sandboxed frame, storage disabled) is an error, never a panic; a
// full quota is an error from StorageSet.
func TestStorage(t *testing.T) {
	fake(t, `globalThis.localStorage = (function () { var m = {}; return {
  getItem: function (k) { return k in m ? m[k] : null; },
  setItem: function (k, v) { if (v === "big") throw new Error("QuotaExceededError"); m[k] = String(v); },
  removeItem: function (k) { delete m[k]; } }; })();`)
	if _, ok, err := StorageGet("k"); ok || err != nil {
		t.Fatalf("empty storage: ok=%v err=%v", ok, err)
	}
	if err := StorageSet("k", "v1"); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := StorageGet("k"); v != "v1" || !ok || err != nil {
		t.Fatalf("got %q %v %v", v, ok, err)
	}
	if err := StorageSet("k", "big"); err == nil {
		t.Fatal("a full quota was not an error")
	}
	if err := StorageRemove("k"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := StorageGet("k"); ok {
		t.Fatal("removed entry still there")
	}
	fake(t, `Object.defineProperty(globalThis, "localStorage", {configurable: true, get: function () { throw new Error("SecurityError"); }});`)
	if _, _, err := StorageGet("k"); err == nil {
		t.Fatal("a throwing localStorage was not an error")
	}
	if err := StorageSet("k", "v"); err == nil {
		t.Fatal("a throwing localStorage was not an error on set")
	}
	fake(t, `delete globalThis.localStorage;`)
	if _, _, err := StorageGet("k"); err == nil {
		t.Fatal("no localStorage was not an error")
	}
}
