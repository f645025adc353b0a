// Command schedplay runs schedplay scenarios from the command line: the same
// core as the browser playground, for scripts, CI and batch sweeps.
//
// Usage (docs/cli.md "The contract"):
//
//	schedplay run [flags] [SCENARIO]
//	schedplay presets | topologies | keys
//	schedplay workloads [-expand [-preset NAME] [-set K=V] [SCENARIO]]
//	schedplay url [-base URL] [SCENARIO]
//	schedplay topo [-kernel PROFILE] NAME
//	schedplay export-rtapp [SCENARIO]
//	schedplay validate [PRESET ...]
//	schedplay compare|sweep|validate ... -shard K/N -part PART.json
//	schedplay merge [-csv F] [-o text|markdown|json] PART.json ...
//	schedplay replay [-topology T] [-kernel P] [-set K=V] [-b 'K=V ...'] TRACE
//
// Exit status: 0 success, 2 bad input (the message names the file, the field
// path and what was expected), 1 internal error, 3 (validate -check) a
// thread's number missed. Output files are written to
// a temporary name and renamed, so nothing is ever written half.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"schedplay/core/quote"
)

// usageError marks bad input (exit status 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

func badInput(format string, args ...any) error {
	return usageError{quote.Errorf(format, args...)}
}

// env holds what the CLI reads from the process environment; only main
// fills it, so tests run with an empty one.
type env struct {
	base string // SCHEDPLAY_BASE: the share link's origin for `schedplay url`
	// lookup reads a variable for `-shard auto/N` (nil: none is set).
	lookup func(name string) (string, bool)
}

func main() {
	e := env{base: os.Getenv(baseEnvVar), lookup: os.LookupEnv}
	os.Exit(runEnv(os.Args[1:], e, os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage: schedplay <command> [flags] [args]

commands:
  run [flags] [SCENARIO]   run a scenario (file, share URL, "#..." fragment, or - for stdin)
  compare -a 'K=V ..' -b 'K=V ..' [-runs N] [SCENARIO]  A/B table over N seeds (LKML shape)
  sweep -sweep K=v1,v2 [-sweep K2=..] [-csv F] [SCENARIO]  a key (or two) over values, table + CSV
  presets                  list the built-in scenarios
  topologies               list the machine presets
  keys                     list every scenario key -set accepts
  workloads [-expand [SCENARIO]]  list the workload generators and their parameters,
                           or print a scenario with its workloads expanded into task groups
  url [-base URL] [SCENARIO]  print the share URL of a scenario ($SCHEDPLAY_BASE sets the origin)
  topo [-kernel P] NAME    the machine and its sched domains (kernel sched_domain debug output)
  placement [-topology T] [-tasks 1-20] -a 'K=V ..' [-b 'K=V ..']  where N CPU-bound tasks settle (docs/placement.md)
  export-rtapp [SCENARIO]  print the workload as rt-app JSON (rt-app files also run directly)
  validate [-o text|markdown|json] [PRESET ..]  run the seed/ presets' experiments against the threads' numbers
  compare|sweep|validate ... -shard K/N -part F  run only slice K of N of the runs (auto/N: from
                           $SLURM_ARRAY_TASK_ID or $JOB_COMPLETION_INDEX), results to part file F
  merge [-csv F] [-o text|markdown|json] PART.json ..  combine the parts into the unsharded output (docs/batch.md)
  trace-metrics [-o text|json] FILE  metrics of a real kernel trace (ftrace text or trace-cmd report)
  replay [-topology T] [-kernel P] [-set K=V] [-metrics F] [-scenario OUT] [-b 'K=V ..'] TRACE
                           infer a trace's workload, rerun it, the trace beside the replay per task

run "schedplay run -h" for the run flags.
`

// run is main without the process and its environment: testable.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runEnv(args, env{}, stdin, stdout, stderr)
}

// runEnv is run with the environment main read.
func runEnv(args []string, e env, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "run":
		err = cmdRun(args[1:], stdin, stdout, stderr)
	case "compare":
		err = cmdCompare(args[1:], e, stdin, stdout, stderr)
	case "sweep":
		err = cmdSweep(args[1:], e, stdin, stdout, stderr)
	case "presets":
		err = cmdPresets(stdout)
	case "topologies":
		err = cmdTopologies(stdout)
	case "keys":
		err = cmdKeys(stdout)
	case "workloads":
		err = cmdWorkloads(args[1:], stdin, stdout, stderr)
	case "url":
		err = cmdURL(args[1:], e, stdin, stdout, stderr)
	case "topo":
		err = cmdTopo(args[1:], stdout, stderr)
	case "placement":
		err = cmdPlacement(args[1:], stdout, stderr)
	case "export-rtapp":
		err = cmdExportRTApp(args[1:], stdin, stdout, stderr)
	case "validate":
		err = cmdValidate(args[1:], e, stdin, stdout, stderr)
	case "merge":
		err = cmdMerge(args[1:], e, stdout, stderr)
	case "trace-metrics":
		err = cmdTraceMetrics(args[1:], stdin, stdout, stderr)
	case "replay":
		err = cmdReplay(args[1:], stdin, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprint(stderr, quote.Sprintf("schedplay: unknown command %q\n%s", args[0], usage))
		return 2
	}
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "schedplay %s: %v\n", args[0], err)
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	var te thresholdError
	if errors.As(err, &te) {
		return 3
	}
	return 1
}
