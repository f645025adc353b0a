package partfile

import (
	"strings"
	"testing"
)

// TestLongInputErrors: a part file's 40 KB schema or unknown key gives an
// error of a few hundred bytes (core/quote).
func TestLongInputErrors(t *testing.T) {
	big := strings.Repeat("k", 40<<10)
	for what, doc := range map[string]string{
		"schema": `{"schema":"` + big + `"}`,
		"key":    `{"schema":"` + PartSchema + `","` + big + `":1}`,
	} {
		_, err := DecodePart([]byte(doc))
		if err == nil {
			t.Errorf("%s: no error", what)
			continue
		}
		if n := len(err.Error()); n > 1024 {
			t.Errorf("%s: error of %d bytes, want at most 1024: %.200s...", what, n, err)
		}
	}
}
