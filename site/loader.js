// Loads the Go WebAssembly app (main.wasm) with Go's wasm_exec.js glue.
// instantiateStreaming needs the server to send application/wasm; the
// fallback covers static hosts that do not. Load timings are kept in
// window.schedplayLoad for the first-render budget (make bench).
// schedplayNewWorker starts the simulation worker (the page's Go code
// calls it, wasm/bridge StartWorker): the first compiles worker.wasm and
// hands its compiled module back over a MessageChannel; every later one
// (the pool's other workers, replacements) is given that module and only
// instantiates it, so a new worker starts in tens of ms instead of
// fetching and compiling 5 MB, and runs the engine's code as already
// compiled and optimised by the workers before it (site/worker.js).
(function () {
  "use strict";
  var mod = null;
  var asked = false;
  window.schedplayNewWorker = function (url) {
    if (mod) {
      var w = null;
      try {
        w = new Worker(url, { name: "schedplay-module" });
        w.postMessage({ type: "wasm-module", module: mod });
        return w;
      } catch (err) {
        if (w) { w.terminate(); }
        mod = null; // not cloneable here: every worker compiles its own
      }
    }
    var first = new Worker(url);
    if (!asked && typeof MessageChannel === "function") {
      asked = true;
      var ch = new MessageChannel();
      ch.port1.onmessage = function (e) {
        if (e.data instanceof WebAssembly.Module) { mod = e.data; }
        ch.port1.close();
      };
      first.postMessage({ type: "wasm-module-port" }, [ch.port2]);
    }
    return first;
  };
})();
(function () {
  "use strict";
  var t0 = performance.now();
  window.schedplayLoad = { start: t0 };
  var go = new Go();
  function run(result) {
    window.schedplayLoad.instantiated = performance.now() - t0;
    go.run(result.instance);
  }
  function fail(err) {
    var el = document.getElementById("app");
    el.textContent = "Could not start the simulator: " + err;
    el.className = "load-error";
  }
  var url = "main.wasm";
  if (WebAssembly.instantiateStreaming) {
    WebAssembly.instantiateStreaming(fetch(url), go.importObject).then(run, function () {
      fetch(url).then(function (r) { return r.arrayBuffer(); })
        .then(function (b) { return WebAssembly.instantiate(b, go.importObject); })
        .then(run, fail);
    });
  } else {
    fetch(url).then(function (r) { return r.arrayBuffer(); })
      .then(function (b) { return WebAssembly.instantiate(b, go.importObject); })
      .then(run, fail);
  }
})();
