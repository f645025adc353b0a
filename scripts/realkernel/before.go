//go:build linux

package main

// The "before" column of the mixed cases: the same scenario files run by
// the simulator as it was before issue 18's migration and placement fixes.
//
// Those fixes are kernel rules (core/sched/rules.go: execStartResetOnEnqueue,
// lbDelayedLoadOnly, lbIneligibleSoftLimit, forkRecentUsedCPU,
// migratePeltLag, ...) filled in from the profile's version, not switches a
// scenario can reach; only util_est is a feature (UTIL_EST). So the before
// column is built from an older commit: defaultBeforeRev is main just before
// the first of them was merged (the merge of h-fid, d69551e, brought
// 6c076a3). The tree of that commit is extracted with git archive into a
// temporary directory (no worktree, nothing in .git changes) and its CLI
// runs the case files of this tree. Everything merged into main since that
// commit differs too, not only issue 18's fixes; docs/real-kernel-notes.md
// says what lies between.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// defaultBeforeRev is main before issue 18's fixes (see the top of the file).
const defaultBeforeRev = "8918043"

// beforeTree is an extracted old source tree.
type beforeTree struct {
	Rev string // the short commit id
	Dir string // where it was extracted
}

// extractBefore resolves rev in the repository at root and extracts its
// tree into a new temporary directory; remove it with os.RemoveAll(Dir).
func extractBefore(root, rev string) (beforeTree, error) {
	out, err := exec.Command("git", "-C", root, "rev-parse", "--short=12", "--verify", rev+"^{commit}").Output()
	if err != nil {
		return beforeTree{}, fmt.Errorf("-before %s: not a commit of %s: %v", rev, root, err)
	}
	t := beforeTree{Rev: strings.TrimSpace(string(out))}
	if t.Dir, err = os.MkdirTemp("", "realkernel-before-"); err != nil {
		return t, err
	}
	cmd := fmt.Sprintf("git -C %q archive %s | tar -x -C %q", root, t.Rev, t.Dir)
	if out, err := exec.Command("sh", "-c", cmd).CombinedOutput(); err != nil {
		os.RemoveAll(t.Dir)
		return t, fmt.Errorf("-before %s: %s: %v\n%s", rev, cmd, err, out)
	}
	return t, nil
}

// addBefore fills in the before column of a mixed case whose scenario file
// addSim has written. Failures go into the report, as for the sim column.
func addBefore(ctx context.Context, root string, bt beforeTree, cr *caseResult) {
	cr.BeforeRev = bt.Rev
	fmt.Fprintf(os.Stderr, "simulating %s with %s\n", cr.ID, bt.Rev)
	file, err := beforeCaseFile(filepath.Join(root, cr.CaseFile), bt.Dir)
	if err != nil {
		cr.BeforeError = err.Error()
		return
	}
	_, seeds, err := runSim(ctx, bt.Dir, file)
	if err != nil {
		cr.BeforeError = err.Error()
		return
	}
	for i := range cr.Tasks {
		for _, m := range seeds {
			t, ok := m.task(cr.Tasks[i].Name)
			if !ok {
				cr.BeforeError = "before: simulator metrics have no task " + cr.Tasks[i].Name
				for j := range cr.Tasks {
					cr.Tasks[j].BeforeSeeds = nil
				}
				return
			}
			cr.Tasks[i].BeforeSeeds = append(cr.Tasks[i].BeforeSeeds, t)
		}
	}
}

// beforeCaseFile writes a copy of the case file into the before tree
// without the tasks' cpu_clock_poll, a key that tree does not know (it
// came later, with the clock reads of clock_poll.go): the old simulator
// never modelled the reads, so the copy is what it ran. The copy also runs
// on smp-2, the machine that tree had for these cases (vm-2vcpu came
// later, cases.go simTopology).
func beforeCaseFile(caseFile, dir string) (string, error) {
	data, err := os.ReadFile(caseFile)
	if err != nil {
		return "", err
	}
	var sc scenario
	if err := json.Unmarshal(data, &sc); err != nil {
		return "", fmt.Errorf("%s: %v", caseFile, err)
	}
	for i := range sc.Tasks {
		sc.Tasks[i].CPUClockPoll = ""
	}
	sc.Topology = "smp-2" // the old tree has no vm-2vcpu; smp-2 is what it ran
	out, err := json.MarshalIndent(sc, "", "  ")
	if err != nil {
		return "", err
	}
	file := filepath.Join(dir, "before-"+filepath.Base(caseFile))
	return file, os.WriteFile(file, append(out, '\n'), 0o644)
}
