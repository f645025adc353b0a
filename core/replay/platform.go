package replay

// Machines the presets do not name, for replaying a trace on the machine
// it came from: a LISA platform description (lisa.platforms.platinfo's
// plat_info.yml: "cpu-capacities" and "freq-domains") or a small JSON
// topology file. Each frequency domain becomes a cluster with its own
// last-level cache, as on Arm big.LITTLE parts where a cluster shares its
// L2 and its clock (drivers/base/arch_topology.c reads the capacities
// the kernel scales by, arch_scale_cpu_capacity()).
//
//	{ "name": "juno", "capacities": [446, 1024, 1024, 446, 446, 446],
//	  "clusters": [[0, 3, 4, 5], [1, 2]] }

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"schedplay/core/quote"
	"schedplay/core/topology"
)

// MaxPlatformCPUs bounds a platform description.
const MaxPlatformCPUs = 1024

// platformJSON is the JSON topology file.
type platformJSON struct {
	Name       string  `json:"name"`
	Capacities []int   `json:"capacities"`
	Clusters   [][]int `json:"clusters"`
	// MaxKHz is each CPU's highest frequency (optional).
	MaxKHz []int `json:"max_khz"`
}

// Platform is a machine with what a platform description adds to it.
type Platform struct {
	Machine topology.Machine
	// MaxKHz is each CPU's highest frequency (LISA's freqs, the JSON
	// file's max_khz); nil when the description has none.
	MaxKHz []int
}

// ParsePlatform reads a JSON topology file or a LISA plat_info.yml; name
// names the file in errors and is the machine's default name.
func ParsePlatform(name string, data []byte) (Platform, error) {
	m, p, err := parsePlatform(name, data)
	if err != nil {
		return Platform{}, err
	}
	if p.MaxKHz != nil && len(p.MaxKHz) != m.NumCPUs() {
		return Platform{}, fmt.Errorf("%s: max_khz: %d entries for %d CPUs", quote.Clip(name), len(p.MaxKHz), m.NumCPUs())
	}
	return Platform{Machine: m, MaxKHz: p.MaxKHz}, nil
}

func parsePlatform(name string, data []byte) (topology.Machine, platformJSON, error) {
	var p platformJSON
	if s := strings.TrimSpace(string(data)); strings.HasPrefix(s, "{") {
		dec := json.NewDecoder(strings.NewReader(s))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			return topology.Machine{}, p, fmt.Errorf("%s: %v (want {\"name\", \"capacities\": [..], \"clusters\": [[..]], \"max_khz\": [..]})", quote.Clip(name), quote.Bound(err))
		}
	} else {
		var err error
		if p, err = parseLISA(data); err != nil {
			return topology.Machine{}, p, fmt.Errorf("%s: %v", quote.Clip(name), err)
		}
	}
	if p.Name == "" {
		p.Name = name
	}
	m, err := p.machine(name)
	return m, p, err
}

func (p *platformJSON) machine(file string) (topology.Machine, error) {
	n := len(p.Capacities)
	if n == 0 || n > MaxPlatformCPUs {
		return topology.Machine{}, fmt.Errorf("%s: capacities: %d CPUs, want 1..%d", quote.Clip(file), n, MaxPlatformCPUs)
	}
	top := 0
	for _, c := range p.Capacities {
		top = max(top, c)
	}
	cluster := make([]int, n)
	for i := range cluster {
		cluster[i] = -1
	}
	for ci, cl := range p.Clusters {
		for _, c := range cl {
			if c < 0 || c >= n {
				return topology.Machine{}, fmt.Errorf("%s: clusters[%d]: cpu %d, want 0..%d", quote.Clip(file), ci, c, n-1)
			}
			if cluster[c] >= 0 {
				return topology.Machine{}, fmt.Errorf("%s: clusters[%d]: cpu %d is also in cluster %d", quote.Clip(file), ci, c, cluster[c])
			}
			cluster[c] = ci
		}
	}
	next := len(p.Clusters)
	for i := range cluster {
		if cluster[i] < 0 { // a CPU no domain names: its own cluster
			cluster[i] = next
			next++
		}
	}
	m := topology.Machine{Name: p.Name, Summary: fmt.Sprintf("%d CPUs from a platform description", n),
		Source: "platform description (" + file + ")"}
	for i, c := range p.Capacities {
		if c < 1 {
			return topology.Machine{}, fmt.Errorf("%s: capacities[%d] = %d, want > 0", quote.Clip(file), i, c)
		}
		// normalised so the biggest is SCHED_CAPACITY_SCALE, as
		// topology_normalize_cpu_scale() does
		capa := max(1, c*topology.CapacityScale/top)
		m.CPUs = append(m.CPUs, topology.CPU{ID: i, Core: i, Cluster: cluster[i], LLC: cluster[i], Capacity: capa})
	}
	idleFrom := "smp-1"
	if len(p.Clusters) > 1 {
		idleFrom = "bigLITTLE-rk3399"
	}
	ref, err := topology.Preset(idleFrom)
	if err != nil {
		return topology.Machine{}, err
	}
	m.Idle = ref.Idle
	if err := m.Validate(); err != nil {
		return topology.Machine{}, fmt.Errorf("%s: %v", quote.Clip(file), err)
	}
	return m, nil
}

