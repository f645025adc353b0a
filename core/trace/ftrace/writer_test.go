package ftrace

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/core/trace/tracetest"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the golden files under testdata/ (review the diff)")

// The regexps of ftrace text parsers (Perfetto's systrace line tokenizer and
// the kernel's TP_printk formats of include/trace/events/sched.h).
var (
	lineRE    = regexp.MustCompile(`^\s*(.+)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+(\d+\.\d+): (\w+): (.*)$`)
	switchRE  = regexp.MustCompile(`^prev_comm=(.+) prev_pid=(\d+) prev_prio=(-?\d+) prev_state=(\S+) ==> next_comm=(.+) next_pid=(\d+) next_prio=(-?\d+)(?: (.*))?$`)
	wakeupRE  = regexp.MustCompile(`^comm=(.+) pid=(\d+) prio=(-?\d+) target_cpu=(\d+)(?: (.*))?$`)
	idleRE    = regexp.MustCompile(`^state=(\d+) cpu_id=(\d+)$`)
	forkRE    = regexp.MustCompile(`^comm=(.+) pid=(\d+) child_comm=(.+) child_pid=(\d+)$`)
	exitRE    = regexp.MustCompile(`^comm=(.+) pid=(\d+) prio=(-?\d+)$`)
	migrateRE = regexp.MustCompile(`^comm=(.+) pid=(\d+) prio=(-?\d+) orig_cpu=(\d+) dest_cpu=(\d+)(?: (.*))?$`)
	piRE      = regexp.MustCompile(`^comm=(.+) pid=(\d+) oldprio=(-?\d+) newprio=(-?\d+)$`)
	reschRE   = regexp.MustCompile(`^cpu=(\d+) reason=(\w+)(?: by=(.+)-(\d+))?$`)
)

// kernelHeader is what `cat /sys/kernel/tracing/trace` printed on a 2-CPU
// v6.x machine with the nop tracer and an empty buffer.
const kernelHeader = `# tracer: nop
#
# entries-in-buffer/entries-written: 0/0   #P:2
#
#                                _-----=> irqs-off/BH-disabled
#                               / _----=> need-resched
#                              | / _---=> hardirq/softirq
#                              || / _--=> preempt-depth
#                              ||| / _-=> migrate-disable
#                              |||| /     delay
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
`

// systraceRE is the unanchored line matcher of Perfetto's systrace importer
// (src/trace_processor/importers/systrace/systrace_line_tokenizer.cc): the
// task is whatever precedes the first match, trimmed.
var systraceRE = regexp.MustCompile(`-(\d+)\s+\(?\s*(\d+|-+)?\)?\s?\[(\d+)\]\s*([a-zA-Z.]{3}[0-9a-f.]{1,2}\s*)?(\d+\.\d+):\s+(\S+):`)

type systraceFields struct{ task, pid, cpu, ts, event string }

func systraceLine(line string) *systraceFields {
	m := systraceRE.FindStringSubmatchIndex(line)
	if m == nil {
		return nil
	}
	sub := func(i int) string { return line[m[2*i]:m[2*i+1]] }
	return &systraceFields{strings.TrimSpace(line[:m[0]]), sub(1), sub(3), sub(5), sub(6)}
}

func wakingPID(fields string) string {
	if f := wakeupRE.FindStringSubmatch(fields); f != nil {
		return f[2]
	}
	return ""
}

