// Command devserver serves the built site (dist/) on localhost for `make
// run` and prints its URL. The serving rules (MIME types, precompressed
// files) are in package static, shared with the browser tests.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"

	"schedplay/scripts/static"
)

func main() {
	dir := flag.String("dir", "dist", "directory to serve")
	addr := flag.String("addr", "127.0.0.1:8080", "listen address (port 0 picks a free port)")
	flag.Parse()
	if _, err := os.Stat(*dir + "/index.html"); err != nil {
		fmt.Fprintf(os.Stderr, "devserver: %s/index.html missing: run `make site` first\n", *dir)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "devserver:", err)
		os.Exit(1)
	}
	fmt.Printf("schedplay: serving %s at http://%s/  (Ctrl-C stops)\n", *dir, ln.Addr())
	if err := http.Serve(ln, static.Handler(*dir)); err != nil {
		fmt.Fprintln(os.Stderr, "devserver:", err)
		os.Exit(1)
	}
}
