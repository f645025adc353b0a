package replay

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/core/ftraceimport"
	"schedplay/core/sched"
)

// TestPinnedPingPongHiddenReplies: a ping-pong on one CPU where half the
// replies wake nobody (the requester was preempted by the replier, not
// waiting) replays with the trace's switch counts: each side waits for
// the other's answer, seen or not, instead of running ahead.
func TestPinnedPingPongHiddenReplies(t *testing.T) {
	const n = 2000
	us := sched.Microsecond
	tr, err := ftraceimport.Import(strings.NewReader(pinnedPingPong(n, 20*us, 20*us)), ftraceimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, rep := replay(t, tr, "smp-1")
	if w.HiddenReplies < n/3 || w.HiddenReplies > 2*n/3 {
		t.Errorf("%d hidden replies inferred, want about %d (half the rounds)", w.HiddenReplies, n/2)
	}
	trep := tr.Metrics("trace")
	f := Compare(w, &trep, &rep)
	t.Logf("\n%s\n%s", w.Describe(), f.Text())
	if len(f.Rows) != 2 {
		t.Fatalf("%d rows, want ping and pong", len(f.Rows))
	}
	for _, r := range f.Rows {
		if !r.ShareOK || !r.SwitchOK {
			t.Errorf("%s: trace %d switches, %.1f%% CPU; replay %d, %.1f%%: want within the targets", r.Group,
				r.Trace.Switches, r.Trace.Share, r.Replay.Switches, r.Replay.Share)
		}
	}
}

// TestNoHiddenReplyOneWay: a task preempted by the task it woke, where
// that task never wakes it back (a producer and its consumer), gets no
// wait: its work does not depend on the consumer.
func TestNoHiddenReplyOneWay(t *testing.T) {
	s := newSynth(1)
	s.comm[100], s.comm[200] = "prod", "cons"
	us := sched.Microsecond
	tm := sched.Time(1000 * us)
	s.sw(tm, 0, 0, "R", 100)
	for i := 0; i < 50; i++ {
		tm += 50 * us
		s.line(100, 0, "d..2.", tm, "sched_waking", "comm=cons pid=200 prio=120 target_cpu=000")
		s.line(100, 0, "dN.2.", tm, "sched_wakeup", "comm=cons pid=200 prio=120 target_cpu=000")
		s.sw(tm+us, 0, 100, "R", 200)
		tm += 10 * us
		s.sw(tm, 0, 200, "S", 100)
	}
	tr, err := ftraceimport.Import(strings.NewReader(s.String()), ftraceimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w.HiddenReplies != 0 {
		t.Errorf("%d hidden replies inferred for a one-way producer, want 0\n%s", w.HiddenReplies, w.Describe())
	}
}

// TestHiddenRepliesNeedAnswers: on LISA's Juno trace (a shell, sshd and
// kworkers), a hidden reply is only given to a pair whose replier, over
// the whole trace, answered (ended by its wakeup) at least half of the
// blocks in which the requester waited after waking it: a background
// thread that the requester wakes, and that woke it once for some other
// reason, is no reply partner.
func TestHiddenRepliesNeedAnswers(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(publicTraces(t), "lisa-juno-trace.txt"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := ftraceimport.Import(bytes.NewReader(data), ftraceimport.Options{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	type pair struct{ a, b int }
	asked, answered, hidden := map[pair]int{}, map[pair]int{}, map[pair]int{}
	for a := range w.Tasks {
		tk := &w.Tasks[a]
		var since []int // peers woken since the last block
		bi := 0
		for _, s := range tk.Steps {
			switch {
			case s.Kind == StepSignal:
				since = append(since, s.Peer)
			case s.Kind == StepWait && s.Hidden:
				hidden[pair{a, s.Peer}]++
				since = since[:0]
			case s.Kind == StepWait || s.Kind == StepUntil || s.Kind == StepEnd:
				bl := tk.Blocks[bi]
				bi++
				seen := map[int]bool{}
				for _, b := range since {
					if seen[b] {
						continue
					}
					seen[b] = true
					if bl.End != EndNever {
						asked[pair{a, b}]++
					}
					if bl.End == EndTask && bl.Waker == b {
						answered[pair{a, b}]++
					}
				}
				since = since[:0]
			}
		}
	}
	total := 0
	for p, n := range hidden {
		total += n
		if answered[p] < MinAnswered || 2*answered[p] < asked[p] {
			t.Errorf("%d hidden replies of %s to %s, which answered %d of %d requests in the trace", n,
				w.Tasks[p.b].Group, w.Tasks[p.a].Group, answered[p], asked[p])
		}
	}
	if total != w.HiddenReplies {
		t.Errorf("%d hidden waits in the programs, HiddenReplies %d", total, w.HiddenReplies)
	}
}
