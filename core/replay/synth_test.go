package replay

// Synthetic kernel traces for the tests: the tracefs layout of a real
// kernel, with sched_waking printed in the waker's context and
// sched_wakeup on the wakee's CPU from the ttwu_queue IPI (hardirq flags),
// which the simulator's own writer does not reproduce.

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"schedplay/core/sched"
)

type synth struct {
	b    strings.Builder
	comm map[int]string
}

func newSynth(cpus int) *synth {
	s := &synth{comm: map[int]string{0: "<idle>"}}
	fmt.Fprintf(&s.b, "# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:%d\n#\n", cpus)
	return s
}

func (s *synth) line(pid, cpu int, flags string, t sched.Time, event, body string) {
	fmt.Fprintf(&s.b, "%16s-%-7d [%03d] %s %6d.%06d: %s: %s\n", s.comm[pid], pid, cpu, flags,
		int64(t)/1e9, int64(t)%1e9/1e3, event, body)
}

func (s *synth) prioOf(pid int) int { return 120 }

func (s *synth) name(pid, cpu int) string {
	if pid == 0 {
		return fmt.Sprintf("swapper/%d", cpu)
	}
	return s.comm[pid]
}

// sw switches prev (state) to next on cpu at t.
func (s *synth) sw(t sched.Time, cpu, prev int, state string, next int) {
	s.line(prev, cpu, "d..2.", t, "sched_switch", fmt.Sprintf("prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> next_comm=%s next_pid=%d next_prio=120",
		s.name(prev, cpu), prev, state, s.name(next, cpu), next))
}

// wake: waker (on wcpu, in process context unless irq) wakes pid onto cpu.
func (s *synth) wake(t sched.Time, waker, wcpu, pid, cpu int, irq bool) {
	fl := "d..2."
	if irq {
		fl = "d.h2."
	}
	body := fmt.Sprintf("comm=%s pid=%d prio=120 target_cpu=%03d", s.comm[pid], pid, cpu)
	s.line(waker, wcpu, fl, t, "sched_waking", body)
	s.line(0, cpu, "dNh2.", t, "sched_wakeup", body)
}

func (s *synth) String() string { return s.b.String() }

// pingPong is a cross-CPU pipe ping-pong: a (pid 100, CPU 0) and b (pid
// 200, CPU 1) each work, wake the other, work 2 us more and block; n
// round trips, wakeup latency lat; each burst is 0..16 us longer, drawn
// from a fixed PCG stream.
func pingPong(n int, aWork, bWork, lat sched.Time) string {
	s := newSynth(2)
	s.comm[100], s.comm[200] = "ping", "pong"
	t := sched.Time(1000 * sched.Microsecond)
	us := sched.Microsecond
	s.sw(t, 0, 0, "R", 100)
	s.sw(t, 1, 0, "R", 200)
	s.sw(t+us, 1, 200, "S", 0)
	t += us
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < n; i++ {
		t += aWork + sched.Time(rng.IntN(17))*us
		s.wake(t, 100, 0, 200, 1, false)
		s.sw(t+2*us, 0, 100, "S", 0)
		t += lat
		s.sw(t, 1, 0, "R", 200)
		t += bWork + sched.Time(rng.IntN(17))*us
		s.wake(t, 200, 1, 100, 0, false)
		s.sw(t+2*us, 1, 200, "S", 0)
		t += lat
		s.sw(t, 0, 0, "R", 100)
	}
	return s.String()
}

// periodicHog: on one CPU a nice-5 hog (pid 300) and a periodic task (pid
// 400, 200 us every 1 ms, woken by its hrtimer in hardirq context while
// the hog runs); the hog forks a child (pid 500) that runs 50 us and
// exits, and an RT task (prio 89) woken from idle context once.
func periodicHog(periods int) string {
	s := newSynth(1)
	s.comm[300], s.comm[400], s.comm[500], s.comm[600] = "hog", "tick", "child", "rt"
	us := sched.Microsecond
	t := 10 * us
	s.sw(t, 0, 0, "R", 300)
	s.line(300, 0, "d..2.", t+5*us, "sched_process_fork", "comm=hog pid=300 child_comm=child child_pid=500")
	s.line(300, 0, "d..2.", t+5*us, "sched_wakeup_new", "comm=child pid=500 prio=125 target_cpu=000")
	for i := 0; i < periods; i++ {
		at := sched.Time(i+1) * sched.Millisecond
		s.wake(at, 300, 0, 400, 0, true)
		s.line(0, 0, "d..2.", at+3*us, "sched_switch", "prev_comm=hog prev_pid=300 prev_prio=125 prev_state=R+ ==> next_comm=tick next_pid=400 next_prio=120")
		s.line(400, 0, "d..2.", at+203*us, "sched_switch", "prev_comm=tick prev_pid=400 prev_prio=120 prev_state=S ==> next_comm=hog next_pid=300 next_prio=125")
		if i == 1 {
			s.line(0, 0, "d..2.", at+300*us, "sched_switch", "prev_comm=hog prev_pid=300 prev_prio=125 prev_state=R ==> next_comm=child next_pid=500 next_prio=125")
			s.line(500, 0, "d..2.", at+350*us, "sched_process_exit", "comm=child pid=500 prio=125")
			s.line(500, 0, "d..2.", at+350*us, "sched_switch", "prev_comm=child prev_pid=500 prev_prio=125 prev_state=X ==> next_comm=hog next_pid=300 next_prio=125")
		}
		if i == 2 {
			s.line(0, 0, "d.h2.", at+400*us, "sched_waking", "comm=rt pid=600 prio=89 target_cpu=000")
			s.line(0, 0, "d.h2.", at+400*us, "sched_wakeup", "comm=rt pid=600 prio=89 target_cpu=000")
			s.line(300, 0, "d..2.", at+401*us, "sched_switch", "prev_comm=hog prev_pid=300 prev_prio=125 prev_state=R+ ==> next_comm=rt next_pid=600 next_prio=89")
			s.line(600, 0, "d..2.", at+421*us, "sched_switch", "prev_comm=rt prev_pid=600 prev_prio=89 prev_state=S ==> next_comm=hog next_pid=300 next_prio=125")
		}
	}
	return s.String()
}

