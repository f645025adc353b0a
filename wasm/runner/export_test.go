package runner

import (
	"bytes"
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/core/trace/ftrace"
	"schedplay/core/trace/perfetto"
)

// An export made in chunks is byte for byte the trace of a whole run (the
// run on screen is reproduced exactly).
func TestExportMatchesWholeRun(t *testing.T) {
	sc, err := scenario.Preset("demo/periodic-vs-hog")
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Set("duration=120ms"); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"ftrace", "perfetto"} {
		x, err := NewExport(sc.Encode(), kind, "")
		if err != nil {
			t.Fatal(err)
		}
		chunks := 0
		for !Step(x.Sim, 10, 1024, nil) {
			chunks++
		}
		got, err := x.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		want := wholeRun(t, sc, kind)
		if chunks < 2 || len(got) == 0 || !bytes.Equal(got, want) {
			t.Fatalf("%s: %d chunks, %d bytes, equal to a whole run: %v", kind, chunks, len(got), bytes.Equal(got, want))
		}
	}
	if _, err := NewExport(sc.Encode(), "pcap", ""); err == nil {
		t.Fatal("unknown export kind accepted")
	}
}

// wholeRun is the trace of sc run in one go with the writer of kind.
func wholeRun(t *testing.T, sc *scenario.Scenario, kind string) []byte {
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	sim, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	var w interface{ Close() error }
	if kind == "ftrace" {
		fw := ftrace.NewWriter(&b, sim.TaskInfo, sim.NumCPUs())
		sim.Attach(fw)
		w = fw
	} else {
		pw := perfetto.NewWriter(&b, sim.TaskInfo, sim.NumCPUs())
		sim.Attach(pw)
		w = pw
	}
	if err := sim.Run(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// With the page's provenance object, the ftrace export has it as the
// comment line after the header and the Perfetto export in its metadata,
// as `schedplay run -trace/-perfetto` writes them; the rest is the export
// without it.
func TestExportProvenance(t *testing.T) {
	sc, err := scenario.Preset("demo/periodic-vs-hog")
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Set("duration=50ms"); err != nil {
		t.Fatal(err)
	}
	prov := `{"preset":"demo/periodic-vs-hog","set":["duration=50ms"]}`
	export := func(kind, p string) string {
		x, err := NewExport(sc.Encode(), kind, p)
		if err != nil {
			t.Fatal(err)
		}
		for !Step(x.Sim, 10, 1024, nil) {
		}
		b, err := x.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	line := "# schedplay-provenance: " + prov + "\n"
	with, without := export("ftrace", prov), export("ftrace", "")
	i := bytes.Index([]byte(with), []byte(line))
	if i < 0 || with[:i]+with[i+len(line):] != without || bytes.Contains([]byte(with[:i]), []byte("sched_switch")) {
		t.Errorf("ftrace export with provenance: line at %d\n%.1500s", i, with)
	}
	pw, pwo := export("perfetto", prov), export("perfetto", "")
	if meta := `,"provenance":` + prov + "}}\n"; !bytes.HasSuffix([]byte(pw), []byte(meta)) ||
		pw[:len(pw)-len(meta)]+"}}\n" != pwo {
		t.Errorf("perfetto export with provenance ends %q", pw[max(0, len(pw)-200):])
	}
}
