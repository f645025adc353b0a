package perfetto

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"schedplay/core/scenario"
	"schedplay/core/sched"
	"schedplay/core/trace/tracetest"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the golden files under testdata/ (review the diff)")

// traceEvent is the part of a trace event the tests read.
type traceEvent struct {
	Name string                     `json:"name"`
	Cat  string                     `json:"cat"`
	Ph   string                     `json:"ph"`
	S    string                     `json:"s"`
	PID  *int                       `json:"pid"`
	TID  *int                       `json:"tid"`
	TS   json.Number                `json:"ts"`
	Dur  json.Number                `json:"dur"`
	Args map[string]json.RawMessage `json:"args"`
}

type document struct {
	TraceEvents     []traceEvent   `json:"traceEvents"`
	DisplayTimeUnit string         `json:"displayTimeUnit"`
	Metadata        map[string]any `json:"metadata"`
}

// decode parses the output strictly: one JSON value, nothing after it.
func decode(t *testing.T, out []byte) document {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	var doc document
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("output is not valid JSON: %v\n%.2000s", err, out)
	}
	if dec.More() {
		t.Fatalf("trailing data after the JSON document")
	}
	if !json.Valid(out) {
		t.Fatalf("json.Valid rejects the output")
	}
	return doc
}

// micros parses a "123.456" microsecond number back to exact nanoseconds.
func micros(t *testing.T, n json.Number) sched.Time {
	t.Helper()
	whole, frac, _ := strings.Cut(string(n), ".")
	a, err1 := strconv.ParseInt(whole, 10, 64)
	b, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil || len(frac) != 3 {
		t.Fatalf("bad microsecond value %q", n)
	}
	return sched.Time(a*1000 + b)
}

// traceRun runs tasks and returns the JSON and the reference busy time.
func traceRun(t *testing.T, dur sched.Time, tasks []sched.TaskSpec) ([]byte, []sched.Time) {
	t.Helper()
	s := tracetest.NewRun(t, "smp-2", dur, tasks)
	ref := newBusyMeter(s.NumCPUs())
	buf := written(t, s, ref)
	return buf.Bytes(), ref.busy
}

func TestSlicesMatchSwitches(t *testing.T) {
	out, busy := traceRun(t, 50*sched.Millisecond, tracetest.MixedTasks())
	checkDocument(t, out, busy)
	// CPU 0 runs two hogs the whole run: fully busy.
	if busy[0] != 50*sched.Millisecond {
		t.Errorf("cpu 0 busy %d, want the whole run", busy[0])
	}
}

// TestPresets runs every built-in scenario through the writer.
func TestPresets(t *testing.T) {
	for _, p := range scenario.Presets() {
		t.Run(p.Name, func(t *testing.T) {
			s := tracetest.PresetRun(t, p.Name)
			ref := newBusyMeter(s.NumCPUs())
			buf := written(t, s, ref)
			checkDocument(t, buf.Bytes(), ref.busy)
		})
	}
}

// checkDocument decodes the trace and checks it against the busy time per
// CPU that the switch events give: the slices of each CPU track sum to it
// and never overlap; every slice and instant carries its args.
func checkDocument(t *testing.T, out []byte, busy []sched.Time) {
	t.Helper()
	doc := decode(t, out)
	if doc.DisplayTimeUnit != "ns" || doc.Metadata["generator"] != "schedplay" {
		t.Errorf("displayTimeUnit %q, metadata %v", doc.DisplayTimeUnit, doc.Metadata)
	}
	type span struct{ ts, end sched.Time }
	ncpu := len(busy)
	spans := make([][]span, ncpu)
	sum := make([]sched.Time, ncpu)
	threadNames := map[int]string{}
	wakeups := 0
	for _, e := range doc.TraceEvents {
		if e.PID == nil || *e.PID != cpusPID {
			t.Fatalf("event outside the CPUs process: %+v", e)
		}
		if e.Ph != "M" && (e.TID == nil || *e.TID < 0 || *e.TID >= ncpu) {
			t.Fatalf("event off the CPU tracks: %+v", e)
		}
		switch e.Ph {
		case "M":
			if e.Name == "thread_name" {
				var name string
				json.Unmarshal(e.Args["name"], &name)
				threadNames[*e.TID] = name
			}
		case "X":
			ts, dur := micros(t, e.TS), micros(t, e.Dur)
			if dur < 0 {
				t.Errorf("negative duration: %+v", e)
			}
			for _, k := range []string{"pid", "reason_in", "pick", "reason_out"} {
				if e.Args[k] == nil {
					t.Errorf("slice without %s: %+v", k, e)
				}
			}
			spans[*e.TID] = append(spans[*e.TID], span{ts, ts + dur})
			sum[*e.TID] += dur
		case "i":
			if e.S != "t" || e.Args["reason"] == nil || e.Args["comm"] == nil {
				t.Errorf("bad instant event: %+v", e)
			}
			wakeups++
		default:
			t.Errorf("unexpected phase: %+v", e)
		}
	}
	if wakeups == 0 {
		t.Error("no wakeup instants")
	}
	for c := range ncpu {
		if want := "CPU " + strconv.Itoa(c); threadNames[c] != want {
			t.Errorf("track %d is named %q, want %q", c, threadNames[c], want)
		}
		if sum[c] != busy[c] {
			t.Errorf("cpu %d: slices sum to %d ns, switches give %d ns busy", c, sum[c], busy[c])
		}
		s := spans[c]
		sort.Slice(s, func(i, j int) bool { return s[i].ts < s[j].ts })
		for i := 1; i < len(s); i++ {
			if s[i].ts < s[i-1].end {
				t.Errorf("cpu %d: slice at %d overlaps the one ending at %d", c, s[i].ts, s[i-1].end)
			}
		}
	}
}

