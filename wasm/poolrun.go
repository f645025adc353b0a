package main

// The page's worker pool (wasm/pool) wired to the browser: thread
// experiments and sweeps run job by job on pool.Pool's workers (slot 0 is
// the timeline's worker, enginelink.go; the others start when a batch
// needs them, or warm after a timeline run when the pool has more than
// one), each worker's messages tagged with its slot and generation so a
// replaced worker's last words are dropped. The size comes from
// navigator.hardwareConcurrency, leaving the page a core, unless the
// Workers setting (kept in localStorage beside the page's other state)
// says otherwise. Without Web Workers the page's own runner runs batches
// as before (one job at a time on the page: batch.go).
//
// A watchdog ticks once a second while a batch runs (pool.Check), and
// the pool's notes (a worker failed, its job is retried) go to the notice
// line. The progress line and the pool's probe are drawn at most every
// drawEveryMs however many messages arrive (throttle.go).

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"schedplay/core/scenario"
	"schedplay/wasm/bridge"
	"schedplay/wasm/outline"
	"schedplay/wasm/pool"
	"schedplay/wasm/protocol"
)

// poolKey is the localStorage entry of the Workers setting ("" or absent:
// automatic).
const poolKey = "schedplay.workers"

// autoPoolSize is the default pool: every logical CPU but one (the
// page's), at least one.
func autoPoolSize() int {
	return max(1, min(pool.MaxSize, bridge.HardwareConcurrency()-1))
}

// storedPoolSize is the Workers setting (0: automatic).
func storedPoolSize() int {
	s, ok, err := bridge.StorageGet(poolKey)
	if err != nil || !ok {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > pool.MaxSize {
		return 0
	}
	return n
}

// startPool makes the pool around the timeline's worker w.
func (a *App) startPool(l *engineLink, w *bridge.Worker) {
	a.Ctl.PoolSetting = storedPoolSize()
	size := a.Ctl.PoolSetting
	if size == 0 {
		size = autoPoolSize()
	}
	l.pool = pool.New(pool.Config{Now: bridge.Now, Spawn: func(i int) (pool.Worker, error) { return a.spawnWorker(l, i) }}, size)
	gen := l.pool.SetWorker(0, w)
	w.Expose("0")
	l.slot0Gen = gen
	a.publishPool()
}

// spawnWorker starts a worker for slot i of the pool; slot 0's becomes
// the timeline's worker too.
func (a *App) spawnWorker(l *engineLink, i int) (pool.Worker, error) {
	gen := l.pool.Gen(i) + 1 // the generation the pool gives it
	w, err := bridge.StartWorker(workerFile, func(m protocol.Msg) { l.onSlotMsg(i, gen, m) })
	if err != nil {
		return nil, err
	}
	w.Expose(strconv.Itoa(i))
	if i == 0 {
		l.w, l.slot0Gen = w, gen
	}
	return w, nil
}

// SetPoolSize applies the Workers setting ("" or "auto": automatic).
func (a *App) SetPoolSize(s string) {
	n := 0
	if s != "" && s != "auto" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 || v > pool.MaxSize {
			a.Notice = fmt.Sprintf("workers %q: want 1..%d or auto", s, pool.MaxSize)
			return
		}
		n = v
	}
	a.Ctl.PoolSetting = n
	if n == 0 {
		bridge.StorageRemove(poolKey)
	} else {
		bridge.StorageSet(poolKey, strconv.Itoa(n))
	}
	if p := a.Ctl.link.pool; p != nil {
		if n == 0 {
			n = autoPoolSize()
		}
		p.Resize(n)
		a.warmPool() // the new workers start now, not when the next batch is pressed
	}
	a.publishPool()
}

// warmPool starts the pool's workers and warms the idle ones on the
// current scenario's thread experiment, the batch a user who reads its
// timeline runs next (wasm/pool/warm.go); nothing while a batch runs.
func (a *App) warmPool() {
	p := a.Ctl.link.pool
	if p == nil || p.Active() != nil {
		return
	}
	p.Warm()
	if a.Sc == nil || a.Sc.Experiment == nil {
		return
	}
	sc, err := a.threadBase()
	if err != nil {
		return
	}
	p.WarmFor(protocol.BatchSpec{Kind: protocol.KindThread, Scenario: string(sc.Encode()), Runs: a.gal().Runs})
}

