# schedplay: two commands matter — `make run` and `make test` (see README.md).
GO      ?= go
PKGS    := ./...
BIN     := bin/schedplay

.PHONY: all build run site generate check-generated test test-unit test-wasm-build test-wasm-node test-browser lint fmt-check vet bench bench-browser bench-speed pgo-profile fuzz realkernel validate clean cli-demo

all: build

build:
	$(GO) build $(WORKER_PGO) -o $(BIN) ./core/cmd/schedplay

# The CLI's default scenario, as `make run` did before the playground.
cli-demo: build
	./$(BIN) run -preset demo/periodic-vs-hog

# --- Browser playground (wasm/ + site/ -> dist/) ---------------------------
# GOOS/GOARCH are set per command, never exported (host tools must stay host).
WASM_OUT := build/main.wasm
WORKER_OUT := build/worker.wasm
ADDR     ?= 127.0.0.1:8080

# Regenerate the Vugu components (cheap; output is byte-identical).
generate:
	$(GO) generate ./wasm/

# CI check: the checked-in wasm/*_gen.go match what vugugen makes from the
# .vugu sources (compared byte for byte with a fresh generation).
check-generated:
	@tmp=$$(mktemp -d); cp wasm/*_gen.go $$tmp/; \
	$(GO) generate ./wasm/ || exit 1; \
	for f in wasm/*_gen.go; do \
	  if ! cmp -s $$f $$tmp/$$(basename $$f); then echo "$$f is stale: run 'make generate' and commit it"; rm -rf $$tmp; exit 1; fi; \
	done; rm -rf $$tmp; echo "wasm/*_gen.go up to date"

$(WASM_OUT): generate
	@mkdir -p build
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o $(WASM_OUT) ./wasm

# The simulation worker: core only (no Vugu), run in a Web Worker.
# WORKER_GCFLAGS: inline harder in our own packages (-l=4 counts a call as
# cost 1 in the inlining budget instead of 57), since a call is far dearer
# under Go's js/wasm than natively (docs/engine.md "Speed under WASM").
# WORKER_PGO: profile-guided optimisation with wasm/worker/default.pgo, a
# native CPU profile of the worker's loop over the budget's scenario and
# seven presets (make pgo-profile; wasm/worker/pgo_test.go): hot call sites
# get a far larger inlining budget. Together 7.6% fewer x86 instructions
# per engine event for the WASM worker than -l=4 alone (engine.md).
# `go build ./wasm/worker` picks the profile up by itself (-pgo=auto); the
# flag makes it explicit. The CLI (another main package) is built with the
# same profile, and so are the native baselines of `make bench`,
# `make bench-speed` and `make bench-browser`: the browser/native ratio
# compares like with like (both sides about 8% cheaper).
WORKER_GCFLAGS := -gcflags='schedplay/...=-l=4'
WORKER_PGO := -pgo=wasm/worker/default.pgo
$(WORKER_OUT):
	@mkdir -p build
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' $(WORKER_GCFLAGS) $(WORKER_PGO) -o $(WORKER_OUT) ./wasm/worker

# Regenerate the worker's PGO profile (after large changes to the engine;
# a stale profile only loses effect). Taken natively with the old profile
# off; the test binary goes to a temporary directory.
pgo-profile:
	@tmp=$$(mktemp -d); \
	$(GO) test -pgo=off -run '^$$' -bench PGOProfile -benchtime 10x -o $$tmp/worker.test -cpuprofile $(CURDIR)/wasm/worker/default.pgo ./wasm/worker/; \
	rc=$$?; rm -rf $$tmp; exit $$rc

# Build the static site into dist/ (minified, precompressed .br/.gz).
site: $(WASM_OUT) $(WORKER_OUT)
	$(GO) run ./scripts/sitebuild -site site -wasm $(WASM_OUT) -worker $(WORKER_OUT) -out dist

.PHONY: $(WASM_OUT) $(WORKER_OUT)

# Build the site and serve it on localhost (prints the URL).
run: site
	$(GO) run ./scripts/devserver -dir dist -addr $(ADDR)

test: fmt-check check-generated vet test-unit test-wasm-build test-wasm-node test-browser

fmt-check:
	@out="$$(gofmt -l $$(git ls-files '*.go' | grep -v '_gen\.go$$'))"; \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

# -tags invariants compiles in the engine's self-checks; -race guards the
# CLI and test helpers (the core itself starts no goroutines).
# Every package with the invariant checks on. The race detector runs over
# the packages that start goroutines (the CLI's worker pool, the page's
# run loop, the tools); core is single-threaded by rule (the lint test
# forbids sync and goroutines there), so -race could find nothing in it and
# would only multiply its run time.
RACE_PKGS := ./core/cmd/... ./wasm/... ./scripts/...
test-unit:
	$(GO) test -tags invariants -count=1 -timeout 20m $(PKGS)
	$(GO) test -count=1 ./core/internal/golden/
	$(GO) test -race -count=1 $(RACE_PKGS)

# The core and the UI must build for the browser (GOOS/GOARCH per command only).
test-wasm-build:
	GOOS=js GOARCH=wasm $(GO) build ./core/... ./wasm/...

# The bridge and view models under Node (go_js_wasm_exec from the Go
# distribution runs js/wasm test binaries).
test-wasm-node:
	PATH="$$($(GO) env GOROOT)/lib/wasm:$$PATH" GOOS=js GOARCH=wasm $(GO) test -count=1 ./wasm/bridge/ ./wasm/codec/ ./wasm/protocol/ ./wasm/report/ ./wasm/runner/ ./wasm/view/ ./wasm/worker/

# Browser tests: chromedp driving Debian's Chromium, and Debian's
# firefox-esr over WebDriver BiDi (TestFirefox), against the built site.
# Without a browser its tests skip with a message, except in CI (CI set),
# where a missing browser is a failure.
test-browser: site
	@command -v chromium >/dev/null || [ -n "$$CI" ] || echo "test-browser: SKIP: chromium is not installed (apt-get install chromium); Chromium tests not run"
	@command -v firefox-esr >/dev/null || command -v firefox >/dev/null || [ -n "$$CI" ] || echo "test-browser: SKIP: firefox is not installed (apt-get install firefox-esr); Firefox test not run"
	$(GO) test -tags browser -count=1 -timeout 10m -skip 'TestBudgets|TestScreenshots|TestFirefoxBudgets|TestLongTaskTrace' ./scripts/browsertest/ -dist $(CURDIR)/dist

# Browser budgets (first render, long tasks, redraw, in-browser speed,
# WASM size; then the Firefox table) and screenshots into docs/screenshots/.
bench-browser: site
	$(GO) test -tags browser $(WORKER_PGO) -count=1 -timeout 15m -run 'TestBudgets|TestScreenshots|TestFirefoxBudgets' -v ./scripts/browsertest/ -dist $(CURDIR)/dist -screenshots $(CURDIR)/docs/screenshots

# Simulated events per second and ns/event for the 64-CPU, 256-task machine
# and the 256-CPU epyc-milan-2s64c with 1024 mixed tasks (wall-ns/sim-ns is
# the wall seconds per simulated second; target < 2), beside the bare event-heap loop measured in the same run; native, then
# WASM under Node (go_js_wasm_exec from the Go distribution).
bench: bench-browser
	@echo "== timeline raster, one million slices (budget 16 ms per redraw)"
	$(GO) test -run '^$$' -bench RasterMillionSlices -benchtime 20x ./wasm/view/
	@echo "== native ($$($(GO) env GOOS)/$$($(GO) env GOARCH))"
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 2s ./core/sched/
	@echo "== wasm (js/wasm under $$(node --version 2>/dev/null || echo 'no node'))"
	PATH="$$($(GO) env GOROOT)/lib/wasm:$$PATH" GOOS=js GOARCH=wasm $(GO) test -run '^$$' -bench . -benchmem -benchtime 1s ./core/sched/
	@echo "== the worker's pipeline (engine, + metrics, + recorder; + timeline for the page), native then wasm"
	$(GO) test $(WORKER_PGO) -run '^$$' -bench Engine -benchtime 5x ./wasm/worker/
	PATH="$$($(GO) env GOROOT)/lib/wasm:$$PATH" GOOS=js GOARCH=wasm $(GO) test $(WORKER_GCFLAGS) $(WORKER_PGO) -run '^$$' -bench Engine -benchtime 5x ./wasm/worker/

# The browser speed budget without a browser: the worker's pipeline under
# Node against the page's local run natively, on the budget's scenario
# (wasm/worker/speed_test.go, scripts/speedratio; docs/engine.md). The
# WASM worker is built as worker.wasm is (WORKER_GCFLAGS, WORKER_PGO), the
# native run with the same profile, as the CLI is.
bench-speed:
	$(GO) run ./scripts/speedratio -count 3 -workergc 'schedplay/...=-l=4' -workerpgo wasm/worker/default.pgo

# Short fuzzing pass over every decoder (seeds live in testdata/fuzz).
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzDecode -fuzztime 30s ./core/scenario/
	$(GO) test -run '^$$' -fuzz FuzzDecodeURL -fuzztime 30s ./core/scenario/

# Measure this machine's kernel and compare with the simulator
# (docs/real-kernel.md).
realkernel:
	$(GO) run ./scripts/realkernel -o docs/real-kernel.md -json docs/real-kernel.json

# docs/VALIDATION.md from scratch: the seed presets against their threads'
# numbers, and the real kernel of this machine (needs root) beside the simulator.
validate:
	$(GO) run ./scripts/validate -o docs/VALIDATION.md

clean:
	rm -rf bin build dist

# Rewrite every golden file (docs/engine.md "Golden files"), then review `git diff`.
.PHONY: golden
golden:
	$(GO) test ./core/sched -run TestScripts -rewrite
	$(GO) test ./core/trace/ftrace ./core/trace/perfetto -run Golden -rewrite
	$(GO) test ./core/scenario -run 'TestURLCorpus|TestWorkloadExpansionGolden' -rewrite
	$(GO) test ./core/internal/golden -rewrite
