package scenario

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"schedplay/core/sched"
)

const urlCorpus = "testdata/urls.txt"

// handWritten are scenarios, beyond the presets, whose share URLs are kept
// in the golden corpus. Append only.
var handWritten = []struct{ name, json string }{
	{"hand/minimal", `{"version":1,"tasks":[{"name":"a","program":[{"run":-1}]}]}`},
	{"hand/every-field", `{"version":1,"name":"hand/every-field","description":"Every key of the format: \"quotes\", ünïcode, \u2028.",
		"topology":"smp-4","kernel":{"version":"v6.12","hz":1000,"preempt":"full"},
		"features":{"PLACE_LAG":"off","RUN_TO_PARITY":false,"NEXT_BUDDY":"on"},
		"sysctl":{"sched_base_slice_ns":3000000,"sched_migration_cost_ns":0},
		"duration":"2.5s","seed":12345,
		"tasks":[{"name":"p","instances":2,"policy":"SCHED_BATCH","nice":-5,"cpus":[0,1],"start":"1ms","timer_slack":"0s","slice":"300us","loop":-1,
			"program":[{"run":"1.5ms"},{"fork":"c"},{"sleep":"250us"},{"yield":true},
				{"loop":{"count":3,"program":[{"run":16000},{"timer":{"ref":"t","period":"4ms","mode":"relative"}}]}},
				{"timer":{"period":"20ms"}}]},
			{"name":"c","parent":"p","policy":"SCHED_NORMAL","loop":1,"program":[{"run":"100us"},{"exit":true}]},
			{"name":"idle.x_1","policy":"SCHED_IDLE","nice":19,"program":[{"run":"1m"}]}]}`},
	{"hand/cfs-v3.11", `{"version":1,"name":"hand/cfs-v3.11","topology":"smp-2","kernel":{"version":"v3.11","hz":100,"preempt":"none"},
		"features":{"GENTLE_FAIR_SLEEPERS":"off","START_DEBIT":"on"},"sysctl":{"sched_latency_ns":24000000,"sched_child_runs_first":1},
		"duration":1000000000,"seed":0,
		"tasks":[{"name":"hog","instances":3,"program":[{"run":-1}]},{"name":"sleeper","program":[{"run":"2ms"},{"sleep":"8ms"}]}]}`},
	{"hand/nested-loops", `{"version":1,"name":"hand/nested-loops","kernel":{"version":"v6.6"},"duration":"100ms",
		"tasks":[{"name":"n","loop":2,"program":[{"loop":{"count":2,"program":[{"loop":{"count":2,"program":[{"loop":{"count":-1,"program":[{"run":"1ms"},{"sleep":"1ms"}]}}]}}]}}]}]}`},
	{"hand/wait-resources", `{"version":1,"name":"hand/wait-resources","topology":"smp-4","duration":"50ms",
		"tasks":[{"name":"a","loop":-1,"program":[{"run":"10us"},{"signal":"q","sync":true},{"wait":"r"},{"barrier":"b"}]},
			{"name":"w","instances":2,"loop":-1,"program":[{"wait":"q"},{"run":"20us"},{"signal":"r","cond":true},{"broadcast":"r","sync":true},{"barrier":"b"}]}]}`},
	{"hand/workloads-every-parameter", `{"version":1,"name":"hand/workloads-every-parameter","topology":"smp-4","duration":"50ms",
		"tasks":[{"name":"a","loop":-1,"program":[{"signal":"s"},{"run":"1ms"}]},{"name":"b","loop":-1,"program":[{"wait":"s"},{"run":"10us"}]}],
		"semaphores":{"s":3},
		"workloads":[{"kind":"pipe","name":"pp","loops":77,"cost":"1.5us","pin":"cross"},
			{"kind":"hackbench","name":"hb","groups":3,"fds":5,"loops":7,"mode":"pipe","cost":"3us"},
			{"kind":"schbench","name":"sb","messages":3,"workers":4,"work":"2ms","sleep":"100us","cost":"7us"},
			{"kind":"cyclictest","name":"ct","threads":3,"interval":"500us","distance":"50us","priority":80,"policy":"SCHED_RR","pinned":false,"cost":"0s","loops":1000},
			{"kind":"kbuild","name":"kb","jobs":33,"j":3,"run":"5ms","io":"0s","spawn":"0s"},
			{"kind":"multimedia","name":"mm","profile":"video","scale":150},
			{"kind":"hog","name":"h","count":3,"policy":"SCHED_FIFO","priority":10,"cpu":1}]}`},
	{"hand/workloads-defaults", `{"version":1,"name":"hand/workloads-defaults","topology":"smp-2","duration":"20ms",
		"workloads":[{"kind":"pipe"},{"kind":"hackbench"},{"kind":"schbench"},{"kind":"cyclictest"},{"kind":"kbuild"},{"kind":"multimedia"},{"kind":"hog"}]}`},
	{"hand/affinity", `{"version":1,"name":"hand/affinity","topology":"smp-4","duration":"50ms",
		"tasks":[{"name":"mover","cpus":[0],"loop":-1,"program":[{"affinity":[0]},{"run":"1ms"},{"affinity":[2,3]},{"run":"1ms"},{"affinity":"all"},{"sleep":"1ms"}]},
			{"name":"hog","cpus":[2],"program":[{"run":-1}]}]}`},
	{"hand/cgroups", `{"version":1,"name":"hand/cgroups","topology":"smp-2","duration":"300ms","kernel":{"autogroup":"off","rt_group_sched":"off"},
		"sysctl":{"sched_cfs_bandwidth_slice_us":3000},
		"cgroups":{"/A":{"cpu.weight":25},"/Q":{"cpu.max":"25000 100000","cpu.max.burst":20000},"/I":{"cpu.idle":1},"/P/B":{},"/N":{"cpu.weight.nice":5}},
		"tasks":[{"name":"a","taskgroup":"/A","session":"s1","program":[{"run":-1}]},
			{"name":"q","instances":2,"taskgroup":"/Q","loop":-1,"program":[{"run":"30ms"},{"sleep":"20ms"}]},
			{"name":"i","taskgroup":"/I","program":[{"run":-1}]},
			{"name":"m","taskgroup":"/P/B/C","loop":-1,"program":[{"run":"1ms"},{"taskgroup":"/N"},{"run":"1ms"},{"taskgroup":"/"},{"sleep":"1ms"},{"taskgroup":"/P/B/C"}]}]}`},
	{"hand/cgroups-v1", `{"version":1,"name":"hand/cgroups-v1","topology":"smp-1","kernel":{"version":"v5.8"},"duration":"300ms",
		"cgroups":{"/v1":{"cpu.shares":512,"cpu.cfs_quota_us":-1,"cpu.cfs_period_us":50000},"/v1q":{"cpu.cfs_quota_us":"10000","cpu.cfs_period_us":"50000"}},
		"tasks":[{"name":"x","taskgroup":"/v1","program":[{"run":-1}]},{"name":"y","taskgroup":"/v1q","program":[{"run":-1}]}]}`},
}

