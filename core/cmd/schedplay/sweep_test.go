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