// poolSize is the number of workers batches run on (1 without a pool).
func (a *App) poolSize() int {
	if p := a.Ctl.link.pool; p != nil {
		return p.Size()
	}
	return 1
}

// usePool reports whether batches go to the pool (false: the page's
// runner, when there is no worker).
func (a *App) usePool() bool {
	return a.Ctl.link != nil && a.Ctl.link.pool != nil && a.Ctl.link.svc == nil
}

// cancelPool stops the pool's batch, if any (a run or an import
// supersedes it, as it supersedes a batch on the page's runner).
func (a *App) cancelPool() {
	if a.usePool() {
		a.Ctl.link.pool.Cancel()
		a.publishPool() // its slots are free now, whether or not a worker speaks again
	}
}

// poolStart starts batch b (request id b.ID) on the pool.
func (a *App) poolStart(b *batch, spec protocol.BatchSpec, o outline.Outline) error {
	p := a.Ctl.link.pool
	if err := p.Start(b.ID, spec, o); err != nil {
		return err
	}
	a.poolNotes()
	a.Ctl.poolDraw = throttle{every: drawEveryMs} // a stale trailing draw of the last batch does nothing
	a.Probe.poolMsgs, a.Probe.poolMsgMs = 0, 0
	a.publishPool()
	go a.watchdog(b.ID)
	return nil
}

// watchdog checks the pool once a second while batch id runs.
func (a *App) watchdog(id int) {
	for {
		time.Sleep(time.Second)
		a.env.Lock()
		p := a.Ctl.link.pool
		r := p.Active()
		if r == nil || r.ID != id {
			a.env.UnlockOnly()
			return
		}
		ev := p.Check()
		render := a.poolEvent(ev)
		if render {
			a.env.UnlockRender()
		} else {
			a.env.UnlockOnly()
		}
	}
}

// handlePool applies a message of pool slot q.slot and reports whether
// the page needs a render; handled false passes it on to handle.
func (a *App) handlePool(q *queued, m protocol.Message) (render, handled bool) {
	p := a.Ctl.link.pool
	switch m := m.(type) {
	case protocol.JobProgress, protocol.JobDone:
		return a.poolEvent(p.Handle(q.slot, q.gen, m)), true
	case protocol.Heap:
		if p.Handle(q.slot, q.gen, m).Recycle0 && !a.Ctl.Running && a.exportKind == "" {
			p.Recycle(0) // a fresh timeline worker, warm before the next Run
		}
		return false, true
	case protocol.Fatal:
		if q.slot == 0 && p.Active() == nil && a.Ctl.Running {
			return false, false // the timeline's worker: the page's fallback (workerFailed)
		}
		if q.slot == a.exportSlot && a.exportKind != "" && q.gen == p.Gen(q.slot) {
			a.exportKind = ""
			bridge.Publish("exporting", "")
			defer func() { a.Notice = "Export failed: the worker stopped (" + m.Error + "). " + a.Notice }()
		}
		return a.poolEvent(p.Failed(q.slot, q.gen, m.Error)) || true, true
	case protocol.ThreadDone, protocol.SweepDone:
		if p.Active() != nil {
			if !p.Handle(q.slot, q.gen, m).Forward {
				return false, true
			}
			a.calibrate()
			a.publishPool() // the batch's time accounting, for the budgets test
			// Its jobs' times, once per batch (publishPool runs up to four times a second).
			bridge.Publish("poolJobMs", floatsAny(p.LastJobMs()))
		}
		return false, false
	}
	if q.gen != p.Gen(q.slot) {
		return false, true // a replaced worker's
	}
	switch m.(type) {
	case protocol.ExportProgress, protocol.ExportFile, protocol.ExportError:
		return false, q.slot != a.exportSlot // only the export's worker
	}
	return false, q.slot != 0 // runs and imports are slot 0's
}

// spareSlot is the pool slot an export goes to: a started worker with no
// job beside slot 0, so the re-run does not share the timeline's worker.
func (a *App) spareSlot() int {
	if !a.usePool() {
		return 0
	}
	i, _ := a.Ctl.link.pool.Spare()
	return i
}

