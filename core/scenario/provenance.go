package scenario

// Provenance: where a scenario came from, as the CLI can say it: the
// preset it is named after and the `-set KEY=VALUE` flags that turn the
// preset into it, key by key in key-table order (KeyInfos, Value). What
// no -set key names (a task group's fields, a workload, a cgroup, the
// description) is flagged as Other, so a result never claims a command
// that would not reproduce it. The experiment block is not part of the
// configuration (it says how to run, not what runs) and is left out of
// the comparison. The playground's "(modified)" list, its results'
// regenerate commands and the thread tables' Markdown read it
// (docs/playground.md, docs/compare.md).

import (
	"bytes"
	"strings"

	"schedplay/core/quote"
)

// KeyDiff is one -set key whose value differs between a scenario and the
// one it is compared with: both texts, "" when that side leaves the key
// to its default.
type KeyDiff struct {
	Key, Value, Base string
}

// Provenance is a scenario described against its preset.
type Provenance struct {
	Preset string    // the preset the scenario is named after; "" if none
	Diff   []KeyDiff // the keys that differ, in key-table order
	Sets   []string  // KEY=VALUE flags that turn the preset into the scenario
	// Cleared lists the keys of Diff the scenario leaves to their default
	// where the preset gives them: -set has no word for that.
	Cleared []string
	// Other: the scenario also differs in fields no key names (a task
	// group's fields, a workload, a cgroup, the description).
	Other bool
}

// Modified reports whether the scenario differs from its preset.
func (p Provenance) Modified() bool { return len(p.Diff) > 0 || p.Other }

// Exact reports whether the preset with Sets is the scenario, so that a
// command of -preset and -set flags reproduces it.
func (p Provenance) Exact() bool { return !p.Other && len(p.Cleared) == 0 }

// SetFlags renders Sets as command-line flags, each quoted for a POSIX
// shell when it needs to be: " -set kernel.hz=1000 -set 'x=a b'" (with
// the leading space; "" when there are none).
func (p Provenance) SetFlags() string {
	var b strings.Builder
	for _, s := range p.Sets {
		b.WriteString(" -set " + ShellQuote(s))
	}
	return b.String()
}

// ProvenanceOf compares sc with the preset of its name (no preset: an
// empty Provenance).
func ProvenanceOf(sc *Scenario) Provenance {
	base, err := Preset(sc.Name)
	if err != nil {
		return Provenance{}
	}
	return Compare(base, sc)
}

// Compare describes sc against base (named after base.Name).
func Compare(base, sc *Scenario) Provenance {
	p := Provenance{Preset: base.Name}
	b, s := withoutExperiment(base), withoutExperiment(sc)
	if b == nil || s == nil {
		return Provenance{Preset: base.Name, Other: true}
	}
	for _, k := range KeyInfos() {
		v, given := s.Value(k.Key)
		bv, bgiven := b.Value(k.Key)
		if v == bv && given == bgiven {
			continue
		}
		p.Diff = append(p.Diff, KeyDiff{Key: k.Key, Value: v, Base: bv})
		switch {
		case given:
			p.Sets = append(p.Sets, k.Key+"="+v)
		case unsetText(k.Key) != "":
			p.Sets = append(p.Sets, k.Key+"="+unsetText(k.Key))
		default:
			p.Cleared = append(p.Cleared, k.Key)
		}
	}
	// With every differing key undone, what is left differs in fields no
	// key names.
	back := withoutExperiment(s)
	for _, d := range p.Diff {
		if Undo(back, b, d.Key) != nil {
			p.Other = true
		}
	}
	if !bytes.Equal(back.Encode(), b.Encode()) {
		p.Other = true
	}
	// And when -set can say it all, the flags applied to the preset must
	// give the scenario itself.
	if p.Exact() {
		for _, kv := range p.Sets {
			if b.Set(kv) != nil {
				p.Other = true
			}
		}
		if !bytes.Equal(b.Encode(), s.Encode()) {
			p.Other = true
		}
	}
	return p
}

// Undo sets key of sc back to base's value (or clears it, when base
// leaves it to its default).
func Undo(sc, base *Scenario, key string) error {
	if v, ok := base.Value(key); ok {
		return sc.Set(key + "=" + v)
	}
	return sc.Clear(key)
}

// withoutExperiment is a private copy of sc without its experiment block
// (nil if it does not decode back, which a valid scenario always does).
func withoutExperiment(sc *Scenario) *Scenario {
	c, err := Decode(sc.Encode())
	if err != nil {
		return nil
	}
	c.Experiment = nil
	return c
}

// unsetText is the -set text that clears key, if it has one.
func unsetText(key string) string {
	if k := rowByName(key); k != nil {
		return k.unset
	}
	return ""
}

// ShellQuote quotes s for a POSIX shell when it holds anything but
// letters, digits and -_.,:/=@%+ (single quotes, ' as '\”).
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.,:/=@%+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ShellFields splits a command line made of ShellQuote'd words (a
// regenerate command) back into its words: blanks separate them, single
// quotes quote, and a backslash outside quotes takes the next character
// as it is (ShellQuote's '\”). An unclosed quote is an error.
func ShellFields(cmd string) ([]string, error) {
	var out []string
	var cur strings.Builder
	in, esc, have := false, false, false
	for _, r := range cmd {
		switch {
		case esc:
			cur.WriteRune(r)
			esc = false
		case r == '\'':
			in, have = !in, true
		case r == '\\' && !in:
			esc, have = true, true
		case r == ' ' && !in:
			if have {
				out = append(out, cur.String())
			}
			cur.Reset()
			have = false
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if in || esc {
		return nil, quote.Errorf("%q: an unclosed quote or a trailing backslash", cmd)
	}
	if have {
		out = append(out, cur.String())
	}
	return out, nil
}