// traceRun runs tasks on machine for dur and returns the ftrace text.
func traceRun(t *testing.T, machine string, dur sched.Time, tasks []sched.TaskSpec, opts Options) string {
	t.Helper()
	s := tracetest.NewRun(t, machine, dur, tasks)
	var buf bytes.Buffer
	w := NewWriterOptions(&buf, s.TaskInfo, s.NumCPUs(), opts)
	s.Attach(w)
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// parseSeconds turns "S.UUUUUU" into microseconds.
func parseSeconds(t *testing.T, s string) int64 {
	t.Helper()
	sec, frac, _ := strings.Cut(s, ".")
	a, err1 := strconv.ParseInt(sec, 10, 64)
	b, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil || len(frac) != 6 {
		t.Fatalf("bad timestamp %q", s)
	}
	return a*1_000_000 + b
}

func TestTraceParses(t *testing.T) {
	out := traceRun(t, "smp-2", 50*sched.Millisecond, tracetest.MixedTasks(), Options{IncludeResched: true})
	if !strings.HasPrefix(out, kernelHeader) {
		t.Fatalf("output does not start with the nop tracer header:\n%.400s", out)
	}
	counts := checkTrace(t, out)
	if counts["sched_waking"] != counts["sched_wakeup"] {
		t.Errorf("%d sched_waking for %d sched_wakeup", counts["sched_waking"], counts["sched_wakeup"])
	}
	for _, k := range []string{"sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new", "cpu_idle", "sched_resched"} {
		if counts[k] == 0 {
			t.Errorf("no %s lines; counts %v", k, counts)
		}
	}
}

// checkTrace parses every line as ftrace tools do and checks the trace
// tells one consistent story: time never goes back, each CPU's switches
// chain (prev is the last next), each line's task column is the task
// running on its CPU, sched_wakeup follows its sched_waking (after the
// sched_migrate_task of a wakeup that moves the task), or for a wake-list
// wakeup comes later from the target's handler, in hardirq context. It
// returns the number of lines per event.
func checkTrace(t *testing.T, out string) map[string]int {
	t.Helper()
	type side struct{ comm, pid string }
	curr := map[string]side{} // per CPU, from the last switch
	counts := map[string]int{}
	last := int64(-1)
	waking := ""                // pid of the sched_waking just seen
	queued := map[string]bool{} // pids with a sched_waking and no sched_wakeup yet
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		m := lineRE.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("line %d does not parse: %q", i+1, line)
		}
		task, pid, cpu, flags, ts, name, fields := m[1], m[2], m[3], m[4], m[5], m[6], m[7]
		if len(flags) != 5 || len(cpu) != 3 {
			t.Errorf("line %d: flags %q cpu %q", i+1, flags, cpu)
		}
		us := parseSeconds(t, ts)
		if us < last {
			t.Fatalf("line %d: timestamp %s goes backwards", i+1, ts)
		}
		last = us
		counts[name]++
		switch name {
		case "sched_wakeup", "sched_migrate_task", "sched_resched":
			// try_to_wake_up() may migrate the task, and the enqueue's
			// update_curr() ask the target to reschedule, between the two.
		default:
			waking = ""
		}
		if name == "sched_waking" {
			waking = wakingPID(fields)
			queued[waking] = true
		}
		if p := systraceLine(line); p == nil || p.task != task || p.pid != pid || p.cpu != cpu || p.ts != ts || p.event != name {
			t.Errorf("line %d: Perfetto's tokenizer reads %+v", i+1, p)
		}
		running, ok := curr[cpu]
		if !ok {
			running = side{"<idle>", "0"}
		}
		switch name {
		case "sched_switch":
			f := switchRE.FindStringSubmatch(fields)
			if f == nil {
				t.Fatalf("line %d: sched_switch fields do not parse: %q", i+1, fields)
			}
			prev, next := side{f[1], f[2]}, side{f[5], f[6]}
			if prev.pid == "0" {
				prev.comm = "<idle>"
				if n, _ := strconv.Atoi(cpu); f[1] != "swapper/"+strconv.Itoa(n) {
					t.Errorf("line %d: idle is %q on cpu %s", i+1, f[1], cpu)
				}
			}
			if next.pid == "0" {
				next.comm = "<idle>"
			}
			if prev != running {
				t.Errorf("line %d: switch from %v, but %v was running on cpu %s", i+1, prev, running, cpu)
			}
			if (side{task, pid}) != prev {
				t.Errorf("line %d: task column %s-%s, prev %v", i+1, task, pid, prev)
			}
			if !strings.Contains(f[8], "reason=") || !strings.Contains(f[8], "pick=") {
				t.Errorf("line %d: no annotations: %q", i+1, f[8])
			}
			curr[cpu] = next
		case "sched_waking", "sched_wakeup", "sched_wakeup_new":
			f := wakeupRE.FindStringSubmatch(fields)
			if f == nil {
				t.Fatalf("line %d: %s fields do not parse: %q", i+1, name, fields)
			}
			if name == "sched_wakeup" && waking != f[2] && (!queued[f[2]] || flags[2] != 'h') {
				t.Errorf("line %d: sched_wakeup of pid %s neither right after its sched_waking nor a wake-list one (hardirq, after it)", i+1, f[2])
			}
			if name == "sched_wakeup" {
				delete(queued, f[2])
			}
			if !strings.HasPrefix(f[5], "reason=") {
				t.Errorf("line %d: no reason: %q", i+1, fields)
			}
			if (side{task, pid}) != running {
				t.Errorf("line %d: wakeup by %s-%s, but %v runs on cpu %s", i+1, task, pid, running, cpu)
			}
		case "cpu_idle":
			if idleRE.FindStringSubmatch(fields) == nil {
				t.Fatalf("line %d: cpu_idle fields do not parse: %q", i+1, fields)
			}
			if running.pid != "0" {
				t.Errorf("line %d: cpu_idle while %v runs", i+1, running)
			}
		case "sched_resched":
			if reschRE.FindStringSubmatch(fields) == nil {
				t.Fatalf("line %d: sched_resched fields do not parse: %q", i+1, fields)
			}
		case "sched_process_fork":
			f := forkRE.FindStringSubmatch(fields)
			if f == nil || (side{f[1], f[2]}) != running || (side{task, pid}) != running {
				t.Errorf("line %d: fork not by the running task %v: %q", i+1, running, line)
			}
		case "sched_process_exit":
			f := exitRE.FindStringSubmatch(fields)
			if f == nil || (side{f[1], f[2]}) != running || (side{task, pid}) != running {
				t.Errorf("line %d: exit not by the running task %v: %q", i+1, running, line)
			}
		case "sched_pi_setprio":
			if f := piRE.FindStringSubmatch(fields); f == nil || f[3] == f[4] && f[3] != "-1" {
				t.Fatalf("line %d: sched_pi_setprio fields do not parse or change nothing: %q", i+1, fields)
			}
		case "sched_migrate_task":
			if migrateRE.FindStringSubmatch(fields) == nil {
				t.Fatalf("line %d: sched_migrate_task fields do not parse: %q", i+1, fields)
			}
		default:
			t.Errorf("line %d: unexpected event %s", i+1, name)
		}
	}
	return counts
}

