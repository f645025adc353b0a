package main

import (
	"encoding/json"
	"html"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vugu/vugu"
)

// TestShortText: a long name is cut at a character with an ellipsis, a
// short one is left alone, and the hover holds more of it, bounded.
func TestShortText(t *testing.T) {
	if s := shortText("seed/sched-idle-wakeup"); s != "seed/sched-idle-wakeup" || hoverIfLong(s) != "" {
		t.Fatalf("short name %q, hover %q", s, hoverIfLong(s))
	}
	long := strings.Repeat("ñé", 20<<10)
	s := shortText(long)
	if !utf8.ValidString(s) || utf8.RuneCountInString(s) != shownMax+1 || !strings.HasSuffix(s, "…") || !strings.HasPrefix(long, strings.TrimSuffix(s, "…")) {
		t.Fatalf("shortText of %d bytes: %d characters, valid %v", len(long), utf8.RuneCountInString(s), utf8.ValidString(s))
	}
	h := hoverIfLong(long)
	if !utf8.ValidString(h) || len(h) > hoverMax+200 || len(h) <= len(s) || !strings.Contains(h, "81920 bytes in all") {
		t.Fatalf("hover of %d bytes: %d bytes %.80q", len(long), len(h), h)
	}
	if p := proseText(long); utf8.RuneCountInString(p) != proseMax+1 || proseHover(long) == "" || proseHover("a sentence.") != "" {
		t.Fatalf("proseText: %d characters, hover %q", utf8.RuneCountInString(p), proseHover(long))
	}
}

// TestGuardBuild: after the guard no attribute, property or text node is
// longer than maxInstr, innerHTML is ASCII and still reads as the same
// text, and ordinary nodes are untouched.
func TestGuardBuild(t *testing.T) {
	long := "<b>" + strings.Repeat("é-ñ-µs ", 8<<10) + "</b>"
	inner := "&lt;b&gt; 5 µs &amp; é"
	js, _ := json.Marshal(long)
	n := &vugu.VGNode{Type: vugu.ElementNode, Data: "input",
		Attr: []vugu.VGAttribute{{Key: "title", Val: long}, {Key: "id", Val: "x"}},
		Prop: []vugu.VGProperty{{Key: "value", JSONVal: js}, {Key: "checked", JSONVal: []byte("true")}}}
	n.SetInnerHTML(long)
	text := &vugu.VGNode{Type: vugu.TextNode, Data: long}
	short := &vugu.VGNode{Type: vugu.ElementNode, Data: "span", Attr: []vugu.VGAttribute{{Key: "title", Val: "5 µs"}}}
	short.InnerHTML = &inner
	root := &vugu.VGNode{Type: vugu.ElementNode, Data: "div"}
	root.AppendChild(n)
	root.AppendChild(text)
	root.AppendChild(short)
	guardBuild(&vugu.BuildResults{Out: &vugu.BuildOut{Out: []*vugu.VGNode{root}}})

	if a := n.Attr[0].Val; len(a) > maxInstr || !utf8.ValidString(a) || !strings.HasPrefix(long, strings.TrimSuffix(a, "…")) {
		t.Errorf("title: %d bytes, valid %v", len(a), utf8.ValidString(a))
	}
	var v string
	if err := json.Unmarshal(n.Prop[0].JSONVal, &v); err != nil || len(n.Prop[0].JSONVal) > maxInstr || !strings.HasPrefix(long, strings.TrimSuffix(v, "…")) {
		t.Errorf("value property: %d bytes, %v", len(n.Prop[0].JSONVal), err)
	}
	if string(n.Prop[1].JSONVal) != "true" || n.Attr[1].Val != "x" {
		t.Errorf("short attributes changed: %+v %+v", n.Attr[1], n.Prop[1])
	}
	if len(text.Data) > maxInstr {
		t.Errorf("text node of %d bytes", len(text.Data))
	}
	h := *n.InnerHTML
	for i := 0; i < len(h); i++ {
		if h[i] >= utf8.RuneSelf {
			t.Fatalf("innerHTML has a non-ASCII byte at %d", i)
		}
	}
	if html.UnescapeString(h) != long {
		t.Error("the ASCII innerHTML reads as another text")
	}
	if html.UnescapeString(*short.InnerHTML) != html.UnescapeString(inner) || short.Attr[0].Val != "5 µs" {
		t.Errorf("short node: %q %q", *short.InnerHTML, short.Attr[0].Val)
	}
}
