package partfile

// Part files: the results of one shard of a compare, sweep or validate
// run (`-shard K/N -part FILE`), versioned JSON that `schedplay merge`
// combines into the bytes the unsharded command writes (docs/batch.md).
// A part names what produced it (the command, its output-shaping
// arguments, the build, each scenario's canonical encoding and its
// SHA-256, a digest of the whole job plan, K and N) so that merge refuses
// parts of different runs, and holds its jobs' measured values by plan
// index. Decoding is bounded and every field is checked, so a truncated,
// foreign or hostile file gets an error naming it, never a panic.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"schedplay/core/experiment"
	"schedplay/core/quote"
)

// PartSchema is the schema (and version) of part files.
const PartSchema = "schedplay.part/v1"

// Bounds of a part file.
const (
	MaxPartBytes     = 256 << 20 // the file
	maxPartJobs      = 1 << 22   // jobs in the plan
	maxPartScenarios = 1000
	maxPartValues    = 1 << 16 // metrics per job
	maxPartArgs      = 1000
	maxPartString    = 1 << 10 // a name, topology, kernel, argument, metric name
)

// Part is one shard's results.
type Part struct {
	Schema    string         `json:"schema"`
	Command   string         `json:"command"` // compare, sweep or validate
	Args      []string       `json:"args"`    // the arguments that shape the output (no -shard, -part, -o, -csv, -progress)
	Build     string         `json:"build"`   // the schedplay build that ran it
	Scenarios []PartScenario `json:"scenarios"`
	Plans     []PartPlan     `json:"plans"`  // the job plans, one per scenario run
	Jobs      int            `json:"jobs"`   // jobs in all plans
	Shard     int            `json:"shard"`  // K, from 1
	Shards    int            `json:"shards"` // N
	Results   []PartResult   `json:"results"`
}

// PartScenario is a scenario the run planned from, as it was after the
// command's flags applied.
type PartScenario struct {
	Name     string `json:"name"`
	SHA256   string `json:"sha256"`   // of Encoding
	Encoding string `json:"encoding"` // scenario.Encode: canonical JSON
}

// PartPlan identifies one plan: its job count and PlanDigest.
type PartPlan struct {
	Jobs   int    `json:"jobs"`
	SHA256 string `json:"sha256"`
}

// PartResult is one job's outcome.
type PartResult struct {
	Job      int               `json:"job"` // index in the whole plan
	Topology string            `json:"topology"`
	Kernel   string            `json:"kernel"`
	Values   experiment.Values `json:"values"`
}

// HashEncoding is the hex SHA-256 of a scenario encoding.
func HashEncoding(enc []byte) string {
	h := sha256.Sum256(enc)
	return hex.EncodeToString(h[:])
}

