# schedplay: `make run` serves the playground, `make test` runs what CI runs.
# One line per target here; the reasons are in docs/engine.md ("Building and testing").
GO      ?= go
PKGS    := ./...
BIN     := bin/schedplay
ADDR    ?= 127.0.0.1:8080
PGO     ?= wasm/worker/default.pgo
WORKER_GCFLAGS := schedplay/...=-l=4
PAGE_GCFLAGS   := -gcflags=schedplay/core/...=-l -gcflags=schedplay/wasm=-l
RACE_PKGS  := ./core/cmd/... ./wasm/... ./scripts/...
WASM_OUT   := build/main.wasm
WORKER_OUT := build/worker.wasm
# The commit every build names in its exports' provenance (scenario.BuildVersion),
# linked in because Go stamps no VCS information under go run or -buildvcs=false.
STAMP      ?= $(shell git describe --always --dirty 2>/dev/null)
STAMP_LDFLAGS := -X schedplay/core/scenario.buildStamp=$(STAMP)
# Runs js/wasm test binaries under Node (go_js_wasm_exec from the Go distribution).
WASM_EXEC  = PATH="$$($(GO) env GOROOT)/lib/wasm:$$PATH" GOOS=js GOARCH=wasm

.PHONY: all build cli-demo generate check-generated site run pgo-profile \
	check test fmt-check vet test-short test-unit test-golden test-race test-wasm-build test-wasm-node test-browser \
	bench bench-engine bench-browser bench-memory bench-speed fuzz realkernel validate replay-fidelity clean \
	$(WASM_OUT) $(WORKER_OUT)

all: build

# The CLI, bin/schedplay.
build:
	$(GO) build -pgo=$(PGO) -ldflags='$(STAMP_LDFLAGS)' -o $(BIN) ./core/cmd/schedplay

# Run the default scenario in the CLI.
cli-demo: build
	./$(BIN) run -preset demo/periodic-vs-hog

# --- Browser playground (wasm/ + site/ -> dist/) ---------------------------

# Regenerate the checked-in Vugu code (wasm/*_gen.go) from wasm/*.vugu.
generate:
	$(GO) generate ./wasm/

