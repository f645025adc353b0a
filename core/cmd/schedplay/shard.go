package main

// Sharded runs of compare, sweep and validate (docs/batch.md): with
// `-shard K/N -part FILE` a command plans every job as usual, runs only
// the K-th slice (experiment.Shard) and writes the slice's results as a
// part file; `schedplay merge` re-plans from the scenarios the parts
// carry, takes every job's result from them and renders exactly what the
// unsharded command prints. batchExec is the one place that decides what
// "run the jobs" means for a command.

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"schedplay/core/experiment"
	"schedplay/core/experiment/partfile"
	"schedplay/core/quote"
	"schedplay/core/scenario"
)

// shardFlags are -shard and -part.
type shardFlags struct {
	shard, part string
}

func (s *shardFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.shard, "shard", "", "run only slice K of N of the job plan (K from 1; auto/N: K from $SLURM_ARRAY_TASK_ID or $JOB_COMPLETION_INDEX, 0-based) and write -part")
	fs.StringVar(&s.part, "part", "", "with -shard: write the slice's results to FILE (an existing directory: DIR/part-K-of-N.json), for `schedplay merge`")
}

// batchExec runs a command's plans: every job (the default), one shard's
// jobs kept for a part file, or (merge) none, taking the results from
// merged parts.
type batchExec struct {
	shard    *experiment.Shard
	partPath string
	cmd      string
	args     []string // the output-shaping arguments, recorded in the part

	merged  []partfile.PartResult // merge: every job's result
	from    *partfile.Part        // merge: the first part (scenarios, plans)
	loaded  int                   // scenarios taken so far
	planned int                   // plans made so far

	next      int // plan index of the next plan's first job
	scenarios []partfile.PartScenario
	plans     []partfile.PartPlan
	results   []partfile.PartResult
}

// newBatchExec reads -shard/-part after the flags parsed: a plain
// executor when -shard is not given, merge's when merge is not nil.
func newBatchExec(cmd string, fs *flag.FlagSet, args []string, sf shardFlags, e env, merge *batchExec) (*batchExec, error) {
	if merge != nil {
		return merge, nil
	}
	x := &batchExec{cmd: cmd}
	if sf.shard == "" {
		if sf.part != "" {
			return nil, badInput("-part needs -shard K/N")
		}
		return x, nil
	}
	if sf.part == "" {
		return nil, badInput("-shard %q needs -part FILE (the slice's results, for schedplay merge)", sf.shard)
	}
	var bad []string
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name == "o" || fl.Name == "csv" {
			bad = append(bad, "-"+fl.Name)
		}
	})
	if len(bad) > 0 {
		return nil, badInput("%s with -shard: a shard writes only its -part file; give %s to schedplay merge", strings.Join(bad, ", "), strings.Join(bad, ", "))
	}
	sh, err := experiment.ParseShard(sf.shard, e.lookup)
	if err != nil {
		return nil, badInput("%v", err)
	}
	x.shard, x.partPath, x.args = &sh, sf.part, shapingArgs(fs, args)
	return x, nil
}

// shapingArgs is args without the flags that do not shape the results:
// -shard, -part, -o, -csv (merge takes those) and -progress.
func shapingArgs(fs *flag.FlagSet, args []string) []string {
	out := []string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "-" || !strings.HasPrefix(a, "-") {
			return append(out, args[i:]...)
		}
		name, _, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		isBool := false
		if fl := fs.Lookup(name); fl != nil {
			if b, ok := fl.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				isBool = true
			}
		}
		takesNext := !hasVal && !isBool && i+1 < len(args)
		switch name {
		case "shard", "part", "o", "csv", "progress":
			if takesNext {
				i++
			}
			continue
		}
		out = append(out, a)
		if takesNext {
			i++
			out = append(out, args[i])
		}
	}
	return out
}

// sharding reports whether the command writes a part instead of output.
func (x *batchExec) sharding() bool { return x.shard != nil }

