// Package golden holds the behaviour lock of the simulator: every built-in
// preset is run under every kernel profile, and the hashes of its ftrace
// text, Perfetto JSON and metrics JSON are compared with
// testdata/presets.golden. A restructuring must leave them byte-identical;
// a deliberate behaviour change rewrites the file (go test -rewrite) and
// the diff names the presets it moved. Test-only: nothing imports it.
package golden
