package scenario

// The key table: one row per top-level or kernel key of the scenario
// format (docs/scenario-format.md "Top level"), and one row per family of
// keys (features.NAME, sysctl.NAME, hw.NAME, tasks.NAME.instances,
// workloads.NAME.PARAM, ...). The decoder, the encoder, `-set`,
// `schedplay keys` and the browser's knob panel all read this table, as
// the workload generators read their Param rows (workload_params.go).
//
// The rows are in document order: the canonical encoding writes the keys
// in this order, and `schedplay keys` lists them in it. A row named
// "SECTION.KEY" lives in the JSON object SECTION ("kernel").

import (
	"strconv"
	"strings"

	"schedplay/core/quote"
	"schedplay/core/sched"
)

// keyDef is one row of the key table: a scalar key bound to a field of
// the Scenario, or (fam set) a family of keys with its own codec.
type keyDef struct {
	name string // dotted key, e.g. "kernel.hz"; a family's JSON key
	typ  string // the type column of `schedplay keys`
	help string
	// helpFn, when set, builds help from the tables of sched (called
	// only when the keys are listed, not at package init).
	helpFn func() string
	// field returns a pointer to the key's field: *string, *int, *uint64,
	// *bool, *Duration or **Duration; the zero value means "not given"
	// (the profile's or machine's default) unless always is set.
	field func(sc *Scenario) any
	// always: the key is written even at its zero value (the defaults
	// New fills in are part of the canonical form).
	always bool
	// choices lists the accepted values when they are a short list (the
	// knob panel's options); nil: free, or checked where it is used.
	choices func() []string
	// check is the rule on the value beyond its type, applied by the
	// decoder, Set and Build alike; it gets the value's text.
	check func(text string) error
	// unset is the -set text that clears the key ("random"), if any.
	unset string
	// def is the value that applies when the key is not given, when it
	// is one fixed value (KeyInfo.Default); defaultOf names where it
	// comes from otherwise ("the profile's"), for the decoder's hint.
	def, defaultOf string
	// noSet marks a key of the document only (not a -set key).
	noSet bool
	// required is the error message when the key is missing.
	required string
	fam      *family
}

// family is the codec of a family of keys under one JSON key: an object
// of named members (features, sysctl, hw), or an array whose members
// -set addresses by name (tasks, workloads). A new family is one entry:
// a family value and its row in keyTable, at the place its key takes in
// the canonical encoding (where a scenario without it writes nothing, so
// existing encodings keep their bytes).
type family struct {
	// members lists its keys for `schedplay keys` (templates such as
	// tasks.NAME.instances stand for every name).
	members func() []KeyInfo
	decode  func(sc *Scenario, v any) error
	// encode writes the JSON value; false: the key is left out (nothing
	// was written).
	encode func(w *jw, sc *Scenario) bool
	// set applies -set KEY=VAL where KEY is "NAME.REST"; nil: not a -set
	// family.
	set func(sc *Scenario, key, rest, val string) error
	// clear drops member rest (back to the default); nil or false: the
	// key cannot be cleared.
	clear func(sc *Scenario, rest string) bool
	// value returns member rest's text and whether the scenario gives
	// it; nil: Scenario.Value does not read the family.
	value func(sc *Scenario, rest string) (string, bool)
	// clone gives dst copies of what Set changes in place (maps).
	clone func(dst, src *Scenario)
	// late: decoded after every other key, so that an error in a setting
	// is reported before one in the (much longer) task list.
	late bool
}

// keyTable is the table, in document order.
var keyTable = []keyDef{
	{name: "version", typ: "integer", noSet: true, required: "missing; want 1",
		fam: &family{decode: decodeVersion, encode: func(w *jw, _ *Scenario) bool { w.b.WriteString("1"); return true }}},
	{name: "name", typ: "string", help: "the scenario's name, shown in the UI and in metrics (scenario)",
		field: func(sc *Scenario) any { return &sc.Name }, check: checkName},
	{name: "description", typ: "string", noSet: true,
		field: func(sc *Scenario) any { return &sc.Description }},
	{name: "topology", typ: "string", help: "machine preset (schedplay topologies)", always: true,
		field: func(sc *Scenario) any { return &sc.Topology }},
	{name: "kernel.version", typ: "string", helpFn: func() string { return "kernel profile: " + strings.Join(sched.ProfileNames(), ", ") }, always: true,
		field: func(sc *Scenario) any { return &sc.Kernel.Version }, choices: sched.ProfileNames},
	{name: "kernel.hz", typ: "integer", helpFn: func() string { return "CONFIG_HZ: " + hzRange() },
		field: func(sc *Scenario) any { return &sc.Kernel.HZ }, choices: hzTexts, check: checkHZ, defaultOf: "the profile's"},
	{name: "kernel.preempt", typ: "string", helpFn: func() string {
		return "preemption model: " + strings.Join(sched.PreemptNames(), ", ") + " (lazy from v6.13)"
	},
		field: func(sc *Scenario) any { return &sc.Kernel.Preempt }, choices: sched.PreemptNames, check: checkPreempt, defaultOf: "the profile's"},
	{name: "kernel.tick_offset", typ: "duration|random", help: "where the jiffies grid lies after the run's start (0 <= x < 1/HZ); default random: drawn from the seed",
		field: func(sc *Scenario) any { return &sc.Kernel.TickOffset }, unset: "random"},
	autogroupRow,    // cgroup_keys.go
	rtGroupSchedRow, // cgroup_keys.go
	{name: "features", fam: featuresFamily},
	{name: "sysctl", fam: sysctlFamily},
	{name: "hw", fam: hwFamily},
	{name: "duration", typ: "duration", help: "simulated time, e.g. 10s or 250ms", always: true,
		field: func(sc *Scenario) any { return &sc.Duration }},
	{name: "seed", typ: "integer", help: "seed of the run's random number generator", always: true,
		field: func(sc *Scenario) any { return &sc.Seed }},
	{name: "pi", typ: "true|false", help: "mutexes of lock/unlock steps with priority inheritance (rt-app pi_enabled); default false",
		field: func(sc *Scenario) any { return &sc.PI }, def: "false", choices: func() []string { return []string{"false", "true"} }},
	{name: "tasks", fam: tasksFamily},
	{name: "workloads", fam: workloadsFamily},
	{name: "semaphores", fam: &family{
		decode: func(sc *Scenario, v any) (err error) { sc.Semaphores, err = decodeSemaphores(v); return err },
		encode: func(w *jw, sc *Scenario) bool {
			if len(sc.Semaphores) == 0 {
				return false
			}
			encodeSemaphores(w, sc.Semaphores)
			return true
		}}},
	{name: "cgroups", fam: cgroupsFamily}, // cgroup_keys.go
	{name: "experiment", fam: &family{
		decode: func(sc *Scenario, v any) (err error) { sc.Experiment, err = decodeExperiment(v); return err },
		encode: func(w *jw, sc *Scenario) bool {
			if sc.Experiment == nil {
				return false
			}
			encodeExperiment(w, sc.Experiment)
			return true
		}}},
}

