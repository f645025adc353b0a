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
)

type jobQueue struct {
	name   string
	jobs   []experiment.Job
	vals   []experiment.Values
	weight []float64
	total  float64
	cur    *experiment.Execution
	doneW  float64 // weight of the finished jobs
	// label names job j for progress and errors (configuration and seed).
	label func(j experiment.Job) string
	// finished, if set, sees each run as it finishes (job index i).
	finished func(i int, r experiment.Run)
}

func newJobQueue(name string, jobs []experiment.Job, label func(experiment.Job) string) jobQueue {
	q := jobQueue{name: name, jobs: jobs, label: label}
	for _, j := range jobs {
		w := float64(j.Cfg.Duration) * float64(max(j.Cfg.Machine.NumCPUs(), 1))
		q.weight = append(q.weight, w)
		q.total += w
	}
	return q
}

// Jobs is the number of runs planned.
func (q *jobQueue) Jobs() int { return len(q.jobs) }

// Finished is the number of runs done.
func (q *jobQueue) Finished() int { return len(q.vals) }

// Done reports whether every run has finished.
func (q *jobQueue) Done() bool { return len(q.vals) == len(q.jobs) }

// Current names the run in progress (the last one when all are done).
func (q *jobQueue) Current() string {
	return q.label(q.jobs[min(len(q.vals), len(q.jobs)-1)])
}

// Fraction is the share of the work done, weighted by simulated CPU time.
func (q *jobQueue) Fraction() float64 {
	if q.total == 0 {
		return 1
	}
	w := q.doneW
	if q.cur != nil {
		if now, end := q.cur.Progress(); end > 0 {
			w += q.weight[len(q.vals)] * float64(now) / float64(end)
		}
	}
	return min(1, w/q.total)
}

// Advance runs slices of dt simulated time until stop reports true (asked
// after every slice) or every run is done; it reports done.
func (q *jobQueue) Advance(dt sched.Time, stop func() bool) (bool, error) {
	for !q.Done() {
		i := len(q.vals)
		if q.cur == nil {
			x, err := experiment.Start(q.jobs[i])
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
			q.vals = append(q.vals, experiment.Measure(r))
			if q.finished != nil {
				q.finished(i, r)
			}
			q.doneW += q.weight[i]
			q.cur = nil
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
	return fmt.Errorf("%d of %d runs done", len(q.vals), len(q.jobs))
}
