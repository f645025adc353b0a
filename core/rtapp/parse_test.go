package rtapp

import (
	"strings"
	"testing"
)

func TestParseTolerantAndOrdered(t *testing.T) {
	v, err := Parse([]byte(`// leading comment
	{ /* block
	   comment */ "b": 1, "a": [1, 2, ], "b": "x\u00e9\n", "s", "c": { "z": true, "y": null, }, }
	// trailing`))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, m := range v.Members {
		keys = append(keys, m.Key)
	}
	if got := strings.Join(keys, ","); got != "b,a,b,s,c" {
		t.Errorf("keys %s, want file order with duplicates", got)
	}
	if v.Get("b").Val.Str != "xé\n" || v.Get("s").Val != nil || len(v.Get("a").Val.Elems) != 2 {
		t.Errorf("values %+v", v.Members)
	}
	if c := v.Get("c").Val; c.Members[0].Key != "z" || c.Members[1].Val.Kind != Null || c.Line != 3 {
		t.Errorf("c %+v", c)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{``, "line 1 column 1: unexpected end of input"},
		{`{"a": 1} x`, "line 1 column 10: unexpected 'x' after the end"},
		{"{\n  \"a\": tru }", "line 2 column 8: unexpected 't', want a value"},
		{`{"a": 1 "b": 2}`, `unexpected '"' after the value of "a"`},
		{`{"a": "x`, "unterminated string"},
		{`{"a": 1.2.3}`, "malformed number"},
		{`{a: 1}`, "want a quoted key"},
		{strings.Repeat("[", 100), "nested deeper than 64"},
		{`"\q"`, `unknown escape \q`},
	} {
		_, err := Parse([]byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want %q", c.src, err, c.want)
		}
	}
}
