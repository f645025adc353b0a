// Package codec is the compact event-record format that carries a run's
// timeline events from the simulation engine to the page: fixed 24-byte
// little-endian records, one byte slice per batch (codec.go has the
// layout). The worker (wasm/worker, through wasm/runner) encodes with
// [Recorder]; the page (wasm/view) decodes with [DecodeRecords].
//
// It is a leaf: it imports only core/sched, so both sides of the worker
// boundary share it without pulling in the other side.
//
// Non-goals: no JavaScript, no transport (wasm/protocol and the JS layers
// move the bytes), no events the timeline does not draw.
package codec
