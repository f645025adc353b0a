package quote

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestShort(t *testing.T) {
	if got := Short(`a"b`); got != `"a\"b"` {
		t.Errorf(`Short(a"b) = %s, want it quoted whole`, got)
	}
	exact := strings.Repeat("x", Max)
	if got := Short(exact); got != `"`+exact+`"` {
		t.Errorf("Short of %d bytes = %s, want it whole", Max, got)
	}
	long := strings.Repeat("k", 40<<10)
	if got, want := Short(long), `"`+strings.Repeat("k", Max)+`"... (40960 bytes)`; got != want {
		t.Errorf("Short of 40 KB = %.200s, want %s", got, want)
	}
	// A cut never splits a character: 79 ASCII bytes, then 3-byte runes.
	mixed := strings.Repeat("a", Max-1) + strings.Repeat("€", 100)
	got := Short(mixed)
	if !strings.HasPrefix(got, `"`+strings.Repeat("a", Max-1)+`"...`) || !utf8.ValidString(got) {
		t.Errorf("Short cut inside a character: %s", got)
	}
}

func TestPath(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"tasks[0].program[1].run", "tasks[0].program[1].run"},
		{"tasks[0].program[0]." + strings.Repeat("k", 40<<10), "tasks[0].program[0]." + strings.Repeat("k", Max) + "...(40960 bytes)"},
		{"cgroups./" + strings.Repeat("c", 200) + ".cpu.max", "cgroups./" + strings.Repeat("c", Max-1) + "...(201 bytes).cpu.max"},
		{strings.Repeat("s", 100) + "." + strings.Repeat("t", 100), strings.Repeat("s", Max) + "...(100 bytes)." + strings.Repeat("t", Max) + "...(100 bytes)"},
	} {
		if got := Path(c.in); got != c.want {
			t.Errorf("Path(%.60s...) = %.300s, want %.300s", c.in, got, c.want)
		}
	}
}

func TestList(t *testing.T) {
	if got := List([]string{"a", "b"}); got != "a, b" {
		t.Errorf("List(a, b) = %q", got)
	}
	many := make([]string, 100)
	for i := range many {
		many[i] = fmt.Sprintf("name%02d", i)
	}
	got := List(many)
	if len(got) > 2*Max+40 || !strings.HasPrefix(got, "name00, name01") || !strings.HasSuffix(got, " more)") {
		t.Errorf("List of 100 names = %q, want the first ones and a count", got)
	}
	if got := List([]string{strings.Repeat("v", 40<<10)}); len(got) > 2*Max || !strings.Contains(got, "(40960 bytes)") {
		t.Errorf("List of a 40 KB name = %.200s", got)
	}
}

func TestJoin(t *testing.T) {
	if got := Join([]string{`"a"`, `"b"`}, " then "); got != `"a" then "b"` {
		t.Errorf("Join(a, b) = %s", got)
	}
	many := make([]string, 100)
	for i := range many {
		many[i] = Short(fmt.Sprintf("name%02d", i))
	}
	sep := ", which waits for "
	got := Join(many, sep)
	shown := strings.Count(got, `"`) / 2
	if len(got) > 2*Max+len(sep)+20 || !strings.HasPrefix(got, `"name00", which waits for "name01"`) ||
		!strings.HasSuffix(got, fmt.Sprintf("%s... (%d more)", sep, 100-shown)) {
		t.Errorf("Join of 100 names = %q, want the first ones and a count", got)
	}
	// The items are the caller's: a Short quote is kept whole, not clipped.
	long := Short(strings.Repeat("v", 40<<10))
	if got := Join([]string{long}, ", "); got != long {
		t.Errorf("Join of one Short quote = %.200s, want it unchanged", got)
	}
}

func TestErrorf(t *testing.T) {
	long := strings.Repeat("z", 40<<10)
	base := errors.New("base")
	err := Errorf("-set %q: %v: %w (%s)", long, "why", base, "a long explanation "+strings.Repeat("-", 100))
	if !errors.Is(err, base) {
		t.Error("Errorf lost its %w")
	}
	msg := err.Error()
	if len(msg) > 400 || !strings.Contains(msg, `"... (40960 bytes): why: base (a long explanation ---`) || !strings.HasSuffix(msg, strings.Repeat("-", 100)+")") {
		t.Errorf("Errorf = %.500s: want the %%q bounded and the %%s whole", msg)
	}
	if got := Sprintf("%q %d %5s", "short", 3, "x"); got != `"short" 3     x` {
		t.Errorf("Sprintf changed short arguments: %s", got)
	}
	if got := Sprintf("%-12q|", strings.Repeat("w", 90)); strings.Contains(got, strings.Repeat("w", 90)) {
		t.Errorf("Sprintf with flags quoted a long string whole: %s", got)
	}
}

func TestBound(t *testing.T) {
	long := strings.Repeat("u", 40<<10)
	_, perr := strconv.Atoi(long)
	err := Bound(fmt.Errorf("seed: %w", perr))
	if !errors.Is(err, strconv.ErrSyntax) {
		t.Error("Bound lost the wrapped error")
	}
	if want := `seed: strconv.Atoi: parsing "` + strings.Repeat("u", Max) + `"... (40960 bytes): invalid syntax`; err.Error() != want {
		t.Errorf("Bound = %.300s, want %s", err, want)
	}
	short := errors.New(`json: unknown field "x" and a lone " mark`)
	if Bound(short) != short || Bound(nil) != nil {
		t.Error("Bound changed an error without long quotes")
	}
}

func TestClipEscapes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"task-1", "task-1"},
		{`a"b\c`, `a"b\c`},
		{"<b>x</b> é", "<b>x</b> é"},
		{"a\nb\x1b[31m\x00", `a\nb\x1b[31m\x00`},
		{"bad\xffutf8\u200b", `bad\xffutf8\u200b`},
	} {
		if got := Clip(c.in); got != c.want {
			t.Errorf("Clip(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	long := strings.Repeat("\x01", 1<<20)
	got := Clip(long)
	if len(got) > Max+20 || strings.ContainsRune(got, 1) || !strings.HasPrefix(got, `\x01\x01`) || !strings.HasSuffix(got, "...(1048576 bytes)") {
		t.Errorf("Clip of 1 MB of control bytes = %.200q, want it escaped and bounded", got)
	}
	if got := Path("tasks[0].a\tb"); got != `tasks[0].a\tb` {
		t.Errorf("Path with a tab = %q, want it escaped", got)
	}
	// Many short segments, each escaped: the path is cut after 3*Max bytes.
	many := strings.Repeat("\xff.", 10000)
	if got := Path(many); len(got) > 4*Max+40 || !strings.HasPrefix(got, `\xff.\xff.`) || !strings.HasSuffix(got, "...(20000 bytes)") {
		t.Errorf("Path of 10000 segments = %.400q, want it cut with its length", got)
	}
}

// TestRawAfterClip: Raw finds what Clip escapes, and nothing after it.
func TestRawAfterClip(t *testing.T) {
	for _, s := range []string{"a\nb", "\x1b[31m", "x\x7f", "\u0085", "bad\xff"} {
		if !Raw(s) {
			t.Errorf("Raw(%q) = false", s)
		}
		if c := Clip(s); Raw(c) {
			t.Errorf("Raw(Clip(%q)) = true: %q", s, c)
		}
	}
	if Raw("ordinary name_1 é") {
		t.Error("Raw of printable text")
	}
}
