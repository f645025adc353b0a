package rtapp

// A tolerant, order-preserving JSON reader for rt-app files.
//
// rt-app reads its configuration with json-c, which in its default
// (non-strict) mode accepts // and /* */ comments and trailing commas, and
// rt-app iterates object members in file order: the events of a phase run in
// the order they are written. Go's encoding/json loses that order (objects
// decode into maps), so this file has its own small tokenizer and parser
// that keep every member, in order, with its line and column.
//
// Two things go beyond json-c, following workgen (the Python front end that
// ships with rt-app and that the tutorial's examples are written for):
//   - duplicate keys are kept in order (workgen renames the second "run" to
//     "run1", and rt-app matches events by prefix, so the result is the same);
//   - a member with no value (`"suspend",`) is kept with a nil value (workgen
//     fills in the thread's name for "suspend").

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"schedplay/core/quote"
)

// Kind is the type of a JSON value.
type Kind int

// The kinds of JSON values.
const (
	Null Kind = iota
	Bool
	Number
	String
	Object
	Array
)

var kindNames = [...]string{"null", "boolean", "number", "string", "object", "array"}

func (k Kind) String() string { return kindNames[k] }

// Value is a parsed JSON value. Numbers keep their source text.
type Value struct {
	Kind    Kind
	Bool    bool
	Num     string
	Str     string
	Members []Member // Object, in file order, duplicates kept
	Elems   []*Value // Array
	Line    int      // 1-based position of the value's first character
	Col     int
}

// Member is one key of an object. Val is nil for a key written without a
// value (`"suspend",`), which workgen accepts.
type Member struct {
	Key       string
	Val       *Value
	Line, Col int
}

// Get returns the last member named key (json-c keeps the last of
// duplicates for non-event keys), or nil.
func (v *Value) Get(key string) *Member {
	if v == nil || v.Kind != Object {
		return nil
	}
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Key == key {
			return &v.Members[i]
		}
	}
	return nil
}

// Int returns the value as an integer, if it is one that fits in 32 bits
// (json-c's json_object_get_int).
func (v *Value) Int() (int, bool) {
	if v == nil || v.Kind != Number {
		return 0, false
	}
	n, err := strconv.ParseInt(v.Num, 10, 32)
	if err != nil {
		return 0, false
	}
	return int(n), true
}

// maxDepth bounds the nesting of objects and arrays.
const maxDepth = 64

// SyntaxError is a parse error at a line and column.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d column %d: %s", e.Line, e.Col, e.Msg)
}

type parser struct {
	src       []byte
	pos       int
	line, col int
}

// Parse reads one JSON document in json-c's tolerant dialect.
func Parse(data []byte) (*Value, error) {
	p := &parser{src: data, line: 1, col: 1}
	if err := p.skip(); err != nil {
		return nil, err
	}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if err := p.skip(); err != nil {
		return nil, err
	}
	if p.pos < len(p.src) {
		return nil, p.errf("unexpected %s after the end of the document", p.show())
	}
	return v, nil
}

func (p *parser) errf(format string, args ...any) error {
	return &SyntaxError{Line: p.line, Col: p.col, Msg: quote.Sprintf(format, args...)}
}

func (p *parser) show() string {
	if p.pos >= len(p.src) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.src[p.pos:])
	return strconv.QuoteRune(r)
}

func (p *parser) advance(n int) {
	for i := 0; i < n && p.pos < len(p.src); i++ {
		if p.src[p.pos] == '\n' {
			p.line++
			p.col = 1
		} else if p.src[p.pos]&0xC0 != 0x80 {
			p.col++
		}
		p.pos++
	}
}

// skip skips white space and comments.
func (p *parser) skip() error {
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			p.advance(1)
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '/':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.advance(1)
			}
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '*':
			line, col := p.line, p.col
			p.advance(2)
			for {
				if p.pos+1 >= len(p.src) {
					return &SyntaxError{Line: line, Col: col, Msg: "unterminated /* comment"}
				}
				if p.src[p.pos] == '*' && p.src[p.pos+1] == '/' {
					p.advance(2)
					break
				}
				p.advance(1)
			}
		default:
			return nil
		}
	}
	return nil
}

