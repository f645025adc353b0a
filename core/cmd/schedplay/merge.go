package main

// schedplay merge: the part files of a sharded compare, sweep or
// validate (shard.go, docs/batch.md) combined into exactly the bytes the
// unsharded command writes. The parts must be the N shards of one run,
// each once (a missing or duplicated shard, or a part of another run, is
// bad input naming the file); merge then re-runs the command's planning
// from the scenarios the parts carry and renders their results.

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"schedplay/core/experiment/partfile"
	"schedplay/core/quote"
)

func cmdMerge(args []string, e env, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	csvOut := fs.String("csv", "", `sweep: write the plot-ready CSV to FILE ("-" = stdout instead of the table)`)
	out := fs.String("o", "", "compare and validate: text (default), markdown or json")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: schedplay merge [-csv F] [-o text|markdown|json] PART.json ...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return badInput("%v", err)
	}
	if fs.NArg() == 0 {
		return badInput("want the part files (PART.json ...) of every shard")
	}
	files := fs.Args()
	parts := make([]*partfile.Part, len(files))
	for i, f := range files {
		p, err := readPart(f)
		if err != nil {
			return badInput("%s: %v", quote.Clip(f), pathless(err))
		}
		parts[i] = p
	}
	results, err := partfile.MergeParts(files, parts)
	if err != nil {
		return badInput("%v", err)
	}
	p := parts[0]
	var pre []string
	switch {
	case *out != "" && *out != "text" && *out != "markdown" && *out != "json":
		return badInput("-o %q: want text, markdown or json", *out)
	case p.Command == "sweep" && *out != "" && *out != "text":
		return badInput("-o %s: a sweep writes its table as text and its data with -csv", *out)
	case p.Command != "sweep" && *csvOut != "":
		return badInput("-csv: the parts are of `schedplay %s`; only a sweep writes CSV", p.Command)
	}
	if *out != "" && p.Command != "sweep" {
		pre = append(pre, "-o", *out)
	}
	if *csvOut != "" {
		pre = append(pre, "-csv", *csvOut)
	}
	x := &batchExec{cmd: p.Command, merged: results, from: p}
	cargs := append(pre, p.Args...)
	none := strings.NewReader("")
	switch p.Command {
	case "compare":
		return runCompare(cargs, e, x, none, stdout, stderr)
	case "sweep":
		return runSweep(cargs, e, x, none, stdout, stderr)
	}
	return runValidate(cargs, e, x, none, stdout, stderr)
}

// readPart reads and decodes a part file, refusing a huge one before
// reading it all.
func readPart(path string) (*partfile.Part, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, partfile.MaxPartBytes+1))
	if err != nil {
		return nil, err
	}
	return partfile.DecodePart(data)
}