// EncodePart renders p (schema set, one line per result so that parts
// diff well).
func EncodePart(p *Part) ([]byte, error) {
	q := *p
	q.Schema = PartSchema
	q.Results = nil
	head, err := json.Marshal(q)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Write(bytes.TrimSuffix(head, []byte(`null}`)))
	b.WriteString("[")
	for i, r := range p.Results {
		js, err := json.Marshal(r)
		if err != nil {
			return nil, fmt.Errorf("job %d: %v", r.Job, err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n")
		b.Write(js)
	}
	b.WriteString("\n]}\n")
	return b.Bytes(), nil
}

// DecodePart reads and checks a part file.
func DecodePart(data []byte) (*Part, error) {
	if len(data) > MaxPartBytes {
		return nil, fmt.Errorf("%d bytes; a part file is at most %d", len(data), MaxPartBytes)
	}
	var head struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("not a part file (truncated or not JSON): %v", err)
	}
	if head.Schema != PartSchema {
		return nil, quote.Errorf("schema %q: want %q (a part file of another schedplay version?)", head.Schema, PartSchema)
	}
	var p Part
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("part file: %v", quote.Bound(err))
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	if len(p.Results) == 0 {
		p.Results = nil // an empty shard decodes alike however it was written
	}
	return &p, nil
}

// check validates a decoded part's fields and that it holds exactly the
// jobs of its shard.
func (p *Part) check() error {
	switch p.Command {
	case "compare", "sweep", "validate":
	default:
		return quote.Errorf("command %q: want compare, sweep or validate", p.Command)
	}
	if len(p.Args) > maxPartArgs {
		return fmt.Errorf("args: %d arguments; the limit is %d", len(p.Args), maxPartArgs)
	}
	for i, a := range p.Args {
		if len(a) > 64*maxPartString {
			return fmt.Errorf("args[%d]: %d bytes; the limit is %d", i, len(a), 64*maxPartString)
		}
	}
	if len(p.Build) > maxPartString {
		return fmt.Errorf("build: %d bytes; the limit is %d", len(p.Build), maxPartString)
	}
	if err := (experiment.Shard{K: p.Shard, N: p.Shards}).Check(); err != nil {
		return fmt.Errorf("shard: %v", err)
	}
	if p.Jobs < 0 || p.Jobs > maxPartJobs {
		return fmt.Errorf("jobs %d: want 0..%d", p.Jobs, maxPartJobs)
	}
	if len(p.Plans) > maxPartScenarios {
		return fmt.Errorf("plans: %d; the limit is %d", len(p.Plans), maxPartScenarios)
	}
	total := 0
	for i, pl := range p.Plans {
		if !isHexDigest(pl.SHA256) {
			return quote.Errorf("plans[%d].sha256 %q: want a hex SHA-256", i, pl.SHA256)
		}
		if pl.Jobs < 0 || pl.Jobs > maxPartJobs {
			return fmt.Errorf("plans[%d].jobs %d: want 0..%d", i, pl.Jobs, maxPartJobs)
		}
		total += pl.Jobs
	}
	if total != p.Jobs {
		return fmt.Errorf("jobs %d: the plans hold %d", p.Jobs, total)
	}
	if len(p.Scenarios) == 0 || len(p.Scenarios) > maxPartScenarios {
		return fmt.Errorf("scenarios: %d; want 1..%d", len(p.Scenarios), maxPartScenarios)
	}
	for i, s := range p.Scenarios {
		if len(s.Name) > maxPartString {
			return fmt.Errorf("scenarios[%d].name: %d bytes; the limit is %d", i, len(s.Name), maxPartString)
		}
		if got := HashEncoding([]byte(s.Encoding)); s.SHA256 != got {
			return quote.Errorf("scenarios[%d] (%s): sha256 %q does not match its encoding (%s): the file was altered", i, s.Name, s.SHA256, got)
		}
	}
	sh := experiment.Shard{K: p.Shard, N: p.Shards}
	want := 0
	if p.Shard <= p.Jobs {
		want = (p.Jobs-p.Shard)/p.Shards + 1
	}
	if len(p.Results) != want {
		return fmt.Errorf("results: %d jobs; shard %s of %d jobs holds %d", len(p.Results), sh, p.Jobs, want)
	}
	for i, r := range p.Results {
		if j := p.Shard - 1 + i*p.Shards; r.Job != j {
			return fmt.Errorf("results[%d]: job %d; want job %d (shard %s holds jobs %d, %d, ...)", i, r.Job, j, sh, p.Shard-1, p.Shard-1+p.Shards)
		}
		if len(r.Topology) > maxPartString || len(r.Kernel) > maxPartString {
			return fmt.Errorf("results[%d] (job %d): topology or kernel longer than %d bytes", i, r.Job, maxPartString)
		}
		if r.Values == nil {
			return fmt.Errorf("results[%d] (job %d): no values", i, r.Job)
		}
		if len(r.Values) > maxPartValues {
			return fmt.Errorf("results[%d] (job %d): %d values; the limit is %d", i, r.Job, len(r.Values), maxPartValues)
		}
		for k := range r.Values {
			if len(k) > maxPartString {
				return fmt.Errorf("results[%d] (job %d): a metric name of %d bytes; the limit is %d", i, r.Job, len(k), maxPartString)
			}
		}
	}
	return nil
}

func isHexDigest(s string) bool {
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// ShardError is a missing or duplicated shard among the parts merged.
type ShardError struct{ Msg string }

func (e ShardError) Error() string { return e.Msg }

// MergeParts checks that parts (read from files, named alike) are the
// shards of one run, each exactly once, and returns every job's result
// in plan order.
func MergeParts(files []string, parts []*Part) ([]PartResult, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("no part files")
	}
	p0, f0 := parts[0], files[0]
	byShard := make(map[int]string, len(parts))
	for i, p := range parts {
		if err := sameRun(files[i], p, f0, p0); err != nil {
			return nil, err
		}
		if prev, ok := byShard[p.Shard]; ok {
			return nil, ShardError{fmt.Sprintf("shard %d/%d given twice: %s and %s", p.Shard, p.Shards, quote.Clip(prev), quote.Clip(files[i]))}
		}
		byShard[p.Shard] = files[i]
	}
	var missing []string
	for k := 1; k <= p0.Shards; k++ {
		if _, ok := byShard[k]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", k, p0.Shards))
		}
	}
	if len(missing) > 0 {
		if len(missing) > 10 {
			missing = append(missing[:10], fmt.Sprintf("... (%d in all)", len(missing)))
		}
		return nil, ShardError{fmt.Sprintf("shard %s missing (%d of %d parts given)", strings.Join(missing, ", "), len(parts), p0.Shards)}
	}
	out := make([]PartResult, p0.Jobs)
	for _, p := range parts {
		for _, r := range p.Results {
			out[r.Job] = r
		}
	}
	return out, nil
}

