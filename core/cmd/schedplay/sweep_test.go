package main

// A playground share URL that carries a sweep (`&sweep=`): `schedplay
// sweep URL` runs that sweep, as the flags would.

import (
	"strings"
	"testing"

	"schedplay/core/experiment"
	"schedplay/core/scenario"
	"schedplay/core/sched"
)

func TestSweepFromShareURL(t *testing.T) {
	sc, err := scenario.Preset("demo/nice-shares")
	if err != nil {
		t.Fatal(err)
	}
	sc.Duration = 300 * sched.Millisecond
	spec := experiment.SweepSpec{Axes: []string{"kernel.hz=100,1000"}, Runs: 2, Metrics: []string{"switches", "share"}}
	url := "https://x.test/#s=" + scenario.EncodeURLPayload(sc) + "&sweep=" + spec.EncodeFragment()
	fromURL := runJSON(t, "sweep", "-csv", "-", url)
	flags := runJSON(t, "sweep", "-csv", "-", "-runs", "2", "-metric", "switches,share", "-sweep", "kernel.hz=100,1000",
		"https://x.test/#s="+scenario.EncodeURLPayload(sc))
	if fromURL != flags || !strings.HasPrefix(fromURL, "kernel.hz,seed,stat,switches,share@") {
		t.Fatalf("URL sweep:\n%s\nflags:\n%s", fromURL, flags)
	}
	// Flags win over the URL's runs.
	if one := runJSON(t, "sweep", "-csv", "-", "-runs", "1", url); strings.Count(one, ",value,") != 2 {
		t.Fatalf("-runs 1 with the URL's sweep:\n%s", one)
	}
	code, _, stderr := cli(t, "", "sweep", "https://x.test/#s="+scenario.EncodeURLPayload(sc)+"&sweep=!!")
	if code != 2 || !strings.Contains(stderr, "sweep: not base64url") {
		t.Fatalf("bad sweep parameter: exit %d, %s", code, stderr)
	}
}

// TestSweepCgroupKey sweeps a cgroup interface file: the group's CPU use
// follows the quota, and a bad value is exit 2 naming the key.
func TestSweepCgroupKey(t *testing.T) {
	js := writeFile(t, "q.json", `{"version":1,"duration":"500ms","cgroups":{"/Q":{"cpu.max":"25000 100000"}},
		"tasks":[{"name":"q","taskgroup":"/Q","program":[{"run":-1}]}]}`)
	csv := runJSON(t, "sweep", "-csv", "-", "-runs", "1", "-metric", "cgroup.cpu@/Q", "-sweep", "cgroups./Q.cpu.max=25000 100000,50000 100000", js)
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(csv), "\n")[1:] {
		if f := strings.Split(line, ","); f[2] == "value" {
			got = append(got, f[0]+"="+f[len(f)-1])
		}
	}
	if len(got) != 2 || !strings.HasPrefix(got[0], "25000 100000=2") || !strings.HasPrefix(got[1], "50000 100000=5") {
		t.Fatalf("sweep of cpu.max: %v\n%s", got, csv)
	}
	code, _, stderr := cli(t, "", "sweep", "-runs", "1", "-sweep", "cgroups./Q.cpu.max=1 100000", js)
	if code != 2 || !strings.Contains(stderr, "cgroups./Q.cpu.max") || !strings.Contains(stderr, "quota 1 µs") {
		t.Fatalf("bad quota: exit %d, %s", code, stderr)
	}
}
