//go:build js && wasm

package bridge

// SVG drawings built outside Vugu's render tree (the machine drawing): the
// nodes are created once with createElementNS and attribute/text values
// (never parsed as HTML); a page render leaves them alone as long as the
// template gives the <svg> no children of its own.

import "github.com/hack-pad/safejs"

const svgNS = "http://www.w3.org/2000/svg"

// BuildSVG replaces the children of the <svg> element id with nodes.
func BuildSVG(id string, nodes []SVGNode) error {
	svg, err := byID(id)
	if err != nil {
		return err
	}
	doc, err := get(global(), "document")
	if err != nil {
		return err
	}
	frag, err := doc.Call("createDocumentFragment")
	if err != nil {
		return err
	}
	mk := func(tag string) (safejs.Value, error) { return doc.Call("createElementNS", svgNS, tag) }
	for _, n := range nodes {
		el, err := mk(n.Tag)
		if err != nil {
			return err
		}
		for _, kv := range n.Attrs {
			el.Call("setAttribute", kv[0], kv[1])
		}
		if n.Text != "" {
			el.Set("textContent", n.Text)
		}
		if n.Title != "" {
			t, err := mk("title")
			if err != nil {
				return err
			}
			if n.TitleID != "" {
				t.Call("setAttribute", "id", n.TitleID)
			}
			t.Set("textContent", n.Title)
			el.Call("appendChild", t)
		}
		frag.Call("appendChild", el)
	}
	svg.Set("textContent", "")
	_, err = svg.Call("appendChild", frag)
	return err
}

// ChildCount is the number of child elements of element id (-1 if there is
// no such element).
func ChildCount(id string) int {
	el, err := byID(id)
	if err != nil {
		return -1
	}
	v, err := el.Get("childElementCount")
	if err != nil {
		return -1
	}
	n, _ := v.Int()
	return n
}