// postExport sends an export request to the export's worker.
func (a *App) postExport(m protocol.Message) error {
	if a.exportSlot > 0 && a.usePool() {
		if w := a.Ctl.link.pool.WorkerOf(a.exportSlot); w != nil {
			return w.Post(m)
		}
	}
	return a.Ctl.link.post(m)
}

// poolEvent applies what the pool reports: a failed batch at once;
// progress (a job's result or progress) into the DOM and the pool's probe
// at most every drawEveryMs (throttle.go), at once when a worker failed.
func (a *App) poolEvent(ev pool.Event) bool {
	notes := a.poolNotes()
	for _, b := range []*batch{&a.gal().batch, &a.sw().batch} {
		if a.active(b) && ev.Err != "" {
			b.finish(ev.Err)
			a.publishPool()
			return true
		}
	}
	switch {
	case notes:
		a.Ctl.poolDraw.now(bridge.Now(), a.drawPool)
	case ev.Progress:
		a.Ctl.poolDraw.ask(bridge.Now(), a.drawPool, a.drawPoolLater)
	}
	if p := a.Ctl.link.pool; !slices.Equal(p.Jobs(), a.Probe.poolJobs) || !slices.Equal(p.Spoke(), a.Probe.poolSpoke) {
		a.publishPool() // the slots' state at once (a few times per job, not per progress message)
	}
	return false
}

// drawPool writes the active batch's progress into the DOM and publishes
// the pool's probe.
func (a *App) drawPool() {
	for _, b := range []*batch{&a.gal().batch, &a.sw().batch} {
		if !a.active(b) {
			continue
		}
		b.Fraction, b.Finished, b.Total, b.Info = a.poolProgress()
		if b == &a.gal().batch {
			a.threadProgressDOM()
		} else {
			a.sweepProgressDOM()
		}
	}
	a.publishPool()
}

// drawPoolLater calls fire after wait ms with the page's lock held (the
// throttle's trailing draw).
func (a *App) drawPoolLater(wait float64, fire func(now float64)) {
	go func() {
		time.Sleep(time.Duration(wait * float64(time.Millisecond)))
		a.env.Lock()
		fire(bridge.Now())
		a.env.UnlockOnly()
	}()
}

func (a *App) poolProgress() (float64, int, int, string) {
	pr := a.Ctl.link.pool.Progress()
	return pr.Fraction, pr.Finished, pr.Total, pr.Current
}

// poolNotes shows the pool's reports of failed workers; false if there
// were none.
func (a *App) poolNotes() bool {
	n := a.Ctl.link.pool.TakeNotes()
	if len(n) == 0 {
		return false
	}
	a.Probe.poolNotes = append(a.Probe.poolNotes, n...)
	a.Notice = strings.Join(n, "; ") + "."
	bridge.SetText("notice", a.Notice)
	return true
}

// calibrate keeps the finished batch's speed for the next estimate of
// the same scenario (speed per unit of simulated CPU time differs from
// one workload to another by orders of magnitude).
func (a *App) calibrate() {
	if v := a.Ctl.link.pool.LastSpeed(); v > 0 {
		a.Ctl.msPerW, a.Ctl.msPerWFor = v, scName(a.Sc)
	}
}

// priorSpeed is the speed (ms of one worker per unit of weight) an
// estimate starts from: the last batch's if it ran this scenario, or the
// finished timeline run's (which also streamed its timeline: an
// overestimate); 0 if neither.
func (a *App) priorSpeed() float64 {
	if a.Ctl.msPerW > 0 && a.Ctl.msPerWFor == scName(a.Sc) {
		return a.Ctl.msPerW
	}
	r := a.Run
	if r == nil || !r.Done() || r.Err() != nil || a.Ctl.RunMs <= 0 {
		return 0
	}
	return a.Ctl.RunMs / (float64(r.Duration()) * float64(max(1, r.NumCPUs())))
}

// batchLeft is the estimated time left of batch b in ms (ok false: none).
func (a *App) batchLeft(b *batch) (float64, bool) {
	if a.usePool() {
		if r := a.Ctl.link.pool.Active(); r != nil && r.ID == b.ID {
			return a.Ctl.link.pool.Left(a.priorSpeed())
		}
		return 0, false
	}
	// The page's runner: the elapsed time scaled by the share done.
	el := bridge.Now() - b.start
	if b.Fraction > 0.02 && el > 500 {
		return el * (1 - b.Fraction) / b.Fraction, true
	}
	return 0, false
}

