package main

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSplitSets(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  ,\t", nil},
		{"kernel.hz=250", []string{"kernel.hz=250"}},
		{"kernel.hz=250 kernel.preempt=full", []string{"kernel.hz=250", "kernel.preempt=full"}},
		{"kernel.hz=250,kernel.preempt=full", []string{"kernel.hz=250", "kernel.preempt=full"}},
		{"kernel.hz=250, kernel.preempt=full,", []string{"kernel.hz=250", "kernel.preempt=full"}},
		{"a=1,,b=2", []string{"a=1", "b=2"}},
		{"a=", []string{"a="}},
		{"a=b=c", []string{"a=b=c"}},
		// A comma not followed by KEY= belongs to the value: CPU lists.
		{"cgroups./a.cpuset.cpus=0-3,8", []string{"cgroups./a.cpuset.cpus=0-3,8"}},
		{"cgroups./a.cpuset.cpus=0-3,8 kernel.hz=250", []string{"cgroups./a.cpuset.cpus=0-3,8", "kernel.hz=250"}},
		{"cgroups./a.cpuset.cpus=0-3,8,10-11,kernel.hz=250", []string{"cgroups./a.cpuset.cpus=0-3,8,10-11", "kernel.hz=250"}},
		{"hw.idle_disable=C2,C3,", []string{"hw.idle_disable=C2,C3"}},
		// Quotes keep whitespace and a comma followed by KEY=.
		{`name="my run, take 2" kernel.hz=250`, []string{"name=my run, take 2", "kernel.hz=250"}},
		{`x='a=1,b=2',kernel.hz=250`, []string{"x=a=1,b=2", "kernel.hz=250"}},
		{`x=""`, []string{"x="}},
		{`x=it's`, []string{"x=it's"}}, // a quote inside a value is kept
	} {
		got, err := splitSets("-b", c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSplitSetsErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"kernel.hz", `-b "kernel.hz": want KEY=VALUE`},
		{"kernel.hz=250 full", `-b "full": want KEY=VALUE`},
		{"=250", `-b "=250": want KEY=VALUE`},
		{`name="my run`, `-b "name=\"my run": the value's " is not closed`},
		{`name='a'b`, `-b "name='a'b": want a space or a comma after the value's closing '`},
	} {
		_, err := splitSets("-b", c.in)
		var ue usageError
		if err == nil || !errors.As(err, &ue) {
			t.Errorf("%q: error %v, want bad input %s", c.in, err, c.want)
			continue
		}
		if err.Error() != c.want {
			t.Errorf("%q: error %q, want %q", c.in, err, c.want)
		}
	}
}

// TestSplitSetsKeepsOldForms: every list the earlier parser accepted
// (pairs without commas in their values, separated by any mix of spaces,
// tabs, newlines and commas) splits as it did.
func TestSplitSetsKeepsOldForms(t *testing.T) {
	old := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == ',' })
	}
	pairs := []string{"kernel.hz=250", "kernel.preempt=full", "features.SIS_UTIL=off", "sysctl.sched_base_slice_ns=3000000",
		"a=b=c", "x=", "tasks.hog.instances=4", "hw.cstates=off", `name=it's`}
	seps := []string{" ", ",", "\t", "\n", ", ", " ,", ",,", "  "}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		var b strings.Builder
		n := r.IntN(5)
		if r.IntN(3) == 0 {
			b.WriteString(seps[r.IntN(len(seps))])
		}
		for j := range n {
			if j > 0 {
				b.WriteString(seps[r.IntN(len(seps))])
			}
			b.WriteString(pairs[r.IntN(len(pairs))])
		}
		if r.IntN(3) == 0 {
			b.WriteString(seps[r.IntN(len(seps))])
		}
		in := b.String()
		got, err := splitSets("-a", in)
		if err != nil {
			t.Fatalf("case %d %q: %v", i, in, err)
		}
		if want := old(in); !reflect.DeepEqual(got, want) && (len(got) != 0 || len(want) != 0) {
			t.Fatalf("case %d %q: got %q, the earlier parser %q", i, in, got, want)
		}
	}
}

// TestCompareCPUListValue: a CPU list in -b reaches the scenario whole
// (an unknown CPU in its last piece is reported), and the JSON lists it
// as one setting.
func TestCompareCPUListValue(t *testing.T) {
	base := []string{"compare", "-preset", "demo/nice-shares", "-topology", "smp-4", "-duration", "50ms", "-runs", "1"}
	out := runJSON(t, append(base, "-o", "json", "-b", "cgroups./a.cpuset.cpus=0-1,3,tasks.nice0.taskgroup=/a")...)
	want := `"set": [
      "cgroups./a.cpuset.cpus=0-1,3",
      "tasks.nice0.taskgroup=/a"
    ]`
	if !strings.Contains(out, want) {
		t.Errorf("compare -o json: want B's settings\n%s\nin\n%s", want, out)
	}
	var stdout, stderr strings.Builder
	code := run(append(base, "-b", "cgroups./a.cpuset.cpus=0-1,9 tasks.nice0.taskgroup=/a"), strings.NewReader(""), &stdout, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "cgroups./a.cpuset.cpus") || !strings.Contains(stderr.String(), "CPU 9") {
		t.Errorf("a CPU list with CPU 9 on smp-4: exit %d, stderr %q; want 2 and a message naming the key and CPU 9", code, stderr.String())
	}
}

// TestReplayCPUListValue: replay's -b reads CPU lists the same way.
func TestReplayCPUListValue(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pp.trace")
	if err := os.WriteFile(path, []byte(pingPongTrace(20)), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	rc := run([]string{"replay", "-b", "cgroups./a.cpuset.cpus=0,5", path}, nil, &out, &errb)
	if rc != 2 || !strings.Contains(errb.String(), "cgroups./a.cpuset.cpus") || !strings.Contains(errb.String(), "CPU 5") {
		t.Errorf("replay -b with CPU 5 on smp-2: rc %d, stderr %q; want 2 and a message naming the key and CPU 5", rc, errb.String())
	}
	out.Reset()
	errb.Reset()
	if rc := run([]string{"replay", "-b", "cgroups./a.cpuset.cpus=0,1 kernel.version=v5.8", path}, nil, &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	if want := "B: cgroups./a.cpuset.cpus=0,1 kernel.version=v5.8"; !strings.Contains(out.String(), want) {
		t.Errorf("%q missing in\n%s", want, out.String())
	}
}

// TestSweepCPUListValues: a quoted -sweep value keeps its commas, and the
// CSV and the table name the point by the whole list.
func TestSweepCPUListValues(t *testing.T) {
	args := []string{"sweep", "-preset", "demo/nice-shares", "-topology", "smp-4", "-duration", "50ms", "-runs", "1",
		"-set", "tasks.nice0.taskgroup=/a", "-metric", "share@nice0", "-sweep", `cgroups./a.cpuset.cpus="0-1,3",0`}
	csvOut := runJSON(t, append(args, "-csv", "-")...)
	for _, want := range []string{"\n\"0-1,3\",1,value,", "\n0,1,value,"} {
		if !strings.Contains(csvOut, want) {
			t.Errorf("CSV: %q missing in\n%s", want, csvOut)
		}
	}
	if table := runJSON(t, args...); !strings.Contains(table, `cgroups./a.cpuset.cpus="0-1,3",0`) {
		t.Errorf("table header: the axis as -sweep takes it missing in\n%s", table)
	}
}
