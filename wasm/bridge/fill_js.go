//go:build js && wasm

package bridge

// Fill: the page side of Markup (markup.go). A host element in a Vugu
// template must have no children and a dynamic attribute (`:id='...'`):
// vugugen compacts a static element into an innerHTML of its children,
// "" for an empty one, which the renderer would set on every page render,
// wiping what Fill put there.
//
// A render can also hand the host's place to another element (a vg-if
// before it flips, and Vugu reuses DOM nodes by position), or re-create
// it. So the host remembers what it holds (two expando properties, which
// Vugu never touches): the key of its content and the node Fill put in
// it, and how many nodes it put there. Fill rebuilds when the key
// differs, or when the host's children are not those nodes any more (a
// different first child, or a different count).

import "github.com/hack-pad/safejs"

// Fill makes element hostID hold the markup build writes (one root node,
// or several siblings: a <select>'s options), unless it already holds
// what key names: build is called only then. It reports whether it
// rebuilt. An empty key empties the host.
func Fill(hostID, key string, build func(*Markup)) (bool, error) {
	host, err := byID(hostID)
	if err != nil {
		return false, err
	}
	if fresh(host, key) {
		return false, nil
	}
	var m Markup
	if key != "" {
		build(&m)
	}
	if err := host.Set("innerHTML", m.String()); err != nil {
		return false, err
	}
	first, err := host.Get("firstChild")
	if err != nil {
		return false, err
	}
	n, err := get(host, "childNodes", "length")
	if err != nil {
		return false, err
	}
	host.Set("__fillNode", first)
	host.Set("__fillCount", n)
	host.Set("__fillKey", key)
	return true, nil
}

// fresh reports whether host holds exactly the nodes Fill put there for
// key (as many, and the same first one).
func fresh(host safejs.Value, key string) bool {
	k, err := host.Get("__fillKey")
	if err != nil || k.Type() != safejs.TypeString {
		return false
	}
	if s, err := k.String(); err != nil || s != key {
		return false
	}
	kept, err := host.Get("__fillNode")
	if err != nil {
		return false
	}
	nodes, err := get(host, "childNodes", "length")
	if err != nil {
		return false
	}
	n, err := nodes.Int()
	if err != nil {
		return false
	}
	if key == "" {
		return n == 0
	}
	count, err := host.Get("__fillCount")
	if err != nil || count.Type() != safejs.TypeNumber {
		return false
	}
	if c, err := count.Int(); err != nil || c != n {
		return false
	}
	first, err := host.Get("firstChild")
	return err == nil && first.Equal(kept)
}

// SetValue sets the value property of element id (a <select>'s choice).
func SetValue(id, v string) error {
	el, err := byID(id)
	if err != nil {
		return err
	}
	return el.Set("value", v)
}
