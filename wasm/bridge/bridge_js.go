//go:build js && wasm

package bridge

import (
	"errors"
	"fmt"
	"syscall/js"

	"github.com/hack-pad/safejs"
)

func global() safejs.Value { return safejs.Global() }

func get(v safejs.Value, path ...string) (safejs.Value, error) {
	var err error
	for _, p := range path {
		if v, err = v.Get(p); err != nil {
			return v, err
		}
	}
	return v, nil
}

func byID(id string) (safejs.Value, error) {
	doc, err := get(global(), "document")
	if err != nil {
		return doc, err
	}
	el, err := doc.Call("getElementById", id)
	if err == nil && (el.IsNull() || el.IsUndefined()) {
		err = fmt.Errorf("no element #%s", id)
	}
	return el, err
}

// canvas2D is canvas id and its 2D context.
func canvas2D(id string) (c, ctx safejs.Value, err error) {
	if c, err = byID(id); err != nil {
		return c, ctx, err
	}
	ctx, err = c.Call("getContext", "2d")
	return c, ctx, err
}

// PageURL is the page's own address without query or fragment:
// location.origin + location.pathname, the base of its share and embed
// links wherever the site is hosted.
func PageURL() string { return location("origin") + location("pathname") }

// Hash is location.hash.
func Hash() string { return location("hash") }

// location is the string location[field], or "".
func location(field string) string {
	v, err := get(global(), "location", field)
	if err != nil {
		return ""
	}
	s, _ := v.String()
	return s
}

// ReplaceHash sets the fragment without adding a history entry.
func ReplaceHash(frag string) error {
	h, err := get(global(), "history")
	if err != nil {
		return err
	}
	_, err = h.Call("replaceState", nil, "", "#"+frag)
	return err
}

// CopyText puts s on the clipboard (navigator.clipboard, which needs a
// secure context such as localhost; errors are reported, not thrown).
func CopyText(s string) error {
	cb, err := get(global(), "navigator", "clipboard")
	if err != nil || cb.IsUndefined() {
		return fmt.Errorf("clipboard unavailable")
	}
	p, err := cb.Call("writeText", s)
	if err != nil {
		return err
	}
	// Swallow a rejected promise (no permission) so it is not an uncaught
	// console error; the URL is shown in the page either way.
	noop, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any { return nil })
	if err != nil {
		return err
	}
	_, err = p.Call("catch", noop.Value())
	return err
}

// Download saves data as a file through a Blob URL.
func Download(name, mime string, data []byte) error {
	u8, err := get(global(), "Uint8Array")
	if err != nil {
		return err
	}
	arr, err := u8.New(len(data))
	if err != nil {
		return err
	}
	if _, err := safejs.CopyBytesToJS(arr, data); err != nil {
		return err
	}
	blobCls, _ := get(global(), "Blob")
	parts := js.Global().Get("Array").New(safejs.Unsafe(arr))
	opts := js.Global().Get("Object").New()
	opts.Set("type", mime)
	blob, err := blobCls.New(parts, opts)
	if err != nil {
		return err
	}
	urlCls, _ := get(global(), "URL")
	u, err := urlCls.Call("createObjectURL", blob)
	if err != nil {
		return err
	}
	doc, _ := get(global(), "document")
	a, err := doc.Call("createElement", "a")
	if err != nil {
		return err
	}
	a.Set("href", u)
	a.Set("download", name)
	a.Call("click")
	urlCls.Call("revokeObjectURL", u)
	return nil
}

// CanvasSize returns the CSS size of canvas id and sets its backing store
// to that size.
func CanvasSize(id string) (w, h int, err error) {
	c, err := byID(id)
	if err != nil {
		return 0, 0, err
	}
	cw, _ := c.Get("clientWidth")
	w, _ = cw.Int()
	hv, _ := c.Get("height")
	h, _ = hv.Int()
	if wv, _ := c.Get("width"); w > 0 {
		if cur, _ := wv.Int(); cur != w {
			c.Set("width", w)
		}
	}
	return w, h, nil
}

