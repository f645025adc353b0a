// Command sitebuild assembles the static site in dist/ from site/ (HTML,
// CSS, JS, SVG, JSON, icons), the WASM app (main.wasm: Vugu UI), the
// simulation worker's WASM (worker.wasm: core only, loaded by worker.js)
// and Go's wasm_exec.js.
//
// Text assets are minified with tdewolff/minify; every compressible file
// (text and .wasm) gets precompressed .br (brotli, best quality) and .gz
// (gzip -9) siblings, which the dev server and any static host that
// supports precompressed files serve without compressing on the fly.
// Output goes to a temporary directory renamed over -out at the end, so a
// failed build never leaves a half-written site.
//
// It prints the size budget's figure: the brotli bytes of everything a
// first visit loads (pages, CSS, JS, both .wasm files).
//
// Usage: go run ./scripts/sitebuild -site site -wasm build/main.wasm -worker build/worker.wasm -out dist
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/html"
	"github.com/tdewolff/minify/v2/js"
	"github.com/tdewolff/minify/v2/json"
	"github.com/tdewolff/minify/v2/svg"
)

func main() {
	site := flag.String("site", "site", "static sources")
	wasm := flag.String("wasm", "", "the app's .wasm file (copied as main.wasm)")
	worker := flag.String("worker", "", "the simulation worker's .wasm file (copied as worker.wasm)")
	out := flag.String("out", "dist", "output directory")
	flag.Parse()
	if err := build(*site, *wasm, *worker, *out); err != nil {
		fmt.Fprintln(os.Stderr, "sitebuild:", err)
		os.Exit(1)
	}
}

func newMinifier() *minify.M {
	m := minify.New()
	m.AddFunc("text/css", css.Minify)
	m.Add("text/html", &html.Minifier{KeepDocumentTags: true, KeepEndTags: true, KeepQuotes: true})
	m.AddFunc("image/svg+xml", svg.Minify)
	m.AddFuncRegexp(regexp.MustCompile("^(application|text)/(x-)?(java|ecma)script$"), js.Minify)
	m.AddFuncRegexp(regexp.MustCompile("[/+]json$"), json.Minify)
	return m
}

var mediaTypes = map[string]string{
	".html": "text/html", ".css": "text/css", ".js": "application/javascript",
	".svg": "image/svg+xml", ".json": "application/json",
}

func build(site, wasm, worker, out string) error {
	tmp, err := os.MkdirTemp(filepath.Dir(filepath.Clean(out)), ".dist-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	m := newMinifier()
	var total, minified int
	err = filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(site, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if mt, ok := mediaTypes[filepath.Ext(p)]; ok {
			small, err := m.Bytes(mt, data)
			if err != nil {
				return fmt.Errorf("minify %s: %v", p, err)
			}
			total, minified = total+len(data), minified+len(small)
			data = small
		}
		return write(filepath.Join(tmp, rel), data)
	})
	if err != nil {
		return err
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %v", err)
	}
	execJS, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return err
	}
	if small, err := m.Bytes("application/javascript", execJS); err == nil {
		execJS = small
	}
	if err := write(filepath.Join(tmp, "wasm_exec.js"), execJS); err != nil {
		return err
	}
	for name, src := range map[string]string{"main.wasm": wasm, "worker.wasm": worker} {
		if src == "" {
			continue
		}
		data, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		if err := write(filepath.Join(tmp, name), data); err != nil {
			return err
		}
	}
	if err := precompressAll(tmp); err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		return err
	}
	fmt.Printf("sitebuild: %s: text assets %d -> %d bytes minified\n", out, total, minified)
	return report(out)
}

func write(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

var compressible = map[string]bool{".html": true, ".css": true, ".js": true, ".svg": true,
	".json": true, ".wasm": true, ".txt": true, ".ico": true}

// precompressAll writes .br and .gz beside every compressible file.
func precompressAll(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !compressible[filepath.Ext(p)] {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var br, gz bytes.Buffer
		bw := brotli.NewWriterLevel(&br, brotli.BestCompression)
		bw.Write(data)
		if err := bw.Close(); err != nil {
			return err
		}
		gw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		gw.Write(data)
		if err := gw.Close(); err != nil {
			return err
		}
		if err := os.WriteFile(p+".br", br.Bytes(), 0o644); err != nil {
			return err
		}
		return os.WriteFile(p+".gz", gz.Bytes(), 0o644)
	})
}

// FirstLoad lists what a first visit of index.html loads (the worker
// starts at once, so worker.js and worker.wasm count; pageworker.js does
// not: only a browser without Web Workers loads it, instead of the
// worker). scripts/browsertest's firstLoad is the same list, and its
// TestFirstLoadBudget fails over the budget.
var FirstLoad = []string{"index.html", "style.css", "favicon.svg", "wasm_exec.js", "loader.js",
	"main.wasm", "worker.js", "worker.wasm"}

// report prints the sizes of the .wasm files and the size budget's
// figure: the brotli total of FirstLoad.
func report(dir string) error {
	for _, name := range []string{"main.wasm", "worker.wasm"} {
		for _, suffix := range []string{"", ".gz", ".br"} {
			st, err := os.Stat(filepath.Join(dir, name+suffix))
			if err != nil {
				continue
			}
			fmt.Printf("sitebuild: %s%s %.2f MB\n", name, suffix, float64(st.Size())/1e6)
		}
	}
	var total int64
	for _, name := range FirstLoad {
		st, err := os.Stat(filepath.Join(dir, name+".br"))
		if err != nil {
			return fmt.Errorf("first-load file missing: %v", err)
		}
		total += st.Size()
	}
	fmt.Printf("sitebuild: first load (brotli, %d files) %.2f MB (budget 3 MB)\n", len(FirstLoad), float64(total)/1e6)
	return nil
}
