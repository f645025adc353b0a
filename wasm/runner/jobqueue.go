package runner

// jobQueue: planned experiment jobs (experiment.Plan) run one after the
// other in slices of simulated time, each with experiment.Execution, which
// gives the values of experiment.Execute whatever the slicing. ThreadRun
// and SweepRun are each a plan over one; between slices their caller posts
// progress and yields, which is when a cancel is seen.
//
// Progress is weighted by simulated CPU time (duration x CPUs), so a job
// with more CPUs or a longer duration counts for what it costs and the
// estimated time left is meaningful.

import (
	"fmt"

	"schedplay/core/experiment"
	"schedplay/core/sched"
	"schedplay/wasm/outline"
)

type jobQueue struct {
	name string
	plan *experiment.LazyPlan // jobs are built when they run (core/experiment/lazyplan.go)
	jobs []experiment.Job     // plan.Jobs
	// vals and where are by job index: each run's measured values and the
	// machine and kernel it ran ("topology X, kernel Y"); nil and "" until
	// measured (here, or handed over by setResult from another worker).
	vals   []experiment.Values
	where  []string
	nvals  int
	order  []int // the jobs this queue runs, in order: all, or one (only)
	next   int   // position in order of the job in progress
	weight []float64
	total  float64 // weight of order
	cur    *experiment.Execution
	doneW  float64 // weight of the finished jobs of order
	// label names job j for progress and errors (configuration and seed).
	label func(j experiment.Job) string
	// domains keeps the jobs' sched domain trees (sched.DomainCache):
	// the queue's own, or its worker's across batches (Service.job).
	domains *sched.DomainCache
}

func newJobQueue(name string, plan *experiment.LazyPlan, label func(experiment.Job) string) jobQueue {
	jobs := plan.Jobs
	q := jobQueue{name: name, plan: plan, jobs: jobs, label: label, domains: sched.NewDomainCache(),
		vals: make([]experiment.Values, len(jobs)), where: make([]string, len(jobs))}
	for i := range jobs {
		c := plan.Proto(i).Cfg // the job's machine and duration, before it is built
		q.weight = append(q.weight, jobWeight(c.Duration, c.Machine.NumCPUs()))
		q.order = append(q.order, i)
		q.total += q.weight[i]
	}
	return q
}

// jobWeight is a job's share of a batch's work: simulated CPU time (the
// page's outline of a plan weighs it the same way).
func jobWeight(d sched.Time, cpus int) float64 { return outline.JobWeight(d, cpus) }

// only makes the queue run job i alone (a pool worker's job), from its
// start.
func (q *jobQueue) only(i int) {
	q.order, q.next, q.cur, q.doneW, q.total = []int{i}, 0, nil, 0, q.weight[i]
}

// setResult records job i's values as measured elsewhere (another worker
// of the page's pool).
func (q *jobQueue) setResult(i int, v experiment.Values, where string) {
	if q.vals[i] == nil {
		q.nvals++
	}
	q.vals[i], q.where[i] = v, where
}

// complete reports whether every job of the plan has its values.
func (q *jobQueue) complete() bool { return q.nvals == len(q.jobs) }

// Jobs is the number of runs this queue runs.
func (q *jobQueue) Jobs() int { return len(q.order) }

// Finished is the number of runs done.
func (q *jobQueue) Finished() int { return q.next }

// Done reports whether every run has finished.
func (q *jobQueue) Done() bool { return q.next == len(q.order) }

// Current names the run in progress (the last one when all are done).
func (q *jobQueue) Current() string {
	return q.label(q.jobs[q.order[min(q.next, len(q.order)-1)]])
}

// Fraction is the share of the work done, weighted by simulated CPU time.
func (q *jobQueue) Fraction() float64 {
	if q.total == 0 {
		return 1
	}
	w := q.doneW
	if q.cur != nil {
		if now, end := q.cur.Progress(); end > 0 {
			w += q.weight[q.order[q.next]] * float64(now) / float64(end)
		}
	}
	return min(1, w/q.total)
}

// Advance runs slices of dt simulated time until stop reports true (asked
// after every slice) or every run is done; it reports done.
func (q *jobQueue) Advance(dt sched.Time, stop func() bool) (bool, error) {
	for !q.Done() {
		i := q.order[q.next]
		if q.cur == nil {
			j, err := q.plan.Build(i)
			if err != nil {
				return false, q.jobErr(err)
			}
			x, err := experiment.StartCached(j, q.domains)
			if err != nil {
				return false, q.jobErr(err)
			}
			q.cur = x
		}
		if q.cur.Advance(dt) {
			r, err := q.cur.Finish()
			if err != nil {
				return false, q.jobErr(err)
			}
			q.setResult(i, experiment.Measure(r), fmt.Sprintf("topology %s, kernel %s", r.Report.Topology, r.Report.Kernel))
			q.doneW += q.weight[i]
			q.next++
			q.cur = nil
			q.plan.Release(i) // its simulation is garbage now; its configuration too
		}
		if stop != nil && stop() {
			break
		}
	}
	return q.Done(), nil
}

func (q *jobQueue) jobErr(err error) error {
	return fmt.Errorf("%s: %s: %v", q.name, q.Current(), err)
}

// notDone is the error of a result asked for too early.
func (q *jobQueue) notDone() error {
	return fmt.Errorf("%d of %d runs done", q.nvals, len(q.jobs))
}
