package main

// Provenance of schedplay replay's metrics JSON (docs/cli.md "Provenance
// in exports"): no preset made the scenario, a trace did, so the record
// names the trace by its SHA-256 and reruns the replay with its flags.

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"

	"schedplay/core/replay"
	"schedplay/core/scenario"
)

// traceDigest hashes the bytes of a trace as the importer reads them.
type traceDigest struct{ h hash.Hash }

func newTraceDigest() *traceDigest { return &traceDigest{h: sha256.New()} }

// reader is r with every byte read also hashed.
func (d *traceDigest) reader(r io.Reader) io.Reader { return io.TeeReader(r, d.h) }

func (d *traceDigest) hex() string { return hex.EncodeToString(d.h.Sum(nil)) }

// replayRecord is the provenance of the replay of the trace at path (as
// given on the command line) with digest sum, sc the scenario as it ran.
func replayRecord(sc *scenario.Scenario, f *replayFlags, path, sum string) *scenario.Record {
	rec := scenario.NewRecord(sc, []uint64{sc.Seed}, "run")
	rec.Set = append([]string{}, f.sets...)
	rec.Cleared, rec.Other = nil, false
	rec.Trace, rec.TraceSHA256 = path, sum
	rec.Command = replayCommand(f, path)
	return rec
}

// replayCommand reruns the replay: the flags that shape the scenario and
// its run (not the outputs, not -b, which leaves the metrics of A alone).
func replayCommand(f *replayFlags, path string) string {
	cmd := "schedplay replay"
	if f.topology != "" {
		cmd += " -topology " + scenario.ShellQuote(f.topology)
	}
	if f.kernel != "" {
		cmd += " -kernel " + scenario.ShellQuote(f.kernel)
	}
	for _, kv := range f.sets {
		cmd += " -set " + scenario.ShellQuote(kv)
	}
	if f.pin != replay.PinKthreads {
		cmd += " -pin " + scenario.ShellQuote(f.pin)
	}
	if f.timed {
		cmd += " -timed"
	}
	if f.strict {
		cmd += " -strict"
	}
	if f.until != "" {
		cmd += " -until " + scenario.ShellQuote(f.until)
	}
	return cmd + " " + scenario.ShellQuote(path)
}
