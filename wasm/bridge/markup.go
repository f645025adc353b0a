package bridge

// Markup: HTML (or SVG) built in Go and set into the page in one call by
// Fill, for large, rarely changing parts of the page that are kept out of
// Vugu's tree (the metrics tables and the latency histogram, wasm/results.go).
//
// Why not the template: Vugu v0.4.0's DOM renderer re-sends the whole tree
// on every page render (each attribute, and each vg-content as an innerHTML
// that the browser parses again), so a 24-row task table alone was about
// 400 elements and 300 HTML parses per render. One markup string parsed
// once by the browser, and left alone by later renders, costs a fraction.
//
// Safety: tags and attribute names are the caller's constants (checked:
// a name outside [a-z0-9-] is written as "x-bad"), and every attribute
// value and text goes through html.EscapeString, so an untrusted string
// (a task name from a shared URL) stays a value and never becomes markup.

import (
	"html"
	"strings"
)

// Markup accumulates elements; the zero value is empty and ready.
type Markup struct {
	b strings.Builder
}

// Open writes a start tag with attributes given as name, value pairs (a
// trailing name without value is dropped).
func (m *Markup) Open(tag string, attrs ...string) *Markup {
	m.b.WriteString("<" + safeName(tag))
	for i := 0; i+1 < len(attrs); i += 2 {
		m.b.WriteString(" " + safeName(attrs[i]) + `="` + html.EscapeString(attrs[i+1]) + `"`)
	}
	m.b.WriteString(">")
	return m
}

// Close writes an end tag.
func (m *Markup) Close(tag string) *Markup {
	m.b.WriteString("</" + safeName(tag) + ">")
	return m
}

// Text writes escaped text.
func (m *Markup) Text(s string) *Markup {
	m.b.WriteString(html.EscapeString(s))
	return m
}

// El writes an element holding only text.
func (m *Markup) El(tag, text string, attrs ...string) *Markup {
	return m.Open(tag, attrs...).Text(text).Close(tag)
}

// String is the markup so far.
func (m *Markup) String() string { return m.b.String() }

// safeName keeps code-given tag and attribute names from ever carrying
// markup.
func safeName(s string) string {
	if s == "" {
		return "x-bad"
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return "x-bad"
		}
	}
	return s
}
