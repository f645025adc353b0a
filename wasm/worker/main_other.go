//go:build !(js && wasm)

package main

import "fmt"

func main() {
	fmt.Println("schedplay worker: build with GOOS=js GOARCH=wasm (make site); it runs in site/worker.js")
}
