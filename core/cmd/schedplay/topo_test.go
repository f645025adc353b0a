package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestTopoCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"topo", "icelake-2s32c", "-debugfs"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{
		"icelake-2s32c: 128 CPUs",
		"CPU0 attaching sched-domain(s):\n domain-0: span=0,64 level=SMT\n  groups: 0:{ span=0 }, 64:{ span=64 }\n",
		"  domain-1: span=0-31,64-95 level=MC\n",
		"   domain-2: span=0-127 level=NUMA\n",
		"/sys/kernel/debug/sched/domains/cpu0/domain2/name:NUMA\n",
		"/sys/kernel/debug/sched/domains/cpu0/domain0/flags:SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SHARE_CPUCAPACITY SD_SHARE_LLC SD_PREFER_SIBLING \n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
	out.Reset()
	if code := run([]string{"topo", "-kernel", "v6.6", "-set", "features.SCHED_CLUSTER=on", "alderlake-6p8e"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "CPU12 attaching sched-domain(s):\n domain-0: span=12-15 level=CLS\n") {
		t.Errorf("alderlake with SCHED_CLUSTER: no CLS level for the E-cores:\n%s", out.String())
	}
	for _, bad := range [][]string{{"topo"}, {"topo", "nosuch"}, {"topo", "-kernel", "v9", "smp-2"}, {"topo", "smp-2", "-set", "x=1"}} {
		if code := run(bad, nil, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
}