// TestPresets runs every built-in scenario through the writer.
func TestPresets(t *testing.T) {
	for _, p := range scenario.Presets() {
		t.Run(p.Name, func(t *testing.T) {
			s := tracetest.PresetRun(t, p.Name)
			var buf bytes.Buffer
			w := NewWriterOptions(&buf, s.TaskInfo, s.NumCPUs(), Options{IncludeResched: true})
			s.Attach(w)
			if err := s.Run(); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if counts := checkTrace(t, buf.String()); counts["sched_switch"] == 0 {
				t.Errorf("no switches: %v", counts)
			}
		})
	}
}

func TestForkExitLines(t *testing.T) {
	out := traceRun(t, "smp-2", 8*sched.Millisecond, tracetest.ForkTasks(), Options{})
	var fork, exit int
	for _, line := range strings.Split(out, "\n") {
		m := lineRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		switch m[6] {
		case "sched_process_fork":
			f := forkRE.FindStringSubmatch(m[7])
			if f == nil || f[1] != "parent-3" || f[3] != "child-4" || m[1] != "parent-3" {
				t.Errorf("fork line %q", line)
			}
			fork++
		case "sched_process_exit":
			f := exitRE.FindStringSubmatch(m[7])
			if f == nil || f[1] != m[1] || f[2] != m[2] {
				t.Errorf("exit line not by the exiting task: %q", line)
			}
			exit++
		case "sched_resched":
			t.Errorf("resched line without IncludeResched: %q", line)
		}
	}
	if fork != 1 || exit != 2 {
		t.Errorf("%d fork and %d exit lines, want 1 and 2", fork, exit)
	}
}

// TestGolden pins the exact text of a tiny run: review changes as a diff
// and regenerate with go test -run Golden -rewrite.
func TestGolden(t *testing.T) {
	out := traceRun(t, "smp-2", 8*sched.Millisecond, tracetest.ForkTasks(), Options{})
	path := filepath.Join("testdata", "fork.txt")
	if *rewrite {
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -rewrite to create it)", err)
	}
	if out != string(want) {
		t.Errorf("output differs from %s (rerun with -rewrite and review the diff):\n%s", path, out)
	}
}

