package main

import (
	"bytes"
	"strings"
	"testing"
)

// urlWith runs `schedplay url` with the given environment.
func urlWith(t *testing.T, e env, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runEnv(append([]string{"url"}, args...), e, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestURLBase(t *testing.T) {
	const preset = "demo/periodic-vs-hog"
	_, def, _ := urlWith(t, env{}, "-preset", preset)
	frag := def[strings.IndexByte(def, '#'):]
	for _, c := range []struct {
		name string
		env  string
		args []string
		want string
	}{
		{"default", "", nil, defaultURLBase},
		{"flag", "", []string{"-base", "https://example.org/schedplay/"}, "https://example.org/schedplay/"},
		{"env", "http://localhost:8080/", nil, "http://localhost:8080/"},
		{"flag wins over env", "https://env.test/", []string{"-base", "https://flag.test/x/"}, "https://flag.test/x/"},
		{"bare host gets a path", "", []string{"-base", "https://example.org"}, "https://example.org/"},
		{"query kept", "", []string{"-base", "https://example.org/?embed=1"}, "https://example.org/?embed=1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string{}, c.args...), "-preset", preset)
			code, out, errs := urlWith(t, env{base: c.env}, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if got := strings.TrimSpace(out); got != c.want+strings.TrimSpace(frag) {
				t.Errorf("got %q, want base %q and the default link's fragment", got, c.want)
			}
		})
	}
}

func TestURLBaseInvalid(t *testing.T) {
	for _, c := range []struct {
		name string
		env  string
		args []string
		want []string
	}{
		{"relative", "", []string{"-base", "/schedplay/"}, []string{"-base", `"/schedplay/"`, "absolute http(s) URL"}},
		{"scheme", "", []string{"-base", "ftp://example.org/"}, []string{"-base", `scheme "ftp"`}},
		{"no host", "", []string{"-base", "https:///x"}, []string{"no host"}},
		{"fragment", "", []string{"-base", "https://example.org/#x"}, []string{"fragment"}},
		{"empty fragment", "", []string{"-base", "https://example.org/#"}, []string{"fragment"}},
		{"bad env", "example.org", nil, []string{"SCHEDPLAY_BASE", `"example.org"`, "absolute http(s) URL"}},
		{"unparsable", "", []string{"-base", "http://[::1"}, []string{"-base", "absolute http(s) URL"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := urlWith(t, env{base: c.env}, append(c.args, "-preset", "demo/periodic-vs-hog")...)
			if code != 2 || out != "" {
				t.Fatalf("exit %d, stdout %q; want exit 2 and no link", code, out)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q lacks %q", errs, w)
				}
			}
		})
	}
	// A bad environment value does not matter when the flag is given.
	if code, _, errs := urlWith(t, env{base: "nonsense"}, "-base", "https://ok.test/", "-preset", "demo/periodic-vs-hog"); code != 0 {
		t.Errorf("flag over a bad SCHEDPLAY_BASE: exit %d: %s", code, errs)
	}
}
