package scenario

// A hostile string (1 MB, control characters, markup, invalid UTF-8) in a
// scenario's names, paths and keys gives an error that is bounded and has
// no raw control character or invalid byte (core/quote).

import (
	"encoding/json"
	"strings"
	"testing"

	"schedplay/core/sched"
)

func TestHostileNamesDecode(t *testing.T) {
	raw := "<img src=x onerror=alert(1)>\n\x1b[2J\x00\xff" + strings.Repeat("h", 1<<20)
	js, _ := json.Marshal(raw)
	h := string(js[1 : len(js)-1]) // a JSON string body
	doc := func(tasks, extra string) string {
		return `{"version":1,"name":"p","topology":"smp-2","duration":"10ms",` + extra + `"tasks":[` + tasks + `]}`
	}
	task := `{"name":"t","program":[{"run":"1ms"}]}`
	for what, d := range map[string]string{
		"task name":   doc(`{"name":"`+h+`","program":[{"run":"1ms"}]}`, ""),
		"comm":        doc(`{"name":"t","comm":"`+h+`","program":[{"run":"1ms"}]}`, ""),
		"parent":      doc(`{"name":"t","parent":"`+h+`","program":[{"run":"1ms"}]}`, ""),
		"cgroup path": doc(task, `"cgroups":{"/`+h+`":{"cpu.weight":"100"}},`),
		"task cgroup": doc(`{"name":"t","cgroup":"/`+h+`","program":[{"run":"1ms"}]}`, ""),
		"mutex":       doc(`{"name":"t","program":[{"lock":"`+h+`"}]}`, ""),
		"unknown key": doc(task, `"`+h+`":1,`),
	} {
		sc, err := Decode([]byte(d))
		if err == nil {
			_, err = sc.Build(sched.DefaultLimits())
		}
		if err == nil {
			t.Errorf("%s: no error", what)
			continue
		}
		msg := err.Error()
		if len(msg) > maxErrBytes || strings.ContainsAny(msg, "\n\x1b\x00") || strings.IndexByte(msg, 0xff) >= 0 {
			t.Errorf("%s: error of %d bytes, want at most %d with its control characters escaped: %.300q", what, len(msg), maxErrBytes, msg)
		}
	}
	for _, kv := range []string{raw + "=1", "tasks." + raw + ".nice=1", "cgroups./" + raw + ".cpu.weight=1", "features.X=" + raw} {
		sc, err := Decode([]byte(doc(task, "")))
		if err != nil {
			t.Fatal(err)
		}
		err = sc.Set(kv)
		if err == nil {
			t.Errorf("-set %.40q: no error", kv)
			continue
		}
		if msg := err.Error(); len(msg) > maxErrBytes || strings.ContainsAny(msg, "\n\x1b\x00") || strings.IndexByte(msg, 0xff) >= 0 {
			t.Errorf("-set %.40q: error of %d bytes: %.300q", kv, len(msg), msg)
		}
	}
}
