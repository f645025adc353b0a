package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// shardAll runs cmd args as n shards into dir and returns the part paths.
func shardAll(t *testing.T, dir string, n int, args ...string) []string {
	t.Helper()
	var parts []string
	for k := 1; k <= n; k++ {
		p := filepath.Join(dir, fmt.Sprintf("part-%d-of-%d.json", k, n))
		// The flags go before the positional arguments.
		a := withFlags(args, "-shard", fmt.Sprintf("%d/%d", k, n), "-part", p)
		code, out, stderr := cli(t, "", a...)
		if code != 0 || out != "" {
			t.Fatalf("schedplay %s: exit %d, stdout %q\n%s", strings.Join(a, " "), code, out, stderr)
		}
		parts = append(parts, p)
	}
	return parts
}

// withFlags inserts flags after the command name, before everything else.
func withFlags(args []string, flags ...string) []string {
	return append(append([]string{args[0]}, flags...), args[1:]...)
}

// mergeOut runs schedplay merge with flags over parts.
func mergeOut(t *testing.T, parts []string, flags ...string) string {
	t.Helper()
	return runJSON(t, append(append([]string{"merge"}, flags...), parts...)...)
}

// shardCounts are the shard counts every command is checked with: one,
// a few, and more shards than jobs (empty parts).
func shardCounts(jobs int) []int { return []int{1, 2, 3, jobs + 2} }

func TestMergeCompareMatchesUnsharded(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	args := append([]string{"compare", "-preset", s5, "-runs", "3"}, s5AB...)
	for _, n := range shardCounts(6) {
		parts := shardAll(t, t.TempDir(), n, args...)
		for _, o := range []string{"text", "markdown", "json"} {
			want := runJSON(t, withFlags(args, "-o", o)...)
			if got := mergeOut(t, parts, "-o", o); got != want {
				t.Errorf("%d shards, -o %s: merged output differs from the unsharded:\n%s\n---\n%s", n, o, got, want)
			}
		}
		if got, want := mergeOut(t, parts), runJSON(t, args...); got != want {
			t.Errorf("%d shards, default -o: merged output differs", n)
		}
	}
	// With -metric the parts keep only those metrics.
	args = withFlags(args, "-metric", "share,latency.max@task_idle,busy@cpu2")
	parts := shardAll(t, t.TempDir(), 4, args...)
	if got, want := mergeOut(t, parts, "-o", "json"), runJSON(t, withFlags(args, "-o", "json")...); got != want {
		t.Errorf("-metric, 4 shards: merged JSON differs:\n%s\n---\n%s", got, want)
	}
}

func TestMergeSweepMatchesUnsharded(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	args := []string{"sweep", "-preset", "demo/nice-shares", "-duration", "300ms", "-runs", "2",
		"-sweep", "kernel.hz=100,1000", "-sweep", "kernel.version=v5.8,v6.18"}
	dir := t.TempDir()
	wantCSV := filepath.Join(dir, "want.csv")
	wantTable := runJSON(t, withFlags(args, "-csv", wantCSV)...)
	wantData, err := os.ReadFile(wantCSV)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range shardCounts(8) {
		parts := shardAll(t, t.TempDir(), n, args...)
		gotCSV := filepath.Join(dir, fmt.Sprintf("got-%d.csv", n))
		if got := mergeOut(t, parts, "-csv", gotCSV); got != wantTable {
			t.Errorf("%d shards: merged table differs:\n%s\n---\n%s", n, got, wantTable)
		}
		if got, _ := os.ReadFile(gotCSV); string(got) != string(wantData) {
			t.Errorf("%d shards: merged CSV differs:\n%s\n---\n%s", n, got, wantData)
		}
		if got := mergeOut(t, parts, "-csv", "-"); got != string(wantData) {
			t.Errorf("%d shards: merged -csv - differs", n)
		}
	}
}