func TestURLRoundTrip(t *testing.T) {
	var scs []*Scenario
	for _, p := range Presets() {
		scs = append(scs, mustPreset(t, p.Name))
	}
	r := rand.New(rand.NewPCG(3, 3))
	for range 100 {
		scs = append(scs, randScenario(r))
	}
	safe := regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	for _, sc := range scs {
		p := EncodeURLPayload(sc)
		if !safe.MatchString(p) || p != EncodeURLPayload(sc) {
			t.Fatalf("payload not URL-safe or not stable: %q", p)
		}
		for _, u := range []string{
			"https://schedplay.github.io/#s=" + p, "http://localhost:8080/embed.html?x=1#s=" + p,
			"#s=" + p, "s=" + p, "#v=1&s=" + p + "&t=2", "#s=" + p + "==",
		} {
			back, err := DecodeURL(u)
			if err != nil {
				t.Fatalf("DecodeURL(%.60s...) = %v", u, err)
			}
			if !reflect.DeepEqual(back, sc) {
				t.Fatalf("URL round trip changed the scenario:\n got %s\nwant %s", back.Encode(), sc.Encode())
			}
		}
	}
}

// deflated returns the raw-deflate of data.
func deflated(data []byte) []byte {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

func TestDecodeURLErrors(t *testing.T) {
	good := deflated(mustPreset(t, "demo/nice-shares").Encode())
	b64 := base64.RawURLEncoding.EncodeToString
	odd := b64(good) // a length no base64 text has
	for len(odd)%4 != 1 {
		odd = odd[:len(odd)-1]
	}
	bomb := deflated(bytes.Repeat([]byte(" "), 2*MaxInput))
	if len(b64(bomb)) > MaxURL {
		t.Fatalf("bomb payload too large for the test: %d", len(b64(bomb)))
	}
	for _, tc := range []struct{ name, url, path, msg string }{
		{"no fragment", "https://schedplay.github.io/", "url", "no s= scenario payload"},
		{"empty payload", "https://schedplay.github.io/#s=", "url", "no s= scenario payload"},
		{"other key", "#t=abc", "url", "no s= scenario payload"},
		{"empty", "", "url", "no s= scenario payload"},
		{"not base64", "#s=!!!!", "url", "not base64url"},
		{"std base64", "#s=" + base64.StdEncoding.EncodeToString(good) + "+/", "url", "not base64url"},
		{"bad length", "#s=" + odd, "url", "not base64url"},
		{"truncated deflate", "#s=" + b64(good[:len(good)/2]), "url", "payload is damaged (deflate"},
		{"garbage deflate", "#s=" + b64([]byte{0xff, 0xff, 0xff, 0xff}), "url", "payload is damaged (deflate"},
		{"deflate bomb", "#s=" + b64(bomb), "url", "inflates past 1048576 bytes"},
		{"oversize url", "#s=" + strings.Repeat("A", MaxURL), "url", "the limit is 65536"},
		{"not JSON", "#s=" + b64(deflated([]byte("hello"))), "", "not valid JSON"},
		{"bad scenario", "#s=" + b64(deflated([]byte(`{"version":1,"tasks":[{"name":"a","nice":99,"program":[{"run":-1}]}]}`))), "tasks[0].nice", "want -20..19"},
	} {
		_, err := DecodeURL(tc.url)
		if err == nil {
			t.Errorf("%s: DecodeURL succeeded", tc.name)
			continue
		}
		e := asError(t, tc.name, err)
		if e.Path != tc.path || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%s: DecodeURL = path %q msg %q; want path %q msg containing %q", tc.name, e.Path, e.Msg, tc.path, tc.msg)
		}
	}
}

