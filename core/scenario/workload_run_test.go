package scenario

// Behavioural tests of the workload generators: each runs and shows the
// effect its documentation claims, and the engine's counting semaphores
// count.

import (
	"crypto/sha256"
	"encoding/hex"
	"reflect"
	"strings"
	"testing"

	"schedplay/core/metrics"
	"schedplay/core/sched"
)

// wrun is one finished run of a scenario.
type wrun struct {
	rep    metrics.Report
	rec    *metrics.Samples
	groups []string // task group of each task
}

// group returns the report's tasks of one task group.
func (r *wrun) group(g string) []metrics.Task {
	var out []metrics.Task
	for i, t := range r.rep.Tasks {
		if r.groups[i] == g {
			out = append(out, t)
		}
	}
	return out
}

// completion is when the last task exited, or fails the test if some task
// still runs.
func (r *wrun) completion(t *testing.T) sched.Time {
	t.Helper()
	if r.rec.Exits() != len(r.rep.Tasks) {
		t.Fatalf("%d of %d tasks exited", r.rec.Exits(), len(r.rep.Tasks))
	}
	return r.rec.LastExit()
}

// runDoc decodes in, applies sets and runs it to the end.
func runDoc(t *testing.T, in string, sets ...string) *wrun {
	t.Helper()
	sc, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	return runScenario(t, sc, sets...)
}