// SetCanvasHeight sets the backing height of canvas id (and its CSS height).
func SetCanvasHeight(id string, h int) error {
	c, err := byID(id)
	if err != nil {
		return err
	}
	if hv, err := c.Get("height"); err == nil {
		if cur, _ := hv.Int(); cur == h {
			return nil
		}
	}
	return c.Set("height", h)
}

// PutImage copies RGBA pixels onto canvas id in one call.
func PutImage(id string, pix []byte, w, h int) error {
	_, ctx, err := canvas2D(id)
	if err != nil {
		return err
	}
	clamped, _ := get(global(), "Uint8ClampedArray")
	arr, err := clamped.New(len(pix))
	if err != nil {
		return err
	}
	if _, err := safejs.CopyBytesToJS(arr, pix); err != nil {
		return err
	}
	idCls, _ := get(global(), "ImageData")
	img, err := idCls.New(arr, w, h)
	if err != nil {
		return err
	}
	_, err = ctx.Call("putImageData", img, 0, 0)
	return err
}

// Text draws a short label on canvas id (fillText: never parsed as HTML).
func Text(id string, x, y float64, s, color string) error {
	_, ctx, err := canvas2D(id)
	if err != nil {
		return err
	}
	ctx.Set("fillStyle", color)
	ctx.Set("font", "11px system-ui, sans-serif")
	_, err = ctx.Call("fillText", s, x, y)
	return err
}

// Overlay draws labels and vertical lines on canvas id with one context
// lookup (a redraw's axis, lane labels and cursor: fewer JS crossings than
// a Text or Line call each).
func Overlay(id string, marks []Mark) error {
	c, ctx, err := canvas2D(id)
	if err != nil {
		return err
	}
	hv, _ := c.Get("height")
	h, _ := hv.Int()
	setFont(ctx, overlayFont)
	color := ""
	for _, m := range marks {
		if m.Color != color {
			color = m.Color
			ctx.Set("fillStyle", color)
		}
		if m.Text == "" {
			ctx.Call("fillRect", m.X, 0, 1, h)
		} else {
			ctx.Call("fillText", m.Text, m.X, m.Y)
		}
	}
	return nil
}

const overlayFont = "11px system-ui, sans-serif"

// setFont sets a 2D context's font unless it already is that font (the
// context keeps it until the canvas is resized). Setting it makes the
// browser resolve the font against the canvas's style: after a page render
// that was a style recalculation inside every redraw.
func setFont(ctx safejs.Value, font string) {
	if v, err := ctx.Get("font"); err == nil {
		if cur, _ := v.String(); cur == font {
			return
		}
	}
	ctx.Set("font", font)
}

// Line draws a vertical line on canvas id.
func Line(id string, x float64, color string) error {
	c, ctx, err := canvas2D(id)
	if err != nil {
		return err
	}
	hv, _ := c.Get("height")
	h, _ := hv.Int()
	ctx.Set("fillStyle", color)
	_, err = ctx.Call("fillRect", x, 0, 1, h)
	return err
}

// SetText sets the textContent of element id.
func SetText(id, s string) error {
	el, err := byID(id)
	if err != nil {
		return err
	}
	return el.Set("textContent", s)
}

// SetStyle sets one style property of element id.
func SetStyle(id, prop, val string) error {
	el, err := byID(id)
	if err != nil {
		return err
	}
	st, err := el.Get("style")
	if err != nil {
		return err
	}
	_, err = st.Call("setProperty", prop, val)
	return err
}

// OnTarget listens on the document for event and calls fn when its target
// is element targetID. Listening on the document survives re-renders that
// replace the element. A matching wheel event's default (scrolling) is
// prevented, so the page does not scroll while zooming.
func OnTarget(event, targetID string, fn func(Event)) error {
	return on("document", event, targetID, fn)
}

