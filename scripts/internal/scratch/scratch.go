// Package scratch names the kernel objects a measurement harness creates
// for the length of one run (a cgroup scratch parent, a tracefs instance)
// so that two runs at once do not share them, and removes those that dead
// runs left behind. It is shared by scripts/realkernel and
// scripts/replaytrace.
//
// A run's name is BASE-NS-PID: the harness's process ID and the inode of
// its PID namespace (/proc/self/ns/pid), since engineers in different
// containers share one tracefs and one cgroup hierarchy but not their PID
// numbers. A name is stale when its namespace is this process's and no
// process has its PID; a name from another namespace, or the bare BASE an
// older harness used, cannot be judged from here and is left alone.
package scratch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

// Run is the identity of one harness process.
type Run struct {
	NS  uint64 // inode of the PID namespace (0 when unknown)
	PID int
}

// Self is the calling process's Run.
func Self() Run {
	return Run{NS: pidNamespace(), PID: os.Getpid()}
}

// pidNamespace reads the inode of /proc/self/ns/pid ("pid:[4026531836]").
func pidNamespace() uint64 {
	l, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return 0
	}
	l = strings.TrimSuffix(strings.TrimPrefix(l, "pid:["), "]")
	n, err := strconv.ParseUint(l, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// Name is the run's name for base: BASE-NS-PID.
func (r Run) Name(base string) string {
	return fmt.Sprintf("%s-%d-%d", base, r.NS, r.PID)
}

// parse returns the Run a name of base's form stands for, and whether it
// has that form.
func parse(base, name string) (Run, bool) {
	rest, ok := strings.CutPrefix(name, base+"-")
	if !ok {
		return Run{}, false
	}
	ns, pid, ok := strings.Cut(rest, "-")
	if !ok {
		return Run{}, false
	}
	n, err1 := strconv.ParseUint(ns, 10, 64)
	p, err2 := strconv.Atoi(pid)
	if err1 != nil || err2 != nil || p <= 0 || strconv.Itoa(p) != pid || strconv.FormatUint(n, 10) != ns {
		return Run{}, false
	}
	return Run{NS: n, PID: p}, true
}

// Stale returns, sorted, the names among entries that runs of base in
// self's PID namespace left behind: their PID is not self's and alive
// says no process has it.
func Stale(base string, entries []string, self Run, alive func(pid int) bool) []string {
	var out []string
	for _, e := range entries {
		r, ok := parse(base, e)
		if ok && r.NS == self.NS && r.PID != self.PID && !alive(r.PID) {
			out = append(out, e)
		}
	}
	sort.Strings(out)
	return out
}

// Alive says whether a process with this PID exists (signal 0: no error,
// or EPERM for another user's process).
func Alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// Sweep removes with remove the stale entries of base under dir (a cgroup
// mount with [RemoveTree], a tracefs instances directory with os.Remove)
// and returns the paths it removed; one it cannot remove (a dead run's
// worker still in a group) is an error joined to the others', the rest are
// still tried. A missing dir holds nothing stale.
func Sweep(dir, base string, self Run, alive func(pid int) bool, remove func(string) error) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	var removed []string
	var errs []error
	for _, n := range Stale(base, names, self, alive) {
		p := filepath.Join(dir, n)
		if err := remove(p); err != nil {
			errs = append(errs, fmt.Errorf("remove %s, left by a dead run: %v", p, err))
			continue
		}
		removed = append(removed, p)
	}
	return removed, errors.Join(errs...)
}

// RemoveTree removes a cgroup dir and the groups below it, deepest first,
// with rmdir only: a cgroup's interface files go with its directory
// (os.RemoveAll would try to unlink them and fail). A tracefs instance is
// removed by one rmdir of its top directory instead.
func RemoveTree(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if e.IsDir() {
			if err := RemoveTree(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return os.Remove(dir)
}
