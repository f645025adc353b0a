// Package bridge is the playground's only door to the browser: location
// hash, clipboard, downloads, canvas pixels, DOM text and event listeners,
// and the page state the browser tests read back (window.schedplay).
//
// In js/wasm builds it goes through hack-pad/safejs, so a missing browser API
// is an error, not a panic; on other platforms every function is a no-op,
// so the UI package builds and its models test on the host.
//
// Untrusted strings (task names come from user scenarios and shared URLs)
// only ever reach the page as textContent or attribute values, never as
// HTML. (BuildSVG assembles markup, but escapes every attribute value and
// text, so these too stay values; it draws only topology facts.)
package bridge

import "strings"

// Event is the part of a DOM mouse, wheel or keyboard event the UI uses.
type Event struct {
	X, Y          float64 // offsetX/offsetY: relative to the target element
	ClientX       float64 // clientX/clientY: relative to the viewport
	ClientY       float64
	DeltaX        float64 // wheel: Chromium turns Shift+wheel into deltaX
	DeltaY        float64
	Buttons       int
	Key           string
	Shift, Ctrl   bool
	TargetIsInput bool   // the key event comes from a form field
	TargetID      string // id of the event's target element
}

// Mark is one text label or vertical line drawn over a canvas (Overlay).
type Mark struct {
	X, Y  float64
	Text  string // "" draws a full-height line at X
	Color string
}

// SVGNode is one element of an SVG drawing built by BuildSVG: its tag,
// attributes, text content and an optional <title> child (tooltip).
type SVGNode struct {
	Tag   string
	Attrs [][2]string
	Text  string
	Title string
}

// HashParam returns the value of key in a "#k=v&k2=v2" fragment.
func HashParam(frag, key string) string {
	frag = strings.TrimPrefix(frag, "#")
	for _, part := range strings.Split(frag, "&") {
		if v, ok := strings.CutPrefix(part, key+"="); ok {
			return v
		}
	}
	return ""
}

// ShareURL is the link that opens payload on the page at base (the page's
// own address: PageURL, origin and path; a fragment, if any, dropped).
func ShareURL(base, payload string) string {
	if i := strings.IndexByte(base, '#'); i >= 0 {
		base = base[:i]
	}
	return base + "#s=" + payload
}

// EmbedURL is the embed page beside the page at base, with the payload.
func EmbedURL(base, payload string) string {
	if i := strings.IndexByte(base, '#'); i >= 0 {
		base = base[:i]
	}
	if i := strings.LastIndexByte(base, '/'); i >= 0 {
		base = base[:i+1]
	}
	return base + "embed.html#s=" + payload
}
