package experiment

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseSweepAxis(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"kernel.hz=100,250,1000", []string{"100", "250", "1000"}},
		{" kernel.hz = 100 , 250 ", []string{"100", "250"}},
		{"x=it's,b", []string{"it's", "b"}},
		// Quoted values keep their commas: CPU lists.
		{`cgroups./a.cpuset.cpus="0-3,8",0-7`, []string{"0-3,8", "0-7"}},
		{`cgroups./a.cpuset.cpus='0-3,8' , "0,2,4"`, []string{"0-3,8", "0,2,4"}},
		{`name=" a b "`, []string{" a b "}},
	} {
		ax, err := ParseSweepAxis(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(ax.Values, c.want) {
			t.Errorf("%q: values %q, want %q", c.in, ax.Values, c.want)
		}
		// String quotes what needs it, so the axis reads back the same.
		back, err := ParseSweepAxis(ax.String())
		if err != nil || !reflect.DeepEqual(back, ax) {
			t.Errorf("%q: String %q reads back as %+v, %v", c.in, ax.String(), back, err)
		}
	}
	if got := (SweepAxis{Key: "kernel.hz", Values: []string{"100", "1000"}}).String(); got != "kernel.hz=100,1000" {
		t.Errorf("plain values: String %q", got)
	}
	for _, c := range []struct{ in, want string }{
		{"kernel.hz", "want KEY=v1,v2"},
		{"kernel.hz=100,,250", "empty value"},
		{"kernel.hz=100,", "empty value"},
		{`c="0-3,8`, `the value's " is not closed`},
		{`c="0-3"8`, `want a comma after the value's closing "`},
		{`c=""`, "empty value"},
	} {
		_, err := ParseSweepAxis(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}
