package experiment

import (
	"strings"
	"testing"
)

// TestShardsCoverThePlan: for every plan size and shard count, the
// shards' jobs together are every job exactly once, in plan order within
// each shard, and Holds agrees with Jobs.
func TestShardsCoverThePlan(t *testing.T) {
	for n := 0; n <= 40; n++ {
		for N := 1; N <= n+3; N++ {
			seen := make([]int, n)
			for K := 1; K <= N; K++ {
				sh := Shard{K, N}
				prev := -1
				for _, j := range sh.Jobs(n) {
					if j <= prev || j >= n || !sh.Holds(j) {
						t.Fatalf("%d jobs, shard %s: job %d out of order, range or Holds", n, sh, j)
					}
					prev = j
					seen[j]++
				}
			}
			for j, c := range seen {
				if c != 1 {
					t.Fatalf("%d jobs in %d shards: job %d in %d shards", n, N, j, c)
				}
			}
		}
	}
}

func TestParseShard(t *testing.T) {
	env := func(kv ...string) func(string) (string, bool) {
		return func(name string) (string, bool) {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == name {
					return kv[i+1], true
				}
			}
			return "", false
		}
	}
	good := []struct {
		s      string
		lookup func(string) (string, bool)
		want   Shard
	}{
		{"1/1", nil, Shard{1, 1}},
		{"3/8", nil, Shard{3, 8}},
		{"auto/8", env("SLURM_ARRAY_TASK_ID", "0"), Shard{1, 8}},
		{"auto/8", env("SLURM_ARRAY_TASK_ID", "7"), Shard{8, 8}},
		{"auto/4", env("JOB_COMPLETION_INDEX", "2"), Shard{3, 4}},
		{"auto/4", env("SLURM_ARRAY_TASK_ID", "1", "JOB_COMPLETION_INDEX", "3"), Shard{2, 4}},
	}
	for _, c := range good {
		got, err := ParseShard(c.s, c.lookup)
		if err != nil || got != c.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", c.s, got, err, c.want)
		}
	}
	bad := []struct {
		s      string
		lookup func(string) (string, bool)
		want   string
	}{
		{"", nil, "want K/N"},
		{"1", nil, "want K/N"},
		{"0/3", nil, "want K from 1 to 3"},
		{"4/3", nil, "want K from 1 to 3"},
		{"1/0", nil, "shard count 0"},
		{"1/-2", nil, "shard count -2"},
		{"1/1000000", nil, "shard count 1000000"},
		{"a/3", nil, `K "a" is not a number`},
		{"1/b", nil, `N "b" is not a number`},
		{"auto/3", nil, "neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set"},
		{"auto/3", env("SLURM_ARRAY_TASK_ID", "3"), `SLURM_ARRAY_TASK_ID="3": want a 0-based index 0..2`},
		{"auto/3", env("JOB_COMPLETION_INDEX", "-1"), `JOB_COMPLETION_INDEX="-1"`},
		{"auto/3", env("JOB_COMPLETION_INDEX", "x"), `JOB_COMPLETION_INDEX="x"`},
		{"auto/0", env("JOB_COMPLETION_INDEX", "0"), "shard count 0"},
	}
	for _, c := range bad {
		if got, err := ParseShard(c.s, c.lookup); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseShard(%q) = %v, %v; want an error with %q", c.s, got, err, c.want)
		}
	}
}
