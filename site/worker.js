// The simulation worker: loads Go's wasm_exec.js and worker.wasm (the
// core-only engine, wasm/worker) and hands it the page's messages. Messages
// that arrive while the module compiles are queued; Go calls
// schedplayWorkerReady(handler) once it listens. If the Go program ends
// (a panic, out of memory), the page gets a "fatal" message with the last
// lines Go printed, so that its worker pool can retry the job elsewhere.
//
// The page's workers share one compiled worker.wasm (loader.js,
// schedplayNewWorker): a worker started without a module fetches and
// compiles it and, if the page sent it a port ("wasm-module-port"), posts
// the compiled WebAssembly.Module there; a worker named
// "schedplay-module" is sent that module as its first message
// ("wasm-module") and only instantiates it (no fetch, no compilation, and
// the engine's code, optimised in the workers that ran it, is shared).
/* global Go */
"use strict";
importScripts("wasm_exec.js");
var queue = [];
var handler = null;
var lastLines = [];
var modulePort = null; // where to post the compiled module (asked by the page)
var compiled = null;   // the module this worker compiled
self.onmessage = function (e) {
  var d = e.data;
  if (d && d.type === "wasm-module") { startShared(d.module); return; }
  if (d && d.type === "wasm-module-port") { modulePort = e.ports[0]; offerModule(); return; }
  if (handler) { handler(d); } else { queue.push(d); }
};
function offerModule() {
  if (modulePort && compiled) {
    try { modulePort.postMessage(compiled); } catch (err) { /* not cloneable here: the page's workers compile their own */ }
    modulePort.close();
    modulePort = null;
  }
}
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
var started = false;
function start(result) {
  started = true;
  if (result.module) { compiled = result.module; offerModule(); }
  go.run(result.instance || result).catch(function () {});
}
function fail(err) { self.postMessage({ type: "fatal", error: String(err) }); }
function fallback() {
  return fetch("worker.wasm").then(function (r) {
    if (!r.ok) { throw new Error("worker.wasm: HTTP " + r.status); }
    return r.arrayBuffer();
  }).then(function (b) { return WebAssembly.instantiate(b, go.importObject); });
}
function load() {
  if (WebAssembly.instantiateStreaming) {
    WebAssembly.instantiateStreaming(fetch("worker.wasm"), go.importObject)
      .catch(fallback).then(start, fail);
  } else {
    fallback().then(start, fail);
  }
}
// startShared instantiates the module the page sent (loading our own if
// that fails).
function startShared(mod) {
  if (started) { return; }
  started = true;
  WebAssembly.instantiate(mod, go.importObject).then(function (inst) {
    go.run(inst).catch(function () {});
  }, function () { started = false; load(); });
}
if (self.name !== "schedplay-module") { load(); }
