package sched

// Scenario tests as data (etcd-io/raft interaction tests style): each file
// under testdata/<dir>/ is a script of directives
//
//	# comment
//	command key=value ...
//	----
//	expected output (no blank lines)
//
// with one handler per command (script_cmds_test.go). Output is compared
// with the expected block; `go test -run TestScripts -rewrite` writes the
// actual output back for review as a diff. `runqueue CPU` prints
// [Sim.DescribeRunqueue], so the vruntimes, deadlines and lags a comment
// derives are checked output. The expect-* commands are checks with
// numbers derived in the scripts' comments: they fail the test whatever
// -rewrite says.

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var rewriteFlag = flag.Bool("rewrite", false, "rewrite the expected output of testdata scripts")

type scriptArg struct{ key, val string }

type directive struct {
	line     int
	cmd      string
	args     []scriptArg
	raw      string
	expected string
	hasSep   bool
}

// chunk is either a directive or verbatim text (comments, blank lines).
type chunk struct {
	text string
	dir  *directive
}

func parseScript(t *testing.T, path string) []chunk {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	var out []chunk
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
			out = append(out, chunk{text: l})
			continue
		}
		d := &directive{line: i + 1, raw: l}
		fields := strings.Fields(l)
		d.cmd = fields[0]
		for _, f := range fields[1:] {
			k, v, ok := strings.Cut(f, "=")
			if !ok {
				d.args = append(d.args, scriptArg{val: f})
			} else {
				d.args = append(d.args, scriptArg{key: k, val: v})
			}
		}
		if i+1 < len(lines) && lines[i+1] == "----" {
			d.hasSep = true
			i += 2
			var exp []string
			for ; i < len(lines) && lines[i] != ""; i++ {
				exp = append(exp, lines[i])
			}
			d.expected = strings.Join(exp, "\n")
			if i < len(lines) {
				i-- // keep the blank line as a verbatim chunk
			}
		}
		out = append(out, chunk{dir: d})
	}
	return out
}

func TestScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata scripts")
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.ToSlash(path[len("testdata/"):]), ".txt"), func(t *testing.T) {
			runScript(t, path)
		})
	}
}

func runScript(t *testing.T, path string) {
	chunks := parseScript(t, path)
	env := &scriptEnv{t: t, path: path}
	var b strings.Builder
	for _, c := range chunks {
		if c.dir == nil {
			b.WriteString(c.text + "\n")
			continue
		}
		d := c.dir
		env.d = d
		got := strings.TrimRight(env.handle(d), "\n")
		b.WriteString(d.raw + "\n----\n")
		if got != "" {
			b.WriteString(got + "\n")
		}
		if *rewriteFlag {
			continue
		}
		if !d.hasSep {
			t.Errorf("%s:%d: %s: no ---- expected-output block", path, d.line, d.cmd)
		} else if got != d.expected {
			t.Errorf("%s:%d: %s: output differs\n--- got\n%s\n--- want\n%s", path, d.line, d.raw, got, d.expected)
		}
	}
	if *rewriteFlag {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// scriptEnv is the state one script builds up.
type scriptEnv struct {
	t    *testing.T
	path string
	d    *directive
	b    *runBuilder
	r    *testRun
}

// fail reports a failed check; the message is also the command's output.
func (e *scriptEnv) fail(format string, args ...any) string {
	msg := fmt.Sprintf(format, args...)
	e.t.Errorf("%s:%d: %s: %s", e.path, e.d.line, e.d.raw, msg)
	return "FAIL: " + msg
}

func (e *scriptEnv) arg(key string) (string, bool) {
	for _, a := range e.d.args {
		if a.key == key {
			return a.val, true
		}
	}
	return "", false
}

func (e *scriptEnv) handle(d *directive) string {
	h, ok := scriptCommands[d.cmd]
	if !ok {
		e.t.Fatalf("%s:%d: unknown command %q", e.path, d.line, d.cmd)
	}
	return h(e)
}
