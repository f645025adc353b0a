package main

import (
	"bytes"
	"testing"

	"schedplay/core/scenario"
	"schedplay/wasm/view"
)

// An export made in chunks in the worker is byte for byte the trace of a
// whole run (the run on screen is reproduced exactly).
func TestExportMatchesWholeRun(t *testing.T) {
	sc, err := scenario.Preset("demo/periodic-vs-hog")
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Set("duration=120ms"); err != nil {
		t.Fatal(err)
	}
	r, err := view.NewRun(sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"ftrace", "perfetto"} {
		x, err := NewExport(sc.Encode(), kind)
		if err != nil {
			t.Fatal(err)
		}
		chunks := 0
		for !x.Advance(10, nil) {
			chunks++
		}
		got, err := x.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		want, err := r.Ftrace()
		if kind == "perfetto" {
			want, err = r.Perfetto()
		}
		if err != nil {
			t.Fatal(err)
		}
		if chunks < 2 || len(got) == 0 || !bytes.Equal(got, want) {
			t.Fatalf("%s: %d chunks, %d bytes, equal to a whole run: %v", kind, chunks, len(got), bytes.Equal(got, want))
		}
	}
	if _, err := NewExport(sc.Encode(), "pcap"); err == nil {
		t.Fatal("unknown export kind accepted")
	}
}