func (p *parser) value(depth int) (*Value, error) {
	if depth > maxDepth {
		return nil, p.errf("nested deeper than %d levels", maxDepth)
	}
	if p.pos >= len(p.src) {
		return nil, p.errf("unexpected end of input, want a value")
	}
	v := &Value{Line: p.line, Col: p.col}
	c := p.src[p.pos]
	switch {
	case c == '{':
		return v, p.object(v, depth)
	case c == '[':
		return v, p.array(v, depth)
	case c == '"':
		s, err := p.str()
		v.Kind, v.Str = String, s
		return v, err
	case c == '-' || c >= '0' && c <= '9':
		v.Kind, v.Num = Number, p.number()
		if _, err := strconv.ParseFloat(v.Num, 64); err != nil && !strings.Contains(err.Error(), "range") {
			return nil, &SyntaxError{Line: v.Line, Col: v.Col, Msg: quote.Sprintf("malformed number %q", v.Num)}
		}
		return v, nil
	}
	for _, lit := range []struct {
		word string
		kind Kind
		b    bool
	}{{"true", Bool, true}, {"false", Bool, false}, {"null", Null, false}} {
		if strings.HasPrefix(string(p.src[p.pos:min(len(p.src), p.pos+len(lit.word))]), lit.word) {
			p.advance(len(lit.word))
			v.Kind, v.Bool = lit.kind, lit.b
			return v, nil
		}
	}
	return nil, p.errf("unexpected %s, want a value", p.show())
}

func (p *parser) number() string {
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if !(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
			break
		}
		p.advance(1)
	}
	return string(p.src[start:p.pos])
}

func (p *parser) str() (string, error) {
	line, col := p.line, p.col
	p.advance(1) // opening quote
	var b strings.Builder
	for {
		if p.pos >= len(p.src) {
			return "", &SyntaxError{Line: line, Col: col, Msg: "unterminated string"}
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.advance(1)
			return b.String(), nil
		case c == '\n':
			return "", p.errf("newline inside a string")
		case c == '\\':
			if p.pos+1 >= len(p.src) {
				return "", &SyntaxError{Line: line, Col: col, Msg: "unterminated string"}
			}
			e := p.src[p.pos+1]
			p.advance(2)
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				if p.pos+4 > len(p.src) {
					return "", p.errf("short \\u escape")
				}
				n, err := strconv.ParseUint(string(p.src[p.pos:p.pos+4]), 16, 16)
				if err != nil {
					return "", p.errf("bad \\u escape")
				}
				p.advance(4)
				b.WriteRune(rune(n))
			default:
				return "", p.errf("unknown escape \\%c", e)
			}
		default:
			b.WriteByte(c)
			p.advance(1)
		}
	}
}

func (p *parser) object(v *Value, depth int) error {
	v.Kind = Object
	p.advance(1) // {
	for {
		if err := p.skip(); err != nil {
			return err
		}
		if p.pos >= len(p.src) {
			return &SyntaxError{Line: v.Line, Col: v.Col, Msg: "unterminated object"}
		}
		if p.src[p.pos] == '}' {
			p.advance(1)
			return nil
		}
		if p.src[p.pos] != '"' {
			return p.errf("unexpected %s, want a quoted key or }", p.show())
		}
		m := Member{Line: p.line, Col: p.col}
		k, err := p.str()
		if err != nil {
			return err
		}
		m.Key = k
		if err := p.skip(); err != nil {
			return err
		}
		if p.pos < len(p.src) && p.src[p.pos] == ':' {
			p.advance(1)
			if err := p.skip(); err != nil {
				return err
			}
			if m.Val, err = p.value(depth + 1); err != nil {
				return err
			}
			if err := p.skip(); err != nil {
				return err
			}
		}
		v.Members = append(v.Members, m)
		if p.pos >= len(p.src) {
			return &SyntaxError{Line: v.Line, Col: v.Col, Msg: "unterminated object"}
		}
		switch p.src[p.pos] {
		case ',':
			p.advance(1)
		case '}':
			p.advance(1)
			return nil
		default:
			return p.errf("unexpected %s after the value of %q, want , or }", p.show(), k)
		}
	}
}

func (p *parser) array(v *Value, depth int) error {
	v.Kind = Array
	p.advance(1) // [
	for {
		if err := p.skip(); err != nil {
			return err
		}
		if p.pos >= len(p.src) {
			return &SyntaxError{Line: v.Line, Col: v.Col, Msg: "unterminated array"}
		}
		if p.src[p.pos] == ']' {
			p.advance(1)
			return nil
		}
		e, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		v.Elems = append(v.Elems, e)
		if err := p.skip(); err != nil {
			return err
		}
		if p.pos >= len(p.src) {
			return &SyntaxError{Line: v.Line, Col: v.Col, Msg: "unterminated array"}
		}
		switch p.src[p.pos] {
		case ',':
			p.advance(1)
		case ']':
			p.advance(1)
			return nil
		default:
			return p.errf("unexpected %s in an array, want , or ]", p.show())
		}
	}
}
