package main

// The size of a page render: how much Vugu's DOM renderer sends to the page
// for one build. Vugu v0.4.0 re-sends the whole tree on every render
// (domrender/renderer-js.go: each element with every attribute, property
// and event listener, and each innerHTML, i.e. every vg-content and every
// compacted static subtree, which the browser parses again), so this count
// is what a render costs in proportion to. Published per render as
// window.schedplay.renderSize; scripts/browsertest/render_test.go bounds
// it for the 256-CPU page.

import "github.com/vugu/vugu"

// RenderSize counts a build's output, components included.
type RenderSize struct {
	Elements int // element nodes
	Attrs    int // attributes and properties
	Inner    int // innerHTML sets (vg-content and compacted static markup)
}

func renderSize(res *vugu.BuildResults) RenderSize {
	var s RenderSize
	walkBuild(res, func(n *vugu.VGNode) bool {
		if n.Type == vugu.ElementNode && !n.IsTemplate() {
			s.Elements++
			s.Attrs += len(n.Attr) + len(n.Prop)
		}
		if n.InnerHTML != nil {
			s.Inner++
			return false
		}
		return true
	})
	return s
}

// walkBuild visits every node of a build's output, components' output
// included in place of the component; visit says whether to descend into
// the node's children.
func walkBuild(res *vugu.BuildResults, visit func(n *vugu.VGNode) bool) {
	if res == nil || res.Out == nil {
		return
	}
	var walk func(n *vugu.VGNode)
	walk = func(n *vugu.VGNode) {
		for ; n != nil; n = n.NextSibling {
			if n.Component != nil {
				if out := res.ResultFor(n.Component); out != nil {
					for _, c := range out.Out {
						walk(c)
					}
				}
				continue
			}
			if visit(n) {
				walk(n.FirstChild)
			}
		}
	}
	for _, n := range res.Out.Out {
		walk(n)
	}
}

// publish is the count as window.schedplay.renderSize holds it.
func (s RenderSize) publish() map[string]any {
	return map[string]any{"elements": s.Elements, "attrs": s.Attrs, "inner": s.Inner}
}
