// Loads the Go WebAssembly app (main.wasm) with Go's wasm_exec.js glue.
// instantiateStreaming needs the server to send application/wasm; the
// fallback covers static hosts that do not. Load timings are kept in
// window.schedplayLoad for the first-render budget (make bench).
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
