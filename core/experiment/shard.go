package experiment

// Shards: the K-th of N deterministic slices of a job plan, for batch
// engines (GNU parallel, a Slurm job array, a Kubernetes Indexed Job) that
// run one slice per task and hand the partial results to `schedplay merge`
// (docs/batch.md). The plan does not depend on N; slicing is by job index,
// strided (job i belongs to shard i mod N + 1), so that the costly
// configurations of a sweep (a big machine, a long duration) spread over
// the shards instead of landing in one. Every job is in exactly one shard;
// N above the job count leaves the extra shards empty.

import (
	"fmt"
	"strconv"
	"strings"

	"schedplay/core/quote"
)

// MaxShards bounds N (a part file names it; a typo like 1/100000000 is an
// error, not a plan of empty parts).
const MaxShards = 100000

// Shard is slice K (1..N) of N.
type Shard struct{ K, N int }

// String is the shard as -shard takes it.
func (s Shard) String() string { return strconv.Itoa(s.K) + "/" + strconv.Itoa(s.N) }

// Holds reports whether job i of the plan belongs to the shard.
func (s Shard) Holds(i int) bool { return i%s.N == s.K-1 }

// Jobs lists the indices of a plan of n jobs that belong to the shard, in
// plan order.
func (s Shard) Jobs(n int) []int {
	var out []int
	for i := s.K - 1; i < n; i += s.N {
		out = append(out, i)
	}
	return out
}

// Check validates K and N.
func (s Shard) Check() error {
	if s.N < 1 || s.N > MaxShards {
		return fmt.Errorf("shard count %d: want 1..%d", s.N, MaxShards)
	}
	if s.K < 1 || s.K > s.N {
		return fmt.Errorf("shard %d/%d: want K from 1 to %d", s.K, s.N, s.N)
	}
	return nil
}

// ShardIndexVars are the environment variables `-shard auto/N` reads, in
// order: a Slurm job array's task id and a Kubernetes Indexed Job's
// completion index, both 0-based (index i is shard i+1).
var ShardIndexVars = []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"}

// ParseShard reads `-shard K/N` or `-shard auto/N`; for auto, lookup
// returns the value of an environment variable (ok false when unset).
func ParseShard(s string, lookup func(name string) (string, bool)) (Shard, error) {
	k, n, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, quote.Errorf("-shard %q: want K/N (K from 1) or auto/N", s)
	}
	var sh Shard
	var err error
	if sh.N, err = strconv.Atoi(n); err != nil {
		return Shard{}, quote.Errorf("-shard %q: N %q is not a number", s, n)
	}
	if k == "auto" {
		if sh.N < 1 || sh.N > MaxShards {
			return Shard{}, quote.Errorf("-shard %q: shard count %d: want 1..%d", s, sh.N, MaxShards)
		}
		return autoShard(s, sh.N, lookup)
	}
	if sh.K, err = strconv.Atoi(k); err != nil {
		return Shard{}, quote.Errorf("-shard %q: K %q is not a number (or auto)", s, k)
	}
	if err := sh.Check(); err != nil {
		return Shard{}, quote.Errorf("-shard %q: %v", s, err)
	}
	return sh, nil
}

// autoShard takes K from the first of ShardIndexVars that is set.
func autoShard(s string, n int, lookup func(string) (string, bool)) (Shard, error) {
	if lookup == nil {
		lookup = func(string) (string, bool) { return "", false }
	}
	for _, v := range ShardIndexVars {
		x, ok := lookup(v)
		if !ok || x == "" {
			continue
		}
		i, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil || i < 0 || i >= n {
			return Shard{}, quote.Errorf("-shard %s: %s=%q: want a 0-based index 0..%d (shard K is index K-1)", quote.Clip(s), v, x, n-1)
		}
		return Shard{K: i + 1, N: n}, nil
	}
	return Shard{}, fmt.Errorf("-shard %s: neither %s is set (auto reads a Slurm array task id or a Kubernetes completion index)",
		quote.Clip(s), strings.Join(ShardIndexVars, " nor "))
}