// corpusEntry is one URL of the golden corpus with the comment naming it.
type corpusEntry struct {
	line       int
	comment, u string
}

func readCorpus(t *testing.T) []corpusEntry {
	t.Helper()
	f, err := os.Open(urlCorpus)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusEntry
	comment := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, MaxURL+1024)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
		case strings.HasPrefix(line, "#"):
			comment = line
		default:
			if comment == "" {
				t.Errorf("%s:%d: URL without a comment line naming its scenario", urlCorpus, n)
			}
			out = append(out, corpusEntry{n, comment, line})
			comment = ""
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestURLCorpus checks that every URL the project ever produced still
// opens (docs/cli.md "Share URLs"): it decodes, validates and builds.
func TestURLCorpus(t *testing.T) {
	entries := readCorpus(t)
	if *rewrite {
		appendCorpus(t, entries)
		entries = readCorpus(t)
	}
	if len(entries) < len(Presets())+len(handWritten) {
		t.Errorf("corpus has %d URLs; want at least one per preset and hand-written scenario (append them: go test ./core/scenario/ -run TestURLCorpus -rewrite)", len(entries))
	}
	for _, e := range entries {
		sc, err := DecodeURL(e.u)
		if err != nil {
			t.Errorf("%s:%d (%s): %v", urlCorpus, e.line, e.comment, err)
			continue
		}
		cfg, err := sc.Build(sched.DefaultLimits())
		if err == nil {
			_, err = sched.New(cfg)
		}
		if err != nil {
			t.Errorf("%s:%d (%s): %v", urlCorpus, e.line, e.comment, err)
		}
	}
}

// appendCorpus appends the URLs of presets and handWritten scenarios that
// the corpus does not hold yet. It never removes or rewrites a line.
func appendCorpus(t *testing.T, have []corpusEntry) {
	seen := map[string]bool{}
	for _, e := range have {
		seen[e.u] = true
	}
	var add bytes.Buffer
	emit := func(comment string, sc *Scenario) {
		u := "https://schedplay.github.io/#s=" + EncodeURLPayload(sc)
		if !seen[u] {
			seen[u] = true
			fmt.Fprintf(&add, "# %s\n%s\n", comment, u)
		}
	}
	for _, p := range Presets() {
		emit("preset "+p.Name, mustPreset(t, p.Name))
	}
	for _, h := range handWritten {
		sc, err := Decode([]byte(h.json))
		if err != nil {
			t.Fatalf("%s: %v", h.name, err)
		}
		emit(h.name, sc)
	}
	f, err := os.OpenFile(urlCorpus, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(add.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