// On adds a listener for event on element id ("document" for the
// document). The listener lives as long as the page.
func On(id, event string, fn func(Event)) error { return on(id, event, "", fn) }

func on(id, event, targetID string, fn func(Event)) error {
	var target safejs.Value
	var err error
	if id == "document" {
		target, err = get(global(), "document")
	} else {
		target, err = byID(id)
	}
	if err != nil {
		return err
	}
	f, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		if len(args) == 0 {
			return nil
		}
		e := args[0]
		ev := Event{}
		num := func(k string) float64 { v, _ := e.Get(k); f, _ := v.Float(); return f }
		ev.X, ev.Y, ev.DeltaX, ev.DeltaY = num("offsetX"), num("offsetY"), num("deltaX"), num("deltaY")
		ev.ClientX, ev.ClientY = num("clientX"), num("clientY")
		ev.Buttons = int(num("buttons"))
		if k, _ := e.Get("key"); k.Type() == safejs.TypeString {
			ev.Key, _ = k.String()
		}
		b := func(k string) bool { v, _ := e.Get(k); x, _ := v.Bool(); return x }
		ev.Shift, ev.Ctrl = b("shiftKey"), b("ctrlKey") || b("metaKey")
		if t, err := e.Get("target"); err == nil {
			if tag, err := t.Get("tagName"); err == nil && tag.Type() == safejs.TypeString {
				s, _ := tag.String()
				ev.TargetIsInput = s == "INPUT" || s == "TEXTAREA" || s == "SELECT"
			}
			if idv, err := t.Get("id"); err == nil && idv.Type() == safejs.TypeString {
				ev.TargetID, _ = idv.String()
			}
		}
		if targetID != "" && ev.TargetID != targetID {
			return nil
		}
		if event == "wheel" || (event == "keydown" && !ev.TargetIsInput && handledKey(ev.Key, ev.Shift)) {
			e.Call("preventDefault")
		}
		fn(ev)
		return nil
	})
	if err != nil {
		return err
	}
	opts := js.Global().Get("Object").New()
	opts.Set("passive", false)
	_, err = target.Call("addEventListener", event, f.Value(), opts)
	return err
}

// handledKey reports the keys the page's shortcuts take from the browser:
// Up/Down only with Shift, so plain arrows still scroll the page.
func handledKey(k string, shift bool) bool {
	switch k {
	case "+", "=", "-", "ArrowLeft", "ArrowRight", "0":
		return true
	case "ArrowUp", "ArrowDown":
		return shift
	}
	return false
}

// Publish sets window.schedplay[key] = v for the browser tests and the
// debug console. v must be a value js.ValueOf accepts.
func Publish(key string, v any) {
	g := global()
	st, err := g.Get("schedplay")
	if err != nil || st.IsUndefined() {
		obj := js.Global().Get("Object").New()
		g.Set("schedplay", obj)
		st = safejs.Safe(obj)
	}
	st.Set(key, v)
}

// PublishJSON sets window.schedplay[key] = JSON.parse(text): a large
// value (the finished run's 1024 tasks) as one string and one parse in
// the browser, instead of a js.ValueOf per object and field (at 1024
// tasks ~5,000 calls across the Go/JS boundary; docs/playground-perf.md).
func PublishJSON(key, text string) {
	v, err := global().Get("JSON")
	if err != nil {
		return
	}
	parsed, err := v.Call("parse", text)
	if err != nil {
		return
	}
	Publish(key, parsed)
}

// Flag reports whether window[name] is truthy (e.g. SCHEDPLAY_EMBED).
func Flag(name string) bool {
	v, err := global().Get(name)
	if err != nil {
		return false
	}
	b, _ := v.Truthy()
	return b
}

// Origin is location.origin.
func Origin() string { return location("origin") }

// Now is performance.now() in milliseconds.
func Now() float64 {
	p, err := get(global(), "performance")
	if err != nil {
		return 0
	}
	v, err := p.Call("now")
	if err != nil {
		return 0
	}
	f, _ := v.Float()
	return f
}

