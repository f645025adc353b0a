//go:build linux

package main

import (
	"bytes"
	"strings"
	"testing"
)

// testdata/debug-samples-mix-over.txt is the head (three samples) of a
// -sample-debug file of mix-over on this project's machine (6.18.44, two
// CPUs, /mix under the scratch parent); testdata/sched-debug-raw.txt is
// CPU 0's part of one whole read of /sys/kernel/debug/sched/debug with a
// /schedplay-realkernel/mix block and a decoy /schedplay-realkernelx block
// pasted in before the root cfs_rq.

// TestKeepDebugLinesRunName: a run's own scratch parent
// (/schedplay-realkernel-NS-PID) is kept under the canonical name, so its
// samples are the bytes a run with the fixed name kept; another run's
// parent beside it is dropped.
func TestKeepDebugLinesRunName(t *testing.T) {
	raw := readTestdata(t, "sched-debug-raw.txt")
	var want bytes.Buffer
	keepDebugLines(&want, []byte(raw), []byte("/schedplay-realkernel"), []byte("/schedplay-realkernel"))
	own := strings.ReplaceAll(raw, "/schedplay-realkernel/", "/schedplay-realkernel-7-99/")
	other := strings.Replace(raw, "cfs_rq[0]:/schedplay-realkernelx", "cfs_rq[0]:/schedplay-realkernel-7-98/mix", 1)
	other = strings.ReplaceAll(other, "/schedplay-realkernel/", "/schedplay-realkernel-7-99/")
	if own == raw || other == own {
		t.Fatal("testdata lacks the /schedplay-realkernel/mix or the decoy block")
	}
	for _, text := range []string{own, other} {
		var got bytes.Buffer
		keepDebugLines(&got, []byte(text), []byte("/schedplay-realkernel-7-99"), []byte("/schedplay-realkernel"))
		if got.String() != want.String() {
			t.Errorf("kept lines of the run-named read differ from the fixed name's:\n%s\nwant:\n%s", got.String(), want.String())
		}
	}
}

func TestKeepDebugLines(t *testing.T) {
	var out bytes.Buffer
	keepDebugLines(&out, []byte(readTestdata(t, "sched-debug-raw.txt")), []byte("/schedplay-realkernel"), []byte("/schedplay-realkernel"))
	got := out.String()
	for _, want := range []string{"ktime ", "cpu_clk ", "jiffies ", "cpu#0, 2600.000 MHz\n", "  .nr_running ",
		"cfs_rq[0]:/schedplay-realkernel/mix\n", "cfs_rq[0]:/\n", "  .se->load.weight               : 1048576\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("kept lines lack %q", want)
		}
	}
	for _, bad := range []string{"autogroup", "schedplay-realkernelx", "rt_rq", "dl_rq", "runnable tasks", "sysctl", "vsock-console", "sched_clock_stable"} {
		if strings.Contains(got, bad) {
			t.Errorf("kept lines have %q", bad)
		}
	}
	ds, err := parseDebugSamples(strings.NewReader("# sample 0 +0.500000\n" + got))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, b := range ds.Samples[0].Blocks {
		paths = append(paths, b.Path)
	}
	if len(ds.Samples) != 1 || strings.Join(paths, " ") != "/schedplay-realkernel/mix /" || ds.Samples[0].At != 0.5 {
		t.Errorf("parsed %d samples at %v with blocks %v, want 1 at 0.5 with the group's and the root's", len(ds.Samples), ds.Samples[0].At, paths)
	}
}

func TestFitWeights(t *testing.T) {
	ds, err := parseDebugSamples(strings.NewReader(readTestdata(t, "debug-samples-mix-over.txt")))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Samples) != 3 || ds.Shares["/schedplay-realkernel"] != 262144 || ds.Shares["/schedplay-realkernel/mix"] != 1024 {
		t.Fatalf("parsed %d samples, shares %v; want 3 and 262144, 1024", len(ds.Samples), ds.Shares)
	}
	// Sample 1, CPU 0, /mix: load 4096 (four tasks), load_avg 2007,
	// tg_load_avg 2455, contrib 2007: 1048576*4096/4544 and 1048576*2007/2455.
	b := ds.Samples[1].Blocks[0]
	if b.CPU != 0 || b.Path != "/schedplay-realkernel/mix" {
		t.Fatalf("sample 1's first block is cfs_rq[%d]:%s", b.CPU, b.Path)
	}
	if got := groupShares(1024, 4096, 2455, 2007); got != 945195 {
		t.Errorf("groupShares(max) = %d, want 945195 (the sampled weight)", got)
	}
	if got := groupShares(1024, 2007, 2455, 2007); got != 857226 {
		t.Errorf("groupShares(load_avg) = %d, want 857226", got)
	}
	if got := groupShares(1024, 1, 1<<30, 0); got != 2 {
		t.Errorf("groupShares of a tiny load = %d, want MIN_SHARES 2", got)
	}
	fits, err := fitWeights(ds)
	if err != nil {
		t.Fatal(err)
	}
	if len(fits) != 2 || fits[1].Path != "/schedplay-realkernel/mix" {
		t.Fatalf("fits %+v, want the parent's and /mix's", fits)
	}
	m := fits[1]
	// Five /mix blocks (CPU 1 has none in sample 0); three decisive (the
	// predictions 10-70 % apart), all nearer max(), one within 1 %; three
	// fresh (within 0.1 %); CPU 0's weight moves twice, CPU 1's once.
	got := [...]int{m.N, m.Empty, m.Decisive, m.CloserMax, m.CloserAvg, m.MatchMax, m.MatchAvg, m.FreshMax, m.Pairs, m.Changed}
	if want := [...]int{5, 0, 3, 3, 0, 1, 0, 3, 3, 3}; got != want {
		t.Errorf("/mix fit (N Empty Decisive CloserMax CloserAvg MatchMax MatchAvg FreshMax Pairs Changed) = %v, want %v", got, want)
	}
	// The parent's runqueue on CPU 1 is empty in sample 0: not fitted.
	if p := fits[0]; p.N != 5 || p.Empty != 1 {
		t.Errorf("parent fit N %d Empty %d, want 5 and 1", p.N, p.Empty)
	}
}

func TestParseDebugSamplesErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"# sample 0 soon\n", "line 1"},
		{"# shares /g -5\n", "N > 0"},
		{"cfs_rq[0]:/g\n", "a # sample line first"},
		{"# sample 0 +1\ncfs_rq[x]:/g\n", "cfs_rq[CPU]:PATH"},
	} {
		_, err := parseDebugSamples(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseDebugSamples(%q) error %v, want one naming %q", tc.in, err, tc.want)
		}
	}
}
