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

// WorkerMsg is one message from the simulation worker (wasm/worker/doc.go
// has the protocol): Buf holds a batch's compact event records.
type WorkerMsg struct {
	Type        string // "batch", "done", "fatal"; "trace" or "traceerror" for an imported trace
	ID          int    // the run it belongs to
	Now, Events float64
	CPUs        int    // "trace": the trace's CPU count
	Info        string // "trace": a one-line summary of the import
	Tasks       string // JSON []sched.TaskInfo of new tasks
	Report      string // JSON metrics report ("done")
	Error       string
	Buf         []byte
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

// ShareURL is the page URL without its fragment plus "#s=payload".
func ShareURL(href, payload string) string {
	if i := strings.IndexByte(href, '#'); i >= 0 {
		href = href[:i]
	}
	return href + "#s=" + payload
}

// EmbedURL turns a page URL into the embed page's URL with the payload.
func EmbedURL(href, payload string) string {
	if i := strings.IndexByte(href, '#'); i >= 0 {
		href = href[:i]
	}
	if i := strings.LastIndexByte(href, '/'); i >= 0 {
		href = href[:i+1]
	}
	return href + "embed.html#s=" + payload
}
