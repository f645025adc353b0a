package scenario

import (
	"crypto/sha256"
	"math/rand/v2"
	"testing"
)

// TestSHA256 checks the digest against crypto/sha256 at every length
// around the padding's block boundaries and on every preset's JSON.
func TestSHA256(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 300; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		if got, want := sha256Sum(b), sha256.Sum256(b); got != want {
			t.Fatalf("length %d: %x, want %x", n, got, want)
		}
	}
	for _, p := range Presets() {
		sc, err := Preset(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := sha256Sum(sc.Encode()), sha256.Sum256(sc.Encode()); got != want {
			t.Fatalf("%s: %x, want %x", p.Name, got, want)
		}
	}
}
