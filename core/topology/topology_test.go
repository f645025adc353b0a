package topology

import (
	"strings"
	"testing"
)

func TestPresetsValidate(t *testing.T) {
	for _, m := range List() {
		if err := m.Validate(); err != nil {
			t.Errorf("%s: %v", m.Name, err)
		}
	}
}

// TestPresetNumbering checks the Linux CPU numbering of each preset.
func TestPresetNumbering(t *testing.T) {
	for _, tc := range []struct {
		name           string
		cpus           int
		siblingsOf0    []int
		llcOf0, nodes  int
		distance01     int
		cpuOnSecondLLC int
	}{
		{"icelake-2s32c", 128, []int{0, 64}, 64, 2, 20, 32},
		{"epyc-milan-2s64c", 256, []int{0, 128}, 16, 2, 32, 8},
		{"xeon-4s18c", 144, []int{0, 72}, 36, 4, 21, 18},
		{"sapphirerapids-2s56c", 224, []int{0, 112}, 112, 2, 21, 56},
		{"zen4-16c", 32, []int{0, 16}, 16, 1, 10, 8},
		{"xeon-2s8c-2013", 32, []int{0, 16}, 16, 2, 20, 8},
		{"alderlake-6p8e", 20, []int{0, 1}, 20, 1, 10, -1},
		{"bigLITTLE-rk3399", 6, []int{0}, 4, 1, 10, 4},
	} {
		m, err := Preset(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if m.NumCPUs() != tc.cpus || m.NumNodes() != tc.nodes {
			t.Errorf("%s: %d CPUs %d nodes", tc.name, m.NumCPUs(), m.NumNodes())
		}
		var sib []int
		llc := 0
		for _, c := range m.CPUs {
			if c.Core == m.CPUs[0].Core {
				sib = append(sib, c.ID)
			}
			if c.LLC == m.CPUs[0].LLC {
				llc++
			}
		}
		if len(sib) != len(tc.siblingsOf0) || sib[len(sib)-1] != tc.siblingsOf0[len(tc.siblingsOf0)-1] {
			t.Errorf("%s: siblings of cpu0 %v, want %v", tc.name, sib, tc.siblingsOf0)
		}
		if llc != tc.llcOf0 {
			t.Errorf("%s: LLC of cpu0 has %d CPUs, want %d", tc.name, llc, tc.llcOf0)
		}
		if tc.nodes > 1 && m.Distance(0, 1) != tc.distance01 {
			t.Errorf("%s: node_distance(0,1) = %d", tc.name, m.Distance(0, 1))
		}
		if tc.cpuOnSecondLLC >= 0 && m.CPUs[tc.cpuOnSecondLLC].LLC == m.CPUs[0].LLC {
			t.Errorf("%s: cpu%d should start the second LLC", tc.name, tc.cpuOnSecondLLC)
		}
	}
	adl, _ := Preset("alderlake-6p8e")
	if c := adl.CPUs[12]; c.Cluster != adl.CPUs[15].Cluster || c.Cluster == adl.CPUs[16].Cluster || c.Capacity >= 1024 || c.KernelCapacity() != 1024 || c.Prio >= adl.CPUs[0].Prio {
		t.Errorf("alderlake E-cores: clusters of 4, slower, arch capacity 1024, lower ITMT priority: %+v", c)
	}
	rk, _ := Preset("bigLITTLE-rk3399")
	if rk.CPUs[0].Capacity != 381 || rk.CPUs[4].Capacity != 1024 {
		t.Errorf("rk3399 capacities %d/%d, want 381/1024", rk.CPUs[0].Capacity, rk.CPUs[4].Capacity)
	}
}

func TestValidateRejects(t *testing.T) {
	base := func() Machine { m, _ := Preset("xeon-2s8c-2013"); return m }
	for _, tc := range []struct {
		what string
		mod  func(m *Machine)
		want string
	}{
		{"sibling in another package", func(m *Machine) { m.CPUs[16].Package, m.CPUs[16].Node = 1, 1 }, "spans"},
		{"asymmetric distances", func(m *Machine) { m.NodeDistance[0][1] = 30 }, "symmetric"},
		{"bad local distance", func(m *Machine) { m.NodeDistance = [][]int{{11, 20}, {20, 10}} }, "want 10"},
		{"short table", func(m *Machine) { m.NodeDistance = [][]int{{10}} }, "rows"},
		{"ITMT without priorities", func(m *Machine) { m.ITMT = true }, "ITMT"},
		{"sibling capacities differ", func(m *Machine) { m.CPUs[16].Capacity = 512 }, "sibling"},
		{"ids out of order", func(m *Machine) { m.CPUs[3].ID = 4 }, "want 3"},
	} {
		m := base()
		m.NodeDistance = [][]int{{10, 20}, {20, 10}}
		tc.mod(&m)
		err := m.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.what, err, tc.want)
		}
	}
}

// TestDescribeStable: the smp-N text is unchanged by the new fields.
func TestDescribeStable(t *testing.T) {
	m, _ := Preset("smp-2")
	want := "smp-2: 2 CPUs (2 identical cores, one LLC, no SMT)\n" +
		"cpu0 core=0 cluster=0 llc=0 package=0 node=0 capacity=1024\n" +
		"cpu1 core=1 cluster=1 llc=0 package=0 node=0 capacity=1024\n"
	if got := m.Describe(); got != want {
		t.Errorf("Describe:\n%s\nwant\n%s", got, want)
	}
	adl, _ := Preset("alderlake-6p8e")
	if !strings.Contains(adl.Describe(), "cpu12 core=6 cluster=6 llc=0 package=0 node=0 capacity=595 arch_capacity=1024 itmt_prio=35\n") {
		t.Errorf("alderlake Describe lacks the arch capacity / priority fields:\n%s", adl.Describe())
	}
}

// TestPresetNamesMatch: the name each preset is listed under is the name of
// the machine its builder makes, and Preset(name) builds that machine.
func TestPresetNamesMatch(t *testing.T) {
	names := Names()
	for i, m := range List() {
		if m.Name != names[i] {
			t.Errorf("preset %d is listed as %q but builds %q", i, names[i], m.Name)
		}
		got, err := Preset(names[i])
		if err != nil || got.Name != names[i] || len(got.CPUs) != len(m.CPUs) {
			t.Errorf("Preset(%q) = %q with %d CPUs, %v", names[i], got.Name, len(got.CPUs), err)
		}
	}
}
