// The simulation worker's stand-in for browsers without Web Workers (or
// where none starts): runs worker.wasm, the worker's own binary, on the
// page's thread behind the interface the page uses of a Worker
// (postMessage, onmessage, onerror, terminate). The page loads this file
// only then (wasm/bridge/pageworker_js.go), so neither it nor a copy of the
// engine is part of the first load. Messages cross a MessageChannel, as a
// worker's do: structured-cloned, buffers transferred, each delivered in a
// task of its own. The Go program talks through schedplayWorkerScope
// (wasm/worker reads it where it would use a worker's global scope).
/* global Go */
(function () {
  "use strict";
  function SchedplayPageWorker() {
    var self = this;
    var ch = new MessageChannel(); // port1: the page's side, port2: the engine's
    var handler = null, queue = [], closed = false;
    var files = new WeakMap(); // File -> its bytes, read before the message is handed on
    var order = Promise.resolve(); // keeps messages in order while a file is read
    this.onmessage = null;
    this.onerror = null;
    this._port = ch.port1;
    this._close = function () { closed = true; handler = null; };
    ch.port1.onmessage = function (e) {
      if (!closed && self.onmessage) { self.onmessage({ data: e.data }); }
    };
    function deliver(d) {
      if (closed) { return; }
      if (handler) { handler(d); } else { queue.push(d); }
    }
    ch.port2.onmessage = function (e) {
      var d = e.data;
      order = order.then(function () {
        if (!d || !d.file || !d.file.arrayBuffer) { return deliver(d); }
        return d.file.arrayBuffer().then(function (ab) { files.set(d.file, ab); deliver(d); },
          function () { deliver(d); }); // FileReaderSync below then reports the failure
      });
    };
    function fatal(why) {
      if (!closed) { ch.port2.postMessage({ type: "fatal", error: why }); }
    }
    window.schedplayWorkerScope = {
      pace: "page",
      postMessage: function (m, transfer) { if (!closed) { ch.port2.postMessage(m, transfer || []); } },
      schedplayWorkerReady: function (h) {
        handler = h;
        queue.forEach(function (m) { h(m); });
        queue = [];
      },
      FileReaderSync: function () {
        return {
          readAsArrayBuffer: function (f) {
            var ab = files.get(f);
            if (!ab) { throw new Error("could not read " + f.name); }
            files.delete(f);
            return ab;
          }
        };
      }
    };
    var go = new Go();
    go.exit = function (code) {
      fatal("the engine stopped (exit code " + code + ")");
      handler = null;
    };
    function start(result) { go.run(result.instance || result).catch(function () {}); }
    function fail(err) { fatal(String(err)); }
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
  }
  SchedplayPageWorker.prototype.postMessage = function (m, transfer) {
    this._port.postMessage(m, transfer || []);
  };
  SchedplayPageWorker.prototype.terminate = function () { this._close(); };
  window.SchedplayPageWorker = SchedplayPageWorker;
})();
