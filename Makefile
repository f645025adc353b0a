# schedplay: two commands matter — `make run` and `make test` (see README.md).
GO      ?= go
PKGS    := ./...
BIN     := bin/schedplay

.PHONY: all build run test test-unit test-wasm-build lint fmt-check vet bench fuzz realkernel clean

all: build

build:
	$(GO) build -o $(BIN) ./core/cmd/schedplay

# Until the browser playground exists, `make run` runs the default scenario
# in the CLI and prints its summary.
run: build
	./$(BIN) run -preset demo/periodic-vs-hog

test: fmt-check vet test-unit test-wasm-build

fmt-check:
	@out="$$(gofmt -l $$(git ls-files '*.go' | grep -v '_gen\.go$$'))"; \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

# -tags invariants compiles in the engine's self-checks; -race guards the
# CLI and test helpers (the core itself starts no goroutines).
test-unit:
	$(GO) test -tags invariants -race -count=1 $(PKGS)

# The core must build for the browser (GOOS/GOARCH are set per command only).
test-wasm-build:
	GOOS=js GOARCH=wasm $(GO) build ./core/...

# Simulated events per second and ns/event for the 64-CPU, 256-task machine,
# beside the bare event-heap loop measured in the same run; native, then
# WASM under Node (go_js_wasm_exec from the Go distribution).
bench:
	@echo "== native ($$($(GO) env GOOS)/$$($(GO) env GOARCH))"
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 2s ./core/sched/
	@echo "== wasm (js/wasm under $$(node --version 2>/dev/null || echo 'no node'))"
	PATH="$$($(GO) env GOROOT)/lib/wasm:$$PATH" GOOS=js GOARCH=wasm $(GO) test -run '^$$' -bench . -benchmem -benchtime 1s ./core/sched/

# Short fuzzing pass over every decoder (seeds live in testdata/fuzz).
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzDecode -fuzztime 30s ./core/scenario/
	$(GO) test -run '^$$' -fuzz FuzzDecodeURL -fuzztime 30s ./core/scenario/

# Measure this machine's kernel and compare with the simulator
# (docs/real-kernel.md).
realkernel:
	$(GO) run ./scripts/realkernel -o docs/real-kernel.md

clean:
	rm -rf bin
