package sched

// DomainCache: the sched domain trees of earlier runs, reused by later runs
// on the same machine and kernel rules. The kernel builds the tree once at
// boot (kernel/sched/topology.c build_sched_domains()); a batch of runs
// (a thread's experiment, a sweep) would rebuild the same tree for every
// run, which costs more than a short run's simulation on a large machine
// (buildSchedDomains is quadratic in the CPUs per level).
//
// A tree is a function of what buildSchedDomains reads (domainKey): the
// machine's CPUs, node distances, ITMT, hybrid and reclaim-distance
// settings, the kernel version's rules, the SCHED_CLUSTER feature and the
// cpuset partitions' domains. The cache keeps a frozen copy of the tree as
// built (domainTemplate), taken before any run touched it, and gives each
// later run its own copy of every struct (domains, groups, their
// capacities, the LLC-shared state, the per-CPU topology), so that runs
// share no state that the simulation writes; only the CPU masks and CPU
// lists of the spans, which nothing writes after the build, are shared.
//
// The cache is an object its owner passes to NewCached (the CLI keeps one
// per worker goroutine, a browser worker one for its jobs): no global
// state, and not safe for concurrent use.

import (
	"slices"

	"schedplay/core/topology"
)

// domainCacheSize bounds the trees kept (a batch rarely has more than a
// few machines and kernel versions); the least recently used goes first.
const domainCacheSize = 8

// DomainCache holds sched domain trees for reuse by later runs (NewCached).
// Its zero value is ready to use.
type DomainCache struct {
	entries      []*domainTemplate // least recently used first
	hits, misses int
}

// NewDomainCache returns an empty cache.
func NewDomainCache() *DomainCache { return &DomainCache{} }

// Stats returns how many runs reused a kept tree and how many built one.
func (c *DomainCache) Stats() (hits, misses int) { return c.hits, c.misses }

// domainKey is every input of buildSchedDomains.
type domainKey struct {
	rules        kernelRules // the build reads the version's rules, not the version
	cluster      bool        // SCHED_CLUSTER feature
	itmt, hybrid bool
	reclaim      int
	cpus         []topology.CPU
	dist         [][]int
	partitioned  bool      // sdDoms != nil
	doms         []cpuMask // sdDoms: each CPU's partition, nil when isolated
}

func (s *Sim) domainKey() domainKey {
	m := &s.cfg.Machine
	k := domainKey{rules: s.rules, cluster: s.feat.Has(SchedCluster), itmt: m.ITMT, hybrid: m.Hybrid,
		reclaim: m.ReclaimDistance, cpus: slices.Clone(m.CPUs), partitioned: s.sdDoms != nil}
	for _, row := range m.NodeDistance {
		k.dist = append(k.dist, slices.Clone(row))
	}
	if s.sdDoms != nil {
		k.doms = make([]cpuMask, len(s.sdDoms))
		for i, d := range s.sdDoms {
			if d != nil {
				k.doms[i] = d.clone()
			}
		}
	}
	return k
}

func (k *domainKey) equal(o *domainKey) bool {
	if k.rules != o.rules || k.cluster != o.cluster || k.itmt != o.itmt || k.hybrid != o.hybrid ||
		k.reclaim != o.reclaim || k.partitioned != o.partitioned || !slices.Equal(k.cpus, o.cpus) ||
		len(k.dist) != len(o.dist) || len(k.doms) != len(o.doms) {
		return false
	}
	for i := range k.dist {
		if !slices.Equal(k.dist[i], o.dist[i]) {
			return false
		}
	}
	for i := range k.doms {
		if (k.doms[i] == nil) != (o.doms[i] == nil) || !slices.Equal(k.doms[i], o.doms[i]) {
			return false
		}
	}
	return true
}

// schedDomains sets s.topo: a copy of the cached tree for s's key, or a
// tree built now and kept in c. A nil c always builds.
func (s *Sim) schedDomains(c *DomainCache) {
	if c == nil {
		s.buildSchedDomains()
		return
	}
	k := s.domainKey()
	for i, e := range c.entries {
		if e.key.equal(&k) {
			c.hits++
			copy(c.entries[i:], c.entries[i+1:]) // most recent last
			c.entries[len(c.entries)-1] = e
			s.topo = e.instantiate()
			return
		}
	}
	c.misses++
	s.buildSchedDomains()
	if len(c.entries) == domainCacheSize {
		c.entries = slices.Delete(c.entries, 0, 1)
	}
	c.entries = append(c.entries, freezeDomains(k, s.topo))
}
