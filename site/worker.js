// The simulation worker: loads Go's wasm_exec.js and worker.wasm (the
// core-only engine, wasm/worker) and hands it the page's messages. Messages
// that arrive while the module compiles are queued; Go calls
// schedplayWorkerReady(handler) once it listens.
/* global Go */
"use strict";
importScripts("wasm_exec.js");
var queue = [];
var handler = null;
self.onmessage = function (e) {
  if (handler) { handler(e.data); } else { queue.push(e.data); }
};
self.schedplayWorkerReady = function (h) {
  handler = h;
  queue.forEach(function (m) { h(m); });
  queue = [];
};
var go = new Go();
function start(result) { go.run(result.instance || result); }
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
