// Package static serves the built site the way a static host configured
// for it would: `.wasm` as application/wasm (needed by
// WebAssembly.instantiateStreaming), and when the client accepts br or gzip
// and a precompressed sibling exists (file.br, file.gz, made by
// scripts/sitebuild), that file with Content-Encoding and Vary:
// Accept-Encoding. Nothing is compressed on the fly and nothing outside the
// directory is served. Used by scripts/devserver and the browser tests.
package static

import (
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

var types = map[string]string{
	".wasm": "application/wasm", ".js": "text/javascript; charset=utf-8",
	".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
	".svg": "image/svg+xml", ".json": "application/json", ".ico": "image/x-icon",
	".png": "image/png",
}

// Handler serves dir with precompressed variants.
func Handler(dir string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		p := path.Clean("/" + r.URL.Path)
		if strings.HasSuffix(p, "/") {
			p += "index.html"
		}
		file := filepath.Join(dir, filepath.FromSlash(p))
		st, err := os.Stat(file)
		if err != nil || st.IsDir() {
			http.NotFound(w, r)
			return
		}
		ext := filepath.Ext(file)
		ct := types[ext]
		if ct == "" {
			ct = mime.TypeByExtension(ext)
		}
		w.Header().Set("Content-Type", ct)
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Vary", "Accept-Encoding")
		accept := r.Header.Get("Accept-Encoding")
		for _, enc := range []struct{ token, suffix string }{{"br", ".br"}, {"gzip", ".gz"}} {
			if !acceptsEncoding(accept, enc.token) {
				continue
			}
			if _, err := os.Stat(file + enc.suffix); err == nil {
				w.Header().Set("Content-Encoding", enc.token)
				file += enc.suffix
				break
			}
		}
		f, err := os.Open(file)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		defer f.Close()
		fi, _ := f.Stat()
		http.ServeContent(w, r, "", fi.ModTime(), f)
	})
}

// acceptsEncoding reports whether an Accept-Encoding header allows token
// (q=0 excludes it).
func acceptsEncoding(header, token string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), token) {
			return !strings.Contains(strings.ReplaceAll(params, " ", ""), "q=0") ||
				strings.Contains(params, "q=0.")
		}
	}
	return false
}
