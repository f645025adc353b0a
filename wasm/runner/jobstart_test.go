package runner

// BenchmarkJobStart: a pool worker's start of one job (sched.New with its
// sched domain tree, the consumers), building the tree every time or
// taking it from the worker's cache (sched.DomainCache), on the first job
// of a preset's thread experiment (SCHEDPLAY_JOBCOST, default
// seed/sm-idle-ipistorm: 128 CPUs):
//
//	go test -run XX -bench JobStart ./wasm/runner/
//	GOOS=js GOARCH=wasm go test -run XX -bench JobStart ./wasm/runner/

import (
	"os"
	"testing"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/wasm/protocol"
)

func BenchmarkJobStart(b *testing.B) {
	name := os.Getenv("SCHEDPLAY_JOBCOST")
	if name == "" {
		name = "seed/sm-idle-ipistorm"
	}
	sc, err := scenario.Preset(name)
	if err != nil {
		b.Fatal(err)
	}
	bt, err := PlanBatch(protocol.BatchSpec{Kind: protocol.KindThread, Scenario: string(sc.Encode())})
	if err != nil {
		b.Fatal(err)
	}
	j, err := bt.queue().plan.Build(0)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		dc   *sched.DomainCache
	}{{"built", nil}, {"cached", sched.NewDomainCache()}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := experiment.StartCached(j, c.dc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
