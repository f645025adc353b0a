package ftraceimport

// A trace line's long fields never reach an error or a warning whole: a
// 40 KB comm, event name or garbled body gives a message of a few hundred
// bytes (errors name the line and the event, and quote user text bounded
// by core/quote where they quote it at all).

import (
	"strings"
	"testing"
)

// maxMsgBytes bounds one error or warning about a bad line.
const maxMsgBytes = 1024

func TestLongInputImport(t *testing.T) {
	big := strings.Repeat("k", 40<<10)
	ok := " a-1 [000] 1.000000: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=R ==> next_comm=b next_pid=2 next_prio=120\n"
	for name, text := range map[string]string{
		"comm":        " a-1 [000] 1.0: sched_switch: prev_comm=" + big + " prev_pid=1 prev_prio=120 prev_state=R ==> next_comm=b next_pid=2 next_prio=120\n",
		"bad field":   " a-1 [000] 1.0: sched_switch: prev_comm=a prev_pid=" + big + " prev_prio=120 prev_state=R ==> next_comm=b next_pid=2 next_prio=120\n",
		"event name":  ok + " a-1 [000] 1.1: " + big + ": x\n",
		"garbage":     ok + big + "\n",
		"wakeup body": ok + " a-1 [000] 1.1: sched_wakeup: " + big + "\n",
		"task":        ok + " " + big + "-1 [000] 1.1: sched_wakeup: comm=c pid=3 prio=120 target_cpu=000\n",
		"cpu_idle":    ok + " a-1 [000] 1.1: cpu_frequency: state=" + big + " cpu_id=0\n",
	} {
		for _, lenient := range []bool{false, true} {
			tr, err := Import(strings.NewReader(text), Options{Lenient: lenient})
			if err != nil && len(err.Error()) > maxMsgBytes {
				t.Errorf("%s (lenient %v): error of %d bytes, want at most %d: %.200s...", name, lenient, len(err.Error()), maxMsgBytes, err)
			}
			if tr == nil {
				continue
			}
			for _, w := range tr.Warnings {
				if n := len(w.String()); n > maxMsgBytes {
					t.Errorf("%s (lenient %v): warning of %d bytes: %.200s...", name, lenient, n, w.String())
				}
			}
		}
	}
}
