package replay

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// publicTraces is the shared directory of public real traces beside the
// checkout: ../shared/data/public-traces from the checkout (/work/main) or
// from its parent (a worktree /work/wt/NAME). It is never copied into the
// repository.
func publicTraces(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..") // core/replay -> the checkout
	if err != nil {
		t.Fatal(err)
	}
	for _, up := range []string{"..", "../.."} {
		dir := filepath.Join(root, up, "shared/data/public-traces")
		if _, err := os.Stat(filepath.Join(dir, "README.md")); err == nil {
			return dir
		}
	}
	t.Skipf("public traces not found at ../shared/data/public-traces beside the checkout %s or its parent", root)
	return ""
}

func TestParsePlatformLISA(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(publicTraces(t), "lisa-juno-plat_info.yml"))
	if err != nil {
		t.Fatal(err)
	}
	pl, err := ParsePlatform("juno", data)
	if err != nil {
		t.Fatal(err)
	}
	m := pl.Machine
	if len(pl.MaxKHz) != 6 || pl.MaxKHz[0] != 850000 || pl.MaxKHz[1] != 1100000 {
		t.Errorf("max kHz %v, want 850000 for the LITTLE CPUs and 1100000 for the big ones", pl.MaxKHz)
	}
	got := m.Describe()
	for _, want := range []string{"cpu0 core=0 cluster=0 llc=0", "capacity=446", "cpu1 core=1 cluster=1 llc=1"} {
		if !strings.Contains(got, want) {
			t.Errorf("juno: %q missing in\n%s", want, got)
		}
	}
	if caps := Capacities(&m); len(caps) != 6 || caps[1] != 1024 || caps[2] != 1024 || caps[0] != 446 || caps[5] != 446 {
		t.Errorf("capacities %v", caps)
	}
}

func TestParsePlatformJSON(t *testing.T) {
	pl, err := ParsePlatform("x.json", []byte(`{"name":"two","capacities":[512,1024],"clusters":[[0],[1]],"max_khz":[1000000,2000000]}`))
	if err != nil {
		t.Fatal(err)
	}
	if m := pl.Machine; m.NumCPUs() != 2 || m.CPUs[0].Capacity != 512 || m.CPUs[1].Cluster != 1 || pl.MaxKHz[1] != 2000000 {
		t.Errorf("%s %v", m.Describe(), pl.MaxKHz)
	}
	for in, want := range map[string]string{
		`{"capacities":[]}`:                           "0 CPUs",
		`{"capacities":[1,2],"clusters":[[0,0]]}`:     "also in cluster",
		`{"capacities":[1,2],"clusters":[[5]]}`:       "cpu 5",
		`{"capacities":[1],"bogus":1}`:                "unknown field",
		"platform-info:\n    conf:\n        abi: x\n": "no cpu-capacities",
		`{"capacities":[1,2],"max_khz":[5]}`:          "1 entries for 2 CPUs",
	} {
		if _, err := ParsePlatform("f", []byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", in, err, want)
		}
	}
}