// outlineCache keeps the outline of the batch the panels estimate.
type outlineCache struct {
	key string
	o   outline.Outline
	err error
}

// outline is the outline of batch spec, sc being its scenario decoded
// (nil: decoded here, on a cache miss only: the panels ask on every page
// render). It is cached by the spec.
func (a *App) outline(sc *scenario.Scenario, spec protocol.BatchSpec) (outline.Outline, error) {
	c := &a.Ctl.outlines
	key := spec.Kind + "\x00" + strconv.Itoa(spec.Runs) + "\x00" + spec.Spec + "\x00" + spec.Scenario
	if c.key != key {
		c.key = key
		if sc == nil {
			sc, c.err = scenario.Decode([]byte(spec.Scenario))
		}
		if c.err == nil {
			c.o, c.err = outline.Batch(sc, spec)
		}
	}
	return c.o, c.err
}

// estimateText is what a batch will cost, shown before it starts: its
// runs and, once a speed is known, the wall time on this pool.
func (a *App) estimateText(o outline.Outline) string {
	n := len(o.Weights)
	s := fmt.Sprintf("%d runs", n)
	if n == 1 {
		s = "1 run"
	}
	workers := min(a.poolSize(), n)
	if ms := pool.Estimate(o, a.poolSize(), a.priorSpeed()); ms > 0 {
		s += fmt.Sprintf(" · about %s on %d worker%s", fmtSeconds(ms/1000), workers, plural(workers))
		if a.Ctl.msPerW == 0 || a.Ctl.msPerWFor != scName(a.Sc) {
			s += " (from the run above)"
		}
	}
	return s
}

// publishPool exposes the pool to the browser tests.
func (a *App) publishPool() {
	st := map[string]any{"size": a.poolSize(), "setting": a.Ctl.PoolSetting, "auto": autoPoolSize(),
		"notes": strings.Join(a.Probe.poolNotes, "\n"), "msgs": a.Probe.poolMsgs, "msgMs": a.Probe.poolMsgMs}
	if p := a.Ctl.link.pool; p != nil {
		a.Probe.poolJobs, a.Probe.poolSpoke = p.Jobs(), p.Spoke()
		var jobs []any
		for _, j := range p.Jobs() {
			jobs = append(jobs, j)
		}
		st["jobs"] = jobs
		var spoke []any
		for _, b := range p.Spoke() {
			spoke = append(spoke, b)
		}
		st["spoke"] = spoke
		if ls := p.LastStats(); ls.Jobs > 0 {
			st["stats"] = map[string]any{"workers": ls.Workers, "jobs": ls.Jobs, "wall": ls.WallMs, "work": ls.WorkMs,
				"plan": ls.PlanMs, "trip": ls.TripMs, "firstTrip": ls.FirstTripMs, "firstWait": ls.FirstWaitMs, "tail": ls.TailMs, "eval": ls.EvalMs, "other": ls.Other()}
		}
	}
	bridge.Publish("pool", st)
}

// floatsAny is v for bridge.Publish (its values go through js.ValueOf).
func floatsAny(v []float64) []any {
	out := make([]any, len(v))
	for i, x := range v {
		out[i] = x
	}
	return out
}

// poolOption is an entry of the Workers setting.
type poolOption struct {
	Value, Text string
	Selected    bool
}

// poolOptions lists the Workers setting's choices: automatic (with the
// size it gives here), then 1 to at least the CPUs this machine has.
func (a *App) poolOptions() []poolOption {
	out := []poolOption{{Value: "auto", Text: fmt.Sprintf("auto (%d)", autoPoolSize()), Selected: a.Ctl.PoolSetting == 0}}
	for n := 1; n <= max(4, min(pool.MaxSize, bridge.HardwareConcurrency())); n++ {
		out = append(out, poolOption{Value: strconv.Itoa(n), Text: strconv.Itoa(n), Selected: a.Ctl.PoolSetting == n})
	}
	return out
}