// TestContextReference checks the hand-rolled columns against fmt with the
// kernel's own format strings.
func TestContextReference(t *testing.T) {
	names := []string{"a", "periodic-2", "exactly16chars__", "much-longer-than-sixteen"}
	pids := []int{0, 7, 1000, 39771, 4194304}
	times := []sched.Time{0, 499, 500, 1_500_000_999, 42478_177771_000, 123456_999_999_500}
	w := NewWriter(&bytes.Buffer{}, nil, 1)
	for _, name := range names {
		for _, pid := range pids {
			for _, ts := range times {
				w.info = func(sched.TaskID) sched.TaskInfo { return sched.TaskInfo{Name: name, PID: pid} }
				w.curr[0] = 0
				got := string(w.context(nil, 0, ts, flagsSched, "ev"))
				us := (int64(ts) + 500) / 1000
				want := fmt.Sprintf("%16s-%-7d [%03d] %s %5d.%06d: ev: ", name, pid, 0, flagsSched, us/1e6, us%1e6)
				if got != want {
					t.Errorf("context(%q, %d, %d):\n got %q\nwant %q", name, pid, ts, got, want)
				}
			}
		}
	}
	for _, v := range []int64{0, 5, 12, 123, 1234, 1234567} {
		for _, c := range []struct {
			width int
			pad   byte
			f     string
		}{{3, '0', "%03d"}, {5, ' ', "%5d"}, {-7, ' ', "%-7d"}, {6, '0', "%06d"}} {
			if got, want := string(appendPad([]byte("x"), v, c.width, c.pad)), "x"+fmt.Sprintf(c.f, v); got != want {
				t.Errorf("appendPad(%d, %s) = %q, want %q", v, c.f, got, want)
			}
		}
	}
}

func TestControlCharactersInName(t *testing.T) {
	tasks := tracetest.MixedTasks()
	tasks[1].Name = "evil\nname\r\t\x7f"
	out := traceRun(t, "smp-2", 20*sched.Millisecond, tasks, Options{})
	if !strings.Contains(out, "comm=evil?name???-2 ") {
		t.Errorf("name not sanitized:\n%s", out)
	}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !strings.HasPrefix(line, "#") && lineRE.FindStringSubmatch(line) == nil {
			t.Errorf("line does not parse: %q", line)
		}
	}
}

type failWriter struct{ n int }

var errDiskFull = errors.New("disk full")

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n += len(p); f.n > 1000 {
		return 0, errDiskFull
	}
	return len(p), nil
}

func TestCloseReportsWriteError(t *testing.T) {
	s := tracetest.NewRun(t, "smp-2", 200*sched.Millisecond, tracetest.MixedTasks())
	w := NewWriter(&failWriter{}, s.TaskInfo, s.NumCPUs())
	s.Attach(w)
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); !errors.Is(err, errDiskFull) {
		t.Errorf("Close = %v, want %v", err, errDiskFull)
	}
	if err := w.Close(); !errors.Is(err, errDiskFull) {
		t.Errorf("second Close = %v, want %v", err, errDiskFull)
	}
}

// recorder keeps a copy of every event.
type recorder struct{ evs []sched.Event }

func (r *recorder) Event(e *sched.Event) { r.evs = append(r.evs, *e) }

// recordRun returns the events and task info of a run.
func recordRun(t testing.TB, dur sched.Time) ([]sched.Event, *sched.Sim) {
	s := tracetest.NewRun(t, "smp-2", dur, tracetest.MixedTasks())
	var r recorder
	s.Attach(&r)
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	return r.evs, s
}

func TestNoAllocsPerEvent(t *testing.T) {
	evs, s := recordRun(t, 100*sched.Millisecond)
	var buf bytes.Buffer
	buf.Grow(1 << 20)
	w := NewWriterOptions(&buf, s.TaskInfo, s.NumCPUs(), Options{IncludeResched: true})
	feed := func() {
		buf.Reset()
		for i := range evs {
			w.Event(&evs[i])
		}
	}
	feed()
	if n := testing.AllocsPerRun(10, feed); n != 0 {
		t.Errorf("%.1f allocations per run of %d events, want 0", n, len(evs))
	}
}
