//go:build linux

package main

import (
	"os"
	"strings"
	"testing"
)

// testdata/sched-nice5.txt and stat-nice5.txt were captured from the nice-5 hog of
// nice0-vs-nice5 after about one second on Linux 6.18 (HZ=250, 2 CPUs).
func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseSched(t *testing.T) {
	c, err := parseSched(readTestdata(t, "sched-nice5.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := schedCounters{SumExecNS: 253_062_148, Switches: 67, Voluntary: 4, Involuntary: 63,
		Migrations: 1, WaitSumNS: -1, WaitCount: -1, SliceNS: 1_400_000}
	if c != want {
		t.Errorf("parseSched:\n got %+v\nwant %+v", c, want)
	}
}

func TestParseSchedstatsFields(t *testing.T) {
	// Both spellings of the schedstats fields (v5.8 and v6.x).
	for _, prefix := range []string{"se.statistics.", ""} {
		text := readTestdata(t, "sched-nice5.txt") +
			prefix + "wait_sum                   :           768.582641\n" +
			prefix + "wait_count                 :                   68\n"
		c, err := parseSched(text)
		if err != nil {
			t.Fatal(err)
		}
		if c.WaitSumNS != 768_582_641 || c.WaitCount != 68 {
			t.Errorf("prefix %q: wait_sum %d wait_count %d", prefix, c.WaitSumNS, c.WaitCount)
		}
	}
}

func TestParseMillisNS(t *testing.T) {
	for in, want := range map[string]int64{
		"253.062148": 253_062_148, "0.000000": 0, "7": 7_000_000, "-1.5": -1_500_000,
	} {
		if got, err := parseMillisNS(in); err != nil || got != want {
			t.Errorf("parseMillisNS(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}

func TestParseStatAndSchedstat(t *testing.T) {
	var c schedCounters
	if err := parseStat(readTestdata(t, "stat-nice5.txt"), &c); err != nil {
		t.Fatal(err)
	}
	if c.ProcessorState != "R" || c.UtimeTicks != 25 || c.StimeTicks != 0 ||
		c.Nice != 5 || c.LastCPU != 1 || c.Policy != 0 {
		t.Errorf("parseStat: %+v", c)
	}
	// A comm with spaces and parentheses must not shift the fields.
	var d schedCounters
	odd := strings.Replace(readTestdata(t, "stat-nice5.txt"), "(nice5)", "(a) b (c)", 1)
	if err := parseStat(odd, &d); err != nil || d != c {
		t.Errorf("parseStat(odd comm) = %+v, %v; want %+v", d, err, c)
	}
	if err := parseSchedstat("253062148 768582641 68\n", &c); err != nil || c.RunDelayNS != 768_582_641 || c.Timeslices != 68 {
		t.Errorf("parseSchedstat: %+v, %v", c, err)
	}
}

func TestSub(t *testing.T) {
	a := schedCounters{SumExecNS: 10, Switches: 5, WaitSumNS: -1, WaitCount: -1, Nice: 5}
	b := schedCounters{SumExecNS: 3, Switches: 2, WaitSumNS: -1, WaitCount: -1, Nice: 5}
	if d := a.sub(b); d.SumExecNS != 7 || d.Switches != 3 || d.WaitSumNS != -1 || d.Nice != 5 {
		t.Errorf("sub: %+v", d)
	}
}

func TestExpectedShares(t *testing.T) {
	cs, err := selectCases("nice0-vs-nice5,periodic-vs-hog,three-hogs-two-cpus")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, c := range cs {
		for k, v := range c.expectedShares() {
			got[c.ID+"/"+k] = float64(int(v*10+0.5)) / 10
		}
	}
	want := map[string]float64{
		"nice0-vs-nice5/nice0-0": 75.3, "nice0-vs-nice5/nice5-1": 24.7,
		"periodic-vs-hog/periodic-0": 10, "periodic-vs-hog/hog-1": 90,
		"three-hogs-two-cpus/hog-0": 66.7, "three-hogs-two-cpus/hog-1": 66.7, "three-hogs-two-cpus/hog-2": 66.7,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: ideal %.1f, want %.1f", k, got[k], v)
		}
	}
}

func TestParseProcStat(t *testing.T) {
	text := "cpu  9553 198 2566 110721 244 0 165 188 0 0\n" +
		"cpu0 3006 0 1076 57594 35 0 57 74 0 0\n" +
		"cpu1 6547 198 1490 53127 208 0 108 113 0 0\n" +
		"intr 232778 0 0\nctxt 368691\nbtime 1\n"
	ms, err := parseProcStat(text)
	if err != nil {
		t.Fatal(err)
	}
	if ms.Ctxt != 368691 || len(ms.StealTicks) != 2 || ms.StealTicks[0] != 74 || ms.StealTicks[1] != 113 {
		t.Errorf("parseProcStat: %+v", ms)
	}
}

func TestParsePipeLine(t *testing.T) {
	var pl pipeSides
	if err := parsePipeLine("loops=5000 ns=105000000 user_ns=11000000 sys_ns=35000000", &pl); err != nil {
		t.Fatal(err)
	}
	if pl.RealNS != 105000000 || pl.RealUserNS != 11000000 || pl.RealSysNS != 35000000 {
		t.Errorf("parsed %+v", pl)
	}
	for _, bad := range []string{"", "loops=1 ns=2 user_ns=3", "loops=x ns=1 user_ns=1 sys_ns=1"} {
		if err := parsePipeLine(bad, &pl); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if rest, pipe := splitPipe("two-hogs,pipe-pingpong"); rest != "two-hogs" || !pipe {
		t.Errorf("splitPipe: %q %v", rest, pipe)
	}
	if rest, pipe := splitPipe("pipe-pingpong"); rest != "-" || !pipe {
		t.Errorf("splitPipe alone: %q %v", rest, pipe)
	}
}
