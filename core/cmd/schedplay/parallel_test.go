package main

// GNU parallel as a batch engine (docs/batch.md): the test binary doubles
// as the schedplay command (TestMain), parallel runs the shards of a
// sweep and of a thread's experiment 3 ways, and the merged CSV and
// Markdown must be the unsharded bytes. Without parallel the test skips,
// except in CI (CI set), where .ci/run installs Debian's package.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// cliHelperVar makes the test binary act as schedplay.
const cliHelperVar = "SCHEDPLAY_TEST_AS_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(cliHelperVar) == "1" {
		os.Exit(runEnv(os.Args[1:], env{lookup: os.LookupEnv}, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// needParallel returns the path of GNU parallel, or skips.
func needParallel(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("parallel")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("GNU parallel not found (CI is set; .ci/run installs Debian's parallel): %v", err)
		}
		t.Skip("GNU parallel not installed (apt-get install parallel); skipping the batch-engine test")
	}
	return p
}

// selfCLI is this test binary run as schedplay.
func selfCLI(t *testing.T, args ...string) []byte {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), cliHelperVar+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("schedplay %q: %v\n%s", args, err, stderr.String())
	}
	return out
}

// shardWithParallel runs args as 3 shards through GNU parallel into dir
// and returns the part files.
func shardWithParallel(t *testing.T, par, dir string, args ...string) []string {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(par, append([]string{"--will-cite", "--halt", "now,fail=1", bin, args[0],
		"-shard", "{}/3", "-part", filepath.Join(dir, "part-{}.json")}, append(args[1:], ":::", "1", "2", "3")...)...)
	cmd.Env = append(os.Environ(), cliHelperVar+"=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("parallel: %v\n%s", err, out)
	}
	var parts []string
	for _, k := range []string{"1", "2", "3"} {
		parts = append(parts, filepath.Join(dir, "part-"+k+".json"))
	}
	return parts
}

func TestGNUParallelShards(t *testing.T) {
	par := needParallel(t)
	dir := t.TempDir()
	sweep := []string{"sweep", "-preset", "demo/nice-shares", "-duration", "300ms", "-runs", "2",
		"-sweep", "kernel.hz=100,250,1000", "-sweep", "kernel.version=v5.8,v6.18"}
	want := selfCLI(t, withFlags(sweep, "-csv", "-")...)
	parts := shardWithParallel(t, par, dir, sweep...)
	got := selfCLI(t, append([]string{"merge", "-csv", "-"}, parts...)...)
	if !bytes.Equal(got, want) || len(want) == 0 {
		t.Errorf("sweep sharded 3 ways through parallel: merged CSV differs from the unsharded:\n%s\n---\n%s", got, want)
	}

	thread := []string{"compare", "-preset", "seed/sched-idle-wakeup", "-runs", "3"}
	want = selfCLI(t, withFlags(thread, "-o", "markdown")...)
	tdir := filepath.Join(dir, "thread")
	if err := os.Mkdir(tdir, 0o755); err != nil {
		t.Fatal(err)
	}
	parts = shardWithParallel(t, par, tdir, thread...)
	got = selfCLI(t, append([]string{"merge", "-o", "markdown"}, parts...)...)
	if !bytes.Equal(got, want) || len(want) == 0 {
		t.Errorf("thread experiment sharded 3 ways through parallel: merged Markdown differs:\n%s\n---\n%s", got, want)
	}
}
