package metrics

// Document is the metrics JSON as the CLI's -metrics and the playground's
// metrics download write it: the report's fields, then, when given, a
// "provenance" object naming the configuration the run came from
// (scenario.Record; docs/cli.md "Provenance in exports"). A reader of
// schedplay.metrics/v1 sees one more top-level key and nothing else
// changed; the report alone (Provenance nil) has the bytes it always had.
type Document struct {
	Report
	Provenance any `json:"provenance,omitempty"`
}
