//go:build js && wasm

package main

import "syscall/js"

// cpuTime is the process's CPU time in ns (Node's process.cpuUsage: user +
// system, all threads), less disturbed than wall time on a loaded machine.
func cpuTime() int64 {
	p := js.Global().Get("process")
	if p.IsUndefined() {
		return 0
	}
	u := p.Call("cpuUsage")
	return int64(u.Get("user").Float()+u.Get("system").Float()) * 1000
}
