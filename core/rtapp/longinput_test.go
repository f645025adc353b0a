package rtapp

// Errors and warnings of the importer quote the file's keys and values
// bounded (core/quote): a 40 KB thread name, event key, policy, resource
// or number gives a message of a few hundred bytes that names its length.

import (
	"strings"
	"testing"
)

// maxMsgBytes bounds one error or warning about a bad input.
const maxMsgBytes = 1024

func TestLongInputImport(t *testing.T) {
	big := strings.Repeat("k", 40<<10)
	thread := func(body string) string { return `{"tasks":{"t":{` + body + `}}}` }
	for name, doc := range map[string]string{
		"top-level key":  `{"` + big + `":1,"tasks":{"t":{"run":1000}}}`,
		"global key":     `{"global":{"` + big + `":1},"tasks":{"t":{"run":1000}}}`,
		"thread name":    `{"tasks":{"` + big + `":{"run":1000}}}`,
		"thread key":     `{"tasks":{"a.` + big + `":{"run":1000}}}`,
		"event key":      thread(`"` + big + `":1000`),
		"policy":         thread(`"policy":"` + big + `","run":1000`),
		"lock":           thread(`"lock":"` + big + `","run":1000`),
		"unlock":         thread(`"unlock":"` + big + `","run":1000`),
		"taskgroup":      `{"cgroups":{"/A":{"cpu.weight":"50"}},"tasks":{"t":{"taskgroup":"` + big + `","run":1000}}}`,
		"timer mode":     thread(`"timer":{"ref":"x","period":1000,"mode":"` + big + `"},"run":1000`),
		"fork":           thread(`"fork":"` + big + `","run":1000`),
		"bad number":     thread(`"run":1` + strings.Repeat("0", 40<<10) + `e`),
		"number string":  thread(`"policy":1` + strings.Repeat("0", 40<<10) + `,"run":1000`),
		"string in key":  thread(`"run":1000,"sleep":"` + big + `"`),
		"cgroup path":    `{"cgroups":{"/` + big + `":{"cpu.weight":"50"}},"tasks":{"t":{"run":1000}}}`,
		"cgroup file":    `{"cgroups":{"/A":{"` + big + `":"50"}},"tasks":{"t":{"run":1000}}}`,
		"phase name":     thread(`"phases":{"` + big + `":{"run":1000,"sleep":"x"}}`),
		"resource key":   `{"resources":{"` + big + `":{"type":"mutex"}},"tasks":{"t":{"run":1000}}}`,
		"barrier ref":    thread(`"barrier":"` + big + `","run":1000`),
		"unknown string": thread(`"run":"` + big + `"`),
	} {
		_, warns, err := Import([]byte(doc))
		long := false
		if err != nil {
			long = len(err.Error()) > maxMsgBytes
			if long {
				t.Errorf("%s: error of %d bytes, want at most %d: %.200s...", name, len(err.Error()), maxMsgBytes, err)
			}
		}
		for _, w := range warns {
			if n := len(w.String()); n > maxMsgBytes {
				t.Errorf("%s: warning of %d bytes, want at most %d: %.200s...", name, n, maxMsgBytes, w.String())
			}
		}
		if err == nil && len(warns) == 0 {
			t.Errorf("%s: imported without an error or a warning", name)
		}
	}
}