// hzRange is the HZ rule in words: "100, 250, 300 or 1000".
func hzRange() string {
	t := hzTexts()
	return strings.Join(t[:len(t)-1], ", ") + " or " + t[len(t)-1]
}

func hzTexts() []string {
	var out []string
	for _, hz := range sched.HZChoices() {
		out = append(out, strconv.Itoa(hz))
	}
	return out
}

// checkHZ is the one HZ rule of the decoder, Set and Build.
// MaxName bounds the scenario's name, in bytes: a name is a title (the
// page's header, the metrics' "scenario"), and "replay of " and a file
// name of the longest a file system allows still fit.
const MaxName = 1024

// checkName bounds the name without quoting it (it may be that long).
func checkName(text string) error {
	if len(text) > MaxName {
		return errAt("", "%d bytes: want at most %d", len(text), MaxName)
	}
	return nil
}

func checkHZ(text string) error {
	if n, err := strconv.Atoi(text); err == nil && sched.ValidHZ(n) {
		return nil
	}
	return errAt("", "%s: want %s", quote.Clip(text), hzRange())
}

func checkPreempt(text string) error {
	_, err := sched.ParsePreempt(text)
	return err
}

// KeyInfo documents one scenario key for `schedplay keys` and the knob
// panel.
type KeyInfo struct {
	Key  string // e.g. "kernel.hz", "features.PLACE_LAG", "tasks.NAME.instances"
	Type string // e.g. "integer", "on|off", a sysctl's unit
	Help string // what the key does
	// Notes follow Help in `schedplay keys`: status, per-machine defaults,
	// sources ("" none).
	Notes string
	// Choices are the accepted values when they are a short list.
	Choices []string
	// Default is the value that applies when the key is not given, when
	// it is one fixed value ("" when it depends on the profile or machine).
	Default string
}

// KeyInfos lists every key `-set` accepts, in document order, each
// family expanded into its members.
func KeyInfos() []KeyInfo {
	var out []KeyInfo
	for i := range keyTable {
		k := &keyTable[i]
		switch {
		case k.noSet:
		case k.fam != nil:
			if k.fam.members != nil {
				out = append(out, k.fam.members()...)
			}
		default:
			info := KeyInfo{Key: k.name, Type: k.typ, Help: k.help, Default: k.def}
			if k.helpFn != nil {
				info.Help = k.helpFn()
			}
			if k.choices != nil {
				info.Choices = k.choices()
			}
			out = append(out, info)
		}
	}
	return out
}

// LookupKey returns the documentation of one key (a family member by its
// full name, e.g. "features.PLACE_LAG").
func LookupKey(key string) (KeyInfo, bool) {
	for _, k := range KeyInfos() {
		if k.Key == key {
			return k, true
		}
	}
	return KeyInfo{}, false
}

// Keys renders KeyInfos as the lines of `schedplay keys`:
// KEY, TYPE and HELP separated by tabs.
func Keys() []string {
	var out []string
	for _, k := range KeyInfos() {
		out = append(out, k.Key+"\t"+k.Type+"\t"+k.Help+k.Notes)
	}
	return out
}

// rowByName finds a scalar row.
func rowByName(name string) *keyDef {
	for i := range keyTable {
		if k := &keyTable[i]; k.fam == nil && k.name == name {
			return k
		}
	}
	return nil
}

// familyByName finds a family row.
func familyByName(name string) *keyDef {
	for i := range keyTable {
		if k := &keyTable[i]; k.fam != nil && k.name == name {
			return k
		}
	}
	return nil
}
