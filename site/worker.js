// The simulation worker: loads Go's wasm_exec.js and worker.wasm (the
// core-only engine, wasm/worker) and hands it the page's messages. Messages
// that arrive while the module compiles are queued; Go calls
// schedplayWorkerReady(handler) once it listens. If the Go program ends
// (a panic, out of memory), the page gets a "fatal" message with the last
// lines Go printed, so that its worker pool can retry the job elsewhere.
/* global Go */
"use strict";
importScripts("wasm_exec.js");
var queue = [];
var handler = null;
var lastLines = [];
self.onmessage = function (e) {
  if (handler) { handler(e.data); } else { queue.push(e.data); }
};
self.schedplayWorkerReady = function (h) {
  handler = h;
  queue.forEach(function (m) { h(m); });
  queue = [];
};
// wasm_exec.js prints Go's stdout and stderr with console.log: keep the
// last lines for the fatal message (a panic's first lines name it).
var log = console.log.bind(console);
console.log = function () {
  lastLines.push(Array.prototype.join.call(arguments, " "));
  if (lastLines.length > 8) { lastLines.shift(); }
  log.apply(null, arguments);
};
var go = new Go();
go.exit = function (code) {
  handler = null;
  var why = lastLines.filter(function (l) { return /^(panic|fatal error|runtime)/.test(l); })[0] || lastLines[0] || "";
  self.postMessage({ type: "fatal", error: "the engine stopped (exit code " + code + ")" + (why ? ": " + why : "") });
  self.close(); // nothing left to run: no callback may reach the exited program
};
// After an exit, wasm_exec's run() promise rejects: already reported.
function start(result) { go.run(result.instance || result).catch(function () {}); }
function fail(err) { self.postMessage({ type: "fatal", error: String(err) }); }
function fallback() {
  return fetch("worker.wasm").then(function (r) {
    if (!r.ok) { throw new Error("worker.wasm: HTTP " + r.status); }
    return r.arrayBuffer();
  }).then(function (b) { return WebAssembly.instantiate(b, go.importObject); });
}
if (WebAssembly.instantiateStreaming) {
  WebAssembly.instantiateStreaming(fetch("worker.wasm"), go.importObject)
    .catch(fallback).then(start, fail);
} else {
  fallback().then(start, fail);
}