// load returns the next scenario of the command: read normally (and
// recorded for a part), or at merge the next one the parts carry.
func (x *batchExec) load(read func() (*scenario.Scenario, string, error)) (*scenario.Scenario, string, error) {
	if x.from != nil {
		if x.loaded >= len(x.from.Scenarios) {
			return nil, "", badInput("the parts carry %d scenarios; the command loads more (a part of another schedplay version?)", len(x.from.Scenarios))
		}
		ps := x.from.Scenarios[x.loaded]
		x.loaded++
		sc, err := scenario.Decode([]byte(ps.Encoding))
		if err != nil {
			return nil, "", badInput("part scenario %s: %v", quote.Clip(ps.Name), err)
		}
		if h := partfile.HashEncoding(sc.Encode()); h != ps.SHA256 {
			return nil, "", badInput("part scenario %s: re-encodes with sha256 %s, not %s (a part of another schedplay version?)", quote.Clip(ps.Name), h, ps.SHA256)
		}
		return sc, ps.Name, nil
	}
	sc, name, err := read()
	if err != nil {
		return nil, "", err
	}
	if x.shard != nil {
		enc := sc.Encode()
		x.scenarios = append(x.scenarios, partfile.PartScenario{Name: name, SHA256: partfile.HashEncoding(enc), Encoding: string(enc)})
	}
	return sc, name, nil
}

// runJobs runs one plan. It returns every job's outcome, or ok false
// when sharding (the shard's jobs ran and were kept for the part, with
// only the metrics in keep when the command knows them before running).
func (x *batchExec) runJobs(lp *experiment.LazyPlan, vars []experiment.Config, keep []string, prog *progress) (outs []jobOut, ok bool, err error) {
	jobs := lp.Described()
	base := x.next
	x.next += len(jobs)
	plan := partfile.PartPlan{Jobs: len(jobs), SHA256: partfile.PlanDigest(jobs, vars)}
	if x.from != nil {
		i := x.planned
		x.planned++
		if i >= len(x.from.Plans) || x.from.Plans[i] != plan {
			return nil, false, badInput("re-planning from the parts' scenarios gave a different plan %d (%d jobs, sha256 %.12s): a part of another schedplay version?", i+1, plan.Jobs, plan.SHA256)
		}
		for _, r := range x.merged[base:x.next] {
			outs = append(outs, jobOut{Topology: r.Topology, Kernel: r.Kernel, Values: r.Values})
		}
		return outs, true, nil
	}
	if x.shard == nil {
		outs, err := runAll(lp, allJobs(lp), vars, prog)
		return outs, err == nil, err
	}
	x.plans = append(x.plans, plan)
	var mine, idx []int
	for i := range jobs {
		if x.shard.Holds(base + i) {
			mine = append(mine, i)
			idx = append(idx, base+i)
		}
	}
	res, err := runAll(lp, mine, vars, prog)
	if err != nil {
		return nil, false, err
	}
	for i, r := range res {
		vals := r.Values
		if keep != nil {
			vals = experiment.Values{}
			for _, n := range keep {
				if v, ok := r.Values[n]; ok {
					vals[n] = v
				}
			}
		}
		x.results = append(x.results, partfile.PartResult{Job: idx[i], Topology: r.Topology, Kernel: r.Kernel, Values: vals})
	}
	return nil, false, nil
}

// finishMerge checks that the command used every plan and scenario of
// the parts.
func (x *batchExec) finishMerge() error {
	if x.from == nil {
		return nil
	}
	if x.planned != len(x.from.Plans) || x.loaded != len(x.from.Scenarios) {
		return badInput("the command made %d plans of %d scenarios; the parts hold %d of %d (a part of another schedplay version?)",
			x.planned, x.loaded, len(x.from.Plans), len(x.from.Scenarios))
	}
	return nil
}

// writePart writes the shard's part file.
func (x *batchExec) writePart() error {
	p := &partfile.Part{Command: x.cmd, Args: x.args, Build: scenario.BuildVersion(), Scenarios: x.scenarios, Plans: x.plans,
		Jobs: x.next, Shard: x.shard.K, Shards: x.shard.N, Results: x.results}
	data, err := partfile.EncodePart(p)
	if err != nil {
		return err
	}
	return writeFileAtomic(partFile(x.partPath, *x.shard), data)
}

// partFile is where a part goes: -part FILE, or in an existing directory
// DIR/part-K-of-N.json (for engines that cannot put the index in a name).
func partFile(path string, sh experiment.Shard) string {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return filepath.Join(path, fmt.Sprintf("part-%d-of-%d.json", sh.K, sh.N))
	}
	return path
}
