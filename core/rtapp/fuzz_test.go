package rtapp

import (
	"os"
	"path/filepath"
	"testing"

	"schedplay/core/quote"
	"schedplay/core/scenario"
)

// FuzzImport: no input panics the parser, the importer or the exporter;
// what imports is a valid scenario that exports and imports again.
func FuzzImport(f *testing.F) {
	for _, name := range exampleFiles(f) {
		data, err := os.ReadFile(filepath.Join("testdata", "examples", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, name := range []string{"s5-sched-idle.json", "s5-commented.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{ "tasks": { "p": { "run": 1, "fork": "c" }, "c": { "instance": 0, "run0": -1, "sleep": 3 } } }`))
	f.Add([]byte(`{"tasks":{"a":{"phases":{"x":{"loop":-3,"timer":{"ref":"t","period":1,"mode":"absolute"}}}}}}`))
	f.Add([]byte(`{"cgroups":{"/A":{"cpu.weight":"50"},"/Q":{"cpu.max":"20000 100000"}},"tasks":{"a":{"taskgroup":"/A","session":"s","phases":{"p0":{"run":1000},"p1":{"taskgroup":"/Q","loop":2,"run":500,"sleep":500},"p2":{"taskgroup":"/","run":10}}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > scenario.MaxInput {
			return
		}
		sc, warns, err := Import(data)
		for _, w := range warns {
			if msg := w.String(); len(msg) > maxMsgBytes || quote.Raw(msg) {
				t.Fatalf("warning of %d bytes, want at most %d escaped: %.300q", len(msg), maxMsgBytes, msg)
			}
		}
		if err != nil {
			if len(err.Error()) > maxMsgBytes || quote.Raw(err.Error()) {
				t.Fatalf("Import error of %d bytes, want at most %d escaped (core/quote): %.300q", len(err.Error()), maxMsgBytes, err)
			}
			return
		}
		if err := sc.Validate(); err != nil {
			t.Fatalf("Import returned an invalid scenario: %v", err)
		}
		out, _, err := Export(sc)
		if err != nil {
			return // e.g. a nested loop too large to unroll
		}
		if _, _, err := Import(out); err != nil {
			t.Fatalf("Import(Export(Import(x))): %v\n%s", err, out)
		}
	})
}

func TestImportTooLarge(t *testing.T) {
	big := make([]byte, scenario.MaxInput+1)
	if _, _, err := Import(big); err == nil {
		t.Fatal("accepted an input over scenario.MaxInput")
	}
}