// TestGolden pins the exact JSON of a tiny run: review changes as a diff
// and regenerate with go test -run Golden -rewrite.
func TestGolden(t *testing.T) {
	out, _ := traceRun(t, 8*sched.Millisecond, tracetest.ForkTasks())
	decode(t, out)
	path := filepath.Join("testdata", "fork.json")
	if *rewrite {
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -rewrite to create it)", err)
	}
	if !bytes.Equal(out, want) {
		t.Errorf("output differs from %s (rerun with -rewrite and review the diff):\n%s", path, out)
	}
}

// TestHostileNames runs tasks whose names try to break out of the JSON
// string or inject markup into a page that embeds the trace.
func TestHostileNames(t *testing.T) {
	evil := "q\"uote\\back\\slash\nnew\rline\t</script><script>alert(1)</script>&\u2028\x00\x1f\xff"
	tasks := tracetest.MixedTasks()
	tasks[0].Name = evil
	tasks[1].Name = `"}],"traceEvents":[{"x":"`
	out, _ := traceRun(t, 30*sched.Millisecond, tasks)
	for _, bad := range []string{"<script>", "</script>", "\n\"}]", "\u2028"} {
		if bytes.Contains(out, []byte(bad)) {
			t.Errorf("output contains %q unescaped", bad)
		}
	}
	doc := decode(t, out)
	names := map[string]bool{}
	for _, e := range doc.TraceEvents {
		if e.Ph == "X" {
			names[e.Name] = true
		}
	}
	want0 := strings.ToValidUTF8(evil, "\ufffd") + "-0"
	want2 := tasks[1].Name + "-2"
	if !names[want0] || !names[want2] {
		t.Errorf("decoded slice names %v, want %q and %q", names, want0, want2)
	}
}

// TestAppendStringMatchesEncodingJSON checks the hand-rolled escaper
// against encoding/json.Marshal, byte for byte.
func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	var all strings.Builder
	for c := 0; c < 0x80; c++ {
		all.WriteByte(byte(c))
	}
	for _, s := range []string{"", "plain", all.String(), "é日本\u2028\u2029x", "\xff\xfe", "a\xc3", "\xed\xa0\x80", "<>&'\""} {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	}
	for _, c := range []struct {
		t    sched.Time
		want string
	}{{0, "0.000"}, {1, "0.001"}, {999, "0.999"}, {1000, "1.000"}, {1234567, "1234.567"}, {-1500, "-1.500"}} {
		if got := string(appendMicros(nil, c.t)); got != c.want {
			t.Errorf("appendMicros(%d) = %s, want %s", c.t, got, c.want)
		}
	}
}

// TestCloseWithoutEnd stops a run half way: Close ends the open slices at
// the last event and still writes a whole document.
func TestCloseWithoutEnd(t *testing.T) {
	s := tracetest.NewRun(t, "smp-2", 50*sched.Millisecond, tracetest.MixedTasks())
	var buf bytes.Buffer
	w := NewWriter(&buf, s.TaskInfo, s.NumCPUs())
	s.Attach(w)
	s.RunUntil(10 * sched.Millisecond)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	doc := decode(t, buf.Bytes())
	open := 0
	for _, e := range doc.TraceEvents {
		if e.Ph == "X" && string(e.Args["reason_out"]) == `"end"` {
			open++
			if e.Args["prev_state"] != nil {
				t.Errorf("a slice still running has a prev_state: %+v", e)
			}
		}
	}
	if open == 0 {
		t.Error("no slice ended by Close")
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
	s := tracetest.NewRun(t, "smp-2", 50*sched.Millisecond, tracetest.MixedTasks())
	w := NewWriter(&failWriter{}, s.TaskInfo, s.NumCPUs())
	s.Attach(w)
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := w.Close(); !errors.Is(err, errDiskFull) {
			t.Errorf("Close = %v, want %v", err, errDiskFull)
		}
	}
}