func TestMergeValidateMatchesUnsharded(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	// 2 variants x 2 configurations x 2 runs, then 2 configurations x 2 runs.
	args := []string{"validate", "-runs", "2", "seed/sm-idle-ipistorm", "seed/sched-idle-wakeup"}
	want := map[string]string{}
	for _, o := range []string{"text", "markdown", "json"} {
		want[o] = runJSON(t, withFlags(args, "-o", o)...)
	}
	for _, n := range shardCounts(12) {
		parts := shardAll(t, t.TempDir(), n, args...)
		for _, o := range []string{"text", "markdown", "json"} {
			if got := mergeOut(t, parts, "-o", o); got != want[o] {
				t.Errorf("%d shards, -o %s: merged output differs from the unsharded:\n%s\n---\n%s", n, o, got, want[o])
			}
		}
	}
}

// TestMergeThreadMatchesUnsharded: compare in thread mode (a seed preset
// without -a/-b).
func TestMergeThreadMatchesUnsharded(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	args := []string{"compare", "-preset", "seed/sched-idle-wakeup", "-runs", "2"}
	for _, n := range []int{2, 7} {
		parts := shardAll(t, t.TempDir(), n, args...)
		if got, want := mergeOut(t, parts, "-o", "markdown"), runJSON(t, withFlags(args, "-o", "markdown")...); got != want {
			t.Errorf("%d shards: merged Markdown differs:\n%s\n---\n%s", n, got, want)
		}
	}
}

