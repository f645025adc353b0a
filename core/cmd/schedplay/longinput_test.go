package main

// The CLI's errors quote user input bounded (core/quote): a 40 KB flag
// value, -set key, preset, file name, share link or scenario key gives an
// error line of a few hundred bytes that names the input's length.

import (
	"strings"
	"testing"
)

func TestLongInputErrors(t *testing.T) {
	big := strings.Repeat("k", 40<<10)
	preset := []string{"-preset", "demo/periodic-vs-hog", "-duration", "10ms"}
	scenarioFile := writeFile(t, "big.json", `{"version":1,"name":"p","topology":"smp-1","duration":"10ms","cgroups":{"/`+big+`":{}},"tasks":[{"name":"t","program":[{"run":"1ms"}]}]}`)
	rtappFile := writeFile(t, "big-rtapp.json", `{"tasks":{"t":{"policy":"`+big+`","run":1000}}}`)
	for _, args := range [][]string{
		{big},
		append([]string{"run", "-set", big + "=1"}, preset...),
		append([]string{"run", "-set", "features." + big + "=on"}, preset...),
		append([]string{"run", "-set", "cgroups./" + big + ".cpu.weight=100"}, preset...),
		append([]string{"run", "-o", big}, preset...),
		append([]string{"run", "-kernel", big}, preset...),
		append([]string{"run", "-topology", big}, preset...),
		{"run", "-preset", big},
		{"run", big},
		{"run", "#s=" + big},
		{"run", "https://schedplay.github.io/#" + big},
		{"run", scenarioFile},
		{"run", rtappFile},
		append([]string{"compare", "-a", "features." + big + "=on", "-b", "seed=2"}, preset...),
		append([]string{"compare", "-a", "seed=1", "-b", "seed=2", "-metric", big}, preset...),
		append([]string{"compare", "-a", "seed=1", "-b", "seed=2", "-shard", big}, preset...),
		append([]string{"sweep", "-sweep", big}, preset...),
		append([]string{"sweep", "-sweep", "seed=" + big}, preset...),
		{"placement", "-tasks", big},
		{"placement", "-a", big},
		{"topo", big},
		{"topo", "-set", big, "smp-2"},
		{"validate", big},
		{"trace-metrics", big},
		{"replay", big},
		{"replay", "-topology", big, "x"},
		{"merge", big},
		{"export-rtapp", big},
	} {
		code, _, stderr := cli(t, "", args...)
		first, _, _ := strings.Cut(stderr, "\n") // an unknown command's usage follows
		what := strings.Join(args, " ")
		if len(what) > 60 {
			what = what[:60] + "..."
		}
		if code == 0 {
			t.Errorf("%s: exit 0, want an error", what)
			continue
		}
		if len(first) > 1024 || len(stderr) > 4096 {
			t.Errorf("%s: error line of %d bytes (stderr %d), want at most 1024: %.200s...", what, len(first), len(stderr), first)
		}
		if strings.Contains(stderr, strings.Repeat("k", 64)) && !strings.Contains(stderr, "4096") {
			t.Errorf("%s: error quotes the input without its length: %.300s", what, stderr)
		}
	}
}
