// Package report holds the results of the playground's batches of runs
// in the form that crosses from the engine (wasm/runner, in the worker) to
// the page as JSON and that the page's panels render: [ThreadReport] (a
// thread experiment: tables, checks, Markdown, bar plots) and
// [SweepReport] (a sweep: tables, line plots, the CLI's text and CSV).
// They are built from core/experiment's results, with no NaN (missing
// values are flagged), so encoding/json carries them.
//
// Non-goals: no DOM, no JavaScript, no running of simulations.
package report
