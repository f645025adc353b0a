package quote

// The bounded quotes: Short for a quoted value, Clip for an unquoted one,
// Path for a field path or key, List for a list of names (Join for a list
// of quoted ones), Bound for an error another package formatted, and
// Errorf/Sprintf/Args, whose %q quotes by Short. Errorf, Sprintf and
// Args are go:noinline: they are error paths, and the worker's build
// (-l=4) would otherwise copy them into each of their many callers (about
// 175 KB of worker.wasm).

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Max is how many bytes of one user string an error quotes.
const Max = 80

// Short is s quoted (strconv.Quote), or its first Max bytes (cut at a
// character) quoted, an ellipsis and its length: "aaaa"... (40960 bytes).
func Short(s string) string {
	if len(s) <= Max {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:cut(s, Max)]) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// Clip is s, or its first Max bytes (cut at a character), an ellipsis
// and its length, unquoted: for a number or a name inside other quotes.
// A control character or an invalid byte is escaped as strconv.Quote
// escapes it (a comm "a\nb" prints as a\nb), so that a name can neither
// break an error's line nor reach a terminal raw; the Max bytes are of
// the escaped text.
func Clip(s string) string {
	if len(s) <= Max && printable(s) {
		return s
	}
	e, n := escape(s, Max)
	if n == len(s) {
		return e
	}
	return e + "...(" + strconv.Itoa(len(s)) + " bytes)"
}

// escape is the longest prefix of s whose escaped text fits in limit
// bytes, escaped: every non-printable rune and invalid byte written as
// strconv.Quote writes it, quotes and backslashes as they are. It also
// returns how many bytes of s the prefix is.
func escape(s string, limit int) (string, int) {
	const hex = "0123456789abcdef"
	var b strings.Builder
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		var e string
		switch {
		case r == utf8.RuneError && n == 1:
			e = `\x` + string(hex[s[i]>>4]) + string(hex[s[i]&15])
		case strconv.IsPrint(r):
			e = s[i : i+n]
		default:
			q := strconv.QuoteRune(r)
			e = q[1 : len(q)-1]
		}
		if b.Len()+len(e) > limit {
			break
		}
		b.WriteString(e)
		i += n
	}
	return b.String(), i
}

// printable reports whether s is valid UTF-8 of printable runes only.
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return utf8.ValidString(s[i:]) && allPrint(s[i:])
		}
	}
	return true
}

// allPrint reports whether every rune of s is printable (strconv.IsPrint).
func allPrint(s string) bool {
	for _, r := range s {
		if !strconv.IsPrint(r) {
			return false
		}
	}
	return true
}

// Path is a field path or a key (tasks[0].program[1].run, cgroups./A.cpu.max,
// features.NAME) with every segment between the separators . [ ] clipped
// ([Clip]), so that the structure around a 40 KB name stays readable;
// after 3*Max bytes the rest is left out, with the path's length.
func Path(p string) string {
	if len(p) <= Max && printable(p) {
		return p
	}
	var b strings.Builder
	for rest := p; len(rest) > 0; {
		if b.Len() > 3*Max { // many segments: the rest counted
			b.WriteString("...(" + strconv.Itoa(len(p)) + " bytes)")
			break
		}
		i := strings.IndexAny(rest, ".[]")
		if i < 0 {
			i = len(rest)
		}
		b.WriteString(Clip(rest[:i]))
		if i < len(rest) {
			b.WriteByte(rest[i])
			i++
		}
		rest = rest[i:]
	}
	return b.String()
}

// List joins user names with ", " for an error's "want one of" list: each
// name clipped ([Clip]), and after 2*Max bytes the rest
// counted instead of shown ("a, b, ... (5 more)").
func List(items []string) string {
	return join(items, ", ", Clip)
}

// Join joins items that are bounded already (each a [Short] quote, or
// made of them) with sep, [List]'s way: after 2*Max bytes the rest are
// counted instead of shown (`"a", "b", ... (5 more)`).
func Join(items []string, sep string) string {
	return join(items, sep, func(s string) string { return s })
}

func join(items []string, sep string, bound func(string) string) string {
	var b strings.Builder
	for i, it := range items {
		it = bound(it)
		if i > 0 {
			if b.Len()+len(it) > 2*Max {
				b.WriteString(sep + "... (" + strconv.Itoa(len(items)-i) + " more)")
				break
			}
			b.WriteString(sep)
		}
		b.WriteString(it)
	}
	return b.String()
}

// Bound is err with every Go-quoted string in its message longer than Max
// re-quoted by [Short], for an error another package formatted (encoding/
// json's `unknown field "..."`, strconv's `parsing "..."`); nil stays nil
// and errors.Is/As still reach err.
func Bound(err error) error {
	if err == nil {
		return nil
	}
	rest := err.Error()
	var b strings.Builder
	changed := false
	for {
		j := strings.IndexByte(rest, '"')
		if j < 0 {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:j])
		rest = rest[j:]
		q, qerr := strconv.QuotedPrefix(rest)
		if qerr != nil { // a lone quote mark
			b.WriteByte('"')
			rest = rest[1:]
			continue
		}
		if u, uerr := strconv.Unquote(q); uerr == nil && len(u) > Max {
			b.WriteString(Short(u))
			changed = true
		} else {
			b.WriteString(q)
		}
		rest = rest[len(q):]
	}
	if !changed {
		return err
	}
	return boundedError{msg: b.String(), err: err}
}

// boundedError is an error whose message Bound shortened.
type boundedError struct {
	msg string
	err error
}

func (e boundedError) Error() string { return e.msg }
func (e boundedError) Unwrap() error { return e.err }

// Errorf is fmt.Errorf with every string argument of a %q verb quoted
// by [Short]: a decoder's errors say %q for user input and stay bounded.
//
//go:noinline
func Errorf(format string, args ...any) error {
	return fmt.Errorf(format, Args(args)...)
}

// Sprintf is fmt.Sprintf with [Errorf]'s bounded %q.
//
//go:noinline
func Sprintf(format string, args ...any) string {
	return fmt.Sprintf(format, Args(args)...)
}

// Args wraps the string arguments of a format so that a %q verb quotes
// them by [Short]; every other verb prints them as fmt does.
//
//go:noinline
func Args(args []any) []any {
	out, copied := args, false
	for i, a := range args {
		s, ok := a.(string)
		if !ok || len(s) <= Max {
			continue
		}
		if !copied {
			out, copied = append([]any(nil), args...), true
		}
		out[i] = bounded(s)
	}
	return out
}

// bounded is a user string that a %q verb quotes by Short.
type bounded string

// Format implements fmt.Formatter.
func (b bounded) Format(f fmt.State, verb rune) {
	if verb == 'q' { // flags and width are dropped: the quote is Short's
		_, _ = f.Write([]byte(Short(string(b))))
		return
	}
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), string(b))
}

// cut is the longest prefix length of s of at most n bytes that ends at a
// character boundary.
func cut(s string, n int) int {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// Raw reports whether s holds a control character (C0, DEL, C1) or an
// invalid byte: user text that reached a message without [Clip]'s
// escaping. The decoders' fuzz tests assert it of every error.
func Raw(s string) bool {
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		if r < 0x20 || r >= 0x7f && r < 0xa0 || r == utf8.RuneError && n == 1 {
			return true
		}
		s = s[n:]
	}
	return false
}
