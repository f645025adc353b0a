package main

import (
	"regexp"
	"strings"
	"testing"
)

// seedS5 is thread S5 with its experiment block.
const seedS5 = "seed/sched-idle-wakeup"

// TestThreadRegenerate: a thread experiment run with a key changed from
// its preset names the key in its Markdown, its regenerate command is one
// the CLI accepts and gives the same tables, and the published number
// whose tolerance assumes the changed key (experiment reference
// "depends") is not checked against the run.
func TestThreadRegenerate(t *testing.T) {
	out := runJSON(t, "compare", "-preset", seedS5, "-set", "kernel.hz=1000", "-runs", "1", "-o", "markdown")
	m := regexp.MustCompile("Regenerate: `([^`]*)`").FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no regenerate command in\n%s", out)
	}
	if !strings.Contains(m[1], "-set kernel.hz=1000") {
		t.Errorf("regenerate command %q does not name kernel.hz=1000", m[1])
	}
	if !strings.Contains(out, "Changed from the preset: kernel.hz=1000 (preset: 250)") {
		t.Errorf("no changed-from-the-preset line in\n%s", out)
	}
	if !strings.Contains(out, "does not apply: this run has kernel.hz=1000, the thread's 250) | n/a |") {
		t.Errorf("the one-tick-at-HZ=250 tolerance is still checked:\n%s", out)
	}
	args := strings.Fields(m[1])
	if args[0] != "schedplay" {
		t.Fatalf("command %q", m[1])
	}
	again := runJSON(t, append(args[1:], "-runs", "1", "-o", "markdown")...)
	if again != out {
		t.Errorf("the printed command gives other output:\n%s\nwant\n%s", again, out)
	}
	// The preset as it is prints the bare command, every number checked.
	plain := runJSON(t, "compare", "-preset", seedS5, "-runs", "1", "-o", "markdown")
	if !strings.Contains(plain, "Regenerate: `schedplay compare -preset "+seedS5+"`.") || strings.Contains(plain, "n/a") {
		t.Errorf("the unmodified preset:\n%s", plain)
	}
}
