package scenario

import (
	"strings"
	"testing"
)

func TestWorkloadSizes(t *testing.T) {
	sc, err := Decode([]byte(`{"version":1,"topology":"smp-8","duration":"1s","tasks":[{"name":"hog","program":[{"run":"1ms"}]}],
	"workloads":[{"kind":"hackbench","name":"hb","groups":3,"fds":4},{"kind":"kbuild","name":"kb","jobs":50},{"kind":"cyclictest","name":"ct"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := WorkloadSizes(sc)
	if err != nil {
		t.Fatal(err)
	}
	// hackbench: per group one sender group of fds and fds receivers;
	// kbuild: make and two groups per burst class (driver, cc1), make forks a driver per
	// job and each driver a cc1; cyclictest: a thread
	// per CPU of smp-8.
	if got[0] != (WorkloadSize{Groups: 15, Tasks: 24}) || got[1] != (WorkloadSize{Groups: 17, Tasks: 1, Forked: 100}) || got[2].Tasks != 8 {
		t.Fatalf("sizes %+v", got)
	}
	sc.Workloads[0].Params = map[string]string{"groups": "1000", "fds": "100"}
	if _, err := WorkloadSizes(sc); err == nil || !strings.HasPrefix(err.Error(), "workloads[0].groups") {
		t.Fatalf("over the limit: %v", err)
	}
}

func TestWorkloadNames(t *testing.T) {
	sc := &Scenario{Tasks: []Task{{Name: "pipe"}}, Workloads: []Workload{{Kind: "hog", Name: "hog"}, {Kind: "hog", Name: "hog2"}}}
	if n := NewWorkloadName(sc, "hog"); n != "hog3" {
		t.Fatalf("NewWorkloadName hog = %q", n)
	}
	if n := NewWorkloadName(sc, "pipe"); n != "pipe2" {
		t.Fatalf("NewWorkloadName pipe = %q (a task group is called pipe)", n)
	}
	if err := CheckWorkloadName(sc, 1, "hog"); err == nil {
		t.Fatal("duplicate name accepted")
	}
	if err := CheckWorkloadName(sc, 0, "hog"); err != nil {
		t.Fatalf("own name refused: %v", err)
	}
	if err := CheckWorkloadName(sc, 0, "a.b"); err == nil || !strings.HasPrefix(err.Error(), "workloads[0].name") {
		t.Fatalf("bad name: %v", err)
	}
	p := Param{Name: "n", Type: PInt, Min: 1, Max: 5}
	if c, err := p.Check("x", "3"); c != "3" || err != nil {
		t.Fatal(c, err)
	}
	if _, err := p.Check("x", "9"); err == nil {
		t.Fatal("9 accepted for 1..5")
	}
}