// sameRun explains how part p (file f) differs from the first part p0.
func sameRun(f string, p *Part, f0 string, p0 *Part) error {
	diff := func(what, here, there string) error {
		return fmt.Errorf("%s: not a shard of the same run as %s: %s %s here, %s there", quote.Clip(f), quote.Clip(f0), what, quote.Clip(here), quote.Clip(there))
	}
	switch {
	case p.Command != p0.Command:
		return diff("command", p.Command, p0.Command)
	case !slices.Equal(p.Args, p0.Args):
		return diff("arguments", quote.Sprintf("%q", p.Args), quote.Sprintf("%q", p0.Args))
	case p.Shards != p0.Shards:
		return diff("shard count", fmt.Sprint(p.Shards), fmt.Sprint(p0.Shards))
	case len(p.Scenarios) != len(p0.Scenarios):
		return diff("scenario count", fmt.Sprint(len(p.Scenarios)), fmt.Sprint(len(p0.Scenarios)))
	}
	for i, s := range p.Scenarios {
		s0 := p0.Scenarios[i]
		if s.Name != s0.Name || s.SHA256 != s0.SHA256 {
			return diff("scenario", s.Name+" (sha256 "+s.SHA256[:12]+")", s0.Name+" (sha256 "+s0.SHA256[:12]+")")
		}
	}
	switch {
	case p.Build != p0.Build:
		return diff("schedplay build", p.Build, p0.Build)
	case !slices.Equal(p.Plans, p0.Plans):
		return diff("job plan", planText(p), planText(p0))
	}
	return nil
}

func planText(p *Part) string {
	var s []string
	for _, pl := range p.Plans {
		s = append(s, fmt.Sprintf("%d jobs (sha256 %.12s)", pl.Jobs, pl.SHA256))
	}
	return strings.Join(s, ", ")
}

// PlanDigest is the hex SHA-256 of the identity of a plan's jobs
// (configuration, label, overrides, seed, scenario name, task groups,
// CPUs, duration): what merge re-plans must be what the shards ran.
func PlanDigest(jobs []experiment.Job, cfgs []experiment.Config) string {
	h := sha256.New()
	for _, j := range jobs {
		c := cfgs[j.Config]
		fmt.Fprintf(h, "%d\x00%q\x00%q\x00%d\x00%q\x00%q\x00%d\x00%d\n", j.Config, c.Label, c.Sets, j.Seed, j.Name, j.Groups,
			j.Cfg.Machine.NumCPUs(), j.Cfg.Duration)
	}
	return hex.EncodeToString(h.Sum(nil))
}