// TestMergeRefuses: missing, duplicated and foreign parts are bad input
// (exit 2) naming the shard or the file.
func TestMergeRefuses(t *testing.T) {
	args := append([]string{"compare", "-preset", s5, "-runs", "2"}, s5AB...)
	parts := shardAll(t, t.TempDir(), 3, args...)
	other := shardAll(t, t.TempDir(), 3, append([]string{"compare", "-preset", s5, "-runs", "3"}, s5AB...)...)
	four := shardAll(t, t.TempDir(), 4, args...)
	bad := writeFile(t, "bad.json", `{"schema":"schedplay.part/v1","command":"compare"`)
	old := writeFile(t, "old.json", `{"schema":"schedplay.part/v0"}`)
	cases := []struct {
		files []string
		want  string
	}{
		{parts[:2], "shard 3/3 missing"},
		{[]string{parts[0], parts[2]}, "shard 2/3 missing"},
		{[]string{parts[0], parts[1], parts[1], parts[2]}, "shard 2/3 given twice"},
		{[]string{parts[0], other[1], parts[2]}, other[1] + ": not a shard of the same run as " + parts[0] + ": arguments"},
		{[]string{parts[0], four[1], parts[2]}, "shard count 4 here, 3 there"},
		{[]string{parts[0], bad}, bad + ": not a part file (truncated or not JSON)"},
		{[]string{old}, `schema "schedplay.part/v0"`},
		{[]string{filepath.Join(t.TempDir(), "nope.json")}, "no such file"},
		{nil, "want the part files"},
	}
	for _, c := range cases {
		code, _, stderr := cli(t, "", append([]string{"merge"}, c.files...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("merge %v: exit %d, %q; want exit 2 and %q", c.files, code, stderr, c.want)
		}
	}
	// Parts whose plan digest is not what merge re-plans (as from another
	// build): refused before anything is printed.
	var forged []string
	for i, p := range parts {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		at := strings.Index(string(data), `"plans":[{"jobs":4,"sha256":"`)
		if at < 0 {
			t.Fatalf("%s: no plan digest in %.300s", p, data)
		}
		at += len(`"plans":[{"jobs":4,"sha256":"`)
		data = append(append(append([]byte{}, data[:at]...), strings.Repeat("0", 64)...), data[at+64:]...)
		forged = append(forged, writeFile(t, fmt.Sprintf("forged-%d.json", i), string(data)))
	}
	if code, out, stderr := cli(t, "", append([]string{"merge"}, forged...)...); code != 2 || out != "" || !strings.Contains(stderr, "gave a different plan 1 (4 jobs") {
		t.Errorf("merge of parts with a forged plan digest: exit %d, stdout %q, %q", code, out, stderr)
	}
	if code, _, stderr := cli(t, "", append([]string{"merge", "-csv", "x.csv"}, parts...)...); code != 2 || !strings.Contains(stderr, "only a sweep writes CSV") {
		t.Errorf("merge -csv of compare parts: exit %d, %q", code, stderr)
	}
}

func TestShardFlagErrors(t *testing.T) {
	base := append([]string{"compare", "-preset", s5, "-runs", "2"}, s5AB...)
	part := filepath.Join(t.TempDir(), "p.json")
	cases := []struct {
		flags []string
		want  string
	}{
		{[]string{"-shard", "1/2"}, "needs -part FILE"},
		{[]string{"-part", part}, "-part needs -shard"},
		{[]string{"-shard", "0/2", "-part", part}, "want K from 1 to 2"},
		{[]string{"-shard", "3/2", "-part", part}, "want K from 1 to 2"},
		{[]string{"-shard", "2", "-part", part}, "want K/N"},
		{[]string{"-shard", "x/2", "-part", part}, `K "x" is not a number`},
		{[]string{"-shard", "auto/2", "-part", part}, "neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set"},
		{[]string{"-shard", "1/2", "-part", part, "-o", "json"}, "give -o to schedplay merge"},
	}
	for _, c := range cases {
		code, _, stderr := cli(t, "", withFlags(base, c.flags...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", c.flags, code, stderr, c.want)
		}
	}
}

// TestShardAuto: -shard auto/N takes K from a Slurm array task id or a
// Kubernetes completion index, both 0-based, and writes the same part
// as the explicit K/N.
func TestShardAuto(t *testing.T) {
	args := append([]string{"compare", "-preset", s5, "-runs", "2"}, s5AB...)
	dir := t.TempDir()
	explicit := shardAll(t, dir, 3, args...)
	for _, v := range []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"} {
		p := filepath.Join(dir, v+".json")
		e := env{lookup: func(name string) (string, bool) {
			if name == v {
				return "1", true
			}
			return "", false
		}}
		var out, errb strings.Builder
		if code := runEnv(withFlags(args, "-shard", "auto/3", "-part", p), e, strings.NewReader(""), &out, &errb); code != 0 {
			t.Fatalf("%s=1: exit %d: %s", v, code, errb.String())
		}
		got, _ := os.ReadFile(p)
		want, _ := os.ReadFile(explicit[1])
		// -part DIR: the part is DIR/part-K-of-N.json.
		sub := filepath.Join(dir, v)
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if code := runEnv(withFlags(args, "-shard", "auto/3", "-part", sub), e, strings.NewReader(""), &out, &errb); code != 0 {
			t.Fatalf("%s=1, -part DIR: exit %d: %s", v, code, errb.String())
		}
		if inDir, _ := os.ReadFile(filepath.Join(sub, "part-2-of-3.json")); string(inDir) != string(want) {
			t.Errorf("%s=1 with auto/3 and -part DIR: DIR/part-2-of-3.json is not shard 2/3's part", v)
		}
		if string(got) != string(want) {
			t.Errorf("%s=1 with auto/3: the part differs from shard 2/3's", v)
		}
		e = env{lookup: func(name string) (string, bool) { return "3", name == v }}
		var errc strings.Builder
		if code := runEnv(withFlags(args, "-shard", "auto/3", "-part", p), e, strings.NewReader(""), &out, &errc); code != 2 ||
			!strings.Contains(errc.String(), v+`="3": want a 0-based index 0..2`) {
			t.Errorf("%s=3 with auto/3: exit %d, %q", v, code, errc.String())
		}
	}
}