// pinnedPingPong is a pipe ping-pong of a (pid 100) and b (pid 200) on one
// CPU: a works and wakes b; in one round of two (drawn from a fixed PCG
// stream) b preempts a at once, answers without a wakeup (a is not
// waiting) and blocks, and a resumes; in the other a blocks, b runs,
// wakes a and blocks. n round trips.
func pinnedPingPong(n int, aWork, bWork sched.Time) string {
	s := newSynth(1)
	s.comm[100], s.comm[200] = "ping", "pong"
	us := sched.Microsecond
	t := sched.Time(1000 * us)
	s.sw(t, 0, 0, "R", 200)
	s.sw(t+us, 0, 200, "S", 100)
	t += us
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < n; i++ {
		t += aWork + sched.Time(rng.IntN(5))*us
		s.line(100, 0, "d..2.", t, "sched_waking", "comm=pong pid=200 prio=120 target_cpu=000")
		s.line(100, 0, "dN.2.", t, "sched_wakeup", "comm=pong pid=200 prio=120 target_cpu=000")
		if rng.IntN(2) == 0 { // b preempts a, answers unseen
			s.sw(t+us, 0, 100, "R", 200)
			t += us + bWork + sched.Time(rng.IntN(5))*us
			s.sw(t, 0, 200, "S", 100)
			continue
		}
		s.sw(t+2*us, 0, 100, "S", 200)
		t += 2*us + bWork + sched.Time(rng.IntN(5))*us
		s.line(200, 0, "d..2.", t, "sched_waking", "comm=ping pid=100 prio=120 target_cpu=000")
		s.line(200, 0, "d..2.", t, "sched_wakeup", "comm=ping pid=100 prio=120 target_cpu=000")
		s.sw(t+us, 0, 200, "S", 100)
		t += us
	}
	return s.String()
}

// pingPongBusy is pingPong with a hog on each CPU (pids 300 on CPU 0, 400
// on CPU 1) running while its CPU's side is blocked: each wakeup
// preempts the hog of the other CPU lat after the waking.
func pingPongBusy(n int, aWork, bWork, lat sched.Time) string {
	s := newSynth(2)
	s.comm[100], s.comm[200], s.comm[300], s.comm[400] = "ping", "pong", "hog0", "hog1"
	t := sched.Time(1000 * sched.Microsecond)
	us := sched.Microsecond
	s.sw(t, 0, 300, "R", 100)
	s.sw(t, 1, 0, "R", 200)
	s.sw(t+us, 1, 200, "S", 400)
	t += us
	rng := rand.New(rand.NewPCG(5, 6))
	// the wakeup line is printed on the target by the IPI, in the
	// context of the hog it interrupts
	wake := func(t sched.Time, waker, wcpu, pid, cpu, hog int) {
		body := fmt.Sprintf("comm=%s pid=%d prio=120 target_cpu=%03d", s.comm[pid], pid, cpu)
		s.line(waker, wcpu, "d..2.", t, "sched_waking", body)
		s.line(hog, cpu, "dNh2.", t, "sched_wakeup", body)
	}
	for i := 0; i < n; i++ {
		t += aWork + sched.Time(rng.IntN(17))*us
		wake(t, 100, 0, 200, 1, 400)
		s.sw(t+2*us, 0, 100, "S", 300)
		t += lat
		s.sw(t, 1, 400, "R", 200)
		t += bWork + sched.Time(rng.IntN(17))*us
		wake(t, 200, 1, 100, 0, 300)
		s.sw(t+2*us, 1, 200, "S", 400)
		t += lat
		s.sw(t, 0, 300, "R", 100)
	}
	return s.String()
}