// parseLISA reads the two keys of a plat_info.yml this needs, by
// indentation: "cpu-capacities:" (its "orig:" map when it has one, else
// its own "N: V" lines) and "freq-domains:" (a list of lists of CPUs).
func parseLISA(data []byte) (platformJSON, error) {
	var p platformJSON
	lines := strings.Split(string(data), "\n")
	indent := func(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }
	caps := map[int]int{}
	maxKHz := map[int]int{}
	for i := 0; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " \r")
		key := strings.TrimSpace(l)
		switch key {
		case "cpu-capacities:":
			base := indent(l)
			section := ""
			for j := i + 1; j < len(lines); j++ {
				s := strings.TrimRight(lines[j], " \r")
				if strings.TrimSpace(s) == "" {
					continue
				}
				if indent(s) <= base {
					break
				}
				k, v, ok := strings.Cut(strings.TrimSpace(s), ":")
				v = strings.TrimSpace(v)
				if !ok {
					return p, fmt.Errorf("line %d: want N: CAPACITY under cpu-capacities", j+1)
				}
				if v == "" {
					section = k
					continue
				}
				if section != "" && section != "orig" {
					continue
				}
				cpu, err1 := strconv.Atoi(k)
				c, err2 := strconv.Atoi(v)
				if err1 != nil || err2 != nil || cpu < 0 || cpu >= MaxPlatformCPUs {
					return p, quote.Errorf("line %d: %q: want CPU: CAPACITY under cpu-capacities", j+1, strings.TrimSpace(s))
				}
				caps[cpu] = c
			}
		case "freqs:":
			base := indent(l)
			cpu := -1
			for j := i + 1; j < len(lines); j++ {
				s := strings.TrimRight(lines[j], " \r")
				t := strings.TrimSpace(s)
				if t == "" {
					continue
				}
				if indent(s) <= base && !strings.HasPrefix(t, "-") {
					break
				}
				if k, ok := strings.CutSuffix(t, ":"); ok {
					c, err := strconv.Atoi(k)
					if err != nil || c < 0 || c >= MaxPlatformCPUs {
						return p, quote.Errorf("line %d: %q: want CPU: under freqs", j+1, t)
					}
					cpu = c
					continue
				}
				f, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(t, "-")))
				if err != nil || cpu < 0 {
					return p, quote.Errorf("line %d: %q: want a frequency (kHz) under freqs", j+1, t)
				}
				maxKHz[cpu] = max(maxKHz[cpu], f)
			}
		case "freq-domains:":
			base := indent(l)
			var cur []int
			for j := i + 1; j < len(lines); j++ {
				s := strings.TrimRight(lines[j], " \r")
				t := strings.TrimSpace(s)
				if t == "" {
					continue
				}
				if indent(s) < base || !strings.HasPrefix(t, "-") {
					break
				}
				if strings.HasPrefix(t, "-   -") || strings.HasPrefix(t, "- -") { // a new domain
					if cur != nil {
						p.Clusters = append(p.Clusters, cur)
					}
					cur = nil
					t = strings.TrimSpace(strings.TrimPrefix(t, "-"))
				}
				c, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(t, "-")))
				if err != nil {
					return p, quote.Errorf("line %d: %q: want a CPU number under freq-domains", j+1, t)
				}
				cur = append(cur, c)
			}
			if cur != nil {
				p.Clusters = append(p.Clusters, cur)
			}
		}
		if len(caps) > 0 && p.Clusters != nil && len(maxKHz) > 0 {
			break
		}
	}
	if len(caps) == 0 {
		return p, fmt.Errorf("no cpu-capacities (want a LISA plat_info.yml or a JSON topology file)")
	}
	p.Capacities = make([]int, len(caps))
	for cpu, c := range caps {
		if cpu >= len(caps) {
			return p, fmt.Errorf("cpu-capacities: cpu %d of %d: want CPUs 0..%d", cpu, len(caps), len(caps)-1)
		}
		p.Capacities[cpu] = c
	}
	if len(maxKHz) == len(caps) {
		p.MaxKHz = make([]int, len(caps))
		for cpu, f := range maxKHz {
			if cpu >= len(caps) {
				return p, fmt.Errorf("freqs: cpu %d of %d", cpu, len(caps))
			}
			p.MaxKHz[cpu] = f
		}
	}
	return p, nil
}
