package sched

// domainTemplate: a frozen sched domain tree (the output of
// buildSchedDomains, domain_build.go) that DomainCache copies into each
// run that reuses it. The tree is a graph of pointers (rq->sd and its
// parents and children, each domain's groups, each group's
// sched_group_capacity, the LLC's sched_domain_shared, the per-CPU
// shortcuts of update_top_cache_domain()); the template holds every
// object of it by value in one slice per type, with each pointer replaced
// by an index, so a copy is a few slice copies and a pass that turns the
// indices back into pointers into the copy's own slices.

import "slices"

// topoRefs are the indices of one CPU's rqTopology pointers (-1: nil).
type topoRefs struct {
	sd, llc, numa, asymPacking, asymCPUCap, cluster int32 // domains
	llcShared                                       int32 // sdShared
}

type domainTemplate struct {
	key    domainKey
	doms   []schedDomain // pointer fields cleared; see the index slices
	groups []schedGroup
	sgcs   []sgCapacity
	shared []sdShared
	topo   []rqTopology

	domParent, domChild, domShared []int32
	domGroups                      []int32 // group indices of every domain, domain after domain
	domGroupsAt                    []int32 // domain i's groups are domGroups[domGroupsAt[i]:domGroupsAt[i+1]]
	groupSgc                       []int32
	topoRefs                       []topoRefs
}

// freezeDomains copies the tree reachable from topo into a template.
// The masks and CPU lists stay shared with topo's tree: nothing writes
// them after the build.
func freezeDomains(k domainKey, topo []rqTopology) *domainTemplate {
	t := &domainTemplate{key: k}
	hint := 8 * len(topo) // a few levels per CPU, a few groups per level
	domIdx := make(map[*schedDomain]int32, hint)
	grpIdx := make(map[*schedGroup]int32, hint)
	sgcIdx := make(map[*sgCapacity]int32, hint)
	shIdx := make(map[*sdShared]int32, len(topo))
	var doms []*schedDomain
	var addDom func(d *schedDomain) int32
	addDom = func(d *schedDomain) int32 {
		if d == nil {
			return -1
		}
		if i, ok := domIdx[d]; ok {
			return i
		}
		domIdx[d] = int32(len(doms))
		doms = append(doms, d)
		addDom(d.parent)
		addDom(d.child)
		return domIdx[d]
	}
	addShared := func(p *sdShared) int32 {
		if p == nil {
			return -1
		}
		if i, ok := shIdx[p]; ok {
			return i
		}
		shIdx[p] = int32(len(t.shared))
		t.shared = append(t.shared, *p)
		return shIdx[p]
	}
	for i := range topo {
		r := &topo[i]
		t.topoRefs = append(t.topoRefs, topoRefs{sd: addDom(r.sd), llc: addDom(r.sdLLC), numa: addDom(r.sdNUMA),
			asymPacking: addDom(r.sdAsymPacking), asymCPUCap: addDom(r.sdAsymCPUCap), cluster: addDom(r.cluster),
			llcShared: addShared(r.sdLLCShared)})
	}
	for _, d := range doms { // every domain is in domIdx now: addDom follows parents and children
		t.domParent = append(t.domParent, addDom(d.parent))
		t.domChild = append(t.domChild, addDom(d.child))
		t.domShared = append(t.domShared, addShared(d.shared))
		t.domGroupsAt = append(t.domGroupsAt, int32(len(t.domGroups)))
		for _, g := range d.groups {
			gi, ok := grpIdx[g]
			if !ok {
				gi = int32(len(t.groups))
				grpIdx[g] = gi
				t.groups = append(t.groups, *g)
				si, ok := sgcIdx[g.sgc]
				if !ok {
					si = int32(len(t.sgcs))
					sgcIdx[g.sgc] = si
					t.sgcs = append(t.sgcs, *g.sgc)
				}
				t.groupSgc = append(t.groupSgc, si)
				t.groups[gi].sgc = nil
			}
			t.domGroups = append(t.domGroups, gi)
		}
		c := *d
		c.parent, c.child, c.groups, c.shared = nil, nil, nil, nil
		t.doms = append(t.doms, c)
	}
	t.domGroupsAt = append(t.domGroupsAt, int32(len(t.domGroups)))
	t.topo = make([]rqTopology, len(topo))
	for i, r := range topo {
		r.sd, r.sdLLC, r.sdNUMA, r.sdAsymPacking, r.sdAsymCPUCap, r.cluster, r.sdLLCShared = nil, nil, nil, nil, nil, nil, nil
		t.topo[i] = r
	}
	return t
}

// instantiate returns a run's own copy of the tree: its per-CPU topology.
func (t *domainTemplate) instantiate() []rqTopology {
	doms := slices.Clone(t.doms)
	groups := slices.Clone(t.groups)
	sgcs := slices.Clone(t.sgcs)
	shared := slices.Clone(t.shared)
	gptr := make([]*schedGroup, len(t.domGroups))
	for i, gi := range t.domGroups {
		gptr[i] = &groups[gi]
	}
	dom := func(i int32) *schedDomain {
		if i < 0 {
			return nil
		}
		return &doms[i]
	}
	sh := func(i int32) *sdShared {
		if i < 0 {
			return nil
		}
		return &shared[i]
	}
	for i := range doms {
		d := &doms[i]
		d.parent, d.child, d.shared = dom(t.domParent[i]), dom(t.domChild[i]), sh(t.domShared[i])
		if a, b := t.domGroupsAt[i], t.domGroupsAt[i+1]; b > a {
			d.groups = gptr[a:b:b]
		}
	}
	for i := range groups {
		groups[i].sgc = &sgcs[t.groupSgc[i]]
	}
	topo := slices.Clone(t.topo)
	for i := range topo {
		r, x := &topo[i], t.topoRefs[i]
		r.sd, r.sdLLC, r.sdNUMA, r.sdAsymPacking = dom(x.sd), dom(x.llc), dom(x.numa), dom(x.asymPacking)
		r.sdAsymCPUCap, r.cluster, r.sdLLCShared = dom(x.asymCPUCap), dom(x.cluster), sh(x.llcShared)
	}
	return topo
}
