//go:build linux

package main

// -sample-debug DIR: samples of /sys/kernel/debug/sched/debug while a case
// runs (kernel/sched/debug.c sched_debug_show(): print_cpu() for each CPU,
// print_cfs_rq() for each leaf cfs_rq), kept for the group weights of
// docs/real-kernel-notes.md item 4 and fitted by -fit-debug (debugfit.go).
//
// The reader is a goroutine of the harness, whose threads are pinned to
// CPU 0 and, during a mixed case, SCHED_FIFO (fifoSelf), so a read is not
// delayed behind the case's tasks. One read prints every CPU, every leaf
// cfs_rq and the machine's task list (about 60 kB, 0.25 ms), so sampling
// every 10 ms takes a few per cent of CPU 0: say so beside any result.
//
// Kept of each read: the header's clocks (ktime, sched_clk, cpu_clk,
// jiffies), each CPU's summary (cpu#N block) and the blocks of the root
// cfs_rq and of the cfs_rqs under the harness's scratch cgroup; each sample
// starts with a "# sample N +SECONDS" line, the time since the workers'
// release. The file starts with a "# shares PATH N" line per group of the
// case (cgroupSet.shares), which the fit needs for tg->shares.

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"schedplay/scripts/internal/scratch"
)

const schedDebugFile = "/sys/kernel/debug/sched/debug"

// debugSampler is one running sampler.
type debugSampler struct {
	path string
	stop chan struct{}
	done chan error
}

// startDebugSampler starts reading schedDebugFile every interval into
// DIR/<id>.debug.txt, timed from t0; it fails at once when the file is absent
// or unreadable (debugfs not mounted, not root).
// cs (nil for a case without cgroups) gives the shares lines.
func startDebugSampler(dir, id string, every time.Duration, t0 time.Time, cs *cgroupSet) (*debugSampler, error) {
	if _, err := os.ReadFile(schedDebugFile); err != nil {
		return nil, fmt.Errorf("-sample-debug: %v (is debugfs mounted on /sys/kernel/debug, and are you root?)", err)
	}
	var head strings.Builder
	if cs != nil {
		sh, err := cs.shares()
		if err != nil {
			return nil, fmt.Errorf("-sample-debug: %v", err)
		}
		for _, l := range sh {
			head.WriteString("# shares " + l + "\n")
		}
	}
	s := &debugSampler{path: filepath.Join(dir, id+".debug.txt"), stop: make(chan struct{}), done: make(chan error, 1)}
	go s.loop(every, t0, head.String())
	return s, nil
}

// loop reads until stop. Each read reuses one buffer, so what grows is the
// kept text, about 10 kB a sample (measureCase turns the garbage collector
// off while the harness is SCHED_FIFO and sampling, see there).
func (s *debugSampler) loop(every time.Duration, t0 time.Time, head string) {
	var out bytes.Buffer
	out.WriteString(head)
	buf := make([]byte, 0, 256*1024)
	tick := time.NewTicker(every)
	defer tick.Stop()
	n, failed := 0, 0
	for {
		select {
		case <-s.stop:
			if n == 0 {
				s.done <- fmt.Errorf("-sample-debug: no sample read (%d reads failed)", failed)
				return
			}
			s.done <- writeAtomic(s.path, out.Bytes())
			return
		case <-tick.C:
		}
		at := time.Since(t0)
		var err error
		if buf, err = readAll(schedDebugFile, buf[:0]); err != nil {
			failed++
			continue
		}
		fmt.Fprintf(&out, "# sample %d +%.6f\n", n, at.Seconds())
		keepDebugLines(&out, buf, []byte("/"+scratch.Self().Name(scratchParent)), []byte("/"+scratchParent))
		n++
	}
}

// readAll appends the file's contents to buf (grown only when too small).
func readAll(path string, buf []byte) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		k, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// finish stops the sampler and writes the samples.
func (s *debugSampler) finish() error {
	close(s.stop)
	if err := <-s.done; err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "wrote", s.path)
	return nil
}

// keepDebugLines appends to out the lines of one sched/debug read that the
// fit needs: the header clocks, the cpu#N blocks, and the blocks of the root
// cfs_rq and of cfs_rqs whose group path is prefix or below it, with prefix
// written as canon (the run's scratch parent as every run's).
func keepDebugLines(out *bytes.Buffer, text, prefix, canon []byte) {
	keep := false
	for len(text) > 0 {
		line, rest, _ := bytes.Cut(text, []byte("\n"))
		text = rest
		switch {
		case len(line) == 0:
			keep = false
			continue
		case hasAnyPrefix(line, "ktime", "sched_clk", "cpu_clk", "jiffies"):
			out.Write(line)
			out.WriteByte('\n')
			continue
		case bytes.HasPrefix(line, []byte("cpu#")):
			keep = true
		case bytes.HasPrefix(line, []byte("cfs_rq[")):
			_, path, _ := bytes.Cut(line, []byte(":"))
			under := bytes.Equal(path, prefix) ||
				(bytes.HasPrefix(path, prefix) && len(path) > len(prefix) && path[len(prefix)] == '/')
			keep = string(path) == "/" || under
			if under {
				out.Write(line[:len(line)-len(path)])
				out.Write(canon)
				out.Write(path[len(prefix):])
				out.WriteByte('\n')
				continue
			}
		case line[0] != ' ':
			keep = false // rt_rq, dl_rq, runnable tasks, sysctl_sched
		}
		if keep {
			out.Write(line)
			out.WriteByte('\n')
		}
	}
}

func hasAnyPrefix(line []byte, prefixes ...string) bool {
	for _, p := range prefixes {
		if bytes.HasPrefix(line, []byte(p)) {
			return true
		}
	}
	return false
}
