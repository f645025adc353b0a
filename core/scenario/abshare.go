package scenario

// The B side of a shared A/B comparison, `&ab=` in a share link after the
// scenario (`#s=<A>&ab=<spec>`): spec is base64url (no padding) of a JSON
// object, {"b":["KEY=VALUE", ...]}, the -set keys that turn A into B, or,
// when B differs from A in something no key names, {"b_scenario":
// "<B's #s= payload>"}; "runs" (optional, 1..MaxExpRuns) is the seeds per
// side the A/B table was run with. Pages and tools that do not know the
// parameter ignore it and open A (docs/playground.md, docs/cli.md).

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	"schedplay/core/quote"
)

// ABShare is the B side of a shared A/B comparison.
type ABShare struct {
	Set      []string `json:"b,omitempty"`          // KEY=VALUE, applied to A in order
	Scenario string   `json:"b_scenario,omitempty"` // B's share payload instead of Set
	Runs     int      `json:"runs,omitempty"`       // seeds per side (0: one run each)
}

// maxABParam bounds the parameter's text (a B scenario payload is bounded
// by MaxURL as A's is).
const maxABParam = MaxURL

// EncodeABParam is the text of the `ab` parameter.
func EncodeABParam(s ABShare) string {
	b, _ := json.Marshal(s) // strings and an int: cannot fail
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeABParam reads an `ab` parameter back, checking it.
func DecodeABParam(text string) (ABShare, error) {
	var s ABShare
	if len(text) > maxABParam {
		return s, fmt.Errorf("ab: %d characters, want at most %d", len(text), maxABParam)
	}
	raw, err := base64.RawURLEncoding.DecodeString(text)
	if err != nil {
		return s, fmt.Errorf("ab: not base64url: %v", err)
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return s, fmt.Errorf("ab: want {\"b\": [\"KEY=VALUE\", ...]} or {\"b_scenario\": \"...\"}: %v", err)
	}
	if (len(s.Set) > 0) == (s.Scenario != "") && len(s.Set)+len(s.Scenario) > 0 {
		return s, fmt.Errorf("ab: want one of b and b_scenario, not both")
	}
	if len(s.Set) > 256 {
		return s, fmt.Errorf("ab.b: %d keys, want at most 256", len(s.Set))
	}
	if s.Runs < 0 || s.Runs > MaxExpRuns {
		return s, fmt.Errorf("ab.runs: %d, want 1..%d", s.Runs, MaxExpRuns)
	}
	return s, nil
}

// ApplyAB builds B from a copy of A and the parameter.
func ApplyAB(a *Scenario, s ABShare) (*Scenario, error) {
	if s.Scenario != "" {
		return DecodeURL("#s=" + s.Scenario)
	}
	b, err := Decode(a.Encode())
	if err != nil {
		return nil, err
	}
	for i, kv := range s.Set {
		if err := b.Set(kv); err != nil {
			return nil, quote.Errorf("ab.b[%d] %q: %v", i, kv, err)
		}
	}
	if err := b.Validate(); err != nil {
		return nil, fmt.Errorf("ab: B: %v", err)
	}
	return b, nil
}

// ShareAB is the parameter that carries b against a.
func ShareAB(a, b *Scenario, runs int) ABShare {
	p := Compare(a, b)
	if !p.Exact() {
		return ABShare{Scenario: EncodeURLPayload(b), Runs: runs}
	}
	return ABShare{Set: p.Sets, Runs: runs}
}
