package sched

import (
	"reflect"
	"testing"

	"schedplay/core/topology"
)

// TestDomainCacheCopiesTheBuild: a run that takes its sched domain tree
// from the cache has the tree a fresh build gives (every field of every
// domain, group, capacity and per-CPU entry, pointers followed), for every
// machine under every kernel profile, with and without SCHED_CLUSTER; and
// it owns its structs: no domain, group or capacity is another run's.
func TestDomainCacheCopiesTheBuild(t *testing.T) {
	dc := NewDomainCache()
	for _, m := range topology.List() {
		for _, prof := range Profiles() {
			for _, cluster := range []bool{false, true} {
				p := prof
				p.Features = p.Features.With(SchedCluster, cluster)
				cfg := Config{Machine: m, Profile: p, Sysctls: p.DefaultSysctls(m.NumCPUs()), Duration: Millisecond, Seed: 1}
				fresh, err := New(cfg)
				if err != nil {
					t.Fatalf("%s %s: %v", m.Name, p.Name, err)
				}
				first, err := NewCached(cfg, dc) // built here or by an earlier case, then kept
				if err != nil {
					t.Fatal(err)
				}
				hits, _ := dc.Stats()
				again, err := NewCached(cfg, dc)
				if err != nil {
					t.Fatal(err)
				}
				if h, _ := dc.Stats(); h != hits+1 {
					t.Fatalf("%s %s cluster=%v: the second run did not reuse the tree (hits %d -> %d)", m.Name, p.Name, cluster, hits, h)
				}
				where := m.Name + " " + p.Name
				if cluster {
					where += " SCHED_CLUSTER"
				}
				if !reflect.DeepEqual(fresh.topo, again.topo) || !reflect.DeepEqual(fresh.topo, first.topo) {
					t.Fatalf("%s: the cached tree differs from a fresh build:\n%s\nwant\n%s", where, again.DescribeDomains(), fresh.DescribeDomains())
				}
				if fresh.DescribeDomains() != again.DescribeDomains() || fresh.DescribeDebugfs() != again.DescribeDebugfs() {
					t.Fatalf("%s: the cached tree renders differently", where)
				}
				for cpu := range again.topo {
					a, b := first.topo[cpu].sd, again.topo[cpu].sd
					for ; a != nil && b != nil; a, b = a.parent, b.parent {
						if a == b || a.groups[0] == b.groups[0] || a.groups[0].sgc == b.groups[0].sgc || (a.shared != nil && a.shared == b.shared) {
							t.Fatalf("%s: cpu %d: two runs share a domain, group, capacity or LLC state", where, cpu)
						}
					}
				}
			}
		}
	}
	if h, m := dc.Stats(); h == 0 || m == 0 {
		t.Errorf("hits %d, misses %d: the test exercised only one path", h, m)
	}
}

// TestDomainCacheKey: a run on another machine, kernel, feature set or
// cpuset partition does not take a kept tree that is not its own.
func TestDomainCacheKey(t *testing.T) {
	base := func() Config {
		m, err := topology.Preset("xeon-4s18c")
		if err != nil {
			t.Fatal(err)
		}
		p, err := ProfileByName("v6.6")
		if err != nil {
			t.Fatal(err)
		}
		return Config{Machine: m, Profile: p, Sysctls: p.DefaultSysctls(m.NumCPUs()), Duration: Millisecond, Seed: 1}
	}
	part := func(c *Config) {
		var cpus []int
		for i := 36; i < 72; i++ {
			cpus = append(cpus, i)
		}
		c.Cgroups = []CgroupSpec{{Path: "/P", Shares: 1024, CPUs: cpus, Partition: "root"}}
	}
	variants := []struct {
		name   string
		change func(c *Config)
	}{
		{"base", func(*Config) {}},
		{"another kernel", func(c *Config) {
			p, err := ProfileByName("v5.8")
			if err != nil {
				t.Fatal(err)
			}
			c.Profile, c.Sysctls = p, p.DefaultSysctls(c.Machine.NumCPUs())
		}},
		{"SCHED_CLUSTER", func(c *Config) { c.Profile.Features = c.Profile.Features.With(SchedCluster, true) }},
		{"without SMT", func(c *Config) {
			c.Machine = c.Machine.WithoutSMT()
			c.Sysctls = c.Profile.DefaultSysctls(c.Machine.NumCPUs())
		}},
		{"another node distance", func(c *Config) {
			n := c.Machine.NumNodes()
			c.Machine.NodeDistance = make([][]int, n)
			for a := range n {
				c.Machine.NodeDistance[a] = make([]int, n)
				for b := range n {
					c.Machine.NodeDistance[a][b] = 10 + 11*min(1, abs(a-b)) + 10*max(0, abs(a-b)-1)
				}
			}
		}},
		{"reclaim distance", func(c *Config) { c.Machine.ReclaimDistance = 10 }},
		{"a cpuset partition", part},
	}
	dc := NewDomainCache()
	for round := range 2 { // the second round reuses every tree the first kept
		for _, v := range variants {
			cfg := base()
			v.change(&cfg)
			fresh, err := New(cfg)
			if err != nil {
				t.Fatalf("%s: %v", v.name, err)
			}
			got, err := NewCached(cfg, dc)
			if err != nil {
				t.Fatalf("%s: %v", v.name, err)
			}
			if !reflect.DeepEqual(fresh.topo, got.topo) {
				t.Errorf("round %d, %s: the run took another configuration's tree:\n%s\nwant\n%s", round, v.name, got.DescribeDomains(), fresh.DescribeDomains())
			}
		}
	}
	if h, m := dc.Stats(); h != len(variants) || m != len(variants) {
		t.Errorf("hits %d, misses %d; want %d of each (one tree per variant)", h, m, len(variants))
	}
}

func abs(x int) int { return max(x, -x) }
