//go:build browser

package browsertest

// The first-load budget (docs/budgets.md): the brotli bytes of everything
// a first visit loads. TestBudgets reports it in the budgets table;
// TestFirstLoadBudget fails `make test` when it goes over, so a page that
// links the engine again (or any other growth) cannot land unnoticed.

import (
	"os"
	"path/filepath"
	"testing"
)

// firstLoad is scripts/sitebuild's FirstLoad (a main package: not
// importable): what index.html loads, the worker starting at once.
// pageworker.js is not in it: only a browser without workers loads it.
var firstLoad = []string{"index.html", "style.css", "favicon.svg", "wasm_exec.js", "loader.js",
	"main.wasm", "worker.js", "worker.wasm"}

// firstLoadBudgetMB is the budget of the first load, brotli.
const firstLoadBudgetMB = 3.0

// firstLoadMB is the brotli size of the first load in dist/, in MB.
func firstLoadMB(t *testing.T) float64 {
	t.Helper()
	var size int64
	for _, name := range firstLoad {
		st, err := os.Stat(filepath.Join(*distDir, name+".br"))
		if err != nil {
			t.Fatalf("first-load file: %v (run make site)", err)
		}
		size += st.Size()
	}
	return float64(size) / 1e6
}

func TestFirstLoadBudget(t *testing.T) {
	mb := firstLoadMB(t)
	t.Logf("first load (brotli, %d files): %.2f MB, budget %.2f MB", len(firstLoad), mb, firstLoadBudgetMB)
	if mb >= firstLoadBudgetMB {
		t.Fatalf("first load %.2f MB (brotli), over its %.2f MB budget (docs/budgets.md)", mb, firstLoadBudgetMB)
	}
	if _, err := os.Stat(filepath.Join(*distDir, "pageworker.js")); err != nil {
		t.Fatalf("the no-worker stand-in is missing from dist: %v", err)
	}
}