// firstFile is files[0] of the file input id.
func firstFile(id string) (safejs.Value, error) {
	in, err := byID(id)
	if err != nil {
		return in, err
	}
	f, err := get(in, "files")
	if err == nil && !f.IsNull() && !f.IsUndefined() {
		if n, _ := get(f, "length"); n.Type() == safejs.TypeNumber {
			if k, _ := n.Int(); k > 0 {
				return f.Index(0)
			}
		}
	}
	return f, errors.New("no file chosen")
}

func fileMeta(f safejs.Value) (string, float64) {
	nv, _ := f.Get("name")
	name, _ := nv.String()
	sv, _ := f.Get("size")
	size, _ := sv.Float()
	return name, size
}

func clearInput(id string) {
	if in, err := byID(id); err == nil {
		in.Set("value", "")
	}
}

// ReadFile reads the first file chosen in the file input id, at most max
// bytes, and calls done with its name and contents (in a new goroutine, so
// done may take locks). The input is cleared.
func ReadFile(id string, max int, done func(name string, data []byte, err error)) {
	file, err := firstFile(id)
	if err != nil {
		done("", nil, err)
		return
	}
	name, size := fileMeta(file)
	clearInput(id)
	if size > float64(max) {
		done(name, nil, fmt.Errorf("%s is %.1f MB; the playground opens files up to %d MB", name, size/1e6, max>>20))
		return
	}
	p, err := file.Call("arrayBuffer")
	if err != nil {
		done(name, nil, err)
		return
	}
	var ok, bad safejs.Func
	release := func() { ok.Release(); bad.Release() }
	ok, _ = safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		defer release()
		u8cls, _ := get(global(), "Uint8Array")
		arr, err := u8cls.New(args[0])
		if err != nil {
			go done(name, nil, err)
			return nil
		}
		n, _ := arr.Length()
		data := make([]byte, n)
		safejs.CopyBytesToGo(data, arr)
		go done(name, data, nil)
		return nil
	})
	bad, _ = safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		defer release()
		go done(name, nil, fmt.Errorf("%s could not be read", name))
		return nil
	})
	p.Call("then", ok.Value(), bad.Value())
}

// SetList replaces the children of element id with one <li> per line,
// each holding its line as a text node (untrusted text never becomes HTML).
func SetList(id string, lines []string) error {
	el, err := byID(id)
	if err != nil {
		return err
	}
	el.Set("textContent", "")
	doc, _ := get(global(), "document")
	for _, s := range lines {
		li, err := doc.Call("createElement", "li")
		if err != nil {
			return err
		}
		li.Set("textContent", s)
		el.Call("appendChild", li)
	}
	return nil
}

// EnsureCanvas makes sure element hostID holds a <canvas id=id> (created
// with the class, title and backing size given) and reports whether it had
// to create one. The canvases live outside Vugu's tree: Vugu re-sets the
// attributes of every element it renders (and removes the others), and
// re-setting a canvas's width or height clears its bitmap, so a canvas in
// the template had to be redrawn after every page render, in the same task.
func EnsureCanvas(hostID, id, class, title string, w, h int) (bool, error) {
	host, err := byID(hostID)
	if err != nil {
		return false, err
	}
	if c, err := byID(id); err == nil {
		if p, _ := c.Get("parentNode"); p.Equal(host) {
			return false, nil
		}
		c.Call("remove") // left behind where a render moved things
	}
	doc, err := get(global(), "document")
	if err != nil {
		return false, err
	}
	c, err := doc.Call("createElement", "canvas")
	if err != nil {
		return false, err
	}
	c.Set("id", id)
	if class != "" {
		c.Set("className", class)
	}
	if title != "" {
		c.Set("title", title)
	}
	c.Set("width", w)
	c.Set("height", h)
	if _, err := host.Call("appendChild", c); err != nil {
		return false, err
	}
	return true, nil
}
