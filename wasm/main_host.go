//go:build !(js && wasm)

package main

import "fmt"

func main() {
	fmt.Println("schedplay UI: build with GOOS=js GOARCH=wasm (make site), or `make run` to serve it")
}
