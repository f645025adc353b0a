package runner

// BudgetScenario is the million-slice run of the playground's budgets
// (docs/budgets.md): 16 tasks that run 20 us and yield on 8 CPUs for 3 s,
// about 1.2 million timeline slices. The browser budget test
// (scripts/browsertest) and the worker's speed benchmarks (wasm/worker)
// both measure it, so it lives here, beside the engine they run.
const BudgetScenario = `{"version":1,"name":"bench/million-slices","topology":"smp-8",
 "kernel":{"version":"v6.18"},"duration":"3s","seed":1,
 "tasks":[{"name":"yielder","instances":16,"loop":-1,"program":[{"run":"20us"},{"yield":true}]}]}`
