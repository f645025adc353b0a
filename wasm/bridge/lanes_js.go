//go:build js && wasm

package bridge

// The timeline's lane viewport (wasm/laneview.go): a canvas the size of
// the visible part of a scrolling host, a spacer below it that gives the
// host its full scroll height, the canvas's CSS width from a
// ResizeObserver (so a redraw never reads layout: reading clientWidth
// after a page render forced a layout of the whole page) and the host's
// scroll offset from scroll events.

import (
	"errors"
	"math"
	"strconv"
	"syscall/js"

	"github.com/hack-pad/safejs"
)

var errNoResizeObserver = errors.New("no ResizeObserver")

// ObserveWidth calls fn with the CSS content width of element id (rounded
// to whole pixels, as clientWidth is) each time it changes, starting after
// the next layout. The observer lives as long as the element.
func ObserveWidth(id string, fn func(w int)) error {
	el, err := byID(id)
	if err != nil {
		return err
	}
	cls, err := get(global(), "ResizeObserver")
	if err != nil || cls.IsUndefined() {
		return errNoResizeObserver
	}
	f, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		if len(args) == 0 {
			return nil
		}
		n, _ := args[0].Length()
		for i := 0; i < n; i++ {
			e, _ := args[0].Index(i)
			wv, err := get(e, "contentRect", "width")
			if err != nil {
				continue
			}
			w, _ := wv.Float()
			fn(int(math.Round(w)))
		}
		return nil
	})
	if err != nil {
		return err
	}
	obs, err := cls.New(f.Value())
	if err != nil {
		return err
	}
	_, err = obs.Call("observe", el)
	return err
}

// ClientWidth reads the CSS width of element id (forces a layout if the
// page changed since the last one: for the first draw of a new canvas,
// before its ResizeObserver reported).
func ClientWidth(id string) int {
	el, err := byID(id)
	if err != nil {
		return 0
	}
	v, _ := el.Get("clientWidth")
	w, _ := v.Int()
	return w
}

// OnScroll calls fn with the scrollTop of element targetID whenever it
// scrolls. Scroll events do not bubble, so the listener is a capturing one
// on the document (it survives re-renders that replace the element).
func OnScroll(targetID string, fn func(top int)) error {
	doc, err := get(global(), "document")
	if err != nil {
		return err
	}
	f, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		if len(args) == 0 {
			return nil
		}
		t, err := args[0].Get("target")
		if err != nil {
			return nil
		}
		if idv, err := t.Get("id"); err != nil || idv.Type() != safejs.TypeString {
			return nil
		} else if s, _ := idv.String(); s != targetID {
			return nil
		}
		v, _ := t.Get("scrollTop")
		top, _ := v.Float()
		fn(int(math.Round(top)))
		return nil
	})
	if err != nil {
		return err
	}
	opts := js.Global().Get("Object").New()
	opts.Set("capture", true)
	opts.Set("passive", true)
	_, err = doc.Call("addEventListener", "scroll", f.Value(), opts)
	return err
}

// ScrollBy scrolls element id down by dy CSS pixels (up when negative);
// the browser clamps it and fires the scroll event OnScroll listens to.
func ScrollBy(id string, dy float64) error {
	el, err := byID(id)
	if err != nil {
		return err
	}
	v, err := el.Get("scrollTop")
	if err != nil {
		return err
	}
	top, _ := v.Float()
	return el.Set("scrollTop", top+dy)
}

// SetScrollTop scrolls element id to top CSS pixels (the browser clamps
// it and fires the scroll event OnScroll listens to).
func SetScrollTop(id string, top int) error {
	el, err := byID(id)
	if err != nil {
		return err
	}
	return el.Set("scrollTop", top)
}

// SetCanvasSize sets the backing size of canvas id (each only if it
// differs: setting either clears the bitmap).
func SetCanvasSize(id string, w, h int) error {
	c, err := byID(id)
	if err != nil {
		return err
	}
	for _, kv := range [2]struct {
		k string
		v int
	}{{"width", w}, {"height", h}} {
		if cur, err := c.Get(kv.k); err == nil {
			if n, _ := cur.Int(); n == kv.v {
				continue
			}
		}
		if err := c.Set(kv.k, kv.v); err != nil {
			return err
		}
	}
	return nil
}

// EnsureSpacer makes sure element hostID ends with a <div id=id> of CSS
// height h (created, or moved back to the end after a canvas was
// re-created before it).
func EnsureSpacer(hostID, id string, h int) error {
	host, err := byID(hostID)
	if err != nil {
		return err
	}
	d, err := byID(id)
	if err != nil {
		doc, err := get(global(), "document")
		if err != nil {
			return err
		}
		if d, err = doc.Call("createElement", "div"); err != nil {
			return err
		}
		d.Set("id", id)
	}
	if p, _ := d.Get("parentNode"); !p.Equal(host) {
		host.Call("appendChild", d)
	} else if next, _ := d.Get("nextSibling"); !next.IsNull() {
		host.Call("appendChild", d)
	}
	st, err := d.Get("style")
	if err != nil {
		return err
	}
	return st.Set("height", strconv.Itoa(h)+"px")
}

// ImageBuf is one canvas's ImageData, kept between draws of the same size:
// a draw copies its pixels into it and puts it, instead of allocating a
// new typed array and ImageData of the canvas's size on the JS heap each
// time (PutImage), which on a streamed run was a large share of a frame.
type ImageBuf struct {
	img, data safejs.Value
	w, h      int
}

// Put copies RGBA pixels (w x h) onto canvas id in one putImageData.
func (b *ImageBuf) Put(id string, pix []byte, w, h int) error { return b.PutRows(id, pix, w, h, 0, h) }

// PutRows copies pixel rows [y0, y1) of RGBA pixels (w x h) onto canvas
// id (putImageData's dirty rectangle): a drawing done in steps puts the
// rows each step finished.
func (b *ImageBuf) PutRows(id string, pix []byte, w, h, y0, y1 int) error {
	y0, y1 = max(y0, 0), min(y1, h)
	if y1 <= y0 {
		return nil
	}
	_, ctx, err := canvas2D(id)
	if err != nil {
		return err
	}
	if b.w != w || b.h != h {
		cls, err := get(global(), "ImageData")
		if err != nil {
			return err
		}
		img, err := cls.New(w, h)
		if err != nil {
			return err
		}
		data, err := img.Get("data")
		if err != nil {
			return err
		}
		b.img, b.data, b.w, b.h = img, data, w, h
	}
	dst := b.data
	if y0 > 0 || y1 < h {
		if dst, err = b.data.Call("subarray", 4*w*y0, 4*w*y1); err != nil {
			return err
		}
	}
	if _, err := safejs.CopyBytesToJS(dst, pix[4*w*y0:4*w*y1]); err != nil {
		return err
	}
	if y0 == 0 && y1 == h {
		_, err = ctx.Call("putImageData", b.img, 0, 0)
		return err
	}
	_, err = ctx.Call("putImageData", b.img, 0, 0, 0, y0, w, y1-y0)
	return err
}

// FirstSeen reports whether element id is seen here for the first time
// (it marks the element with an expando property: no layout is read), so
// that state kept for an element (a scroll offset) can be reset when a
// render replaced it.
func FirstSeen(id string) bool {
	el, err := byID(id)
	if err != nil {
		return false
	}
	if v, err := el.Get("__schedplaySeen"); err == nil {
		if seen, _ := v.Truthy(); seen {
			return false
		}
	}
	el.Set("__schedplaySeen", true)
	return true
}
