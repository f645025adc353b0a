// Package lint holds tests that enforce the core's design rules: the
// simulator is a passive library, so no package under core/ (except the CLI
// in core/cmd) may import clocks, the OS, the network, the browser or global
// randomness.
package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var forbidden = map[string]string{
	"time":                 "simulated time is sched.Time; no wall clock in the core",
	"os":                   "the core does no I/O",
	"os/exec":              "the core does no I/O",
	"net":                  "the core does no I/O",
	"net/http":             "the core does no I/O",
	"syscall":              "the core does no I/O",
	"syscall/js":           "the core must run outside the browser too",
	"math/rand":            "use the run's seeded math/rand/v2 generator, never the global one",
	"unsafe":               "no unsafe tricks in the simulator",
	"sync":                 "the core starts no goroutines and shares no state",
	"github.com/vugu/vugu": "the UI lives in wasm/",
}

func TestCoreImports(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			rel, _ := filepath.Rel(root, path)
			if rel == "cmd" || strings.HasPrefix(rel, "cmd"+string(filepath.Separator)) || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		// No go statements: the core is single-threaded (which is also
		// why `make test` runs the race detector only outside it).
		ast.Inspect(f, func(n ast.Node) bool {
			if g, ok := n.(*ast.GoStmt); ok {
				t.Errorf("%s: go statement: the core starts no goroutines", fset.Position(g.Pos()))
			}
			return true
		})
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if why, bad := forbidden[p]; bad {
				t.Errorf("%s imports %q: %s", path, p, why)
			}
			if strings.HasPrefix(p, "math/rand") && p != "math/rand/v2" {
				t.Errorf("%s imports %q: use math/rand/v2 with the run's seed", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestLintSeesTheCore makes sure the walk above really visits the core, so
// the lint cannot pass by looking at nothing.
func TestLintSeesTheCore(t *testing.T) {
	if _, err := os.Stat(filepath.Join("..", "..", "sched", "sim.go")); err != nil {
		t.Fatalf("lint root is wrong: %v", err)
	}
}
