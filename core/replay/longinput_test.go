package replay

import (
	"strings"
	"testing"
)

// TestLongInputPlatform: a platform file's 40 KB key, line or name gives
// an error of a few hundred bytes (core/quote).
func TestLongInputPlatform(t *testing.T) {
	big := strings.Repeat("k", 40<<10)
	for what, doc := range map[string]string{
		"JSON key":      `{"capacities":[1024],"` + big + `":1}`,
		"JSON name":     `{"name":"` + big + `","capacities":[1024],"clusters":[[0]]}`,
		"LISA capacity": "cpu-capacities:\n  " + big + ": 1024\n",
		"LISA freqs":    "freqs:\n  " + big + "\n",
	} {
		_, err := ParsePlatform("plat", []byte(doc))
		if err == nil {
			continue // a name the machine takes is no error
		}
		if n := len(err.Error()); n > 1024 {
			t.Errorf("%s: error of %d bytes, want at most 1024: %.200s...", what, n, err)
		}
	}
}
