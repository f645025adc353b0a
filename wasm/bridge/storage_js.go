//go:build js && wasm

package bridge

// localStorage: the playground keeps its last scenario there (wasm/remember.go).
// Every call can fail (storage disabled, quota full, a sandboxed frame
// where reading localStorage itself throws): errors, never panics.

import (
	"errors"

	"github.com/hack-pad/safejs"
)

// storage is window.localStorage, read through Reflect.get: a throwing
// getter (SecurityError where storage is denied) is an error from a call,
// where a plain property read would abort the Go program (wasm_exec.js
// catches exceptions in calls only).
func storage() (safejs.Value, error) {
	r, err := get(global(), "Reflect")
	if err != nil {
		return r, err
	}
	s, err := r.Call("get", global(), "localStorage")
	if err == nil && (s.IsNull() || s.IsUndefined()) {
		err = errors.New("localStorage unavailable")
	}
	return s, err
}

// StorageGet returns localStorage[key] and whether it is set.
func StorageGet(key string) (string, bool, error) {
	s, err := storage()
	if err != nil {
		return "", false, err
	}
	v, err := s.Call("getItem", key)
	if err != nil || v.IsNull() || v.IsUndefined() {
		return "", false, err
	}
	if v.Type() != safejs.TypeString {
		return "", false, errors.New("localStorage entry is not a string")
	}
	str, err := v.String()
	return str, err == nil, err
}

// StorageSet sets localStorage[key] = val (an error when the quota is full).
func StorageSet(key, val string) error {
	s, err := storage()
	if err != nil {
		return err
	}
	_, err = s.Call("setItem", key, val)
	return err
}

// StorageRemove deletes localStorage[key].
func StorageRemove(key string) error {
	s, err := storage()
	if err != nil {
		return err
	}
	_, err = s.Call("removeItem", key)
	return err
}
