// Package experiment turns finished runs into the figures of an A/B
// comparison or a parameter sweep: the metric catalogue (what `schedplay
// compare -metric` and `schedplay sweep -metric` accept), the per-run
// measurement, the run-to-run statistics (mean, median, sample standard
// deviation) and the verdict of a change against the run-to-run noise.
//
// The shape follows the tables of the Linux scheduler mailing list: one
// row per metric with the baseline, the patched value, the % change, the
// standard deviation over the runs of each side as a percentage of its
// mean, and a marker saying whether lower or higher is better.
//
// Goals: pure functions of the runs' results, so the same runs give the
// same table byte for byte whatever order they finished in.
//
// It also plans the runs ([Plan], [ThreadConfigs]) and runs one of them
// to the end ([Execute]); it starts no goroutines and does no I/O: the CLI
// drives the jobs on a worker pool, the browser worker one after another,
// and both hand the results back here. Scenarios with an experiment block
// (the seed/ presets) are evaluated as their thread's tables with the
// published numbers checked ([EvaluateThread]).
package experiment
