package sched

// The validation and run errors of the simulator quote the scenario's
// task, cgroup and machine names bounded and escaped (quote.Clip): a name
// as long as the document it came from, with control characters and
// markup, still gives a one-line error of a few hundred bytes.

import (
	"strings"
	"testing"
)

// hostileName is a 1 MB name with a newline, an escape sequence and markup.
var hostileName = "<b>x</b>\n\x1b[31m" + strings.Repeat("n", 1<<20)

// maxNameErr bounds an error quoting one or two clipped names.
const maxNameErr = 600

func TestHostileNamesInErrors(t *testing.T) {
	for _, c := range []struct {
		what string
		edit func(*Config)
		want string
	}{
		{"pid", func(c *Config) { c.Tasks[0].PID = -1 }, "pid -1"},
		{"nice", func(c *Config) { c.Tasks[0].Nice = 40 }, "nice 40"},
		{"comm as task name", func(c *Config) {
			c.Tasks[0].Comm = hostileName
			c.Tasks[0].Program, c.Tasks[0].Loop = []Op{{Kind: OpYield}}, 1<<30
		},
			"without using time"},
		{"cpu", func(c *Config) { c.Tasks[0].CPUs = []int{7}; c.Machine.Name = hostileName }, "cpu 7 does not exist"},
		{"cgroup shares", func(c *Config) { c.Cgroups = []CgroupSpec{{Path: hostileName, Shares: 1}} }, "shares 1"},
		{"cgroup of a task", func(c *Config) {
			c.Cgroups = []CgroupSpec{{Path: hostileName, Shares: 1024, CPUs: []int{0}}}
			c.Tasks[0].Cgroup, c.Tasks[0].CPUs = 1, []int{1}
		}, "share no CPU"},
	} {
		t.Run(c.what, func(t *testing.T) {
			b := newRun(t).topology("smp-2").task(hostileName).loop(1).run(Millisecond)
			cfg := b.config()
			c.edit(&cfg)
			var err error
			s, nerr := New(cfg)
			if err = nerr; err == nil {
				s.RunUntil(Second)
				err = s.Err()
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %.300v, want one saying %q", err, c.want)
			}
			checkBoundedErr(t, err.Error(), maxNameErr)
		})
	}
}

// checkBoundedErr fails unless msg is at most max bytes, one line, free of
// raw control characters, and shows the name's start escaped.
func checkBoundedErr(t *testing.T, msg string, max int) {
	t.Helper()
	if len(msg) > max {
		t.Errorf("error of %d bytes, want at most %d: %.300q", len(msg), max, msg)
	}
	if strings.ContainsAny(msg, "\n\x1b") {
		t.Errorf("error has a raw control character: %.300q", msg)
	}
	if !strings.Contains(msg, `<b>x</b>\n\x1b[31mnnn`) {
		t.Errorf("error does not show the name's start escaped: %.300q", msg)
	}
}
