package scenario

// Share-URL payloads (docs/cli.md "Share URLs"): `#s=<payload>`, where the
// payload is the canonical scenario JSON, raw-deflated and base64url-encoded
// without padding. Decoding is bounded: a hostile payload cannot inflate
// past MaxInput.

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"io"
	"strings"
)

// MaxURL bounds the length of a share URL fragment.
const MaxURL = 64 << 10

// EncodeURLPayload returns the `s=` payload of sc.
func EncodeURLPayload(sc *Scenario) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(sc.Encode())
	w.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

// DecodeURL accepts a whole share URL, a "#..." fragment or a bare payload.
func DecodeURL(u string) (*Scenario, error) {
	if len(u) > MaxURL {
		return nil, errAt("url", "%d characters; the limit is %d", len(u), MaxURL)
	}
	frag := u
	if i := strings.IndexByte(u, '#'); i >= 0 {
		frag = u[i+1:]
	}
	payload := ""
	for _, part := range strings.Split(frag, "&") {
		if p, ok := strings.CutPrefix(part, "s="); ok {
			payload = p
		}
	}
	if payload == "" {
		return nil, errAt("url", "no s= scenario payload in the fragment")
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(payload, "="))
	if err != nil {
		return nil, errAt("url", "payload is not base64url: %v", err)
	}
	r := flate.NewReader(bytes.NewReader(raw))
	data, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	if err != nil {
		return nil, errAt("url", "payload is damaged (deflate: %v)", err)
	}
	if len(data) > MaxInput {
		return nil, errAt("url", "payload inflates past %d bytes", MaxInput)
	}
	return Decode(data)
}
