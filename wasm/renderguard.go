package main

// guardBuild: the last step of every build before Vugu renders it (see
// longtext.go for why). It changes nothing a page of ordinary strings
// shows: ASCII innerHTML and short attributes pass unchanged.

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/vugu/vugu"
)

// maxInstr bounds an attribute, property or text node, in bytes: half of
// Vugu's 16 KiB instruction buffer, leaving room for the key and the
// instruction's own bytes.
const maxInstr = 8 << 10

// guardBuild makes every node of the build safe to render.
func guardBuild(res *vugu.BuildResults) {
	walkBuild(res, func(n *vugu.VGNode) bool {
		guardNode(n)
		return n.InnerHTML == nil
	})
}

// guardNode bounds one node's strings and puts its innerHTML in ASCII.
func guardNode(n *vugu.VGNode) {
	if n.InnerHTML != nil {
		if s := asciiHTML(*n.InnerHTML); s != *n.InnerHTML {
			n.InnerHTML = &s
		}
	}
	if n.Type == vugu.TextNode && len(n.Data) > maxInstr {
		n.Data = cutBytes(n.Data, maxInstr-len("…")) + "…"
	}
	for i := range n.Attr {
		if a := &n.Attr[i]; len(a.Val) > maxInstr {
			a.Val = cutBytes(a.Val, maxInstr-len("…")) + "…"
		}
	}
	for i := range n.Prop {
		if p := &n.Prop[i]; len(p.JSONVal) > maxInstr {
			p.JSONVal = boundJSON(p.JSONVal)
		}
	}
}

// boundJSON is a property's JSON value cut to at most maxInstr bytes: a
// string loses its end (an ellipsis says so), anything else becomes null.
func boundJSON(js []byte) []byte {
	var s string
	if json.Unmarshal(js, &s) != nil {
		return []byte("null")
	}
	for n := maxInstr; n > 0; n /= 2 {
		out, err := json.Marshal(cutBytes(s, n) + "…")
		if err == nil && len(out) <= maxInstr {
			return out
		}
	}
	return []byte(`""`)
}

// asciiHTML is markup with every non-ASCII character written as a
// character reference: the same text once parsed, in bytes that no cut
// can break. ASCII markup is returned as is.
func asciiHTML(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/2)
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if r < utf8.RuneSelf {
			b.WriteByte(byte(r))
			continue
		}
		b.WriteString("&#x")
		b.WriteString(strconv.FormatInt(int64(r), 16))
		b.WriteByte(';')
	}
	return b.String()
}