# Fail if the checked-in wasm/*_gen.go differ from a fresh generation.
check-generated:
	@tmp=$$(mktemp -d); cp wasm/*_gen.go $$tmp/; \
	$(GO) generate ./wasm/ || exit 1; \
	for f in wasm/*_gen.go; do \
	  if ! cmp -s $$f $$tmp/$$(basename $$f); then echo "$$f is stale: run 'make generate' and commit it"; rm -rf $$tmp; exit 1; fi; \
	done; rm -rf $$tmp; echo "wasm/*_gen.go up to date"

# The page's WASM, from the checked-in generated code.
$(WASM_OUT):
	@mkdir -p build
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w $(STAMP_LDFLAGS)' $(PAGE_GCFLAGS) -o $(WASM_OUT) ./wasm

# The simulation worker's WASM (core only, run in a Web Worker).
$(WORKER_OUT):
	@mkdir -p build
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w $(STAMP_LDFLAGS)' -gcflags='$(WORKER_GCFLAGS)' -pgo=$(PGO) -o $(WORKER_OUT) ./wasm/worker

# The static site in dist/ (minified, precompressed .br/.gz; docs/publishing.md).
site: $(WASM_OUT) $(WORKER_OUT)
	$(GO) run ./scripts/sitebuild -site site -wasm $(WASM_OUT) -worker $(WORKER_OUT) -out dist

# Build the site and serve it on $(ADDR) (prints the URL).
run: site
	$(GO) run ./scripts/devserver -dir dist -addr $(ADDR)

# Regenerate the PGO profile $(PGO) (native, with the old profile off).
pgo-profile:
	@tmp=$$(mktemp -d); \
	$(GO) test -pgo=off -run '^$$' -bench PGOProfile -benchtime 10x -o $$tmp/worker.test -cpuprofile $(CURDIR)/$(PGO) ./wasm/worker/; \
	rc=$$?; rm -rf $$tmp; exit $$rc

# --- Tests -----------------------------------------------------------------

# The quick gate: gofmt, vet, then the short unit tests and the golden lock side by side.
check: fmt-check vet
	$(MAKE) --no-print-directory -j2 test-short test-golden

# Unit tests with invariants, -short.
test-short:
	$(GO) test -tags invariants -short -count=1 $(PKGS)

# Everything CI runs (.ci/run).
test: fmt-check check-generated vet test-unit test-wasm-build test-wasm-node test-browser

# gofmt over the tracked Go files (generated ones excepted).
fmt-check:
	@out="$$(gofmt -l $$(git ls-files '*.go' | grep -v '_gen\.go$$'))"; \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# go vet over every package.
vet:
	$(GO) vet $(PKGS)

# Every test with the invariant checks, the golden lock, and -race where goroutines run.
test-unit:
	$(GO) test -tags invariants -count=1 -timeout 20m $(PKGS)
	$(MAKE) --no-print-directory test-golden
	$(MAKE) --no-print-directory test-race

# The behaviour lock: every preset under every profile, hashed (no invariants).
test-golden:
	$(GO) test -count=1 ./core/internal/golden/

# The race detector over the packages that start goroutines.
test-race:
	$(GO) test -race -count=1 $(RACE_PKGS)

# The core and the page build for js/wasm.
test-wasm-build:
	GOOS=js GOARCH=wasm $(GO) build ./core/... ./wasm/...

# The bridge, view models and worker tests under Node.
test-wasm-node:
	$(WASM_EXEC) $(GO) test -count=1 ./wasm/bridge/ ./wasm/codec/ ./wasm/protocol/ ./wasm/report/ ./wasm/runner/ ./wasm/view/ ./wasm/worker/

# Browser tests in Chromium and Firefox against dist/ (skipped with a message without a browser, except in CI).
test-browser: site
	@command -v chromium >/dev/null || [ -n "$$CI" ] || echo "test-browser: SKIP: chromium is not installed (apt-get install chromium); Chromium tests not run"
	@command -v firefox-esr >/dev/null || command -v firefox >/dev/null || [ -n "$$CI" ] || echo "test-browser: SKIP: firefox is not installed (apt-get install firefox-esr); Firefox test not run"
	$(GO) test -tags browser -count=1 -timeout 10m -skip 'TestBudgets|TestScreenshots|TestFirefoxBudgets|TestLongTaskTrace' ./scripts/browsertest/ -dist $(CURDIR)/dist

# --- Measurements ------------------------------------------------------------

# Engine and browser benchmarks.
bench: bench-engine bench-browser bench-memory

# Engine speed native and under Node, the timeline raster and the worker's pipeline (no browser).
bench-engine:
	@echo "== timeline raster, one million slices (budget 16 ms per redraw)"
	$(GO) test -run '^$$' -bench RasterMillionSlices -benchtime 20x ./wasm/view/
	@echo "== engine, native ($$($(GO) env GOOS)/$$($(GO) env GOARCH))"
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 2s ./core/sched/
	@echo "== engine, wasm (js/wasm under $$(node --version 2>/dev/null || echo 'no node'))"
	$(WASM_EXEC) $(GO) test -run '^$$' -bench . -benchmem -benchtime 1s ./core/sched/
	@echo "== the worker's pipeline (engine, + metrics, + recorder; + timeline for the page), native then wasm"
	$(GO) test -pgo=$(PGO) -run '^$$' -bench Engine -benchtime 5x ./wasm/worker/
	$(WASM_EXEC) $(GO) test -gcflags='$(WORKER_GCFLAGS)' -pgo=$(PGO) -run '^$$' -bench Engine -benchtime 5x ./wasm/worker/

# Peak RSS and live heap of the 256-CPU, 1024-task run, 1 against 30 simulated seconds (within 1.5x; docs/engine.md "Memory").
bench-memory:
	SCHEDPLAY_MEMORY_TEST=1 $(GO) test -count=1 -timeout 20m -run 'TestPeakRSSFlat|TestLiveHeapFlat' -v ./core/cmd/schedplay/

# Browser budgets (docs/budgets.md) and screenshots (docs/screenshots/) in Chromium and Firefox.
bench-browser: site
	$(GO) test -tags browser -pgo=$(PGO) -count=1 -timeout 90m -run 'TestBudgets|TestScreenshots|TestFirefoxBudgets' -v ./scripts/browsertest/ -dist $(CURDIR)/dist -screenshots $(CURDIR)/docs/screenshots

# The browser speed budget's ratio without a browser (worker under Node vs native).
bench-speed:
	$(GO) run ./scripts/speedratio -count 3 -workergc '$(WORKER_GCFLAGS)' -workerpgo $(PGO)

# Short fuzzing pass over every decoder of user input: scenarios, share
# URLs and A/B links, -set, durations, rt-app files, kernel traces and
# their inference, platform files, -sweep, sweep links, -shard, part files
# and -a/-b lists. -fuzz takes one target at a time: each name is anchored.
FUZZTIME ?= 30s
FUZZ_TARGETS = \
	./core/scenario:FuzzDecode ./core/scenario:FuzzDecodeURL ./core/scenario:FuzzDecodeABParam \
	./core/scenario:FuzzSet ./core/scenario:FuzzParseDuration \
	./core/rtapp:FuzzImport ./core/ftraceimport:FuzzImport \
	./core/replay:FuzzInfer ./core/replay:FuzzParsePlatform \
	./core/experiment:FuzzParseSweepAxis ./core/experiment:FuzzDecodeSweepFragment ./core/experiment:FuzzParseShard \
	./core/experiment/partfile:FuzzDecodePart ./core/cmd/schedplay:FuzzSplitSets
fuzz:
	@for t in $(FUZZ_TARGETS); do \
	  pkg=$${t%%:*}; name=$${t#*:}; echo "$$pkg $$name"; \
	  $(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	done

# Measure this machine's kernel beside the simulator (docs/real-kernel.md).
realkernel:
	$(GO) run ./scripts/realkernel -o docs/real-kernel.md -json docs/real-kernel.json

# Record traces of known workloads with tracefs and replay them (docs/replay-fidelity.md,
# section 4 of docs/VALIDATION.md); root. REPLAY_ONLY=1 replays the traces already recorded.
replay-fidelity:
	$(GO) run ./scripts/replaytrace -o docs/replay-fidelity.md -json docs/replay-fidelity.json $(if $(REPLAY_ONLY),-replay-only)
	$(GO) run ./scripts/validate -o docs/VALIDATION.md -replay-only-section

# Regenerate docs/VALIDATION.md from scratch (needs root for the real-kernel part).
validate:
	$(GO) run ./scripts/validate -o docs/VALIDATION.md

# Remove build outputs.
clean:
	rm -rf bin build dist

# Rewrite every golden file (docs/engine.md "Golden files"), then review `git diff`.
.PHONY: golden
golden:
	$(GO) test ./core/sched -run TestScripts -rewrite
	$(GO) test ./core/trace/ftrace ./core/trace/perfetto -run Golden -rewrite
	$(GO) test ./core/scenario -run 'TestURLCorpus|TestWorkloadExpansionGolden' -rewrite
	$(GO) test ./core/internal/golden -rewrite