func runScenario(t *testing.T, sc *Scenario, sets ...string) *wrun {
	t.Helper()
	for _, kv := range sets {
		if err := sc.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	sim, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	col := metrics.New(sim.NumCPUs())
	rec := &metrics.Samples{}
	sim.Attach(col)
	sim.Attach(rec)
	if err := sim.Run(); err != nil {
		t.Fatal(err)
	}
	r := &wrun{rep: col.Build(sim, sc.Name), rec: rec}
	for i := range sim.NumTasks() {
		r.groups = append(r.groups, sim.TaskInfo(sched.TaskID(i)).Group)
	}
	return r
}

// eventHash hashes the event stream of a run of sc.
func eventHash(t *testing.T, sc *Scenario) string {
	t.Helper()
	cfg, err := sc.Build(sched.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	sim, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := &sched.Recorder{}
	sim.Attach(r)
	if err := sim.Run(); err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	for _, e := range r.Events {
		h.Write([]byte(e.Describe() + "\n"))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func ratio(a, b sched.Time) float64 { return float64(a) / float64(b) }

// TestSemaphoreCounts: two signals before a wait are two counts (a plain
// event resource keeps one flag); the initial count is taken first.
func TestSemaphoreCounts(t *testing.T) {
	in := doc(`"topology":"smp-2","duration":"20ms","semaphores":{"x":1},`,
		task("a", `"loop":1,"cpus":[0],`, `{"signal":"x"},{"signal":"x"},{"sleep":"5ms"},{"signal":"x"},{"run":"1ms"}`),
		task("b", `"loop":1,"cpus":[1],`, `{"sleep":"1ms"},{"wait":"x"},{"wait":"x"},{"wait":"x"},{"wait":"x"},{"run":"1ms"}`))
	evs, _ := ipcEvents(t, in)
	// Three counts at 1ms (the initial one and two signals): the fourth
	// wait blocks until a's signal at 5ms.
	if w := wakeTimes(evs, 1); len(w) != 1 || w[0] < 5*sched.Millisecond || w[0] > 5*sched.Millisecond+100*sched.Microsecond {
		t.Errorf("b woken by signal at %v, want once at about 5ms", w)
	}
	// Without the semaphore the flag absorbs a signal: b's third wait
	// takes a's 5ms signal and the fourth never returns.
	flag := strings.Replace(in, `"semaphores":{"x":1},`, "", 1)
	evs, _ = ipcEvents(t, flag)
	for _, e := range evs {
		if e.Kind == sched.EvExit && e.Prev == 1 {
			t.Errorf("flag: b exited at %s; its fourth wait should never return", e.Time)
		}
	}
}

func TestWorkloadDeterminism(t *testing.T) {
	for _, g := range goldenWorkloads {
		a, _ := Decode([]byte(g.doc))
		b, _ := Decode([]byte(g.doc))
		if renderExpansion(t, a) != renderExpansion(t, b) {
			t.Errorf("%s: two expansions differ", g.name)
		}
	}
	// kbuild: the seed shuffles the jobs, but the work is the same.
	kb := wdoc("smp-2", "1s", `{"kind":"kbuild","jobs":40,"j":2}`)
	s1, _ := Decode([]byte(kb))
	s2, _ := Decode([]byte(kb))
	s2.Seed = 2
	if renderExpansion(t, s1) == renderExpansion(t, s2) {
		t.Error("kbuild: seeds 1 and 2 give the same job order")
	}
	work := func(sc *Scenario) (n int, total Duration) {
		full, _ := sc.Expanded()
		// make forks a driver, the driver forks cc1, cc1's burst is
		// its second-last step.
		runs, child := map[string]Duration{}, map[string]string{}
		for _, task := range full.Tasks {
			if task.Parent != "" {
				runs[task.Name] = task.Program[len(task.Program)-2].Run
				if last := task.Program[len(task.Program)-1]; last.Kind == "fork" {
					child[task.Name] = last.Fork
				}
			}
		}
		for _, st := range full.Tasks[0].Program {
			if st.Kind == "fork" {
				n++
				total += runs[child[st.Fork]]
			}
		}
		return n, total
	}
	n1, w1 := work(s1)
	n2, w2 := work(s2)
	if n1 != 40 || n2 != 40 || w1 != w2 || w1 != 40*20*sched.Millisecond {
		t.Errorf("kbuild work: seed 1 %d jobs %s, seed 2 %d jobs %s; want 40 jobs of 800ms both", n1, w1, n2, w2)
	}
	// Same scenario, same event stream.
	sc := mustPreset(t, "demo/cyclictest-hackbench")
	sc.Duration = 10 * sched.Millisecond
	if a, b := eventHash(t, sc), eventHash(t, sc); a != b {
		t.Errorf("two runs of demo/cyclictest-hackbench: %s vs %s", a, b)
	}
}

// TestPipeGenerator: completion is linear in the loops (perf's usecs/op
// is a constant), and each task does 2 x cost per loop.
func TestPipeGenerator(t *testing.T) {
	in := wdoc("smp-2", "1s", `{"kind":"pipe","name":"pp","pin":"same"}`)
	a := runDoc(t, in, "workloads.pp.loops=1000")
	b := runDoc(t, in, "workloads.pp.loops=2000")
	ca, cb := a.completion(t), b.completion(t)
	if r := ratio(cb, ca); r < 1.9 || r > 2.1 {
		t.Errorf("completion %s for 1000 loops, %s for 2000: ratio %.2f, want 2", ca, cb, r)
	}
	// A round trip is at least the four 1us syscalls on one CPU.
	if perOp := ca / 1000; perOp < 4*sched.Microsecond || perOp > 20*sched.Microsecond {
		t.Errorf("usecs/op %s, want 4us..20us", perOp)
	}
	for _, g := range []string{"pp.sender", "pp.receiver"} {
		ts := a.group(g)
		if len(ts) != 1 || ts[0].UserNs != int64(2000*sched.Microsecond) {
			t.Errorf("%s: %+v, want one task with 2ms of user time", g, ts)
		}
	}
}

// TestHackbenchGenerator: every receiver reads loops x fds messages,
// and on a saturated machine completion grows with the groups.
func TestHackbenchGenerator(t *testing.T) {
	in := wdoc("smp-2", "10s", `{"kind":"hackbench","name":"hb","fds":4,"loops":50,"mode":"pipe"}`)
	var prev sched.Time
	for _, groups := range []string{"1", "2", "4"} {
		r := runDoc(t, in, "workloads.hb.groups="+groups)
		c := r.completion(t)
		n := 0
		for i, task := range r.rep.Tasks {
			if !strings.HasPrefix(r.groups[i], "hb.g0.") {
				continue
			}
			n++
			if task.UserNs != int64(50*4*sched.Microsecond) {
				t.Errorf("groups=%s: %s did %dns of work, want 200us (200 messages of 1us)", groups, task.Name, task.UserNs)
			}
		}
		if n != 8 {
			t.Errorf("groups=%s: group 0 has %d tasks, want 4 senders and 4 receivers", groups, n)
		}
		if len(r.group("hb.g0.rcv3")) != 1 {
			t.Errorf("groups=%s: no receiver task group hb.g0.rcv3", groups)
		}
		if prev > 0 {
			if q := ratio(c, prev); q < 1.6 || q > 2.4 {
				t.Errorf("groups=%s: completion %s, %.2f x the half as many groups' %s; want about 2", groups, c, q, prev)
			}
		}
		prev = c
	}
	// Writers block on a full buffer: with a tiny loop count nobody does,
	// with loops past the capacity the senders wait for room.
	r := runDoc(t, wdoc("smp-1", "10s", `{"kind":"hackbench","name":"hb","groups":1,"fds":2,"loops":1000,"mode":"pipe"}`))
	r.completion(t)
	var senderWakeups int64
	for _, task := range r.group("hb.g0.snd") {
		senderWakeups += task.Wakeups
	}
	if senderWakeups == 0 {
		t.Error("2 senders writing 1000 messages each into each 640-message pipe never waited for room")
	}
}

// TestSchbenchGenerator: workers are woken per request and their wakeup
// latency grows when there are more workers than CPUs.
func TestSchbenchGenerator(t *testing.T) {
	in := wdoc("smp-4", "500ms", `{"kind":"schbench","name":"sb","messages":2,"work":"500us"}`)
	p99 := func(workers string) (float64, int64) {
		r := runDoc(t, in, "workloads.sb.workers="+workers)
		var wakeups int64
		var lat []*metrics.Hist
		for i, task := range r.rep.Tasks {
			if strings.HasPrefix(r.groups[i], "sb.w") {
				wakeups += task.Wakeups
				lat = append(lat, r.rec.Latencies(sched.TaskID(i)))
			}
		}
		pool := metrics.Pool(lat...)
		return float64(pool.Quantile(99)), wakeups
	}
	few, wf := p99("1")
	many, wm := p99("16")
	if wf == 0 || wm == 0 {
		t.Fatalf("no worker wakeups (%d, %d)", wf, wm)
	}
	// 2 workers on 4 CPUs: about one request per 500us each.
	if wf < 1000 || wf > 2100 {
		t.Errorf("2 workers made %d requests in 500ms, want about 2000", wf)
	}
	if many <= few {
		t.Errorf("wakeup latency p99 %.0fns with 32 workers on 4 CPUs, %.0fns with 2; want higher", many, few)
	}
}

// TestCyclictestGenerator: one task group per thread, each woken once per
// interval (+ i x distance), reported per thread.
func TestCyclictestGenerator(t *testing.T) {
	r := runDoc(t, wdoc("smp-2", "100ms", `{"kind":"cyclictest","name":"ct","threads":3,"interval":"1ms","distance":"1ms"}`,
		`{"kind":"hog","name":"h","count":2}`))
	for i, want := range []int64{100, 50, 33} {
		ts := r.group(itoa("ct.t", i))
		if len(ts) != 1 {
			t.Fatalf("ct.t%d: %d tasks, want 1", i, len(ts))
		}
		if w := ts[0].Wakeups; w < want-1 || w > want {
			t.Errorf("ct.t%d woke %d times in 100ms, want about %d", i, w, want)
		}
		if ts[0].WakeupLatencyNs.Count != ts[0].Wakeups || ts[0].Policy != "SCHED_FIFO" || ts[0].RTPriority != 95 {
			t.Errorf("ct.t%d: %+v", i, ts[0])
		}
	}
	// Thread 2 is pinned to CPU 0 (2 mod 2): it shares it with thread 0.
	cfg, _ := mustDecode(t, wdoc("smp-2", "100ms", `{"kind":"cyclictest","name":"ct","threads":3}`)).Build(sched.DefaultLimits())
	if got := [][]int{cfg.Tasks[0].CPUs, cfg.Tasks[1].CPUs, cfg.Tasks[2].CPUs}; !reflect.DeepEqual(got, [][]int{{0}, {1}, {0}}) {
		t.Errorf("affinities %v, want [[0] [1] [0]]", got)
	}
}

// TestKbuildGenerator: completion is bounded below by the work over the
// CPUs; -j1 is serial, -jN on N CPUs is nearly N times faster.
func TestKbuildGenerator(t *testing.T) {
	in := wdoc("smp-4", "10s", `{"kind":"kbuild","name":"kb","jobs":64,"run":"10ms","io":"0s","spawn":"100us"}`)
	work := 64 * (10*sched.Millisecond + 100*sched.Microsecond)
	serial := runDoc(t, in, "workloads.kb.j=1").completion(t)
	par := runDoc(t, in, "workloads.kb.j=4").completion(t)
	if serial < work || serial > work*11/10 {
		t.Errorf("-j1: completion %s, want about the work, %s", serial, work)
	}
	if par < work/4 || ratio(serial, par) < 3 {
		t.Errorf("-j4 on 4 CPUs: completion %s (serial %s), want at least work/4 = %s and a speed-up of 3 or more", par, serial, work/4)
	}
	r := runDoc(t, in, "workloads.kb.j=4")
	var jobs int
	var total int64
	for i, task := range r.rep.Tasks {
		if strings.HasPrefix(r.groups[i], "kb.cc") {
			jobs++
			total += task.UserNs
		}
	}
	if jobs != 64 || total != int64(640*sched.Millisecond) {
		t.Errorf("%d jobs with %dns of work, want 64 jobs and 640ms", jobs, total)
	}
}

// TestMultimediaGenerator: the pipelines run at their rates: mp3's
// AudioOut every 30 ms, video's surfaceflinger every vsync (16.667 ms),
// its NPDecoder every second frame, woken by the renderer and again after
// its 680 us sleep.
func TestMultimediaGenerator(t *testing.T) {
	for _, c := range []struct {
		profile, group string
		want           int64 // wakeups in 1 s
	}{{"mp3", "mm.AudioOut", 33}, {"video", "mm.surfaceflinger", 60}, {"video", "mm.NPDecoder", 60}} {
		r := runDoc(t, wdoc("smp-2", "1s", `{"kind":"multimedia","name":"mm","profile":"`+c.profile+`"}`))
		ts := r.group(c.group)
		if len(ts) != 1 || ts[0].Wakeups < c.want-2 || ts[0].Wakeups > c.want+1 {
			t.Errorf("%s: %s woke %v times, want about %d", c.profile, c.group, ts, c.want)
		}
	}
	// scale multiplies the work.
	a := runDoc(t, wdoc("smp-2", "1s", `{"kind":"multimedia","name":"mm"}`)).group("mm.decoder")[0].UserNs
	b := runDoc(t, wdoc("smp-2", "1s", `{"kind":"multimedia","name":"mm","scale":200}`)).group("mm.decoder")[0].UserNs
	if q := float64(b) / float64(a); q < 1.9 || q > 2.1 {
		t.Errorf("scale=200: decoder work %d vs %d (x%.2f), want x2", b, a, q)
	}
}

// TestHogGenerator: hogs share a CPU by weight.
func TestHogGenerator(t *testing.T) {
	r := runDoc(t, wdoc("smp-1", "2s", `{"kind":"hog","name":"a","count":2}`, `{"kind":"hog","name":"b","nice":5}`))
	a, b := r.group("a"), r.group("b")
	if len(a) != 2 || len(b) != 1 {
		t.Fatalf("%d and %d hogs, want 2 and 1", len(a), len(b))
	}
	// Weights 1024, 1024 and 335: b gets 335/2383 = 14%.
	share := float64(b[0].RuntimeNs) / float64(a[0].RuntimeNs+a[1].RuntimeNs+b[0].RuntimeNs)
	if share < 0.12 || share > 0.16 {
		t.Errorf("nice-5 hog share %.3f, want about 0.14", share)
	}
}

func mustDecode(t *testing.T, in string) *Scenario {
	t.Helper()
	sc, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestIPIStormGenerator: the generator with the thread's module parameters
// (cpulist=8 offset=8) runs exactly the hand-written sender of
// seed/sm-idle-ipistorm, and every IPI completes: the sender exits after
// numipi round trips, having spun (sys time) for them.
func TestIPIStormGenerator(t *testing.T) {
	preset := mustPreset(t, "seed/sm-idle-ipistorm")
	preset.Experiment = nil
	preset.Tasks[0].Loop = 200
	preset.Duration = 50 * ms
	gen := preset.Clone()
	gen.Tasks = nil
	if err := gen.Set("workloads.ipistorm.kind=ipistorm"); err != nil {
		t.Fatal(err)
	}
	for _, kv := range []string{"workloads.ipistorm.numipi=200", "workloads.ipistorm.cpu=8", "workloads.ipistorm.offset=8"} {
		if err := gen.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	if a, b := eventHash(t, preset), eventHash(t, gen); a != b {
		t.Errorf("generated ipistorm differs from the hand-written sender: %s vs %s", b, a)
	}
	r := runScenario(t, gen)
	done := r.completion(t)
	snd := r.group("ipistorm")
	if len(snd) != 1 || snd[0].SysNs <= 0 || done <= 0 {
		t.Fatalf("sender %+v, completion %s", snd, done)
	}
}
