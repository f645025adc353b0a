package bridge

import "testing"

// Markup escapes every value and text, so a hostile task name stays text.
func TestMarkupEscapes(t *testing.T) {
	var m Markup
	m.Open("table", "id", "t", "title", `a"b<c>`).Open("tr").
		El("td", `<img src=x onerror=alert(1)>&`).
		El("span", "", "class", "swatch", "style", `background:#fff" onclick="x`).
		Close("tr").Close("table")
	want := `<table id="t" title="a&#34;b&lt;c&gt;"><tr><td>&lt;img src=x onerror=alert(1)&gt;&amp;</td>` +
		`<span class="swatch" style="background:#fff&#34; onclick=&#34;x"></span></tr></table>`
	if got := m.String(); got != want {
		t.Fatalf("markup\n got %s\nwant %s", got, want)
	}
}

// Names are the caller's constants; one that could carry markup is
// replaced, and an odd attribute list drops its last name.
func TestMarkupNames(t *testing.T) {
	var m Markup
	m.Open("td onclick=x", "id", "a", "on click", "b", "dangling").Close("td><script")
	want := `<x-bad id="a" x-bad="b"></x-bad>`
	if got := m.String(); got != want {
		t.Fatalf("markup\n got %s\nwant %s", got, want)
	}
}
