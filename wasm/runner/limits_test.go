package runner

import (
	"testing"

	"schedplay/core/ftraceimport"
	"schedplay/wasm/protocol"
)

// The page checks protocol's copy of the importer's CPU bound (it links
// no importer): both must say the same.
func TestTraceCPULimitIsTheImporters(t *testing.T) {
	if protocol.MaxTraceCPUs != ftraceimport.MaxCPUs {
		t.Fatalf("protocol.MaxTraceCPUs %d, ftraceimport.MaxCPUs %d", protocol.MaxTraceCPUs, ftraceimport.MaxCPUs)
	}
}
