// Command speedratio is the browser speed budget without a browser
// (docs/engine.md "Speed under WASM", `make bench-speed`): it runs the
// budget benchmarks of wasm/worker (speed_test.go) natively and as js/wasm
// under Node, each -count times, and prints the best events/s of each part
// and the ratio the budget is about: the worker's pipeline under WASM
// against the page's local run natively (scripts/browsertest TestBudgets
// divides the browser's events/s by that same native figure).
//
// It takes the best of the repetitions, by wall time and by process CPU
// time, because on a shared machine both only ever err on the slow side.
// The wasm build of the worker takes the same -gcflags and PGO profile as
// the shipped worker.wasm (-workergc and -workerpgo, the Makefile's
// WORKER_GCFLAGS and PGO). The native run takes the same profile
// (not the -l=4 flags, which only the worker gets): the Makefile builds the
// CLI and the browser budget's native figure (scripts/browsertest) with it,
// so both sides of the ratio are profiled.
//
//	go run ./scripts/speedratio -count 3 -workergc 'schedplay/...=-l=4' -workerpgo wasm/worker/default.pgo
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	count := flag.Int("count", 3, "repetitions of each benchmark (the best is kept)")
	gcflags := flag.String("workergc", "", "-gcflags of the wasm build (the shipped worker's)")
	pgo := flag.String("workerpgo", "auto", "-pgo of both builds: the shipped worker's profile (auto: wasm/worker/default.pgo), or off")
	dur := flag.String("duration", "", "cut the scenario to this duration (SCHEDPLAY_BENCH_DURATION); default the budget's 3s")
	flag.Parse()
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		fail(err)
	}
	wasmPath := filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm")
	env := os.Environ()
	if *dur != "" {
		env = append(env, "SCHEDPLAY_BENCH_DURATION="+*dur)
	}
	args := func(bench string, extra ...string) []string {
		a := []string{"test", "-run", "^$", "-bench", bench, "-benchtime", "1x", "-count", strconv.Itoa(*count)}
		return append(append(a, extra...), "./wasm/worker/")
	}
	native := run(env, args("BudgetPage|BudgetWorker|BudgetIngest", "-pgo="+*pgo))
	wenv := append(env, "GOOS=js", "GOARCH=wasm", "PATH="+wasmPath+string(os.PathListSeparator)+os.Getenv("PATH"))
	extra := []string{"-pgo=" + *pgo}
	if *gcflags != "" {
		extra = append(extra, "-gcflags="+*gcflags)
	}
	wasm := run(wenv, args("BudgetWorker|BudgetIngest", extra...))

	fmt.Printf("%-28s %14s %14s %16s\n", "benchmark (best of "+strconv.Itoa(*count)+")", "events/s", "ns/event", "cpu-ns/event")
	for _, r := range []struct {
		name string
		m    map[string]best
		key  string
	}{{"native page (the baseline)", native, "BudgetPage"}, {"native worker", native, "BudgetWorker"},
		{"native ingest", native, "BudgetIngest"}, {"wasm worker", wasm, "BudgetWorker"}, {"wasm ingest", wasm, "BudgetIngest"}} {
		b := r.m[r.key]
		fmt.Printf("%-28s %14.0f %14.0f %16.0f\n", r.name, 1e9/b.ns, b.ns, b.cpu)
	}
	page, w := native["BudgetPage"], wasm["BudgetWorker"]
	fmt.Printf("ratio wasm worker / native page: %.2fx by wall time, %.2fx by CPU time (budget 0.5x)\n", page.ns/w.ns, page.cpu/w.cpu)
}

type best struct{ ns, cpu float64 }

// run runs go with args and returns, per benchmark, the lowest ns/event
// and cpu-ns/event over its lines.
func run(env, args []string) map[string]best {
	cmd := exec.Command("go", args...)
	cmd.Env = env
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		os.Stdout.Write(out)
		fail(err)
	}
	res := map[string]best{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := strings.TrimPrefix(strings.SplitN(f[0], "-", 2)[0], "Benchmark")
		b, ok := res[name]
		for i := 1; i+1 < len(f); i++ {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "ns/event":
				if !ok || v < b.ns {
					b.ns = v
				}
			case "cpu-ns/event":
				if !ok || v < b.cpu {
					b.cpu = v
				}
			}
		}
		res[name] = b
	}
	for _, k := range []string{"BudgetWorker", "BudgetIngest"} {
		if _, ok := res[k]; !ok {
			os.Stdout.Write(out)
			fail(fmt.Errorf("no %s result in the output of go %s", k, strings.Join(args, " ")))
		}
	}
	return res
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "speedratio:", err)
	os.Exit(1)
}
