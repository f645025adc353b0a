package partfile

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"schedplay/core/experiment"
)

// testParts builds the n parts of a run of jobs jobs.
func testParts(jobs, n int) []*Part {
	enc := `{"version":1,"name":"t"}`
	var parts []*Part
	for k := 1; k <= n; k++ {
		p := &Part{Command: "sweep", Args: []string{"-runs", "2"}, Build: "test",
			Scenarios: []PartScenario{{Name: "t", SHA256: HashEncoding([]byte(enc)), Encoding: enc}},
			Plans:     []PartPlan{{Jobs: jobs, SHA256: strings.Repeat("ab", 32)}}, Jobs: jobs, Shard: k, Shards: n}
		for _, j := range (experiment.Shard{K: k, N: n}).Jobs(jobs) {
			p.Results = append(p.Results, PartResult{Job: j, Topology: "smp-2", Kernel: "v6.18",
				Values: experiment.Values{"switches": float64(j), "latency.p99": 0.1 + float64(j)/3}})
		}
		parts = append(parts, p)
	}
	return parts
}

func encodeAll(t *testing.T, parts []*Part) [][]byte {
	t.Helper()
	var out [][]byte
	for _, p := range parts {
		b, err := EncodePart(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// TestPartRoundTrip: a decoded part equals the encoded one, values
// exactly (a merged table must be the unsharded bytes).
func TestPartRoundTrip(t *testing.T) {
	for _, n := range []int{1, 3, 9} {
		parts := testParts(7, n)
		for i, b := range encodeAll(t, parts) {
			got, err := DecodePart(b)
			if err != nil {
				t.Fatalf("part %d/%d: %v\n%s", i+1, n, err, b)
			}
			want := *parts[i]
			want.Schema = PartSchema
			if !reflect.DeepEqual(got, &want) {
				t.Errorf("part %d/%d: decoded %+v, want %+v", i+1, n, got, want)
			}
		}
	}
}

func TestMergeParts(t *testing.T) {
	parts := testParts(7, 3)
	files := []string{"a.json", "b.json", "c.json"}
	res, err := MergeParts(files, parts)
	if err != nil {
		t.Fatal(err)
	}
	for j, r := range res {
		if r.Job != j || r.Values["switches"] != float64(j) {
			t.Errorf("merged job %d: %+v", j, r)
		}
	}
	// Order of the files does not matter.
	if res2, err := MergeParts([]string{"c.json", "a.json", "b.json"}, []*Part{parts[2], parts[0], parts[1]}); err != nil || !reflect.DeepEqual(res, res2) {
		t.Errorf("merge in another order: %v", err)
	}
	other := testParts(7, 3)
	other[1].Scenarios[0].SHA256 = strings.Repeat("0", 64)
	otherPlan := testParts(7, 3)
	otherPlan[2].Plans[0].SHA256 = strings.Repeat("cd", 32)
	otherBuild := testParts(7, 3)
	otherBuild[1].Build = "v2"
	cases := []struct {
		files []string
		parts []*Part
		want  string
	}{
		{files[:2], parts[:2], "shard 3/3 missing (2 of 3 parts given)"},
		{[]string{"a.json", "b.json", "x.json"}, []*Part{parts[0], parts[1], parts[1]}, "shard 2/3 given twice: b.json and x.json"},
		{files, []*Part{parts[0], other[1], parts[2]}, "b.json: not a shard of the same run as a.json: scenario t (sha256 000000000000) here"},
		{files, []*Part{parts[0], parts[1], otherPlan[2]}, "c.json: not a shard of the same run as a.json: job plan"},
		{files, []*Part{parts[0], otherBuild[1], parts[2]}, "schedplay build v2 here, test there"},
		{files[:2], []*Part{parts[0], testParts(7, 4)[1]}, "shard count 4 here, 3 there"},
		{nil, nil, "no part files"},
	}
	for _, c := range cases {
		if _, err := MergeParts(c.files, c.parts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("MergeParts(%v): %v; want %q", c.files, err, c.want)
		}
	}
	many := testParts(30, 20)
	if _, err := MergeParts([]string{"a"}, many[:1]); err == nil || !strings.Contains(err.Error(), "... (19 in all)") {
		t.Errorf("19 missing shards: %v", err)
	}
}

// TestDecodePartErrors: bad files get errors naming what is wrong.
func TestDecodePartErrors(t *testing.T) {
	good := encodeAll(t, testParts(7, 3))[1]
	edit := func(old, new string) []byte {
		if !bytes.Contains(good, []byte(old)) {
			t.Fatalf("%q not in the part", old)
		}
		return bytes.Replace(good, []byte(old), []byte(new), 1)
	}
	cases := []struct {
		data []byte
		want string
	}{
		{good[:len(good)/2], "not a part file (truncated or not JSON)"},
		{nil, "not a part file"},
		{[]byte(`[]`), "not a part file"},
		{edit(PartSchema, "schedplay.part/v2"), `schema "schedplay.part/v2": want "schedplay.part/v1"`},
		{edit(`"command":"sweep"`, `"command":"run"`), `command "run"`},
		{edit(`"build":"test"`, `"build":"test","extra":1`), `unknown field "extra"`},
		{edit(`"shard":2`, `"shard":5`), "shard: shard 5/3"},
		{edit(`"shards":3`, `"shards":0`), "shard count 0"},
		{edit(`"jobs":7,"shard"`, `"jobs":8,"shard"`), "jobs 8: the plans hold 7"},
		{edit(`"sha256":"abab`, `"sha256":"zzab`), "plans[0].sha256"},
		{edit(`\"name\":\"t\"}`, `\"name\":\"u\"}`), "does not match its encoding"},
		{edit(`{"job":1,`, `{"job":2,`), "results[0]: job 2; want job 1"},
		{edit(`,
{"job":4,`, `,
{"job":1,`), "results[1]: job 1; want job 4"},
		{append(bytes.Clone(good), []byte(" {}")...), "not a part file"},
		{edit(`"values":{"latency.p99":0.43333333333333335,"switches":1}`, `"values":null`), "no values"},
		{bytes.Repeat([]byte(" "), MaxPartBytes+1), fmt.Sprintf("a part file is at most %d", MaxPartBytes)},
	}
	for i, c := range cases {
		if _, err := DecodePart(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("case %d: %v; want %q", i, err, c.want)
		}
	}
	// A part missing one of its jobs.
	p := testParts(7, 3)[1]
	p.Results = p.Results[:1]
	b, _ := EncodePart(p)
	if _, err := DecodePart(b); err == nil || !strings.Contains(err.Error(), "results: 1 jobs; shard 2/3 of 7 jobs holds 2") {
		t.Errorf("a part short of a job: %v", err)
	}
}

// FuzzDecodePart: any input decodes or fails with an error, never a
// panic; what decodes re-encodes to a part that decodes the same.
func FuzzDecodePart(f *testing.F) {
	for _, b := range encodeAll(&testing.T{}, testParts(5, 2)) {
		f.Add(b)
	}
	empty, _ := EncodePart(testParts(1, 3)[2])
	f.Add(empty)
	f.Add([]byte(`{"schema":"schedplay.part/v1"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := DecodePart(data)
		if err != nil {
			if msg := err.Error(); len(msg) > 1024 || strings.ContainsAny(msg, "\n\r\x00\x1b") {
				t.Fatalf("error of %d bytes, want at most 1024 escaped: %.300q", len(msg), msg)
			}
			return
		}
		b, err := EncodePart(p)
		if err != nil {
			t.Fatalf("re-encoding a decoded part: %v", err)
		}
		q, err := DecodePart(b)
		if err != nil || !reflect.DeepEqual(p, q) {
			t.Fatalf("re-decoded part differs (%v)", err)
		}
	})
}
