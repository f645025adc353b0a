package static

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

func TestPrecompressedAndTypes(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "main.wasm"), []byte("\x00asm raw"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.wasm.br"), []byte("brotli"), 0o644)
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>hi"), 0o644)
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	cases := []struct {
		path, accept, wantType, wantEnc string
		wantStatus                      int
	}{
		{"/main.wasm", "gzip, deflate, br", "application/wasm", "br", 200},
		{"/main.wasm", "gzip", "application/wasm", "", 200},
		{"/main.wasm", "br;q=0", "application/wasm", "", 200},
		{"/", "", "text/html; charset=utf-8", "", 200},
		{"/../etc/passwd", "", "", "", 404},
		{"/missing.js", "", "", "", 404},
	}
	for _, c := range cases {
		req, _ := http.NewRequest("GET", srv.URL+c.path, nil)
		req.Header.Set("Accept-Encoding", c.accept)
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.wantStatus {
			t.Errorf("%s: status %d, want %d", c.path, resp.StatusCode, c.wantStatus)
			continue
		}
		if c.wantStatus != 200 {
			continue
		}
		if got := resp.Header.Get("Content-Type"); got != c.wantType {
			t.Errorf("%s: type %q, want %q", c.path, got, c.wantType)
		}
		if got := resp.Header.Get("Content-Encoding"); got != c.wantEnc {
			t.Errorf("%s (%s): encoding %q, want %q", c.path, c.accept, got, c.wantEnc)
		}
	}
}
