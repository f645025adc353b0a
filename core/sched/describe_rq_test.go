package sched

// DescribeRunqueue only reads: a run that renders every runqueue after every
// event emits the same events as one that does not, and two renderings in a
// row are the same text.

import (
	"fmt"
	"strings"
	"testing"
)

func describeRQRun(t *testing.T, kernel string) *runBuilder {
	return newRun(t).kernel(kernel).topology("smp-2").duration(200*Millisecond).
		task("hog").instances(2).run(Forever).
		task("short").nice(5).run(300*Microsecond).sleep(700*Microsecond).
		task("y").run(100*Microsecond).yield().
		task("rt").fifo(10).start(3*Millisecond).run(2*Millisecond).sleep(20*Millisecond).
		task("dl").deadline(Millisecond, 10*Millisecond, 10*Millisecond).start(5 * Millisecond).run(500 * Microsecond).sleep(9 * Millisecond)
}

func TestDescribeRunqueueReadsOnly(t *testing.T) {
	for _, k := range []string{"v5.8", "v6.6", "v6.12", "v6.18"} {
		t.Run(k, func(t *testing.T) {
			plain := describeRQRun(t, k).build()
			plain.runFor(200 * Millisecond)

			probed := describeRQRun(t, k).build()
			sawRT, sawDL, sawQueued := false, false, false
			for probed.Step() {
				for cpu := range probed.rqs {
					a := probed.DescribeRunqueue(CPUID(cpu))
					if b := probed.DescribeRunqueue(CPUID(cpu)); a != b {
						t.Fatalf("at %s cpu%d: two renderings differ:\n%s\n%s", fmtMs(probed.Now()), cpu, a, b)
					}
					sawRT = sawRT || strings.Contains(a, " SCHED_FIFO prio=89")
					sawDL = sawDL || strings.Contains(a, "dl-")
					sawQueued = sawQueued || strings.Contains(a, " queued vruntime=")
				}
			}
			if err := probed.Err(); err != nil {
				t.Fatal(err)
			}
			if !sawRT || !sawDL || !sawQueued {
				t.Fatalf("the run never showed an RT task (%v), a deadline task (%v) or a queued fair task (%v)", sawRT, sawDL, sawQueued)
			}
			if len(plain.rec.events) != len(probed.rec.events) {
				t.Fatalf("%d events with DescribeRunqueue after each, %d without", len(probed.rec.events), len(plain.rec.events))
			}
			for i := range plain.rec.events {
				if a, b := plain.rec.events[i], probed.rec.events[i]; fmt.Sprint(a) != fmt.Sprint(b) {
					t.Fatalf("event %d differs: %s with DescribeRunqueue after each event, %s without", i, probed.describe(&b), plain.describe(&a))
				}
			}
		})
	}
}

// The rendering is one line per entity, the entity's name first, after the
// class header; curr comes before the queue.
func TestDescribeRunqueueShape(t *testing.T) {
	r := newRun(t).kernel("v6.12").task("a").run(Forever).task("b").run(Forever).build()
	r.runFor(5 * Millisecond)
	got := strings.Split(strings.TrimRight(r.DescribeRunqueue(0), "\n"), "\n")
	if len(got) != 5 {
		t.Fatalf("%d lines, want the fair header, curr, one queued, the rt and dl headers:\n%s", len(got), strings.Join(got, "\n"))
	}
	if !strings.HasPrefix(got[0], "cpu0 eevdf nr_queued=2 ") || !strings.HasPrefix(got[3], "cpu0 rt ") || !strings.HasPrefix(got[4], "cpu0 dl ") {
		t.Errorf("headers:\n%s", strings.Join(got, "\n"))
	}
	curr := r.rqs[0].curr.name
	if !strings.HasPrefix(got[1], curr+" curr vruntime=") || !strings.Contains(got[2], " queued vruntime=") {
		t.Errorf("curr %s first, then the queued task:\n%s", curr, strings.Join(got, "\n"))
	}
}
