package scenario

// Errors quote user input bounded (core/quote): a 40 KB key, name, path or
// value in a scenario document, a -set flag, a share link or an A/B
// parameter gives an error of a few hundred bytes that names its length.

import (
	"strings"
	"testing"
)

// maxErrBytes bounds an error about one bad input: its fixed text, the
// lists of what is known, and a few quotes of at most quote.Max bytes.
const maxErrBytes = 1024

// big is the 40 KB user string of these tests.
var big = strings.Repeat("k", 40<<10)

// checkBounded fails unless err is an error of at most maxErrBytes that
// gives the long input's length.
func checkBounded(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error", what)
		return
	}
	msg := err.Error()
	if len(msg) > maxErrBytes {
		t.Errorf("%s: error of %d bytes, want at most %d: %.200s...", what, len(msg), maxErrBytes, msg)
	}
	if !strings.Contains(msg, "4096") { // 40960 or 40961 bytes, with a / or a quote
		t.Errorf("%s: error %q does not give the input's length", what, msg)
	}
}

func TestLongInputDecode(t *testing.T) {
	task := func(fields, step string) string {
		return `{"version":1,"name":"p","topology":"smp-1","duration":"10ms","tasks":[{"name":"t",` + fields + `"program":[` + step + `]}]}`
	}
	top := func(fields string) string {
		return task("", `{"run":"1ms"}`)[:1] + fields + task("", `{"run":"1ms"}`)[1:]
	}
	for name, doc := range map[string]string{
		"top-level key":   top(`"` + big + `":1,`),
		"task name":       strings.Replace(task("", `{"run":"1ms"}`), `"name":"t"`, `"name":"`+big+`"`, 1),
		"task key":        task(`"`+big+`":1,`, `{"run":"1ms"}`),
		"step key":        task("", `{"`+big+`":"1ms"}`),
		"run value":       task("", `{"run":"`+big+`"}`),
		"policy":          task(`"policy":"`+big+`",`, `{"run":"1ms"}`),
		"session":         task(`"session":"`+big+`",`, `{"run":"1ms"}`),
		"mutex":           task("", `{"lock":"`+big+`"}`),
		"topology":        strings.Replace(top(""), `"smp-1"`, `"`+big+`"`, 1),
		"duration":        strings.Replace(top(""), `"10ms"`, `"`+big+`"`, 1),
		"kernel key":      top(`"kernel":{"` + big + `":1},`),
		"kernel version":  top(`"kernel":{"version":"` + big + `"},`),
		"feature key":     top(`"features":{"` + big + `":true},`),
		"sysctl key":      top(`"sysctl":{"` + big + `":1},`),
		"hw key":          top(`"hw":{"` + big + `":1},`),
		"cgroup path":     top(`"cgroups":{"/` + big + `":{"cpu.weight":"100"}},`),
		"cgroup relative": top(`"cgroups":{"` + big + `":{"cpu.weight":"100"}},`),
		"cgroup file":     top(`"cgroups":{"/A":{"` + big + `":"100"}},`),
		"cgroup cpu.max":  top(`"cgroups":{"/A":{"cpu.max":"` + big + `"}},`),
		"cgroup weight":   top(`"cgroups":{"/A":{"cpu.weight":"` + big + `"}},`),
	} {
		_, err := Decode([]byte(doc))
		checkBounded(t, name, err)
	}
}

func TestLongInputSet(t *testing.T) {
	for _, kv := range []string{
		big,
		big + "=1",
		"features." + big + "=on",
		"sysctl." + big + "=1",
		"tasks." + big + ".nice=1",
		"workloads." + big + ".kind=hog",
		"workloads.w.kind=" + big,
		"cgroups./" + big + ".cpu.weight=100",
		"cgroups./A." + big + "=1",
		"cgroups./A.cpu.max=" + big,
		"duration=" + big,
		"seed=" + big,
	} {
		sc, err := Decode([]byte(`{"version":1,"name":"p","topology":"smp-1","duration":"10ms","tasks":[{"name":"t","program":[{"run":"1ms"}]}]}`))
		if err != nil {
			t.Fatal(err)
		}
		checkBounded(t, "-set "+kv[:20], sc.Set(kv))
	}
}

func TestLongInputShare(t *testing.T) {
	// A share link's payload is compressed: a 40 KB name in it decodes
	// to the scenario error, bounded.
	sc, err := Decode([]byte(`{"version":1,"name":"p","topology":"smp-1","duration":"10ms","tasks":[{"name":"t","program":[{"run":"1ms"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	sc.Tasks[0].Name = big
	_, err = DecodeURL("#s=" + EncodeURLPayload(sc))
	checkBounded(t, "share link", err)
	_, err = ApplyAB(sc, ABShare{Set: []string{"features." + big + "=on"}})
	checkBounded(t, "ab.b", err)
}
