package main

// The KEY=VALUE lists of `-a` and `-b` (compare, placement) and of
// replay's `-b`: pairs separated by whitespace or by commas, as before,
// except that a comma belongs to the value when what follows it, up to
// the next comma or whitespace, is not a KEY=... pair. So a CPU list
// reads as written (`cgroups./a.cpuset.cpus=0-3,8 kernel.hz=250`, or
// `hw.idle_disable=C2,C3,kernel.hz=250`), and every list that parsed
// before parses the same (each of its comma-separated pieces was a pair).
// A value may be quoted, 'like this' or "like this", to hold whitespace
// or a comma followed by KEY= (docs/cli.md "KEY=VALUE lists").

import (
	"fmt"
	"strings"
)

// splitSets splits an -a/-b argument into its KEY=VALUE pairs (quotes
// removed); a piece without KEY= or an unterminated quote is bad input
// naming the flag and the piece.
func splitSets(flagName, s string) ([]string, error) {
	var out []string
	i := 0
	for {
		for i < len(s) && isSetSep(s[i]) {
			i++
		}
		if i == len(s) {
			return out, nil
		}
		start := i
		for i < len(s) && s[i] != '=' && !isSetSep(s[i]) {
			i++
		}
		key := s[start:i]
		if i == len(s) || s[i] != '=' || key == "" {
			return nil, badInput("%s %q: want KEY=VALUE", flagName, s[start:pieceEnd(s, i)])
		}
		i++ // the '='
		val, next, err := setValue(s, i)
		if err != nil {
			return nil, badInput("%s %q: %v", flagName, s[start:], err)
		}
		out = append(out, key+"="+val)
		i = next
	}
}

// setValue reads the value that starts at s[i]: quoted, or up to the
// whitespace or comma that ends the pair. It returns the value and where
// the next pair's search starts.
func setValue(s string, i int) (string, int, error) {
	if i < len(s) && (s[i] == '\'' || s[i] == '"') {
		q := s[i]
		end := strings.IndexByte(s[i+1:], q)
		if end < 0 {
			return "", 0, fmt.Errorf("the value's %c is not closed", q)
		}
		end += i + 1
		if end+1 < len(s) && !isSetSep(s[end+1]) {
			return "", 0, fmt.Errorf("want a space or a comma after the value's closing %c", q)
		}
		return s[i+1 : end], end + 1, nil
	}
	start := i
	for i < len(s) && !isSpace(s[i]) {
		if s[i] == ',' && startsPair(s, i+1) {
			break
		}
		i++
	}
	return s[start:i], i, nil
}

// startsPair reports whether the piece at s[i] (up to the next comma or
// whitespace) is a KEY=... pair, or empty (a doubled or trailing comma).
func startsPair(s string, i int) bool {
	end := pieceEnd(s, i)
	if end == i {
		return true
	}
	eq := strings.IndexByte(s[i:end], '=')
	return eq > 0
}

// pieceEnd is the end of the piece at s[i]: the next comma or whitespace.
func pieceEnd(s string, i int) int {
	for i < len(s) && !isSetSep(s[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isSetSep(c byte) bool { return c == ',' || isSpace(c) }
