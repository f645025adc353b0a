//go:build js && wasm

package bridge

// SVG drawings built outside Vugu's render tree (the machine drawing), and
// batched recolouring of their cells. A drawing of a thousand elements is
// built from SVGNode values (escaped here, so any attribute or text value
// stays a value) as one markup string set in one call, and a heat-map
// update is one call with all the colours: a crossing into JS per element
// and attribute cost tens of milliseconds at 256 CPUs. A page render
// leaves the nodes alone as long as the template gives the <svg> no
// children of its own.

import (
	"html"
	"strings"

	"github.com/hack-pad/safejs"
)

// BuildSVG replaces the children of the <svg> element id with nodes.
func BuildSVG(id string, nodes []SVGNode) error {
	svg, err := byID(id)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, n := range nodes {
		b.WriteString("<" + n.Tag)
		for _, kv := range n.Attrs {
			b.WriteString(" " + kv[0] + `="` + html.EscapeString(kv[1]) + `"`)
		}
		b.WriteString(">")
		b.WriteString(html.EscapeString(n.Text))
		if n.Title != "" {
			b.WriteString("<title>" + html.EscapeString(n.Title) + "</title>")
		}
		b.WriteString("</" + n.Tag + ">")
	}
	return svg.Set("innerHTML", b.String())
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

var heatFn safejs.Value

// SetHeat sets the fill of elements boxPrefix+i to fills[i] and, if titles
// is not nil, keeps titles[i] as the tooltip of element boxPrefix+i, in
// one call. Empty entries leave their element (or tooltip) as it is.
//
// The tooltips are not a <title> per cell (256 more elements and text
// nodes to parse, style and update at 256 CPUs): the page keeps the texts,
// and one <title> is moved into the cell under the pointer when it enters
// the cell (a document mouseover listener, installed with the function),
// so the browser's tooltip shows that cell's text.
func SetHeat(boxPrefix string, fills, titles []string) error {
	if heatFn.IsUndefined() || heatFn.IsNull() || heatFn.Type() != safejs.TypeFunction {
		ctor, err := get(global(), "Function")
		if err != nil {
			return err
		}
		heatFn, err = ctor.New("bp", "fills", "titles", `var tips = window.__heatTips;
if (!tips) {
  tips = window.__heatTips = {};
  document.addEventListener("mouseover", function (ev) {
    var e = ev.target, id = e && e.id;
    if (typeof id !== "string" || id === "") return;
    for (var p in tips) {
      if (id.lastIndexOf(p, 0) !== 0) continue;
      var t = tips[p][+id.slice(p.length)];
      if (t === undefined) return;
      var el = document.getElementById(p + "tip");
      if (!el) { el = document.createElementNS("http://www.w3.org/2000/svg", "title"); el.id = p + "tip"; }
      el.textContent = t;
      if (el.parentNode !== e) e.appendChild(el);
      return;
    }
  });
}
var keep = tips[bp] || (tips[bp] = []);
var f = fills.split("\n"), t = titles === "" ? null : titles.split("\n");
for (var i = 0; i < f.length; i++) {
  if (f[i] !== "") { var e = document.getElementById(bp + i); if (e) e.setAttribute("fill", f[i]); }
  if (t && t[i] !== "") {
    keep[i] = t[i];
    var x = document.getElementById(bp + "tip");
    if (x && x.parentNode && x.parentNode.id === bp + i) x.textContent = t[i];
  }
}`)
		if err != nil {
			return err
		}
	}
	_, err := heatFn.Invoke(boxPrefix, strings.Join(fills, "\n"), strings.Join(titles, "\n"))
	return err
}
